/**
 * Deleting an account (DELETE /auth/account, DELETE /admin/users/{actorId}) across both
 * halves of the platform, crash-safe with a durable intent as account creation is
 * (intents.ts, repair.ts):
 *
 * 1. the intent `account_deletions/{actorId}` is written (unique per actor: a second
 *    request finds it) naming the identity-provider user and address; from then on the
 *    deletion always ends, whoever finishes it;
 * 2. the steps below run in order, each idempotent, and the intent records the last
 *    one done (`step`) and is touched after each;
 * 3. the tombstone `account_tombstones/{actorId}` `{ actorId, deletedAt }` is written
 *    and the intent removed.
 *
 * A node that dies between two steps leaves the intent: a restarted node of the same
 * NODE_ID takes its earlier process's intents at once, any node takes one untouched for
 * the grace period (ACCOUNT_REPAIR_GRACE_SECONDS), and runs every step again from the
 * first (each is a no-op when done).
 *
 * Deleting again answers 410 ACCOUNT_DELETED, both while the deletion is under way and
 * after it, and changes nothing.
 */
import type { AuditLog, RequestOrigin } from "../audit";
import { ClientError, notFound } from "../errors";
import type { FileStorage } from "../files/types";
import type { IdentityProvider } from "../idp/types";
import { cancelNotification, type NotificationDoc, type StatusPublisher } from "../notifications";
import { DuplicateKeyError, type Filter, type Store } from "../store";
import { messageOf, type ActorDirectory } from "./create";
import type { IntentOwner } from "./intents";
import { AccountLocks } from "./locks";

export const ACCOUNT_DELETIONS = "account_deletions";
export const ACCOUNT_TOMBSTONES = "account_tombstones";

export interface DeletionIntent {
	/** The actor id. */
	id: string;
	/** The identity-provider user: its username (Cognito: the internal one) and address at the request. */
	username: string;
	email: string;
	/** "self", or the administrator's actor id. */
	requestedBy: string;
	requestedAt: string;
	/** The last step done (DELETION_STEPS), absent before the first. */
	step?: DeletionStep;
	touchedAt: string;
	nodeId: string;
	instanceId: string;
}

export interface Tombstone {
	/** The actor id. */
	id: string;
	deletedAt: string;
}

/** The steps in the order they run; a repair runs them all again. */
export const DELETION_STEPS = ["lock", "sessions", "notifications", "preferences", "push", "inbox", "documents", "factors", "actor", "idp"] as const;
export type DeletionStep = (typeof DELETION_STEPS)[number];

export const accountDeleted = () => new ClientError(410, "ACCOUNT_DELETED", "This account is deleted or being deleted.");

export interface DeletionDeps {
	store: () => Store;
	idp: () => Promise<IdentityProvider>;
	files: () => FileStorage;
	statusEvents: StatusPublisher;
	audit: AuditLog;
	/** Ends every session of the user: the one place account data revokes sessions. */
	revokeSessions: (user: { sub: string; username: string }) => Promise<void>;
	owner: IntentOwner;
	logger: { info(...args: unknown[]): void; warn(...args: unknown[]): void };
	now?: () => number;
}

/** How many intents one sweep takes at a time. */
const SWEEP_BATCH = 20;
const QUEUED_BATCH = 200;

/** Collections of second factors and sign-in state, each with the user's sub in `userSub`. */
const FACTOR_COLLECTIONS = ["mfa_factors", "mfa_recovery_codes", "mfa_tokens", "webauthn_challenges", "auth_sessions", "social_identities", "otp_challenges"];

export class AccountDeletion {
	constructor(private readonly deps: DeletionDeps) {}

	private get now(): number {
		return (this.deps.now ?? Date.now)();
	}

	private iso(offsetMs = 0): string {
		return new Date(this.now + offsetMs).toISOString();
	}

	private intents() {
		return this.deps.store().collection<DeletionIntent>(ACCOUNT_DELETIONS);
	}

	tombstone(actorId: string): Promise<Tombstone | null> {
		return this.deps.store().collection<Tombstone>(ACCOUNT_TOMBSTONES).get(actorId);
	}

	/**
	 * Opens the deletion of the actor and runs it. 404 ACTOR_NOT_FOUND when there is no
	 * such account, 410 ACCOUNT_DELETED when it is deleted or being deleted. A step that
	 * fails leaves the intent for the sweep: the deletion is accepted all the same.
	 */
	async request(actorId: string, requestedBy: string, origin: RequestOrigin, actors: ActorDirectory): Promise<void> {
		const store = this.deps.store();
		if ((await this.tombstone(actorId)) || (await this.intents().get(actorId))) throw accountDeleted();
		const actor = await store.collection<{ id: string; email: string }>("actors").get(actorId);
		if (!actor) throw notFound("ACTOR_NOT_FOUND", "No actor has this id.");
		const user = await (await this.deps.idp()).findUserByEmail(actor.email);
		const now = this.iso();
		const intent: DeletionIntent = {
			id: actorId,
			// A profile whose provider user is gone already: only the profile's data is left to remove.
			username: user?.sub === actorId ? user.username : "",
			email: actor.email,
			requestedBy,
			requestedAt: now,
			touchedAt: now,
			...this.deps.owner
		};
		try {
			await this.intents().insert(intent);
		} catch (err) {
			if (err instanceof DuplicateKeyError) throw accountDeleted();
			throw err;
		}
		await this.deps.audit.record("auth.account_deleted", actorId, origin, requestedBy === "self" ? { by: "self" } : { by: "admin", adminId: requestedBy });
		await this.run(intent, actors).catch(err => this.deps.logger.warn("An account deletion stopped; the sweep finishes it", { actorId, error: messageOf(err) }));
	}

