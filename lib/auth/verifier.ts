/**
 * Verifies Bearer tokens: signature from the configured provider's keys only (jku,
 * x5u and embedded jwk headers are never consulted), pinned algorithms, iss, exp,
 * and token_use with client_id (access) or aud (service ID token). Accepted:
 * - a user's access token from the actor pool (no custom:service_id);
 * - a service's ID token from the service pool carrying custom:service_id.
 * Verified tokens are cached until they expire, so a request costs one map lookup:
 * keyed by the signature segment (short to hash, where the whole token is ~700
 * characters), with the whole token kept beside the principal and compared on every
 * hit, so a valid signature pasted onto another header or payload never matches.
 */
import { decodeJwt, jwtVerify, type JWTPayload } from "jose";
import { BoundedCache } from "../cache";
import { UpstreamError, unauthorized } from "../errors";
import type { TokenTrust } from "../idp/types";
import { KeysUnavailableError } from "../idp/public-keys";
import type { Principal } from "./rules";

const MAX_TOKEN_LENGTH = 8192;
/** A compact JWS: three base64url segments (the signature may be empty only to be refused). */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

interface Verified {
	token: string;
	principal: Principal;
}

/** The embedded keys' and jose's errors for a key set that could not be got, and fetch's network failure. */
function isKeyFetchFailure(err: unknown): boolean {
	if (err instanceof KeysUnavailableError) return true;
	const code = (err as { code?: unknown }).code;
	const e = err as { name?: unknown; message?: unknown };
	return code === "ERR_JWKS_TIMEOUT" || code === "ERR_JWKS_INVALID" || (e?.name === "TypeError" && typeof e.message === "string" && /fetch/i.test(e.message));
}
const CLOCK_TOLERANCE_SEC = 5;

export interface VerifierOptions {
	actors: TokenTrust;
	services: TokenTrust;
	cacheSize?: number;
	now?: () => number;
	/** Ended sessions (lib/sessions/deny-list.ts): a token whose sid is here is refused as an invalid one. */
	denied?: { has(sid: string): boolean };
}

/**
 * A verified token's cache key: its last 12 characters, which lie inside its signature
 * (no JWS algorithm signs with fewer than 32 bytes, 43 base64url characters), so keys
 * of different tokens differ as their signatures do (72 bits of them). A hit still
 * compares the whole token, so two tokens with one key only ever cost a verification.
 * Why 12: V8 makes a string of 13 or more characters taken from another a view into
 * it, and hashing through a view cost 268 ns against 76 ns for a 12-character copy
 * (measured on Node 24; the whole 700-character token: over 1 µs). The key is hashed
 * twice per request, by the gateway and by the service it calls.
 */
const CACHE_KEY_CHARS = 12;

function cacheKey(token: string): string {
	return token.slice(-CACHE_KEY_CHARS);
}

export class TokenVerifier {
	/** Verified tokens by the end of their signature, each until its exp (no clock tolerance for a cached one). */
	private readonly cache: BoundedCache<string, Verified>;
	private readonly now: () => number;

	constructor(private readonly opts: VerifierOptions) {
		this.now = opts.now ?? Date.now;
		this.cache = new BoundedCache(opts.cacheSize ?? 10000, this.now);
	}

	/** The principal of this very token when it was verified before and has not expired; the hot path needs no promise. */
	cached(token: string): Principal | undefined {
		const hit = this.cache.get(cacheKey(token));
		if (hit === undefined || hit.token !== token) return undefined;
		return this.ended(hit.principal) ? undefined : hit.principal;
	}

