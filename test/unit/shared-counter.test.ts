/**
 * The shared counter's circuit on a frozen clock. The shared store here is a stand-in
 * for Redis that the test switches off and on and whose calls it counts (the same
 * circuit against a real, stopped redis-server is in test/integration/kv-circuit.test.ts).
 */
import { SharedCounter } from "../../lib/kv/counter";
import { MemoryKeyValue } from "../../lib/kv/memory";
import type { KeyValue } from "../../lib/kv";
import { UpstreamError } from "../../lib/errors";

interface Switchable extends KeyValue {
	up: boolean;
	calls: { incr: number; ping: number };
	/** When set, pings wait for it (a trial still under way). */
	pingGate: Promise<void> | null;
}

function switchable(): Switchable {
	const inner = new MemoryKeyValue();
	const down = () => Promise.reject(new UpstreamError("The key-value store is unavailable.", 5));
	const kv: Switchable = {
		kind: "redis",
		up: true,
		calls: { incr: 0, ping: 0 },
		pingGate: null,
		setNX: down,
		set: down,
		get: down,
		getDel: down,
		del: down,
		close: async () => undefined,
		async incr(key, ttl) {
			kv.calls.incr++;
			return kv.up ? inner.incr(key, ttl) : down();
		},
		async ping() {
			kv.calls.ping++;
			if (kv.pingGate) await kv.pingGate;
			return kv.up ? undefined : down();
		}
	};
	return kv;
}

const settle = () => new Promise(r => setImmediate(r));

describe("shared counter circuit", () => {
	let now: number;
	let kv: Switchable;
	let states: boolean[];
	let counter: SharedCounter;
	beforeEach(() => {
		now = 1_000_000;
		kv = switchable();
		states = [];
		counter = new SharedCounter(kv, d => states.push(d), { now: () => now, probeIntervalMs: 500 });
	});

	it("should count through the shared store while it answers", async () => {
		await expect(counter.incr("k", 60)).resolves.toMatchObject({ count: 1 });
		await expect(counter.incr("k", 60)).resolves.toMatchObject({ count: 2 });
		expect(kv.calls.incr).toBe(2);
		expect(states).toEqual([]);
	});

	it("should count locally without calling the shared store again when one call has failed", async () => {
		kv.up = false;
		const counts = [];
		for (let i = 0; i < 50; i++) counts.push((await counter.incr("k", 60)).count);
		expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
		expect(kv.calls).toEqual({ incr: 1, ping: 0 });
		expect(states).toEqual([true]);
	});

	it("should try the shared store once per interval, in the background, while it stays down", async () => {
		kv.up = false;
		await counter.incr("k", 60);
		now += 499;
		await counter.incr("k", 60);
		expect(kv.calls.ping).toBe(0);
		now += 1;
		let release!: () => void;
		kv.pingGate = new Promise(r => (release = r));
		// The trial is under way: these calls neither wait for it nor start another.
		const counts = await Promise.all(Array.from({ length: 10 }, () => counter.incr("k", 60)));
		expect(counts.map(c => c.count)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
		expect(kv.calls.ping).toBe(1);
		release();
		await settle();
		expect(states).toEqual([true]);
		now += 499;
		await counter.incr("k", 60);
		expect(kv.calls.ping).toBe(1);
		now += 1;
		await counter.incr("k", 60);
		await settle();
		expect(kv.calls).toEqual({ incr: 1, ping: 2 });
		expect(states).toEqual([true]);
	});

	it("should share counting again, and say so once, when a trial succeeds", async () => {
		kv.up = false;
		await counter.incr("k", 60);
		kv.up = true;
		now += 500;
		await expect(counter.incr("k", 60)).resolves.toMatchObject({ count: 2 });
		await settle();
		expect(states).toEqual([true, false]);
		await expect(counter.incr("shared", 60)).resolves.toMatchObject({ count: 1 });
		expect(kv.calls).toEqual({ incr: 2, ping: 1 });
		kv.up = false;
		await counter.incr("k", 60);
		await counter.incr("k", 60);
		expect(states).toEqual([true, false, true]);
	});

	it("should expire local counts on the same clock", async () => {
		kv.up = false;
		await counter.incr("w", 2);
		await counter.incr("w", 2);
		now += 2000;
		await expect(counter.incr("w", 2)).resolves.toEqual({ count: 1, ttl: 2 });
	});
});
