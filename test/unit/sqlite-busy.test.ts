import { isBusy, whileBusy } from "../../lib/store/sqlite";

/** What node:sqlite throws: code ERR_SQLITE_ERROR, errcode SQLite's (extended) result code. */
function sqliteError(errcode: number, message: string): Error {
	return Object.assign(new Error(message), { code: "ERR_SQLITE_ERROR", errcode });
}

const BUSY = 5;
const BUSY_RECOVERY = 5 | (1 << 8);
const LOCKED = 6;

describe("asking SQLite again while it is busy", () => {
	it("counts SQLITE_BUSY and its extended codes as busy, nothing else", () => {
		expect(isBusy(sqliteError(BUSY, "database is locked"))).toBe(true);
		expect(isBusy(sqliteError(BUSY_RECOVERY, "database is locked"))).toBe(true);
		expect(isBusy(sqliteError(LOCKED, "database table is locked"))).toBe(false);
		expect(isBusy(new Error("database is locked"))).toBe(false);
		expect(isBusy(null)).toBe(false);
	});

	it("runs the work again after a busy answer, and returns its result", () => {
		let calls = 0;
		const result = whileBusy(
			() => {
				calls++;
				if (calls < 3) throw sqliteError(calls === 1 ? BUSY : BUSY_RECOVERY, "database is locked");
				return "opened";
			},
			1000,
			1,
			5
		);
		expect(result).toBe("opened");
		expect(calls).toBe(3);
	});

	it("throws any other error at once", () => {
		let calls = 0;
		const err = sqliteError(LOCKED, "database table is locked");
		expect(() =>
			whileBusy(
				() => {
					calls++;
					throw err;
				},
				1000,
				1,
				5
			)
		).toThrow(err);
		expect(calls).toBe(1);
	});

	it("gives up with the last busy error once its time is up, having slept in between", () => {
		let calls = 0;
		const started = Date.now();
		expect(() =>
			whileBusy(
				() => {
					calls++;
					throw sqliteError(BUSY, "database is locked");
				},
				100,
				1,
				20
			)
		).toThrow("database is locked");
		const took = Date.now() - started;
		expect(took).toBeGreaterThanOrEqual(100);
		expect(took).toBeLessThan(1000);
		// 1, 2, 4, 8, 16, then every 20 ms: about a dozen tries in 100 ms, not thousands.
		expect(calls).toBeGreaterThan(3);
		expect(calls).toBeLessThan(30);
	});
});