	/**
	 * Whether the token's session has ended (the deny list): one Map lookup, none while the
	 * list is empty. A token with a `sid` is checked by it; a Cognito access token, which
	 * has none, by its origin_jti (one per sign-in, kept across refreshes) and its own jti
	 * (the platform denies each access token it linked to the session, for pools and
	 * emulators whose tokens carry no origin_jti).
	 */
	private ended(principal: Principal): boolean {
		const denied = this.opts.denied;
		if (denied === undefined || principal.kind !== "user") return false;
		if (principal.sid !== undefined) return denied.has(principal.sid);
		return (principal.originJti !== undefined && denied.has(principal.originJti)) || (principal.jti !== undefined && denied.has(principal.jti));
	}

	async verify(token: string): Promise<Principal> {
		if (typeof token !== "string") throw unauthorized("The token is invalid or expired.");
		const hit = this.cache.get(cacheKey(token));
		if (hit !== undefined && hit.token === token) {
			if (this.ended(hit.principal)) throw unauthorized("The token is invalid or expired.");
			return hit.principal;
		}
		const principal = await this.verifyUncached(token);
		if (this.ended(principal)) throw unauthorized("The token is invalid or expired.");
		this.cache.set(cacheKey(token), { token, principal }, principal.exp * 1000);
		return principal;
	}

	private async check(token: string, trust: TokenTrust, audience?: string): Promise<JWTPayload> {
		try {
			const { payload } = await jwtVerify(token, trust.keys, {
				issuer: trust.issuer,
				algorithms: trust.algorithms,
				audience,
				clockTolerance: CLOCK_TOLERANCE_SEC,
				requiredClaims: ["exp", "sub", "token_use"],
				currentDate: new Date(this.now())
			});
			return payload;
		} catch (err) {
			// The provider's keys could not be fetched (Cognito unreachable): the token may be
			// fine, so this is 503 for the client to retry, not a 401 that logs users out.
			if (isKeyFetchFailure(err)) throw new UpstreamError("The identity provider's keys could not be fetched.", 5);
			throw unauthorized("The token is invalid or expired.");
		}
	}

	private async verifyUncached(token: string): Promise<Principal> {
		if (token.length === 0 || token.length > MAX_TOKEN_LENGTH || !COMPACT_JWS.test(token)) {
			throw unauthorized("The token is invalid or expired.");
		}
		let claims: JWTPayload;
		try {
			claims = decodeJwt(token);
		} catch {
			throw unauthorized("The token is invalid or expired.");
		}
		const { actors, services } = this.opts;
		// The unverified claims only choose which trust anchor to check against.
		if (claims.iss === services.issuer && claims.token_use === "id" && "custom:service_id" in claims) {
			const p = await this.check(token, services, services.clientId);
			const serviceId = p["custom:service_id"];
			if (p.token_use !== "id" || typeof serviceId !== "string" || !serviceId) {
				throw unauthorized("The token is invalid or expired.");
			}
			return { kind: "service", sub: p.sub!, serviceId, exp: p.exp! };
		}
		if (claims.iss === actors.issuer) {
			const p = await this.check(token, actors);
			if (p.token_use !== "access" || p.client_id !== actors.clientId || "custom:service_id" in p) {
				throw unauthorized("An access token is required.");
			}
			const groups = Array.isArray(p["cognito:groups"]) ? (p["cognito:groups"] as unknown[]).filter(g => typeof g === "string") as string[] : [];
			return {
				kind: "user",
				sub: p.sub!,
				username: typeof p.username === "string" ? p.username : p.sub!,
				groups,
				isAdmin: groups.includes("admin"),
				exp: p.exp!,
				...(typeof p.auth_time === "number" ? { authTime: p.auth_time } : {}),
				...(Array.isArray(p.amr) ? { amr: (p.amr as unknown[]).filter(v => typeof v === "string") as string[] } : {}),
				...(typeof p.sid === "string" ? { sid: p.sid } : {}),
				...(typeof p.jti === "string" ? { jti: p.jti } : {}),
				...(typeof p.origin_jti === "string" ? { originJti: p.origin_jti } : {})
			};
		}
		throw unauthorized("The token is invalid or expired.");
	}
}
