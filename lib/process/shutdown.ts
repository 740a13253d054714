/**
 * One orderly stop per process. The parts of a node that take work from outside (the
 * gateway's HTTP server, resume uploads, the dispatcher's claims) each register a
 * Drain. On the first SIGTERM or SIGINT every drain stops taking new work at once and
 * the work under way gets SHUTDOWN_GRACE_MS to finish; whatever is left then is ended
 * by its own drain (answered 503 SHUTTING_DOWN, its partial file removed). Only then
 * does the broker stop, so the services that work still needs are there until it ends.
 * A second signal exits at once.
 */
import type { Logger } from "moleculer";
import { LiveSet } from "../live-set";

export interface Drain {
	/** Takes no new work from now on; resolves once the work under way has ended. */
	begin(): Promise<void>;
	/** The grace is over: ends the work that is left (answered, cleaned up); resolves once it has. */
	abort(): Promise<void>;
}

/**
 * "edge" drains (the HTTP server) are ended after the "work" drains behind them, so
 * that an upload ended by the documents service reaches its client with that
 * service's own answer, after its file is gone.
 */
export type DrainLayer = "work" | "edge";

const LAYERS: readonly DrainLayer[] = ["work", "edge"];

/** How long ending the rest may take per layer before the stop goes on regardless. */
const ABORT_LIMIT_MS = 5000;

function within(ms: number, work: Promise<unknown>): Promise<boolean> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<boolean>(resolve => (timer = setTimeout(() => resolve(false), ms)));
	return Promise.race([work.then(() => true), late]).finally(() => clearTimeout(timer));
}

export class Shutdown {
	private readonly drains = new Map<Drain, DrainLayer>();
	private run: Promise<boolean> | null = null;
	private begun = false;

	/** True from the moment the stop begins: readiness reports it and new work is refused. */
	get stopping(): boolean {
		return this.begun;
	}

	add(drain: Drain, layer: DrainLayer = "work"): void {
		this.drains.set(drain, layer);
	}

	delete(drain: Drain): void {
		this.drains.delete(drain);
	}

	/**
	 * Runs the drains once (a later call gets the same result): true when everything
	 * ended within the grace, false when what was left had to be ended.
	 */
	drain(graceMs: number): Promise<boolean> {
		this.begun = true;
		this.run ??= this.drainAll(graceMs);
		return this.run;
	}

	private async drainAll(graceMs: number): Promise<boolean> {
		const drains = [...this.drains];
		const ended = Promise.allSettled(drains.map(([d]) => d.begin()));
		if (await within(graceMs, ended)) return true;
		for (const layer of LAYERS) {
			await within(ABORT_LIMIT_MS, Promise.allSettled(drains.filter(([, l]) => l === layer).map(([d]) => d.abort())));
		}
		return false;
	}
}

/**
 * Work under way that a stop waits for: each item is added when it starts and deleted
 * when it ends, whichever way. `end` is how an item is ended when the grace runs out;
 * it must lead to the item's deletion.
 */
export class InFlight<T extends object> implements Drain {
	// Not a Set: entries come and go with every request (lib/live-set.ts says why that matters).
	private readonly items = new LiveSet<T>();
	private waiting: (() => void)[] = [];

	constructor(private readonly end: (item: T) => void) {}

	get size(): number {
		return this.items.size;
	}

	add(item: T): void {
		this.items.add(item);
	}

	delete(item: T): void {
		if (!this.items.delete(item) || this.items.size > 0) return;
		const waiting = this.waiting;
		this.waiting = [];
		for (const resolve of waiting) resolve();
	}

	/** Resolves once nothing is under way. */
	settled(): Promise<void> {
		return this.items.size === 0 ? Promise.resolve() : new Promise(resolve => this.waiting.push(resolve));
	}

	begin(): Promise<void> {
		return this.settled();
	}

	abort(): Promise<void> {
		for (const item of [...this.items]) this.end(item);
		return this.settled();
	}
}

/**
 * The process's signal handling: the first SIGTERM or SIGINT runs `stop`, then exits 0
 * (1 when the stop failed); another signal during the stop exits 1 at once. Moleculer's
 * own handlers are off (moleculer.config.ts), so this is the only stop path.
 */
export function stopOnSignals(stop: () => Promise<void>, log: Logger): void {
	let stopping = false;
	const onSignal = (signal: NodeJS.Signals) => {
		if (stopping) {
			log.warn(`${signal} received during the stop: exiting now`);
			process.exit(1);
		}
		stopping = true;
		log.info(`${signal} received: stopping`);
		stop().then(
			() => process.exit(0),
			err => {
				log.error("The stop failed", { err });
				process.exit(1);
			}
		);
	};
	process.on("SIGTERM", onSignal);
	process.on("SIGINT", onSignal);
}
