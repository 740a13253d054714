/**
 * The notification queue on the store. A claim takes the oldest due notifications
 * of the highest priority (CRITICAL > HIGH > NORMAL > LOW, FIFO within one) and
 * leases them: PROCESSING, a lease token and an expiry. Every later write names the
 * token and the PROCESSING status, so a dispatcher whose lease ran out cannot
 * overwrite what another one did since. Expired leases go back to the queue.
 */
import { randomUUID } from "node:crypto";
import type { Collection, Filter, Store } from "../store";
import { GroupCommit, type GroupCommitOptions } from "../store/group-commit";
import { newEvent, statusEvent, type StatusPublisher } from "./events";
import { transition } from "./lifecycle";
import type { EventDoc, NotificationDoc, Status } from "./model";

export const CLAIM_ORDER = { priorityRank: 1, availableAt: 1, seq: 1 } as const;
const LOW_RANK = 3;

/**
 * Outcomes are written together: one batch (one transaction in SQLite) for all that
 * finish within a few milliseconds, instead of two commits per notification. A failed
 * write is tried again (it is idempotent: every write names the lease token), then
 * one outcome at a time, so sends that went out are recorded rather than sent again
 * when their leases expire.
 */
export const SETTLE_BATCHING: GroupCommitOptions = { delayMs: 3, maxGroups: 64, attempts: 4, backoffMs: 100 };

/** What became of one claimed notification: its next status and the event that says so. */
export interface Outcome {
	notification: NotificationDoc;
	status: Status;
	event: string;
	detail?: Record<string, unknown>;
	set?: Partial<NotificationDoc>;
	/** For a retry (status QUEUED): when it is due again. */
	retryInMs?: number;
}

export class NotificationQueue {
	private readonly writer: GroupCommit;

	constructor(
		private readonly store: Store,
		private readonly events: StatusPublisher,
		private readonly now: () => number = Date.now,
		batching: GroupCommitOptions = SETTLE_BATCHING
	) {
		this.writer = new GroupCommit(store, batching);
	}

	private get notifications(): Collection<NotificationDoc> {
		return this.store.collection<NotificationDoc>("notifications");
	}

	/** The filter that holds a write to this holder's lease. */
	private leased(n: NotificationDoc, to: Status): Filter {
		return { id: n.id, leaseToken: n.leaseToken!, ...transition("PROCESSING", to) };
	}

	async claim(limit: number, leaseMs: number, opts: { holdLow?: boolean } = {}): Promise<NotificationDoc[]> {
		const now = this.now();
		const filter: Filter = { ...transition("QUEUED", "PROCESSING"), availableAt: { $lte: new Date(now).toISOString() } };
		if (opts.holdLow) filter.priorityRank = { $lt: LOW_RANK };
		return this.notifications.claimMany(
			filter,
			{
				$set: {
					status: "PROCESSING",
					leaseToken: randomUUID(),
					leaseUntil: new Date(now + leaseMs).toISOString(),
					updatedAt: new Date(now).toISOString()
				},
				$inc: { attempts: 1 }
			},
			{ sort: CLAIM_ORDER, limit }
		);
	}

	/**
	 * Extends a lease, only while this holder still has it; false when it was lost. A
	 * send must never start on a lease that could expire before the send ends.
	 */
	async renew(n: NotificationDoc, leaseMs: number): Promise<boolean> {
		const until = new Date(this.now() + leaseMs).toISOString();
		const changed = await this.notifications.updateMany({ id: n.id, leaseToken: n.leaseToken!, status: "PROCESSING" }, { $set: { leaseUntil: until } });
		if (changed === 1) n.leaseUntil = until;
		return changed === 1;
	}

	/**
	 * Ends the lease with the outcome's status and event, batched with the outcomes of
	 * other sends. False when the lease was lost meanwhile: then nothing is written.
	 * A status the table does not allow after PROCESSING is refused (TransitionRefused).
	 */
	async settle(o: Outcome): Promise<boolean> {
		const nowMs = this.now();
		const now = new Date(nowMs).toISOString();
		const filter = this.leased(o.notification, o.status);
		const set: Record<string, unknown> = { ...(o.set ?? {}), status: o.status, updatedAt: now };
		let detail = o.detail;
		if (o.retryInMs !== undefined) {
			// The event says when the retry is due, from the same clock reading as the record.
			set.availableAt = new Date(nowMs + o.retryInMs).toISOString();
			detail = { ...(detail ?? {}), retryAt: set.availableAt };
		}
		const event = newEvent(o.notification.id, o.event, { detail, now: nowMs, status: o.status });
		const [applied] = await this.writer.submit([
			[
				{ op: "updateMany", collection: "notifications", filter, update: { $set: set, $unset: ["leaseToken", "leaseUntil"] } },
				{ op: "insert", collection: "notification_events", doc: event }
			]
		]);
		if (applied) this.events.publish([statusEvent(o.notification.createdBy, event, o.status)]);
		return applied;
	}

	/**
	 * Gives a claimed notification back before its send started (its dispatcher is
	 * stopping): QUEUED again at once, without the attempt the claim counted. Only while
	 * this holder has the lease; false when it was lost.
	 */
	async release(n: NotificationDoc): Promise<boolean> {
		const now = new Date(this.now()).toISOString();
		const update = { $set: { status: "QUEUED", updatedAt: now }, $unset: ["leaseToken", "leaseUntil"], $inc: { attempts: -1 } };
		const [applied] = await this.writer.submit([[{ op: "updateMany", collection: "notifications", filter: this.leased(n, "QUEUED"), update }]]);
		return applied;
	}

	/**
	 * Returns notifications whose lease expired (their dispatcher died or hung) to the
	 * queue, or fails them when they have no attempts left. Returns how many moved.
	 */
	async reapExpired(maxAttempts: number, limit = 500): Promise<number> {
		const now = this.now();
		const nowIso = new Date(now).toISOString();
		const expired: Filter = { leaseUntil: { $lt: nowIso } };
		const failed = await this.notifications.claimMany(
			{ ...expired, ...transition("PROCESSING", "FAILED"), attempts: { $gte: maxAttempts } },
			{ $set: { status: "FAILED", lastError: "LEASE_EXPIRED", updatedAt: nowIso }, $unset: ["leaseToken", "leaseUntil"] },
			{ limit }
		);
		const requeued = await this.notifications.claimMany(
			{ ...expired, ...transition("PROCESSING", "QUEUED") },
			{ $set: { status: "QUEUED", availableAt: nowIso, lastError: "LEASE_EXPIRED", updatedAt: nowIso }, $unset: ["leaseToken", "leaseUntil"] },
			{ limit }
		);
		const timeline = this.store.collection<EventDoc>("notification_events");
		for (const [list, event, status, error] of [[failed, "FAILED", "FAILED", { error: "LEASE_EXPIRED" }], [requeued, "LEASE_EXPIRED", "QUEUED", {}]] as const) {
			for (const n of list) {
				const e = newEvent(n.id, event, { detail: { attempt: n.attempts, ...error }, now, status });
				await timeline.insert(e);
				this.events.publish([statusEvent(n.createdBy, e, status)]);
			}
		}
		return failed.length + requeued.length;
	}
}

/** Exponential backoff with equal jitter: half the step is fixed, half random. */
export function retryDelay(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
	const step = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
	return Math.round(step / 2 + random() * (step / 2));
}
