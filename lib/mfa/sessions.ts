/**
 * Cognito signs the pool's tokens, and the platform cannot add claims to them: the
 * `amr` and `auth_time` of a session the platform opened (after a password, and a
 * second factor when the user has one) are kept here instead. A session record is
 * found from its refresh token (the wrapped token, which Cognito never rotates) and
 * each access token issued for it is linked by its `jti`, so a step-up route finds the
 * session's real auth_time from the access token it was given. The embedded provider
 * needs none of this: its tokens carry the claims.
 *
 * Ending one session (lib/idp/cognito.ts revokeSessionById, a sign-out) marks its record
 * ended, so the platform's refresh route refuses its refresh token at once; its access
 * tokens, which carry no `sid`, are denied by the session's origin_jti and the jtis of
 * the access tokens linked to it (denyKeys). With IDP_KEY_ENCRYPTION_KEY set, the
 * refresh token is also kept sealed (AES-256-GCM, bound to the record), so the pool's
 * own token can be revoked at Cognito (RevokeToken) by the session's id; without the
 * key it is never stored, only its hash.
 */
import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { sha256 } from "../crypto";
import { SecretBox } from "../crypto/secretbox";
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
	/** The refresh token as handed out (wrapped), sealed with `auth_sessions:<id>` as associated data; only with a key-encryption key. */
	sealedRefresh?: string;
	/** The origin_jti of the session's access tokens, where the pool puts one in them. */
	originJti?: string;
	createdAt: string;
	expiresAt: string;
	/** When the session was ended (absent or null while open): its refresh token is refused from then on. */
	endedAt?: string | null;
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

function accessClaims(accessToken: string): { jti: string; exp: number; originJti?: string } | null {
	try {
		const { jti, exp, origin_jti } = decodeJwt(accessToken);
		if (typeof jti !== "string" || typeof exp !== "number") return null;
		return { jti, exp, ...(typeof origin_jti === "string" ? { originJti: origin_jti } : {}) };
	} catch {
		return null;
	}
}

const sealedFor = (id: string) => `auth_sessions:${id}`;

export class AuthSessions {
	private readonly sessions: Collection<AuthSessionRecord>;
	private readonly links: Collection<AuthSessionTokenRecord>;
	private readonly box: SecretBox | null;

	/** `keyEncryptionKey` (IDP_KEY_ENCRYPTION_KEY): with it, a session's refresh token is kept sealed for its revocation at Cognito. */
	constructor(store: Store, private readonly now: () => number = Date.now, keyEncryptionKey?: Buffer) {
		this.sessions = store.collection<AuthSessionRecord>("auth_sessions");
		this.links = store.collection<AuthSessionTokenRecord>("auth_session_tokens");
		this.box = keyEncryptionKey ? new SecretBox(keyEncryptionKey) : null;
	}

	private async link(sessionId: string, accessToken: string): Promise<void> {
		const t = accessClaims(accessToken);
		if (!t) return;
		await this.links.insert({ id: t.jti, sessionId, expiresAt: new Date(t.exp * 1000).toISOString() });
	}

	/** A sign-in finished: the session's record, and its first access token linked to it. */
	async open(userSub: string, tokens: TokenSet, auth: AuthContext): Promise<string> {
		const id = randomUUID();
		const now = this.now();
		const originJti = accessClaims(tokens.accessToken)?.originJti;
		await this.sessions.insert({
			id,
			userSub,
			authTime: auth.authTime,
			amr: auth.amr,
			refreshHash: sha256(tokens.refreshToken),
			...(this.box ? { sealedRefresh: this.box.seal(tokens.refreshToken, sealedFor(id)) } : {}),
			...(originJti ? { originJti } : {}),
			createdAt: new Date(now).toISOString(),
			expiresAt: new Date(now + SESSION_TTL_MS).toISOString(),
			endedAt: null
		});
		await this.link(id, tokens.accessToken);
		return id;
	}

	/** The session a refresh token (as handed out) belongs to, ended or not; null for one the platform did not record. */
	byRefresh(refreshToken: string): Promise<AuthSessionRecord | null> {
		return this.sessions.findOne({ refreshHash: sha256(refreshToken) });
	}

	/**
	 * A refresh: the new access token joins the session of the refresh token presented.
	 * False when that session has ended meanwhile (the caller refuses the refresh): it is
	 * asked after the link is written, so a session ended at the same moment either sees
	 * the new token among its links (denyKeys) or this answers false.
	 */
	async refreshed(refreshToken: string, tokens: TokenSet, known?: AuthSessionRecord | null): Promise<boolean> {
		const session = known !== undefined ? known : await this.byRefresh(refreshToken);
		if (!session) return true;
		if (session.endedAt) return false;
		await this.link(session.id, tokens.accessToken);
		return !(await this.sessions.get(session.id))?.endedAt;
	}

	/** Marks the user's session ended; the record as it was (null when there is none of theirs, or it had ended). */
	async end(userSub: string, id: string): Promise<AuthSessionRecord | null> {
		// endedAt: null matches a record written before the field was (missing) as well.
		const rec = await this.sessions.findOne({ id, userSub, endedAt: null });
		if (!rec) return null;
		const changed = await this.sessions.updateMany({ id, userSub, endedAt: null }, { $set: { endedAt: new Date(this.now()).toISOString() } });
		return changed > 0 ? rec : null;
	}

	/** Marks every open session of the user ended (sign-out everywhere); their ids. */
	async endAll(userSub: string): Promise<string[]> {
		const open = await this.sessions.find({ userSub, endedAt: null });
		if (open.length > 0) await this.sessions.updateMany({ userSub, endedAt: null }, { $set: { endedAt: new Date(this.now()).toISOString() } });
		return open.map(s => s.id);
	}

	/** Marks the session of this refresh token ended (a sign-out); the record as it was, or null. */
	async endByRefresh(refreshToken: string): Promise<AuthSessionRecord | null> {
		const rec = await this.byRefresh(refreshToken);
		return rec ? this.end(rec.userSub, rec.id) : null;
	}

	/** The record with this id, whoever's it is. */
	get(id: string): Promise<AuthSessionRecord | null> {
		return this.sessions.get(id);
	}

	/** The refresh token of the session, opened from its seal; undefined when none was kept or it does not open (another key). */
	refreshTokenOf(rec: AuthSessionRecord): string | undefined {
		if (!rec.sealedRefresh || !this.box) return undefined;
		try {
			return this.box.open(rec.sealedRefresh, sealedFor(rec.id));
		} catch {
			return undefined;
		}
	}

	/** What the deny list must hold so these sessions' access tokens are refused: their origin_jti and every linked access token's jti still unexpired. */
	async denyKeys(ids: readonly string[]): Promise<string[]> {
		if (ids.length === 0) return [];
		const now = new Date(this.now()).toISOString();
		const [sessions, links] = await Promise.all([
			this.sessions.find({ id: { $in: [...ids] } }),
			this.links.find({ sessionId: { $in: [...ids] }, expiresAt: { $gt: now } })
		]);
		const keys = new Set<string>();
		for (const s of sessions) if (s.originJti) keys.add(s.originJti);
		for (const l of links) keys.add(l.id);
		return [...keys];
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
