/**
 * The lease-worker loop both the notification dispatcher and the outbound webhook
 * deliverer run (lib/process/lease-worker.ts), against an in-memory source of items
 * whose handling ends when the test says so. Poll intervals are an hour unless a test
 * is about the interval (then on Jest's fake clock): anything that happens does so
 * because of a claim, a finish or a wake, never because time passed.
 */
import { LeaseWorker, type LeaseWorkerOptions } from "../../lib/process/lease-worker";

const HOUR = 3_600_000;

interface Pending {
	resolve(): void;
	reject(err: Error): void;
}

const sources: Source[] = [];

/** A queue of numbered items; each handling waits until finish() or fail() ends it. */
class Source {
	readonly queue: number[] = [];
	/** The `free` of every claim, in order. */
	readonly claims: number[] = [];
	readonly handled: number[] = [];
	readonly claimErrors: unknown[] = [];
	readonly handleErrors: Array<[unknown, number]> = [];
	readonly running = new Map<number, Pending>();
	maxRunning = 0;
	failNextClaim: Error | null = null;

	constructor(count = 0) {
		sources.push(this);
		for (let i = 1; i <= count; i++) this.queue.push(i);
	}

	options(extra: Partial<LeaseWorkerOptions<number>> = {}): LeaseWorkerOptions<number> {
		return {
			concurrency: 3,
			pollMs: HOUR,
			claim: async free => {
				this.claims.push(free);
				if (this.failNextClaim) {
					const err = this.failNextClaim;
					this.failNextClaim = null;
					throw err;
				}
				return this.queue.splice(0, free);
			},
			handle: item =>
				new Promise<void>((resolve, reject) => {
					this.running.set(item, { resolve, reject });
					this.maxRunning = Math.max(this.maxRunning, this.running.size);
				}).finally(() => {
					this.running.delete(item);
					this.handled.push(item);
				}),
			onClaimError: err => this.claimErrors.push(err),
			onHandleError: (err, item) => this.handleErrors.push([err, item]),
			...extra
		};
	}

	finish(item: number): void {
		this.running.get(item)!.resolve();
	}

	fail(item: number, err: Error): void {
		this.running.get(item)!.reject(err);
	}
}

/** Lets every promise chain that can move on do so (a few turns of the event loop). */
async function settle(): Promise<void> {
	for (let i = 0; i < 20; i++) await new Promise(resolve => setImmediate(resolve));
}

/** The same without the event loop, for tests on Jest's fake clock. */
async function microtasks(): Promise<void> {
	for (let i = 0; i < 50; i++) await Promise.resolve();
}

async function until(what: string, check: () => boolean): Promise<void> {
	for (let i = 0; i < 1000 && !check(); i++) await new Promise(resolve => setImmediate(resolve));
	if (!check()) throw new Error(`never happened: ${what}`);
}

