/**
 * The durable half of account creation: an intent is written before the identity
 * provider is asked for a user and removed once the account is complete or wholly
 * undone. A node that dies in between leaves the intent behind, and the repair
 * (./repair.ts) finishes or undoes what it describes.
 *
 * An intent holds no password and no provider token: only what the actor profile
 * needs and which identity-provider user was made.
 *
 * It also names the process working on it (node id and Moleculer instance id). A node
 * that starts again under the same node id knows its earlier process is dead (Moleculer
 * stops a second live node with one id), so it takes that process's intents at once;
 * any other intent waits for the grace period, since its process may still run.
 */
import type { CreatedUser } from "../idp/types";
import { DuplicateKeyError, type Collection, type Store } from "../store";

export const ACCOUNT_INTENTS = "account_intents";

export interface AccountIntent {
	/** The normalized email: one creation per address at a time, across every node. */
	id: string;
	method: "password" | "federated";
	/** "create" until a rollback starts; an "undo" is always finished, never completed. */
	phase: "create" | "undo";
	firstName: string;
	lastName: string;
	/** Set once the identity provider has created the user (for a password user: with its password). */
	sub?: string;
	username?: string;
	/** The extra step after the actor profile (ExtraStep.name), if any. */
	step?: string;
	createdAt: string;
	/** Last written by its creator or claimed by a repair; a repair takes it only a grace period later. */
	touchedAt: string;
	/** The process working on it: its creator's, or the repair's that claimed it. Absent in intents older than these fields. */
	nodeId?: string;
	instanceId?: string;
}

export type NewIntent = Pick<AccountIntent, "id" | "method" | "firstName" | "lastName" | "step">;

/** A process: its node id (NODE_ID) and the instance id Moleculer draws at each start. */
export interface IntentOwner {
	nodeId: string;
	instanceId: string;
}

export class AccountIntents {
	constructor(
		private readonly store: () => Store,
		private readonly now: () => number,
		private readonly owner: IntentOwner
	) {}

	private get collection(): Collection<AccountIntent> {
		return this.store().collection<AccountIntent>(ACCOUNT_INTENTS);
	}

	private iso(offsetMs = 0): string {
		return new Date(this.now() + offsetMs).toISOString();
	}

	/** False when another creation for this email is under way (or was cut off and awaits repair). */
	async open(intent: NewIntent): Promise<boolean> {
		const now = this.iso();
		try {
			await this.collection.insert({ ...intent, phase: "create", createdAt: now, touchedAt: now, ...this.owner });
			return true;
		} catch (err) {
			if (err instanceof DuplicateKeyError) return false;
			throw err;
		}
	}

	async recordUser(id: string, user: CreatedUser): Promise<void> {
		await this.collection.updateMany({ id }, { $set: { sub: user.sub, username: user.username, touchedAt: this.iso() } });
	}

	/**
	 * Turns the intent into an undo of `user`; written again when it is gone (the undo
	 * of an account that was complete). An intent about another user is left to its creation.
	 */
	async beginUndo(intent: NewIntent, user: CreatedUser): Promise<void> {
		const now = this.iso();
		const undo = { phase: "undo", sub: user.sub, username: user.username, touchedAt: now, ...this.owner } as const;
		const current = await this.collection.get(intent.id);
		if (current && current.sub !== undefined && current.sub !== user.sub) return;
		if (current) {
			await this.collection.updateMany({ id: intent.id }, { $set: undo });
			return;
		}
		try {
			await this.collection.insert({ ...intent, ...undo, createdAt: now });
		} catch (err) {
			if (!(err instanceof DuplicateKeyError)) throw err;
		}
	}

	/** With `sub`, only the intent about that user: another creation's stays. */
	async drop(id: string, sub?: string): Promise<void> {
		await this.collection.deleteMany(sub === undefined ? { id } : { id, sub });
	}

	get(id: string): Promise<AccountIntent | null> {
		return this.collection.get(id);
	}

	/**
	 * Intents untouched for `graceMs`, and those of an earlier process of this node
	 * whatever their age (it died: see the top of this file), each claimed for this
	 * caller alone (it becomes their owner and their touchedAt moves to now, so another
	 * repair waits a grace period again).
	 */
	async claimDue(graceMs: number, limit: number): Promise<AccountIntent[]> {
		const oldest = { sort: { touchedAt: 1 }, limit } as const;
		const [stale, orphaned] = await Promise.all([
			this.collection.find({ touchedAt: { $lte: this.iso(-graceMs) } }, oldest),
			this.collection.find({ nodeId: this.owner.nodeId, instanceId: { $ne: this.owner.instanceId } }, oldest)
		]);
		const due = new Map([...orphaned, ...stale].map(intent => [intent.id, intent]));
		const claimed: AccountIntent[] = [];
		for (const intent of [...due.values()].slice(0, limit)) {
			const mine = await this.collection.findOneAndUpdate({ id: intent.id, touchedAt: intent.touchedAt }, { $set: { touchedAt: this.iso(), ...this.owner } });
			if (mine) claimed.push(mine);
		}
		return claimed;
	}
}
