/**
 * Verifies Bearer tokens: signature from the configured provider's keys only (jku,
 * x5u and embedded jwk headers are never consulted), pinned algorithms, iss, exp,
 * and token_use with client_id (access) or aud (service ID token). Accepted:
 * - a user's access token from the actor pool (no custom:service_id);
 * - a service's ID token from the service pool carrying custom:service_id.
 * Verified tokens are cached until they expire, so a request costs one map lookup.
 */
import { decodeJwt, jwtVerify, type JWTPayload } from "jose";
import { UpstreamError, unauthorized } from "../errors";
import type { TokenTrust } from "../idp/types";
import { KeysUnavailableError } from "./public-keys";
import type { Principal } from "./rules";

const MAX_TOKEN_LENGTH = 8192;

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
}

export class TokenVerifier {
	private readonly cache = new Map<string, Principal>();
	private readonly cacheSize: number;
	private readonly now: () => number;

	constructor(private readonly opts: VerifierOptions) {
		this.cacheSize = opts.cacheSize ?? 10000;
		this.now = opts.now ?? Date.now;
	}

	async verify(token: string): Promise<Principal> {
		const nowSec = this.now() / 1000;
		const hit = this.cache.get(token);
		if (hit) {
			if (hit.exp > nowSec) return hit;
			this.cache.delete(token);
		}
		const principal = await this.verifyUncached(token);
		if (this.cache.size >= this.cacheSize) {
			const oldest = this.cache.keys().next().value;
			if (oldest !== undefined) this.cache.delete(oldest);
		}
		this.cache.set(token, principal);
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
		if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
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
				exp: p.exp!
			};
		}
		throw unauthorized("The token is invalid or expired.");
	}
}
