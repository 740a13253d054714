/**
 * The administrators' overview (GET /admin/stats): the queue as the store has it
 * now, the send rate and failure rate from the dispatchers' tallies of the last hour
 * (throughput.ts), the email bounce and complaint rates of the last 24 hours, and
 * the queue depth over the last hour as the stats service sampled it, then as it is now.
 */
import type { Store } from "../store";
import type { Priority } from "./model";
import { emailRates, queueSnapshot, type PriorityQueue } from "./readings";
import { hourSeries, minuteOf, type MinuteCounts } from "./throughput";

export interface DepthSample {
	at: string;
	depth: Record<Priority, number>;
}

export interface AdminStats {
	at: string;
	queue: PriorityQueue[];
	/** Dispatcher nodes whose tallies are counted. */
	dispatchers: number;
	sendsPerMinute: number;
	rates: { failure: number; bounce: number; complaint: number };
	series: { minutes: string[]; sent: number[]; failed: number[]; depth: DepthSample[] };
}

export function depthSample(queue: PriorityQueue[], now = Date.now()): DepthSample {
	return { at: new Date(now).toISOString(), depth: Object.fromEntries(queue.map(q => [q.priority, q.depth])) as Record<Priority, number> };
}

/**
 * Sends in the last 60 seconds, from per-minute counts: this minute's so far plus
 * the share of the previous minute that is still inside the window.
 */
export function sendsPerMinute(sent: number[], now: number): number {
	const n = sent.length;
	const elapsed = (now - minuteOf(now)) / 60_000;
	return Math.round((sent[n - 1] ?? 0) + (sent[n - 2] ?? 0) * (1 - elapsed));
}

export async function adminStats(store: Store, tallies: MinuteCounts[][], depth: DepthSample[], now = Date.now()): Promise<AdminStats> {
	const [queue, email] = await Promise.all([queueSnapshot(store, now), emailRates(store, now)]);
	const hour = hourSeries(tallies, now);
	const sent = hour.sent.reduce((a, b) => a + b, 0);
	const failed = hour.failed.reduce((a, b) => a + b, 0);
	return {
		at: new Date(now).toISOString(),
		queue,
		dispatchers: tallies.length,
		sendsPerMinute: sendsPerMinute(hour.sent, now),
		rates: { failure: sent + failed ? failed / (sent + failed) : 0, bounce: email.bounceRate, complaint: email.complaintRate },
		// The samples end with the queue as read now, so the curves reach the table's figures.
		series: { minutes: hour.minutes, sent: hour.sent, failed: hour.failed, depth: [...depth, depthSample(queue, now)] }
	};
}
