/**
 * What the platform keeps about each session (a refresh-token family, the `sid` of
 * its tokens) beside the identity provider's own tokens: when and from where it was
 * opened, how (`amr`), when it was last refreshed, and whether it has ended. The list
 * a user sees comes from here; with the embedded provider it is also checked against
 * the families that still hold a live refresh token, so a session that ended any other
 * way (refresh-token reuse, expiry) is never shown.
 */
import { decodeJwt } from "jose";
import type { RequestOrigin } from "../audit";
import type { TokenSet } from "../idp/types";
import { DuplicateKeyError, type Store } from "../store";

export interface SessionRecord {
	/** The sid. */
	id: string;
	sub: string;
	createdAt: string;
	lastUsedAt: string;
	userAgent: string | null;
	ip: string | null;
	amr: string[];
	/** When the refresh-token family runs out: the record is useless afterwards. */
	expiresAt: string;
	endedAt: string | null;
}

export interface SessionView {
	sessionId: string;
	createdAt: string;
	lastUsedAt: string;
	userAgent: string | null;
	ip: string | null;
	amr: string[];
	current: boolean;
}

/** The user, session and amr a token set's access token names (sid: the embedded provider's, or the one lib/mfa/sessions.ts adds for Cognito). */
export function tokenSession(tokens: Pick<TokenSet, "accessToken">, sid?: string): { sub: string; sid: string; amr: string[] } | null {
	try {
		const c = decodeJwt(tokens.accessToken);
		const id = typeof c.sid === "string" ? c.sid : sid;
		if (typeof c.sub !== "string" || !id) return null;
		const amr = Array.isArray(c.amr) ? c.amr.filter((v): v is string => typeof v === "string") : [];
		return { sub: c.sub, sid: id, amr };
	} catch {
		return null;
	}
}

const MAX_FIELD = 512;
const clip = (v: string | undefined): string | null => (typeof v === "string" && v ? v.slice(0, MAX_FIELD) : null);

export class SessionRecords {
	constructor(
		private readonly store: () => Store,
		private readonly lifetimeSec: number,
		private readonly now: () => number = Date.now
	) {}

	private get col() {
		return this.store().collection<SessionRecord>("sessions");
	}

	private iso(offsetMs = 0): string {
		return new Date(this.now() + offsetMs).toISOString();
	}

	/** A sign-in opened the session: its device and address are the sign-in's. */
	async opened(tokens: Pick<TokenSet, "accessToken">, origin: RequestOrigin, sid?: string): Promise<void> {
		const s = tokenSession(tokens, sid);
		if (!s) return;
		const now = this.iso();
		const rec: SessionRecord = {
			id: s.sid,
			sub: s.sub,
			createdAt: now,
			lastUsedAt: now,
			userAgent: clip(origin.userAgent),
			ip: clip(origin.ip),
			amr: s.amr,
			expiresAt: this.iso(this.lifetimeSec * 1000),
			endedAt: null
		};
		try {
			await this.col.insert(rec);
		} catch (err) {
			if (!(err instanceof DuplicateKeyError)) throw err;
			await this.col.updateMany({ id: s.sid, sub: s.sub }, { $set: { lastUsedAt: now } });
		}
	}

	/** A refresh used the session. */
	async used(tokens: Pick<TokenSet, "accessToken">, sid?: string): Promise<void> {
		const s = tokenSession(tokens, sid);
		if (s) await this.col.updateMany({ id: s.sid, sub: s.sub, endedAt: null }, { $set: { lastUsedAt: this.iso() } });
	}

	/** The user's sessions that have not ended, newest first; `live` (the provider's live families) narrows them where known. */
	async list(sub: string, current: string | undefined, live?: Set<string>): Promise<SessionView[]> {
		const recs = await this.col.find({ sub, endedAt: null, expiresAt: { $gt: this.iso() } }, { sort: { createdAt: -1 }, limit: 200 });
		return recs
			.filter(r => !live || live.has(r.id))
			.map(r => ({ sessionId: r.id, createdAt: r.createdAt, lastUsedAt: r.lastUsedAt, userAgent: r.userAgent, ip: r.ip, amr: r.amr, current: r.id === current }));
	}

	/** The user's session with this id, when it has not ended. */
	async find(sub: string, sid: string): Promise<SessionRecord | null> {
		return this.col.findOne({ id: sid, sub, endedAt: null, expiresAt: { $gt: this.iso() } });
	}

	/** The ids of the user's sessions that have not ended (every one but `keep`). */
	async openIds(sub: string, keep?: string): Promise<string[]> {
		const recs = await this.col.find({ sub, endedAt: null, ...(keep ? { id: { $ne: keep } } : {}) });
		return recs.map(r => r.id);
	}

	/** Marks these sessions ended; answers how many were open. */
	async ended(sub: string, sids: readonly string[]): Promise<number> {
		if (sids.length === 0) return 0;
		return this.col.updateMany({ sub, id: { $in: [...sids] }, endedAt: null }, { $set: { endedAt: this.iso() } });
	}

	/** Removes the records of sessions that ran out or ended long ago (a sweep). */
	async sweep(): Promise<number> {
		return this.col.deleteMany({ expiresAt: { $lt: this.iso() } });
	}

	/** Every record of the account (its deletion). */
	async removeAll(sub: string): Promise<void> {
		await this.col.deleteMany({ sub });
	}
}
