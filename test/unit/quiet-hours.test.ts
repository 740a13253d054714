import { isTimeZone, quietUntil } from "../../lib/notifications/quiet-hours";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe("quiet hours", () => {
	it.each([
		// [when (UTC), zone, start, end, held until (UTC) or undefined]
		["2026-01-10T22:30:00.000Z", "UTC", "22:00", "07:00", "2026-01-11T07:00:00.000Z"],
		["2026-01-10T03:15:30.000Z", "UTC", "22:00", "07:00", "2026-01-10T07:00:00.000Z"],
		["2026-01-10T07:00:00.000Z", "UTC", "22:00", "07:00", undefined],
		["2026-01-10T21:59:59.000Z", "UTC", "22:00", "07:00", undefined],
		["2026-01-10T13:00:00.000Z", "UTC", "12:00", "14:00", "2026-01-10T14:00:00.000Z"],
		["2026-01-10T15:00:00.000Z", "UTC", "12:00", "14:00", undefined],
		["2026-01-10T13:00:00.000Z", "UTC", "09:00", "09:00", undefined],
		// New York is UTC-5 in January: 23:00 local is 04:00 UTC, the end 07:00 local is 12:00 UTC.
		["2026-01-10T04:00:00.000Z", "America/New_York", "22:00", "07:00", "2026-01-10T12:00:00.000Z"],
		// Kolkata is UTC+5:30.
		["2026-01-10T17:00:00.000Z", "Asia/Kolkata", "22:00", "07:00", "2026-01-11T01:30:00.000Z"],
		// Vienna changes to summer time on 2026-03-29 at 02:00: the night began at UTC+1, ends at UTC+2.
		["2026-03-28T22:00:00.000Z", "Europe/Vienna", "22:00", "07:00", "2026-03-29T05:00:00.000Z"],
		// And back on 2026-10-25 at 03:00: the night began at UTC+2, ends at UTC+1.
		["2026-10-24T21:00:00.000Z", "Europe/Vienna", "22:00", "07:00", "2026-10-25T06:00:00.000Z"]
	])("should hold %s in %s (%s-%s) until %s", (when, zone, start, end, until) => {
		expect(iso(quietUntil(at(when), zone, { start, end }))).toBe(until);
	});

	it("should know IANA zones and refuse other names", () => {
		expect(isTimeZone("Europe/Vienna")).toBe(true);
		expect(isTimeZone("UTC")).toBe(true);
		expect(isTimeZone("Mars/Olympus")).toBe(false);
		expect(isTimeZone("")).toBe(false);
	});
});
