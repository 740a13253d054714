/**
 * What this node's dispatcher settled, per minute, over the last hour: the console's
 * sends per minute and failure rate. Kept in memory by each dispatcher node, not
 * derived from the store: the store has no index on when events happened (adding one
 * would cost every status write), while the dispatcher sees each outcome as it
 * settles. The stats service sums every dispatcher node's tally, so the figures hold
 * for one process and for many; a node that restarts starts its hour again.
 */
export const SERIES_MINUTES = 60;

export const TALLIED = ["sent", "failed", "retried", "suppressed"] as const;
export type Tallied = (typeof TALLIED)[number];

// DELIVERED as a dispatcher records it: an IN_APP message stored in its inbox.
const OF_EVENT: Record<string, Tallied> = { SENT: "sent", DELIVERED: "sent", FAILED: "failed", ATTEMPT_FAILED: "retried", SUPPRESSED: "suppressed" };

/** Counts per minute: `minute` is the start of the minute in ms since the epoch. */
export interface MinuteCounts extends Record<Tallied, number> {
	minute: number;
}

export const minuteOf = (ms: number): number => Math.floor(ms / 60_000) * 60_000;

export class Throughput {
	private readonly minutes = new Map<number, MinuteCounts>();

	constructor(private readonly now: () => number = Date.now) {}

	/** Counts a settled outcome by the event that recorded it; other events are not outcomes. */
	count(event: string): void {
		const kind = OF_EVENT[event];
		if (!kind) return;
		const minute = minuteOf(this.now());
		let m = this.minutes.get(minute);
		if (!m) {
			m = { minute, sent: 0, failed: 0, retried: 0, suppressed: 0 };
			this.minutes.set(minute, m);
			this.forgetBefore(minute - SERIES_MINUTES * 60_000);
		}
		m[kind] += 1;
	}

	/** The minutes of the last hour that counted anything, oldest first. */
	lastHour(): MinuteCounts[] {
		const from = minuteOf(this.now()) - (SERIES_MINUTES - 1) * 60_000;
		return [...this.minutes.values()].filter(m => m.minute >= from).sort((a, b) => a.minute - b.minute);
	}

	private forgetBefore(minute: number): void {
		for (const key of this.minutes.keys()) if (key < minute) this.minutes.delete(key);
	}
}

/** One series per tally over the last hour, a value for every minute (zero when none), oldest first; tallies of several nodes add up. */
export function hourSeries(tallies: MinuteCounts[][], now = Date.now()): { minutes: string[] } & Record<Tallied, number[]> {
	const first = minuteOf(now) - (SERIES_MINUTES - 1) * 60_000;
	const out = { minutes: [] as string[], sent: [] as number[], failed: [] as number[], retried: [] as number[], suppressed: [] as number[] };
	for (let i = 0; i < SERIES_MINUTES; i++) {
		out.minutes.push(new Date(first + i * 60_000).toISOString());
		for (const k of TALLIED) out[k].push(0);
	}
	for (const tally of tallies) {
		for (const m of tally) {
			const i = (m.minute - first) / 60_000;
			if (!Number.isInteger(i) || i < 0 || i >= SERIES_MINUTES) continue;
			for (const k of TALLIED) out[k][i] += m[k];
		}
	}
	return out;
}
