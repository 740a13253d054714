/**
 * Temporary tokens: what the social callback hands the UI instead of JWTs. 32 bytes
 * from the CSPRNG, base64url; kept only as the SHA-256 key of an AuthIdentity record
 * (SET EX NX in Redis, or in-process), and consumed with GETDEL, so of any number of
 * concurrent exchanges exactly one gets the identity.
 */
import { randomToken, sha256 } from "../crypto";
import { ClientError } from "../errors";
import type { KeyValue } from "../kv";

const PREFIX = "social:temp:";
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Who signed in, with which provider, and when; the exchange issues tokens for `sub`. */
export interface AuthIdentity {
	/** The identity provider's user: sub (also the actor id) and internal username. */
	sub: string;
	username: string;
	provider: string;
	providerSubject: string;
	/** ISO-8601 time of the callback that authenticated the user. */
	authenticatedAt: string;
}

export const invalidTemporaryToken = () =>
	new ClientError(401, "INVALID_TEMPORARY_TOKEN", "The temporary token is unknown, expired or already used.");

export class TemporaryTokens {
	constructor(private readonly kv: KeyValue, private readonly ttlSeconds: number) {}

	async issue(identity: AuthIdentity): Promise<string> {
		const token = randomToken(32);
		if (!(await this.kv.setNX(temporaryTokenKey(token), JSON.stringify(identity), this.ttlSeconds))) {
			throw new Error("A fresh temporary token collided with a live one");
		}
		return token;
	}

	/**
	 * Puts a consumed token back for the rest of its lifetime: for an exchange that
	 * could not finish because a dependency failed, so the token is spent only by a
	 * successful one. NX: if another copy exists, it stays as it is.
	 */
	async restore(token: string, identity: AuthIdentity, now = Date.now()): Promise<void> {
		const left = Math.ceil(this.ttlSeconds - (now - Date.parse(identity.authenticatedAt)) / 1000);
		if (left > 0) await this.kv.setNX(temporaryTokenKey(token), JSON.stringify(identity), left);
	}

	/** INVALID_TEMPORARY_TOKEN when the token is unknown, expired or already used. */
	async consume(token: string): Promise<AuthIdentity> {
		if (!TOKEN.test(token)) throw invalidTemporaryToken();
		const raw = await this.kv.getDel(temporaryTokenKey(token));
		if (!raw) throw invalidTemporaryToken();
		return JSON.parse(raw) as AuthIdentity;
	}
}

/** The key a token's record lives under (tests watch it expire without consuming the token). */
export function temporaryTokenKey(token: string): string {
	return PREFIX + sha256(token);
}
