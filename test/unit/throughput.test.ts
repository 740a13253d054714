/**
 * The dispatchers' per-minute tallies and the console's figures made from them,
 * on a frozen clock.
 */
import { hourSeries, SERIES_MINUTES, Throughput } from "../../lib/notifications/throughput";
import { sendsPerMinute } from "../../lib/notifications/stats";

const T0 = Date.parse("2026-01-01T10:00:00.000Z");

describe("throughput", () => {
	it("should count outcomes per minute and ignore events that are not outcomes", () => {
		let now = T0 + 5_000;
		const t = new Throughput(() => now);
		// DELIVERED as a dispatcher settles it is an IN_APP message stored: sent.
		for (const e of ["SENT", "SENT", "FAILED", "ATTEMPT_FAILED", "SUPPRESSED", "QUEUED", "LEASE_EXPIRED", "DELIVERED"]) t.count(e);
		now = T0 + 65_000;
		t.count("SENT");
		expect(t.lastHour()).toEqual([
			{ minute: T0, sent: 3, failed: 1, retried: 1, suppressed: 1 },
			{ minute: T0 + 60_000, sent: 1, failed: 0, retried: 0, suppressed: 0 }
		]);
	});

	it("should forget minutes older than the hour when a new minute starts", () => {
		let now = T0;
		const t = new Throughput(() => now);
		t.count("SENT");
		now = T0 + SERIES_MINUTES * 60_000;
		t.count("FAILED");
		expect(t.lastHour()).toEqual([{ minute: now, sent: 0, failed: 1, retried: 0, suppressed: 0 }]);
	});

	it("should add up several nodes' tallies into one value per minute, zero where none counted", () => {
		const now = T0 + 30_000;
		const a = [{ minute: T0, sent: 3, failed: 1, retried: 0, suppressed: 0 }];
		const b = [
			{ minute: T0, sent: 2, failed: 0, retried: 0, suppressed: 0 },
			{ minute: T0 - 120_000, sent: 7, failed: 0, retried: 0, suppressed: 0 },
			{ minute: T0 - SERIES_MINUTES * 60_000, sent: 99, failed: 0, retried: 0, suppressed: 0 }
		];
		const s = hourSeries([a, b], now);
		expect(s.minutes).toHaveLength(SERIES_MINUTES);
		expect(s.minutes[SERIES_MINUTES - 1]).toBe(new Date(T0).toISOString());
		expect(s.sent[SERIES_MINUTES - 1]).toBe(5);
		expect(s.failed[SERIES_MINUTES - 1]).toBe(1);
		expect(s.sent[SERIES_MINUTES - 3]).toBe(7);
		expect(s.sent.reduce((x, y) => x + y, 0)).toBe(12);
	});

	it("should take this minute's sends plus the part of the last minute still inside the window", () => {
		expect(sendsPerMinute([0, 60, 10], T0 + 15_000)).toBe(10 + 45);
		expect(sendsPerMinute([60, 10], T0)).toBe(70);
		expect(sendsPerMinute([4], T0 + 59_999)).toBe(4);
	});
});