describe("lease worker", () => {
	const workers: LeaseWorker<number>[] = [];
	function started(opts: LeaseWorkerOptions<number>): LeaseWorker<number> {
		const w = new LeaseWorker(opts);
		workers.push(w);
		w.start();
		return w;
	}
	afterEach(async () => {
		jest.useRealTimers();
		const stops = workers.splice(0).map(w => w.stop());
		for (const src of sources.splice(0)) for (const item of src.running.values()) item.resolve();
		await Promise.all(stops);
	});

	it("should never handle more items at once than its concurrency, claiming only free slots, and go on as items finish", async () => {
		const src = new Source(8);
		const w = started(src.options({ concurrency: 3 }));
		await until("three under way", () => src.running.size === 3);
		expect(src.claims).toEqual([3]);
		expect(w.busy).toBe(3);
		while (src.handled.length < 8) {
			const done = src.handled.length + 1;
			const [first] = src.running.keys();
			src.finish(first);
			await until("a slot taken again or the queue empty", () => src.handled.length === done && src.running.size === Math.min(3, 8 - done));
		}
		expect(src.maxRunning).toBe(3);
		expect(src.handled).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
		// Every claim after the first asked for the one slot a finish had freed.
		expect(src.claims.length).toBeGreaterThanOrEqual(6);
		expect(src.claims.slice(1)).toEqual(src.claims.slice(1).map(() => 1));
	});

	it("should claim at once when woken while idle", async () => {
		const src = new Source();
		const w = started(src.options());
		await until("the first, empty claim", () => src.claims.length === 1);
		await settle();
		expect(src.claims).toEqual([3]);
		src.queue.push(1);
		w.wake();
		await until("the item under way", () => src.running.has(1));
		expect(src.claims.slice(0, 2)).toEqual([3, 3]);
	});

	it("should not claim again on a finish while idle after an empty claim, unless wakeOnFinish asks it to", async () => {
		for (const wakeOnFinish of [false, true]) {
			const src = new Source(1);
			started(src.options({ wakeOnFinish }));
			await until("the item under way and an empty claim after it", () => src.running.has(1) && src.claims.length === 2);
			src.finish(1);
			await settle();
			expect(src.handled).toEqual([1]);
			expect(src.claims).toEqual(wakeOnFinish ? [3, 2, 3] : [3, 2]);
		}
	});

	it("should wait on stop for the items under way, and claim nothing after", async () => {
		const src = new Source(5);
		const w = started(src.options({ concurrency: 2 }));
		await until("two under way", () => src.running.size === 2);
		let stopped = false;
		const stop = w.stop().then(() => (stopped = true));
		expect(w.running).toBe(false);
		src.finish(1);
		await settle();
		expect(stopped).toBe(false);
		src.finish(2);
		await stop;
		expect(src.handled).toEqual([1, 2]);
		expect(src.claims).toEqual([2]);
		expect(src.queue).toEqual([3, 4, 5]);
		await expect(w.stop()).resolves.toBeUndefined();
	});

	it("should report a failed claim, claim again only after the poll interval, and then go on", async () => {
		jest.useFakeTimers();
		const src = new Source(2);
		const down = new Error("store down");
		src.failNextClaim = down;
		started(src.options({ pollMs: 1000 }));
		await microtasks();
		expect(src.claimErrors).toEqual([down]);
		expect(src.claims).toEqual([3]);
		await jest.advanceTimersByTimeAsync(999);
		await microtasks();
		expect(src.claims).toEqual([3]);
		await jest.advanceTimersByTimeAsync(1);
		await microtasks();
		expect(src.claims.slice(0, 2)).toEqual([3, 3]);
		expect([...src.running.keys()]).toEqual([1, 2]);
		expect(src.claimErrors).toHaveLength(1);
	});

	it("should report a failed item with the item and free its slot", async () => {
		const src = new Source(2);
		started(src.options({ concurrency: 1 }));
		await until("the first under way", () => src.running.has(1));
		const err = new Error("provider down");
		src.fail(1, err);
		await until("the second under way", () => src.running.has(2));
		expect(src.handleErrors).toEqual([[err, 1]]);
	});

	it("should report an item whose handler throws at once, and go on", async () => {
		const src = new Source(2);
		const opts = src.options({ concurrency: 1 });
		const handle = opts.handle;
		opts.handle = item => {
			if (item === 1) throw new Error("bad item");
			return handle(item);
		};
		started(opts);
		await until("the second under way", () => src.running.has(2));
		expect(src.handleErrors).toEqual([[expect.objectContaining({ message: "bad item" }), 1]]);
	});

	it("should wait for an item to finish rather than claim while defer says so", async () => {
		const src = new Source(10);
		const asked: Array<[number, number]> = [];
		started(
			src.options({
				concurrency: 4,
				defer: (free, busy) => {
					asked.push([free, busy]);
					return free < 2;
				}
			})
		);
		await until("four under way", () => src.running.size === 4);
		src.finish(1);
		await settle();
		expect(src.claims).toEqual([4]);
		expect(asked).toEqual([[1, 3]]);
		src.finish(2);
		await until("two more claimed", () => src.claims.length === 2);
		expect(src.claims).toEqual([4, 2]);
		expect(asked).toEqual([
			[1, 3],
			[2, 2]
		]);
	});

	it("should claim nothing until ready answers, and pass again at once when it answers false", async () => {
		const src = new Source(1);
		const answers: Array<(ok: boolean) => void> = [];
		const w = started(src.options({ ready: () => new Promise<boolean>(resolve => answers.push(resolve)) }));
		await until("ready asked", () => answers.length === 1);
		expect(src.claims).toEqual([]);
		answers[0](false);
		await until("ready asked again", () => answers.length === 2);
		expect(src.claims).toEqual([]);
		answers[1](true);
		await until("the item under way", () => src.running.has(1));
		expect(src.claims).toEqual([3]);
		await until("ready asked for the next pass", () => answers.length === 3);
		const stop = w.stop();
		src.finish(1);
		answers[2](false);
		await stop;
		expect(src.claims).toEqual([3]);
		expect(answers).toHaveLength(3);
	});

	it("should sweep on every pass, also with no slot free, and count a failed sweep as a failed claim", async () => {
		const src = new Source(3);
		let sweeps = 0;
		let failSweep = false;
		const w = started(
			src.options({
				concurrency: 1,
				sweep: async () => {
					sweeps += 1;
					if (failSweep) throw new Error("sweep failed");
				}
			})
		);
		await until("the first under way", () => src.running.has(1));
		expect(sweeps).toBe(1);
		w.wake();
		await until("a second sweep", () => sweeps === 2);
		await settle();
		expect(src.claims).toEqual([1]);
		failSweep = true;
		src.finish(1);
		await until("a third sweep", () => sweeps === 3);
		await settle();
		expect(src.claimErrors).toEqual([expect.objectContaining({ message: "sweep failed" })]);
		expect(src.claims).toEqual([1]);
		failSweep = false;
		w.wake();
		await until("the second under way", () => src.running.has(2));
		expect(src.claims).toEqual([1, 1]);
	});
});
