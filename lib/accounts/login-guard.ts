/**
 * What stands between a password and a sign-in besides the password: the lockout after
 * LOGIN_LOCKOUT_THRESHOLD failed sign-ins of one account within 15 minutes (for
 * LOGIN_LOCKOUT_SECONDS), and the block a "not me" link sets until the password is
 * reset. One record per account in `login_guards`, counted with atomic store updates,
 * so every node sees the same count. A refused sign-in gets the wrong password's
 * answer (lifecycle.ts invalidCredentials): nobody learns that the account exists or
 * is locked. A password reset lifts both.
 */
import { DuplicateKeyError, type Store } from "../store";

export const LOGIN_GUARDS_COLLECTION = "login_guards";
/** The window failures are counted in. */
export const LOCKOUT_WINDOW_MS = 15 * 60_000;

export interface LoginGuardDoc {
	/** The actor id. */
	id: string;
	/** When the current counting window began (ISO). */
	windowStart: string;
	failures: number;
	/** Password sign-in refused until then (ISO); null when not locked out. */
	lockedUntil: string | null;
	/** A "not me" link was used: password sign-in refused until a reset. */
	blockedUntilReset: boolean;
}

export interface LockoutConfig {
	/** LOGIN_LOCKOUT_THRESHOLD. */
	threshold: number;
	/** LOGIN_LOCKOUT_SECONDS. */
	lockoutSeconds: number;
}

export class LoginGuard {
	constructor(
		private readonly store: () => Store,
		private readonly config: LockoutConfig,
		private readonly now: () => number = Date.now
	) {}

	private guards() {
		return this.store().collection<LoginGuardDoc>(LOGIN_GUARDS_COLLECTION);
	}

	/** Why password sign-in is refused now, or null when it is not. */
	async refusal(actorId: string): Promise<"locked" | "not-me" | null> {
		const doc = await this.guards().get(actorId);
		if (!doc) return null;
		if (doc.blockedUntilReset) return "not-me";
		return doc.lockedUntil && doc.lockedUntil > new Date(this.now()).toISOString() ? "locked" : null;
	}

	/**
	 * Counts a failed password sign-in; true when this failure locked the account (the
	 * threshold was reached and it was not locked already): the caller audits and alerts.
	 */
	async failed(actorId: string): Promise<boolean> {
		const at = this.now();
		const nowIso = new Date(at).toISOString();
		const cut = new Date(at - LOCKOUT_WINDOW_MS).toISOString();
		let doc = await this.guards().findOneAndUpdate({ id: actorId, windowStart: { $gt: cut } }, { $inc: { failures: 1 } });
		if (!doc) doc = await this.startWindow(actorId, nowIso, cut);
		if (!doc || doc.failures < this.config.threshold) return false;
		const wasLocked = doc.lockedUntil !== null && doc.lockedUntil > nowIso;
		// Counting starts again: as many more failures during the lock extend it.
		const locked = await this.guards().findOneAndUpdate(
			{ id: actorId, windowStart: doc.windowStart, failures: { $gte: this.config.threshold } },
			{ $set: { lockedUntil: new Date(at + this.config.lockoutSeconds * 1000).toISOString(), failures: 0, windowStart: nowIso } }
		);
		return locked !== null && !wasLocked;
	}

	/** A first failure, or the first of a new window (of concurrent callers, one opens it; the others count in it). */
	private async startWindow(actorId: string, nowIso: string, cut: string): Promise<LoginGuardDoc | null> {
		try {
			return await this.guards().insert({ id: actorId, windowStart: nowIso, failures: 1, lockedUntil: null, blockedUntilReset: false });
		} catch (err) {
			if (!(err instanceof DuplicateKeyError)) throw err;
		}
		const reopened = await this.guards().findOneAndUpdate({ id: actorId, windowStart: { $lte: cut } }, { $set: { windowStart: nowIso, failures: 1 } });
		return reopened ?? this.guards().findOneAndUpdate({ id: actorId, windowStart: { $gt: cut } }, { $inc: { failures: 1 } });
	}

	/** A successful sign-in forgets the failures before it (not a lock or a block: those were checked first). */
	async succeeded(actorId: string): Promise<void> {
		await this.guards().updateMany({ id: actorId, failures: { $gt: 0 } }, { $set: { failures: 0 } });
	}

	/** "Not me": password sign-in is refused until the password is reset. */
	async blockUntilReset(actorId: string): Promise<void> {
		try {
			await this.guards().insert({ id: actorId, windowStart: new Date(this.now()).toISOString(), failures: 0, lockedUntil: null, blockedUntilReset: true });
		} catch (err) {
			if (!(err instanceof DuplicateKeyError)) throw err;
			await this.guards().updateMany({ id: actorId }, { $set: { blockedUntilReset: true } });
		}
	}

	/** A password reset: the lockout and the block end, the count starts again. */
	async reset(actorId: string): Promise<void> {
		await this.guards().deleteMany({ id: actorId });
	}
}
