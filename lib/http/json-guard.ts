/**
 * Checks on JSON bodies that the parser and the parameter validators do not make.
 * RFC 8259 JSON is UTF-8: a decoder would quietly turn invalid bytes into U+FFFD and
 * store a name the client never sent. Nesting is bounded before parsing, so no
 * recursive code further on (canonical hashing, BSON, logging) meets a body that
 * overflows its stack. And keys that reach an object's prototype are refused.
 */
import { isUtf8 } from "node:buffer";
import { badRequest, ClientError } from "../errors";

/** Deep enough for any flag, variables or metadata; MongoDB refuses documents past 100. */
export const MAX_JSON_DEPTH = 32;

/** Merged into params with Object.assign, "__proto__" would replace the params' prototype and hand the action fields the validator never saw; "constructor" shadows Object's for any lookup without hasOwn. */
const UNSAFE_KEYS = new Set(["__proto__", "constructor"]);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * True when arrays and objects nest deeper than `max`; brackets inside strings do not
 * count. Invalid JSON is left to the parser. It runs on every JSON body, byte by byte:
 * an indexed loop with plain comparisons (no iterator, no set lookups per byte).
 */
export function nestsDeeperThan(text: Uint8Array, max: number): boolean {
	let depth = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (inString) {
			if (c === BACKSLASH) i++;
			else if (c === QUOTE) inString = false;
		} else if (c === QUOTE) inString = true;
		else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
			if (++depth > max) return true;
		} else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
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
