/**
 * The pending sign-in between the redirect to the provider and its callback.
 *
 * `state` (256 random bits) is the key of a server-side record, stored under its
 * SHA-256 for ten minutes and consumed with GETDEL, so it works once. The record is
 * bound to the browser that started the sign-in: that browser holds a second random
 * value in an HttpOnly SameSite=Lax cookie, and the record holds its hash, compared
 * in constant time. A state that leaks or is planted on another browser (login CSRF)
 * finds no matching cookie there.
 */
import { badRequest } from "../errors";
import { randomToken, safeEqual, sha256 } from "../crypto";
import type { KeyValue } from "../kv";

/** Long enough to sign in at the provider, short enough that a forgotten tab expires. */
export const STATE_TTL_SECONDS = 600;
export const BINDING_COOKIE = "social_signin";

const PREFIX = "social:state:";
const RANDOM = /^[A-Za-z0-9_-]{43}$/;
const MAX_RETURN_TO = 2048;

export interface PendingSignIn {
	bindingHash: string;
	codeVerifier: string;
	nonce: string;
	returnTo?: string;
}

export interface StartedSignIn {
	state: string;
	/** The cookie value that binds the state to this browser. */
	binding: string;
	pending: PendingSignIn;
}

/**
 * A path on the UI: one leading slash, no scheme, no authority (`//host`, `/\host`),
 * no backslash or control character a browser might reinterpret.
 */
export function checkReturnTo(value: string): string {
	const refuse = () => badRequest("returnTo must be a path on the UI, such as /settings.", [{ field: "returnTo", message: "must be a relative path" }]);
	if (value.length === 0 || value.length > MAX_RETURN_TO || !value.startsWith("/")) throw refuse();
	if (value.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(value)) throw refuse();
	// The parse catches what the rules above might miss: the path must stay on the same origin.
	const base = "https://ui.invalid";
	if (new URL(value, base).origin !== base) throw refuse();
	return value;
}

export class SignInStates {
	constructor(private readonly kv: KeyValue) {}

	async create(returnTo?: string): Promise<StartedSignIn> {
		const state = randomToken(32);
		const binding = randomToken(32);
		const pending: PendingSignIn = {
			bindingHash: sha256(binding),
			codeVerifier: randomToken(32),
			nonce: randomToken(32),
			...(returnTo ? { returnTo } : {})
		};
		if (!(await this.kv.setNX(PREFIX + sha256(state), JSON.stringify(pending), STATE_TTL_SECONDS))) {
			throw new Error("A fresh sign-in state collided with a live one");
		}
		return { state, binding, pending };
	}

	/**
	 * The pending sign-in, or null when the state is unknown, expired, already used or
	 * not this browser's. The record is consumed in every case, so a state never works twice.
	 */
	async consume(state: unknown, binding: unknown): Promise<PendingSignIn | null> {
		if (typeof state !== "string" || !RANDOM.test(state)) return null;
		const raw = await this.kv.getDel(PREFIX + sha256(state));
		if (!raw || typeof binding !== "string" || !RANDOM.test(binding)) return null;
		const pending = JSON.parse(raw) as PendingSignIn;
		return safeEqual(sha256(binding), pending.bindingHash) ? pending : null;
	}
}

/**
 * The binding cookie, sent back only to the callback: its path is the redirect URI's,
 * and Secure when that is HTTPS. SameSite=Lax, because the callback is a top-level
 * navigation from the provider's site, which Strict would strip the cookie from.
 */
export function bindingCookie(redirectUri: string, value: string, maxAge = STATE_TTL_SECONDS): string {
	const u = new URL(redirectUri);
	const secure = u.protocol === "https:" ? "; Secure" : "";
	return `${BINDING_COOKIE}=${value}; Path=${u.pathname}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

export function clearedBindingCookie(redirectUri: string): string {
	return bindingCookie(redirectUri, "", 0);
}

/** The value of one cookie from a Cookie request header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
	if (!header) return undefined;
	for (const pair of header.split(";")) {
		const eq = pair.indexOf("=");
		if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
	}
	return undefined;
}