	/** Finishes every due deletion (see the top of this file); answers how many. */
	async sweep(actors: ActorDirectory, graceMs: number): Promise<number> {
		let finished = 0;
		for (;;) {
			const due = await this.claimDue(graceMs);
			for (const intent of due) {
				try {
					await this.run(intent, actors);
					this.deps.logger.info("Finished an account deletion that was cut off", { actorId: intent.id });
					finished += 1;
				} catch (err) {
					this.deps.logger.warn("An account deletion could not be finished; it is tried again later", { actorId: intent.id, error: messageOf(err) });
				}
			}
			if (due.length < SWEEP_BATCH) return finished;
		}
	}

	private async claimDue(graceMs: number): Promise<DeletionIntent[]> {
		const oldest = { sort: { touchedAt: 1 }, limit: SWEEP_BATCH } as const;
		const [stale, orphaned] = await Promise.all([
			this.intents().find({ touchedAt: { $lte: this.iso(-graceMs) } }, oldest),
			this.intents().find({ nodeId: this.deps.owner.nodeId, instanceId: { $ne: this.deps.owner.instanceId } }, oldest)
		]);
		const due = new Map([...orphaned, ...stale].map(intent => [intent.id, intent]));
		const claimed: DeletionIntent[] = [];
		for (const intent of [...due.values()].slice(0, SWEEP_BATCH)) {
			const mine = await this.intents().findOneAndUpdate({ id: intent.id, touchedAt: intent.touchedAt }, { $set: { touchedAt: this.iso(), ...this.deps.owner } });
			if (mine) claimed.push(mine);
		}
		return claimed;
	}

	/** Every step, then the tombstone; rejects at the first step that fails. */
	async run(intent: DeletionIntent, actors: ActorDirectory): Promise<void> {
		for (const step of DELETION_STEPS) {
			await this.step(step, intent, actors);
			await this.intents().updateMany({ id: intent.id }, { $set: { step, touchedAt: this.iso() } });
		}
		try {
			await this.deps.store().collection<Tombstone>(ACCOUNT_TOMBSTONES).insert({ id: intent.id, deletedAt: this.iso() });
		} catch (err) {
			if (!(err instanceof DuplicateKeyError)) throw err;
		}
		await this.intents().deleteMany({ id: intent.id });
	}

	private async step(step: DeletionStep, intent: DeletionIntent, actors: ActorDirectory): Promise<void> {
		const store = this.deps.store();
		const actorId = intent.id;
		switch (step) {
			case "lock":
				// No new sign-in or refresh while the rest is taken apart (lifecycle.ts admit).
				await new AccountLocks(() => store).lock(actorId, "deletion");
				return;
			case "sessions":
				if (intent.username) await this.deps.revokeSessions({ sub: actorId, username: intent.username });
				return;
			case "notifications":
				await this.cancelQueued(intent);
				return;
			case "preferences":
				await store.collection("unsubscribes").deleteMany({ actorId, source: "preferences" });
				await store.collection("unsubscribes").deleteMany({ channel: { $in: ["PUSH", "IN_APP"] }, address: actorId.toLowerCase() });
				await store.collection("recipient_schedules").deleteMany({ id: actorId });
				return;
			case "push":
				await store.collection("push_subscriptions").deleteMany({ actorId });
				return;
			case "inbox":
				await store.collection("inbox").deleteMany({ actorId });
				return;
			case "documents":
				await this.removeDocuments(actorId);
				return;
			case "factors":
				for (const name of FACTOR_COLLECTIONS) await store.collection(name).deleteMany({ userSub: actorId });
				await store.collection("lifecycle_tokens").deleteMany({ sub: actorId });
				// The sessions' devices and addresses (lib/sessions/records.ts); the ended sids stay on the deny list until it expires.
				await store.collection("sessions").deleteMany({ sub: actorId });
				return;
			case "actor":
				await actors.remove(actorId);
				return;
			case "idp":
				if (intent.username) await (await this.deps.idp()).deleteUser(intent.username);
				// The lock has done its work: nobody can sign in as a deleted user.
				await new AccountLocks(() => store).unlock(actorId);
				return;
		}
	}

	/** Every QUEUED notification to the account's addresses, or made by it, ends CANCELLED (one a dispatcher took first is sent). */
	private async cancelQueued(intent: DeletionIntent): Promise<void> {
		const store = this.deps.store();
		const notifications = store.collection<NotificationDoc>("notifications");
		const filters: Filter[] = [{ to: { $in: [intent.email, intent.id] }, status: "QUEUED" }, { "createdBy.id": intent.id, status: "QUEUED" }];
		for (const filter of filters) {
			for (;;) {
				const batch = await notifications.find(filter, { limit: QUEUED_BATCH });
				let cancelled = 0;
				for (const n of batch) {
					await cancelNotification(store, this.deps.statusEvents, n.id, () => true).then(
						() => (cancelled += 1),
						err => {
							if ((err as ClientError).type !== "NOT_CANCELLABLE") throw err;
						}
					);
				}
				if (batch.length < QUEUED_BATCH || cancelled === 0) break;
			}
		}
	}

	/** The file first, then its record: a crash between leaves a record the next run removes. */
	private async removeDocuments(actorId: string): Promise<void> {
		const documents = this.deps.store().collection<{ id: string; fileId: string }>("documents");
		for (const doc of await documents.find({ candidateId: actorId })) {
			await this.deps.files().remove(doc.fileId);
			await documents.deleteMany({ id: doc.id });
		}
	}
}
