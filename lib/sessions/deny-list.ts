/**
 * The `sid` deny list: sessions ended in the last access-token lifetime, whose access
 * tokens (stateless, valid until they expire) every node must refuse. The check runs
 * on every authenticated request after the verifier's cache hit, so it is a Map lookup
 * (none at all while the list is empty, the usual case); entries drop out once no
 * access token of their session can still be unexpired.
 *
 * How entries reach every node: the node that ends a session records it in the store
 * (session_denials, for nodes that start later) and broadcasts it over the transporter
 * (Runtime.denySessions); with Redis configured it is also published there, for nodes
 * that share Redis but no transporter. A node loads the stored entries when it starts.
 */

export interface Denial {
	sid: string;
	/** Epoch milliseconds after which no access token of the session is valid any more. */
	until: number;
}

export class SessionDenyList {
	private readonly until = new Map<string, number>();

	constructor(private readonly now: () => number = Date.now) {}

	/** Whether tokens of this session are refused: the hot path. */
	has(sid: string): boolean {
		if (this.until.size === 0) return false;
		const until = this.until.get(sid);
		if (until === undefined) return false;
		if (until > this.now()) return true;
		this.until.delete(sid);
		return false;
	}

	add(denials: readonly Denial[]): void {
		const now = this.now();
		for (const d of denials) {
			if (typeof d?.sid !== "string" || typeof d.until !== "number" || d.until <= now) continue;
			const held = this.until.get(d.sid);
			if (held === undefined || held < d.until) this.until.set(d.sid, d.until);
		}
		if (this.until.size > 0) this.prune(now);
	}

	get size(): number {
		return this.until.size;
	}

	/** Drops what expired, at most once a minute (additions call it). */
	private prunedAt = 0;
	private prune(now: number): void {
		if (now - this.prunedAt < 60_000) return;
		this.prunedAt = now;
		for (const [sid, until] of this.until) if (until <= now) this.until.delete(sid);
	}
}

/** Broadcast over the transporter to every node (mixins/runtime.mixin.ts hears it). */
export const SESSIONS_DENIED_EVENT = "auth.sessionsDenied";

/** Held a little past the access tokens' lifetime: the verifier's clock tolerance (5 s) and a margin. */
export const DENY_MARGIN_SEC = 10;
