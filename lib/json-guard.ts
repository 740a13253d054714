/**
 * Checks on JSON bodies that the parser and the parameter validators do not make.
 * RFC 8259 JSON is UTF-8: a decoder would quietly turn invalid bytes into U+FFFD and
 * store a name the client never sent. Nesting is bounded before parsing, so no
 * recursive code further on (canonical hashing, BSON, logging) meets a body that
 * overflows its stack. And keys that reach an object's prototype are refused.
 */
import { isUtf8 } from "node:buffer";
import { badRequest, ClientError } from "./errors";

/** Deep enough for any flag, variables or metadata; MongoDB refuses documents past 100. */
export const MAX_JSON_DEPTH = 32;

/** Merged into params with Object.assign, "__proto__" would replace the params' prototype and hand the action fields the validator never saw; "constructor" shadows Object's for any lookup without hasOwn. */
const UNSAFE_KEYS = new Set(["__proto__", "constructor"]);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/** True when arrays and objects nest deeper than `max`; brackets inside strings do not count. Invalid JSON is left to the parser. */
export function nestsDeeperThan(text: Uint8Array, max: number): boolean {
	let depth = 0;
	let inString = false;
	let escaped = false;
	for (const c of text) {
		if (inString) {
			if (escaped) escaped = false;
			else if (c === BACKSLASH) escaped = true;
			else if (c === QUOTE) inString = false;
		} else if (c === QUOTE) inString = true;
		else if (OPENERS.has(c)) {
			if (++depth > max) return true;
		} else if (CLOSERS.has(c)) depth--;
	}
	return false;
}

/** For body-parser's `verify`: runs on the raw bytes before they are decoded and parsed. */
export function checkJsonText(raw: Buffer): void {
	if (!isUtf8(raw)) throw new ClientError(400, "MALFORMED_JSON", "The request body is not valid UTF-8.");
	if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) {
		throw badRequest(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
	}
}

/** The first key anywhere in a parsed body that reaches a prototype, if any. */
export function unsafeKey(value: unknown): string | undefined {
	const pending: unknown[] = [value];
	while (pending.length > 0) {
		const v = pending.pop();
		if (v === null || typeof v !== "object") continue;
		if (Array.isArray(v)) {
			for (const item of v) pending.push(item);
			continue;
		}
		for (const key of Object.keys(v)) {
			if (UNSAFE_KEYS.has(key)) return key;
			pending.push((v as Record<string, unknown>)[key]);
		}
	}
	return undefined;
}
