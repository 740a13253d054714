/**
 * The kinds of value a variable holds, each a zod schema over the variable's text
 * paired with the words the reference uses for it (`format`). A problem is the part
 * of the message after the variable's name ("must be between 0 and 65535"); a kind
 * that may hold a secret never repeats the value in it.
 */
import { createECDH } from "node:crypto";
import { z } from "zod";

export interface Field<T> {
	/** Parses the trimmed text; unset reaches it as undefined only when the variable has no default. */
	readonly schema: z.ZodType<T>;
	/** Allowed values or format, in Markdown, as the reference's table shows them. */
	readonly format: string;
}

/** Reports a problem from inside a hand-written parse; the return value is never used. */
type Fail = (problem: string) => never;

/** A value checked by hand where zod has no check of its own; `fail` may be called more than once. */
export function parsed<T>(format: string, parse: (text: string, fail: Fail) => T): Field<T> {
	return {
		format,
		schema: z.string().transform((text, ctx) =>
			parse(text, problem => {
				ctx.addIssue({ code: "custom", message: problem, input: text });
				return z.NEVER;
			})
		)
	};
}

/** `a`, `b` or `c`, in code spans. */
function alternatives(values: readonly string[]): string {
	const quoted = values.map(v => `\`${v}\``);
	return quoted.length > 1 ? `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}` : quoted.join("");
}

export function optional<T>(field: Field<T>): Field<T | undefined> {
	return { format: field.format, schema: field.schema.optional() };
}

export function wholeNumber(min: number, max: number): Field<number> {
	const range = `must be between ${min} and ${max}`;
	return {
		format: `a whole number from ${min} to ${max}`,
		schema: z
			.string()
			.regex(/^\d+$/, { error: issue => `must be a whole number (got "${String(issue.input)}")` })
			.transform(Number)
			.pipe(z.number().min(min, { error: range }).max(max, { error: range }))
	};
}


/** One of a fixed set; the error names every allowed value. */
export function choice<const V extends string>(values: readonly V[]): Field<V> {
	return {
		format: `one of ${alternatives(values)}`,
		schema: z.enum(values as [V, ...V[]], { error: issue => `must be one of ${values.join(", ")} (got "${String(issue.input)}")` })
	};
}

export function flag(): Field<boolean> {
	return {
		format: "`true` or `false`",
		schema: z.enum(["true", "false"], { error: "must be true or false" }).transform(v => v === "true")
	};
}

/** A URL of one of these schemes, kept as written (its password, if any, is never echoed). */
export function url(protocols: readonly string[]): Field<string> {
	return {
		format: `a URL (${alternatives(protocols)})`,
		schema: z
			.string()
			.refine(v => URL.canParse(v), { error: "must be a URL", abort: true })
			.refine(v => protocols.includes(new URL(v).protocol), { error: `must use ${protocols.join(" or ")}` })
	};
}

/** Free text matching a pattern; `problem` says what it must be. */
export function text(format: string, pattern?: RegExp, problem = "is not valid"): Field<string> {
	return { format, schema: pattern ? z.string().regex(pattern, { error: problem }) : z.string() };
}

/** A field whose unset value is made by `empty` (an empty list, no parameters), never undefined. */
export function orEmpty<T>(field: Field<T>, empty: () => T): Field<T> {
	return { format: field.format, schema: field.schema.optional().transform(v => v ?? empty()) };
}

/** A comma-separated list, each entry parsed; blanks between commas are ignored, and unset is the empty list. */
export function commaList<T>(format: string, parseEntry: (entry: string, fail: Fail) => T): Field<T[]> {
	const entries = parsed(format, (value, fail) =>
		value
			.split(",")
			.map(v => v.trim())
			.filter(Boolean)
			.map(entry => parseEntry(entry, fail))
	);
	return orEmpty(entries, () => []);
}

/** An AES-256 key: base64 of 32 bytes. */
export function aesKey(value: string, fail: Fail): Buffer {
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return fail("must be base64");
	const key = Buffer.from(value, "base64");
	if (key.length !== 32) return fail(`must decode to 32 bytes (got ${key.length})`);
	return key;
}

export const AES_KEY_FORMAT = "base64 of 32 random bytes (`openssl rand -base64 32`)";

/** The bytes of a base64url text, when it is that and decodes to `bytes` bytes. */
function base64url(value: string, bytes: number): Buffer | undefined {
	const raw = /^[A-Za-z0-9_-]+$/.test(value) ? Buffer.from(value, "base64url") : undefined;
	return raw?.length === bytes ? raw : undefined;
}

/** A VAPID public key as Web Push carries it: an uncompressed P-256 point in base64url. */
export const vapidPublicKey = parsed("base64url of an uncompressed P-256 point (65 bytes)", (value, fail) =>
	base64url(value, 65) ? value : fail("must be an uncompressed P-256 point: 65 bytes in base64url")
);

export const vapidPrivateKey = parsed("base64url of a P-256 private key (32 bytes)", (value, fail) => {
	const key = base64url(value, 32);
	if (!key) return fail("must be a P-256 private key: 32 bytes in base64url");
	try {
		createECDH("prime256v1").setPrivateKey(key);
	} catch {
		return fail("is not a valid P-256 private key");
	}
	return value;
});

/** Whether a (valid) VAPID public key is the one of this (valid) private key, compared as bytes. */
export function vapidKeysMatch(publicKey: string, privateKey: string): boolean {
	const ecdh = createECDH("prime256v1");
	ecdh.setPrivateKey(Buffer.from(privateKey, "base64url"));
	return ecdh.getPublicKey().equals(Buffer.from(publicKey, "base64url"));
}

/** A path on the UI's site: one leading slash (two would name another site), here without query or fragment. */
export function uiPath(): Field<string> {
	return text("a path starting with one `/`, without `?` or `#`", /^\/(?!\/)[^#?]*$/, "must be a path starting with a single / and without ? or #");
}
