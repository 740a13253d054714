/**
 * The sessions routes' logic (services/auth/sessions.ts): a user's own sessions, ending
 * one, an administrator ending all of an account's, and the signed-in user's account.
 * Ending goes through lib/accounts/end-sessions.ts, so the refresh tokens stop at once
 * and the `sid` joins every node's deny list (lib/sessions/deny-list.ts).
 */
import { endEverySession, endSessionById } from "../accounts/end-sessions";
import type { AuditLog, RequestOrigin } from "../audit";
import { notFound } from "../errors";
import { decodeJwt } from "jose";
import type { IdentityProvider, TokenSet } from "../idp/types";
import { AuthSessions } from "../mfa/sessions";
import type { FactorView } from "../mfa";
import type { Store } from "../store";
import type { SessionRecords, SessionView } from "./records";

export { SessionDenyList, SESSIONS_DENIED_EVENT, type Denial } from "./deny-list";
export { SessionRecords, tokenSession, type SessionRecord, type SessionView } from "./records";

export interface SessionDeps {
	store: () => Store;
	idp: () => Promise<IdentityProvider>;
	records: () => SessionRecords;
	audit: AuditLog;
}

export interface Me {
	actorId: string;
	email: string;
	emailVerified: boolean;
	phone?: string;
	phoneVerified: boolean;
	emailDeliverable: boolean;
	factors: FactorView[];
	createdAt: string;
}

interface ActorDoc {
	id: string;
	email: string;
	createdAt: string;
	phone?: string;
	phoneVerified?: boolean;
	emailDeliverable?: boolean;
}

/** The same 404 for another user's session, an ended one and one that never was: nothing tells them apart. */
const noSuchSession = () => notFound("NOT_FOUND", "You have no open session with this id.");

export class Sessions {
	constructor(private readonly deps: SessionDeps) {}

	/** The user's open sessions; `current` marks the caller's own. */
	async list(sub: string, currentSid?: string): Promise<SessionView[]> {
		const idp = await this.deps.idp();
		const live = idp.liveSessionIds ? await idp.liveSessionIds(sub) : undefined;
		return this.deps.records().list(sub, currentSid, live);
	}

	/** Ends one of the user's own sessions; 404 for any id that is not an open session of theirs. */
	async revoke(sub: string, sid: string, origin: RequestOrigin, by?: string): Promise<void> {
		// Only an open session of the caller's own is theirs to end (with the embedded provider, its family must be live too).
		if (!(await this.deps.records().find(sub, sid))) throw noSuchSession();
		if (!(await endSessionById(await this.deps.idp(), sub, sid, true))) throw noSuchSession();
		await this.deps.audit.record("auth.session_revoked", sub, origin, { revokedSessionId: sid, ...(by ? { by } : {}) });
	}

	/**
	 * Ends every open session of the user but `currentSid` (the caller's own): each as if
	 * ended by its id, so its refresh token stops at once and its access tokens within a
	 * second; with Cognito no global sign-out, which would end the caller's too. Answers
	 * how many ended.
	 */
	async revokeOthers(sub: string, currentSid: string | undefined, origin: RequestOrigin): Promise<number> {
		const idp = await this.deps.idp();
		const others = (await this.list(sub, currentSid)).filter(s => !s.current).map(s => s.sessionId);
		let ended = 0;
		for (const sid of others) if (await endSessionById(idp, sub, sid, true)) ended++;
		if (ended > 0) await this.deps.audit.record("auth.session_revoked", sub, origin, { scope: "others", count: String(ended) });
		return ended;
	}

	/** An administrator ends every session of the account. */
	async revokeAll(user: { sub: string; username: string }, origin: RequestOrigin, by: string): Promise<void> {
		await endEverySession(await this.deps.idp(), user);
		await this.deps.audit.record("auth.session_revoked", user.sub, origin, { scope: "all", by });
	}

	/** The signed-in user's account (GET /auth/me). */
	async me(sub: string, username: string, factors: FactorView[]): Promise<Me> {
		const idp = await this.deps.idp();
		const [profile, actor] = await Promise.all([idp.getProfile(username), this.deps.store().collection<ActorDoc>("actors").get(sub)]);
		if (!profile || profile.sub !== sub) throw notFound("ACTOR_NOT_FOUND", "The account no longer exists.");
		return {
			actorId: sub,
			email: profile.email,
			emailVerified: profile.emailVerified,
			...(typeof actor?.phone === "string" && actor.phone ? { phone: actor.phone } : {}),
			phoneVerified: actor?.phoneVerified === true,
			emailDeliverable: actor?.emailDeliverable !== false,
			factors,
			createdAt: actor?.createdAt ?? new Date(0).toISOString()
		};
	}
}

/** With Cognito, whose tokens carry no `sid`: the session lib/mfa/sessions.ts opened for this access token (by its jti). */
export async function cognitoSid(store: Store, tokens: Pick<TokenSet, "accessToken">): Promise<string | undefined> {
	let jti: unknown;
	try {
		jti = decodeJwt(tokens.accessToken).jti;
	} catch {
		return undefined;
	}
	return typeof jti === "string" ? cognitoSessionOf(store, jti) : undefined;
}

/** The session an access token's jti is linked to (Cognito). */
export async function cognitoSessionOf(store: Store, jti: string): Promise<string | undefined> {
	return (await new AuthSessions(store).of(jti))?.id ?? undefined;
}
