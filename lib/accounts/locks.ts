/**
 * Accounts an administrator has locked (POST /admin/users/{actorId}/lock): a record per
 * locked actor in `account_locks`. Password sign-in and refresh of a locked account are
 * refused with the answers a wrong password or a revoked token get (lifecycle.ts), so
 * the lock tells a caller nothing about the account.
 */
import { DuplicateKeyError, type Store } from "../store";

export const LOCKS_COLLECTION = "account_locks";

export interface AccountLock {
	/** The actor id (the identity provider's sub). */
	id: string;
	lockedAt: string;
	/** Who locked it: an administrator's actor id, or "cli". */
	lockedBy: string;
}

export class AccountLocks {
	constructor(private readonly store: () => Store) {}

	private locks() {
		return this.store().collection<AccountLock>(LOCKS_COLLECTION);
	}

	/** Locks the account; locking a locked one keeps its first record. Answers the lock in force. */
	async lock(actorId: string, lockedBy: string, now = new Date()): Promise<AccountLock> {
		const doc: AccountLock = { id: actorId, lockedAt: now.toISOString(), lockedBy };
		try {
			return await this.locks().insert(doc);
		} catch (err) {
			if (!(err instanceof DuplicateKeyError)) throw err;
			return (await this.locks().get(actorId)) ?? doc;
		}
	}

	/** False when the account was not locked. */
	async unlock(actorId: string): Promise<boolean> {
		return (await this.locks().deleteMany({ id: actorId })) > 0;
	}

	async get(actorId: string): Promise<AccountLock | null> {
		return this.locks().get(actorId);
	}

	/** The locks among these actors, by actor id (one read for a page of users). */
	async among(actorIds: string[]): Promise<Map<string, AccountLock>> {
		if (actorIds.length === 0) return new Map();
		const docs = await this.locks().find({ id: { $in: actorIds } });
		return new Map(docs.map(d => [d.id, d]));
	}
}
