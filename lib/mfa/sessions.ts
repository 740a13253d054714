/**
 * Cognito signs the pool's tokens, and the platform cannot add claims to them: the
 * `amr` and `auth_time` of a session the platform opened (after a password, and a
 * second factor when the user has one) are kept here instead. A session record is
 * found from its refresh token (the wrapped token, which Cognito never rotates) and
 * each access token issued for it is linked by its `jti`, so a step-up route finds the
 * session's real auth_time from the access token it was given. The embedded provider
 * needs none of this: its tokens carry the claims.
 */
import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { sha256 } from "../crypto";
import type { AuthContext, TokenSet } from "../idp/types";
import type { Collection, Store } from "../store";

export interface AuthSessionRecord {
	/** The session id (sid). */
	id: string;
	userSub: string;
	authTime: number;
	amr: string[];
	/** SHA-256 of the session's refresh token as the platform handed it out. */
	refreshHash: string;
	createdAt: string;
	expiresAt: string;
}

export interface AuthSessionTokenRecord {
	/** The access token's jti. */
	id: string;
	sessionId: string;
	/** The access token's exp: the link is useless afterwards. */
	expiresAt: string;
}

/** Longer than Cognito's default refresh-token lifetime (30 days). */
const SESSION_TTL_MS = 31 * 86400 * 1000;

function jtiAndExp(accessToken: string): { jti: string; exp: number } | null {
	try {
		const { jti, exp } = decodeJwt(accessToken);
		return typeof jti === "string" && typeof exp === "number" ? { jti, exp } : null;
	} catch {
		return null;
	}
}

export class AuthSessions {
	private readonly sessions: Collection<AuthSessionRecord>;
	private readonly links: Collection<AuthSessionTokenRecord>;

	constructor(store: Store, private readonly now: () => number = Date.now) {
		this.sessions = store.collection<AuthSessionRecord>("auth_sessions");
		this.links = store.collection<AuthSessionTokenRecord>("auth_session_tokens");
	}

	private async link(sessionId: string, accessToken: string): Promise<void> {
		const t = jtiAndExp(accessToken);
		if (!t) return;
		await this.links.insert({ id: t.jti, sessionId, expiresAt: new Date(t.exp * 1000).toISOString() });
	}

	/** A sign-in finished: the session's record, and its first access token linked to it. */
	async open(userSub: string, tokens: TokenSet, auth: AuthContext): Promise<string> {
		const id = randomUUID();
		const now = this.now();
		await this.sessions.insert({
			id,
			userSub,
			authTime: auth.authTime,
			amr: auth.amr,
			refreshHash: sha256(tokens.refreshToken),
			createdAt: new Date(now).toISOString(),
			expiresAt: new Date(now + SESSION_TTL_MS).toISOString()
		});
		await this.link(id, tokens.accessToken);
		return id;
	}

	/** A refresh: the new access token belongs to the session of the refresh token presented. */
	async refreshed(refreshToken: string, tokens: TokenSet): Promise<void> {
		const session = await this.sessions.findOne({ refreshHash: sha256(refreshToken) });
		if (session) await this.link(session.id, tokens.accessToken);
	}

	/** The session of an access token (by its jti), or null for a token the platform did not record. */
	async of(jti: string | undefined): Promise<AuthSessionRecord | null> {
		if (!jti) return null;
		const link = await this.links.get(jti);
		if (!link) return null;
		return this.sessions.get(link.sessionId);
	}

	/** Links and sessions past their time go. */
	async sweep(): Promise<void> {
		const now = new Date(this.now()).toISOString();
		await this.links.deleteMany({ expiresAt: { $lt: now } });
		await this.sessions.deleteMany({ expiresAt: { $lt: now } });
	}
}
