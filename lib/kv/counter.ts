/**
 * Counters shared through the key-value store (Redis) that keep counting on this
 * node while Redis is unreachable, rather than failing the flow they protect.
 *
 * A circuit keeps an outage from costing a timeout per call: the first failure opens
 * it, and from then on every call counts locally at once. While it is open, at most
 * one trial (a ping) runs at a time, at most once per `probeIntervalMs`, in the
 * background of a call that has already been answered locally; when Redis answers
 * it, the circuit closes and counting is shared again. The callback hears each
 * transition once: true when counting goes local, false when it is shared again.
 */
import { MemoryKeyValue } from "./memory";
import type { KeyValue } from "./types";

export interface SharedCounterOptions {
	/** Milliseconds between trials while the circuit is open. */
	probeIntervalMs?: number;
	now?: () => number;
}

export const DEFAULT_PROBE_INTERVAL_MS = 1000;

export class SharedCounter {
	private readonly local: MemoryKeyValue;
	private readonly now: () => number;
	private readonly probeIntervalMs: number;
	private open = false;
	private probing = false;
	private nextProbeAt = 0;

	constructor(
		private readonly shared: KeyValue,
		private readonly onDegraded: (degraded: boolean) => void = () => undefined,
		options: SharedCounterOptions = {}
	) {
		this.now = options.now ?? Date.now;
		this.probeIntervalMs = options.probeIntervalMs ?? DEFAULT_PROBE_INTERVAL_MS;
		this.local = new MemoryKeyValue(this.now);
	}

	async incr(key: string, ttlSeconds: number): Promise<{ count: number; ttl: number }> {
		if (this.shared.kind === "memory") return this.shared.incr(key, ttlSeconds);
		if (this.open) {
			this.probe();
			return this.local.incr(key, ttlSeconds);
		}
		try {
			return await this.shared.incr(key, ttlSeconds);
		} catch {
			this.trip();
			return this.local.incr(key, ttlSeconds);
		}
	}

	private trip(): void {
		this.nextProbeAt = this.now() + this.probeIntervalMs;
		if (this.open) return;
		this.open = true;
		this.onDegraded(true);
	}

	private probe(): void {
		if (this.probing || this.now() < this.nextProbeAt) return;
		this.probing = true;
		this.shared.ping().then(
			() => {
				this.probing = false;
				if (!this.open) return;
				this.open = false;
				this.onDegraded(false);
			},
			() => {
				this.probing = false;
				this.nextProbeAt = this.now() + this.probeIntervalMs;
			}
		);
	}
}
