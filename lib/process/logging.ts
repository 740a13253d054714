/**
 * How log lines reach pino. Moleculer's loggers are called console-style,
 * `logger.warn("message", { fields })`, while pino takes the fields first and
 * drops every argument after the message: without this hook each structured field
 * the code logs (request ids, the error behind a 500) would vanish. The fields are
 * merged into the line's object, where the redaction in moleculer.config.ts applies,
 * and an Error goes under `err`. Other extra arguments (strings, numbers, arrays)
 * stay dropped, as before: they are free text that redaction cannot see into, and
 * libraries pass request contents that way.
 */

type LogMethod = (...args: unknown[]) => void;

function isPlainObject(v: unknown): v is Record<string, unknown> {
	if (v === null || typeof v !== "object") return false;
	const proto = Object.getPrototypeOf(v);
	return proto === Object.prototype || proto === null;
}

export function mergeLogArguments(this: unknown, args: unknown[], method: LogMethod): void {
	if (typeof args[0] !== "string" || args.length < 2) {
		method.apply(this, args);
		return;
	}
	const fields: Record<string, unknown> = {};
	for (const arg of args.slice(1)) {
		if (arg instanceof Error) fields.err = arg;
		else if (isPlainObject(arg)) Object.assign(fields, arg);
	}
	method.call(this, fields, args[0]);
}

export interface ErrorFields {
	type: string;
	message: string;
	stack?: string;
	code?: string | number;
	errType?: string;
	cause?: ErrorFields;
}

const MAX_CAUSES = 3;

function fieldsOf(e: Error & { code?: unknown; type?: unknown }, depth: number): ErrorFields {
	const out: ErrorFields = { type: e.name, message: e.message, stack: e.stack };
	if (typeof e.code === "string" || typeof e.code === "number") out.code = e.code;
	if (typeof e.type === "string") out.errType = e.type;
	if (e.cause instanceof Error && depth < MAX_CAUSES) out.cause = fieldsOf(e.cause, depth + 1);
	return out;
}

/**
 * An error as a log line shows it: what it is and where it came from, never its
 * other properties. Moleculer's validation errors carry the rejected values in
 * `data` (a password of the wrong type, say) and body-parser's carry the raw body.
 * Anything that is not an Error is left as it is.
 */
export function errorFields(value: unknown): unknown {
	return value instanceof Error ? fieldsOf(value, 0) : value;
}
