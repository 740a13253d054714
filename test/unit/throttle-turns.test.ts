/**
 * ThrottleTurns (lib/notifications/throttle.ts): requests with one throttle key take
 * turns, other keys run alongside, a failed turn lets the next one go, nothing is kept.
 */
import { ThrottleTurns } from "../../lib/notifications/throttle";

describe("throttle turns", () => {
	it("should run one key's calls one after another, in order, and other keys alongside", async () => {
		const turns = new ThrottleTurns();
		const log: string[] = [];
		let release!: () => void;
		const first = turns.run("a", async () => {
			log.push("a1 start");
			await new Promise<void>(r => (release = r));
			log.push("a1 end");
			return 1;
		});
		const second = turns.run("a", async () => {
			log.push("a2");
			return 2;
		});
		const other = turns.run("b", async () => {
			log.push("b1");
			return 3;
		});
		await expect(other).resolves.toBe(3);
		expect(log).toEqual(["a1 start", "b1"]);
		release();
		await expect(Promise.all([first, second])).resolves.toEqual([1, 2]);
		expect(log).toEqual(["a1 start", "b1", "a1 end", "a2"]);
		await new Promise(r => setImmediate(r));
		expect(turns.size).toBe(0);
	});

	it("should give the next call its turn when one fails, and answer each its own result", async () => {
		const turns = new ThrottleTurns();
		const failed = turns.run("a", async () => {
			throw new Error("store refused");
		});
		const next = turns.run("a", async () => "stored");
		await expect(failed).rejects.toThrow("store refused");
		await expect(next).resolves.toBe("stored");
		await new Promise(r => setImmediate(r));
		expect(turns.size).toBe(0);
	});
});
