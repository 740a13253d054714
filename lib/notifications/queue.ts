/**
 * The notification queue on the store. A claim takes the oldest due notifications
 * of the highest priority (CRITICAL > HIGH > NORMAL > LOW, FIFO within one) and
 * leases them: PROCESSING, a lease token and an expiry. Every later write names the
 * token and the PROCESSING status, so a dispatcher whose lease ran out cannot
 * overwrite what another one did since. Expired leases go back to the queue.
 */
import { randomUUID } from "node:crypto";
import type { Collection, Filter, Store } from "../store";
import { nextSeq, type EventDoc, type NotificationDoc, type Status } from "./model";

export const CLAIM_ORDER = { priorityRank: 1, availableAt: 1, seq: 1 } as const;
const LOW_RANK = 3;

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
	readonly notifications: Collection<NotificationDoc>;
	readonly events: Collection<EventDoc>;

	constructor(private readonly store: Store, private readonly now: () => number = Date.now) {
		this.notifications = store.collection<NotificationDoc>("notifications");
		this.events = store.collection<EventDoc>("notification_events");
	}

	async claim(limit: number, leaseMs: number, opts: { holdLow?: boolean } = {}): Promise<NotificationDoc[]> {
		const now = this.now();
		const filter: Filter = { status: "QUEUED", availableAt: { $lte: new Date(now).toISOString() } };
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

	private eventDoc(notificationId: string, event: string, detail?: Record<string, unknown>, now = this.now()): EventDoc {
		return { id: randomUUID(), notificationId, event, occurredAt: new Date(now).toISOString(), seq: nextSeq(now), ...(detail ? { detail } : {}) };
	}

	async event(notificationId: string, event: string, detail?: Record<string, unknown>): Promise<void> {
		await this.events.insert(this.eventDoc(notificationId, event, detail));
	}

	/**
	 * Records outcomes, each as its status change and its event, all in one batch. An
	 * outcome whose lease was lost meanwhile changes nothing and reports false.
	 */
	async commit(outcomes: Outcome[]): Promise<boolean[]> {
		const nowMs = this.now();
		const now = new Date(nowMs).toISOString();
		return this.store.batch(
			outcomes.map(o => {
				const set: Record<string, unknown> = { ...(o.set ?? {}), status: o.status, updatedAt: now };
				let detail = o.detail;
				if (o.retryInMs !== undefined) {
					// The event says when the retry is due, from the same clock reading as the record.
					set.availableAt = new Date(nowMs + o.retryInMs).toISOString();
					detail = { ...(detail ?? {}), retryAt: set.availableAt };
				}
				return [
					{
						op: "updateMany",
						collection: "notifications",
						filter: { id: o.notification.id, leaseToken: o.notification.leaseToken!, status: "PROCESSING" },
						update: { $set: set, $unset: ["leaseToken", "leaseUntil"] }
					},
					{ op: "insert", collection: "notification_events", doc: this.eventDoc(o.notification.id, o.event, detail, nowMs) }
				];
			})
		);
	}

	/**
	 * Extends a lease, only while this holder still has it; false when it was lost. A
	 * send must never start on a lease that could expire before the send ends.
	 */
	async renew(n: NotificationDoc, leaseMs: number): Promise<boolean> {
		const until = new Date(this.now() + leaseMs).toISOString();
		const changed = await this.notifications.updateMany(
			{ id: n.id, leaseToken: n.leaseToken!, status: "PROCESSING" },
			{ $set: { leaseUntil: until } }
		);
		if (changed === 1) n.leaseUntil = until;
		return changed === 1;
	}

	/** Ends the lease with a final status and its event; false when the lease was lost meanwhile. */
	async finish(n: NotificationDoc, status: Status, event: string, detail?: Record<string, unknown>, set: Partial<NotificationDoc> = {}): Promise<boolean> {
		return (await this.commit([{ notification: n, status, event, detail, set }]))[0];
	}

	/**
	 * Returns notifications whose lease expired (their dispatcher died or hung) to the
	 * queue, or fails them when they have no attempts left. Returns how many moved.
	 */
	async reapExpired(maxAttempts: number, limit = 500): Promise<number> {
		const nowIso = new Date(this.now()).toISOString();
		const expired: Filter = { status: "PROCESSING", leaseUntil: { $lt: nowIso } };
		const failed = await this.notifications.claimMany(
			{ ...expired, attempts: { $gte: maxAttempts } },
			{ $set: { status: "FAILED", lastError: "LEASE_EXPIRED", updatedAt: nowIso }, $unset: ["leaseToken", "leaseUntil"] },
			{ limit }
		);
		const requeued = await this.notifications.claimMany(
			expired,
			{ $set: { status: "QUEUED", availableAt: nowIso, lastError: "LEASE_EXPIRED", updatedAt: nowIso }, $unset: ["leaseToken", "leaseUntil"] },
			{ limit }
		);
		for (const n of failed) await this.event(n.id, "FAILED", { attempt: n.attempts, error: "LEASE_EXPIRED" });
		for (const n of requeued) await this.event(n.id, "LEASE_EXPIRED", { attempt: n.attempts });
		return failed.length + requeued.length;
	}
}

/** Exponential backoff with equal jitter: half the step is fixed, half random. */
export function retryDelay(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
	const step = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
	return Math.round(step / 2 + random() * (step / 2));
}
