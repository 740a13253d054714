/**
 * What the store says about the queue and about email outcomes right now: the figures
 * behind both the Prometheus gauges (metrics.ts) and the administrators' overview
 * (stats.ts).
 */
import type { Store } from "../store";
import { PRIORITIES, type NotificationDoc, type Priority } from "./model";

/** The window the bounce and complaint rates are taken over, as the mailbox providers count. */
export const RATE_WINDOW_MS = 24 * 3600_000;
/** Statuses of email that reached the provider: the rates' denominator. */
const SENT_STATUSES = ["SENT", "DELIVERED", "BOUNCED", "COMPLAINT"] as const;

export interface PriorityQueue {
	priority: Priority;
	/** QUEUED notifications of this priority that are due: the backlog. */
	depth: number;
	/** QUEUED ones not due yet (scheduled for later, or waiting for a retry): not a backlog. */
	scheduled: number;
	/** Seconds the oldest due one has waited; 0 when none is due. */
	oldestAgeSeconds: number;
}

export async function queueSnapshot(store: Store, now = Date.now()): Promise<PriorityQueue[]> {
	const coll = store.collection<NotificationDoc>("notifications");
	return Promise.all(
		PRIORITIES.map(async (priority, rank) => {
			const at = new Date(now).toISOString();
			const [depth, scheduled, oldest] = await Promise.all([
				coll.count({ status: "QUEUED", priorityRank: rank, availableAt: { $lte: at } }),
				coll.count({ status: "QUEUED", priorityRank: rank, availableAt: { $gt: at } }),
				coll.findOne({ status: "QUEUED", priorityRank: rank, availableAt: { $lte: at } }, { sort: { status: 1, priorityRank: 1, availableAt: 1, seq: 1 } })
			]);
			return { priority, depth, scheduled, oldestAgeSeconds: oldest ? Math.max(0, (now - Date.parse(oldest.availableAt)) / 1000) : 0 };
		})
	);
}

/**
 * The lowest UUIDv7 of a moment: ids are ordered by creation time, so "created since"
 * is an id range, which the (status, id) index serves.
 */
export function firstIdAt(ms: number): string {
	const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0");
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

/** Bounce and complaint rates of the email accepted in the last 24 hours (0 when none was sent). */
export async function emailRates(store: Store, now = Date.now()): Promise<{ bounceRate: number; complaintRate: number; sent: number }> {
	const coll = store.collection<NotificationDoc>("notifications");
	const since = { $gte: firstIdAt(now - RATE_WINDOW_MS) };
	const counts: Record<string, number> = {};
	for (const status of SENT_STATUSES) counts[status] = await coll.count({ status, id: since, channel: "EMAIL" });
	const sent = SENT_STATUSES.reduce((sum, s) => sum + counts[s], 0);
	return { sent, bounceRate: sent ? counts.BOUNCED / sent : 0, complaintRate: sent ? counts.COMPLAINT / sent : 0 };
}

