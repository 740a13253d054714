/**
 * The loop of a worker that claims leased items from a shared store and handles them
 * with bounded concurrency: the notification dispatcher and the outbound webhook
 * deliverer. It claims only as many items as it has free slots, starts each one at
 * once, idles when a claim found nothing (or every slot is taken) until wake() or the
 * poll interval, and on stop claims nothing more and waits for the items under way.
 * A failed claim is reported and idles like an empty one, so a broken store is asked
 * again once per poll interval, not in a tight loop.
 *
 * What differs between the workers is in the options: how an item is claimed and
 * handled, a pass that waits for the storage before claiming (ready), a claim that waits
 * for more free slots to batch them (defer), work done on every pass before the claim
 * (sweep) and whether every finished item wakes the loop (wakeOnFinish).
 */

export interface LeaseWorkerOptions<T> {
	/** Items handled at once, at most. */
	concurrency: number;
	/** How long the loop idles when a claim found nothing, unless woken. */
	pollMs: number;
	/** Claims up to `free` items (at least one); they are this worker's until handled. */
	claim(free: number): Promise<T[]>;
	/** Handles one claimed item. */
	handle(item: T): Promise<void>;
	/** A claim (or a sweep) failed: the pass claims nothing and the loop idles. */
	onClaimError(err: unknown): void;
	/** Handling an item failed; its slot is free again. */
	onHandleError(err: unknown, item: T): void;
	/**
	 * Before every pass. False: the pass is skipped and the loop starts another at once
	 * (it waited for what it needed, or the worker is stopping).
	 */
	ready?(): Promise<boolean>;
	/**
	 * With `free` slots free and `busy` items under way (both at least one): true to wait
	 * for one of those to finish rather than claim now. Only a finish ends that wait.
	 */
	defer?(free: number, busy: number): boolean;
	/** Runs on every pass before the claim, also when no slot is free; a failure is a claim error. */
	sweep?(): Promise<void>;
	/**
	 * Every finished item wakes the loop, also from an idle after an empty claim. Without
	 * it, a finish wakes the loop only when it idles with every slot taken.
	 */
	wakeOnFinish?: boolean;
}

export class LeaseWorker<T> {
	private readonly inflight = new Set<Promise<void>>();
	private active = false;
	private loop: Promise<void> | null = null;
	private wakeUp: (() => void) | null = null;
	private stopped: Promise<void> | null = null;

	constructor(private readonly opts: LeaseWorkerOptions<T>) {}

	/** True from start() until stop() is called. */
	get running(): boolean {
		return this.active;
	}

	/** Items under way. */
	get busy(): number {
		return this.inflight.size;
	}

	start(): void {
		if (this.active || this.stopped) return;
		this.active = true;
		this.loop = this.run();
	}

	/** Ends an idle wait at once; does nothing while the loop is not idle. */
	wake(): void {
		const w = this.wakeUp;
		this.wakeUp = null;
		w?.();
	}

	/** Nothing new is claimed; resolves once the items under way are handled. Later calls wait for the same stop. */
	stop(): Promise<void> {
		this.stopped ??= (async () => {
			this.active = false;
			this.wake();
			await this.loop;
			await Promise.allSettled(this.inflight);
		})();
		return this.stopped;
	}

	private async run(): Promise<void> {
		const { concurrency, pollMs, defer, sweep } = this.opts;
		while (this.active) {
			if (this.opts.ready && !(await this.opts.ready())) continue;
			const busy = this.inflight.size;
			const free = concurrency - busy;
			if (free > 0 && busy > 0 && defer?.(free, busy)) {
				await Promise.race(this.inflight);
				continue;
			}
			let batch: T[] = [];
			try {
				await sweep?.();
				if (free > 0) batch = await this.opts.claim(free);
			} catch (err) {
				this.opts.onClaimError(err);
			}
			for (const item of batch) this.begin(item);
			if (batch.length === 0 || this.inflight.size >= concurrency) await this.idle(pollMs);
		}
	}

	private begin(item: T): void {
		let work: Promise<void>;
		try {
			work = this.opts.handle(item);
		} catch (err) {
			work = Promise.reject(err);
		}
		const job: Promise<void> = work
			.catch(err => this.opts.onHandleError(err, item))
			.finally(() => {
				const wasFull = this.inflight.size >= this.opts.concurrency;
				this.inflight.delete(job);
				if (this.opts.wakeOnFinish || wasFull) this.wake();
			});
		this.inflight.add(job);
	}

	/** Waits for wake() or the poll interval, whichever comes first. */
	private idle(ms: number): Promise<void> {
		return new Promise<void>(resolve => {
			const timer = setTimeout(() => {
				this.wakeUp = null;
				resolve();
			}, ms);
			this.wakeUp = () => {
				clearTimeout(timer);
				resolve();
			};
		});
	}
}
