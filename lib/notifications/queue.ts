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

export class NotificationQueue {
	readonly notifications: Collection<NotificationDoc>;
	readonly events: Collection<EventDoc>;

	constructor(store: Store, private readonly now: () => number = Date.now) {
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

	async event(notificationId: string, event: string, detail?: Record<string, unknown>): Promise<void> {
		const now = this.now();
		await this.events.insert({
			id: randomUUID(),
			notificationId,
			event,
			occurredAt: new Date(now).toISOString(),
			seq: nextSeq(now),
			...(detail ? { detail } : {})
		});
	}

	/** Ends the lease with a final status; false when the lease was lost meanwhile. */
	async finish(n: NotificationDoc, status: Status, set: Partial<NotificationDoc> = {}): Promise<boolean> {
		const changed = await this.notifications.updateMany(
			{ id: n.id, leaseToken: n.leaseToken!, status: "PROCESSING" },
			{ $set: { ...set, status, updatedAt: new Date(this.now()).toISOString() }, $unset: ["leaseToken", "leaseUntil"] }
		);
		return changed === 1;
	}

	/** Puts the notification back, due after `delayMs`; false when the lease was lost meanwhile. */
	async retryLater(n: NotificationDoc, delayMs: number, lastError: string): Promise<boolean> {
		const now = this.now();
		const changed = await this.notifications.updateMany(
			{ id: n.id, leaseToken: n.leaseToken!, status: "PROCESSING" },
			{
				$set: { status: "QUEUED", availableAt: new Date(now + delayMs).toISOString(), lastError, updatedAt: new Date(now).toISOString() },
				$unset: ["leaseToken", "leaseUntil"]
			}
		);
		return changed === 1;
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
