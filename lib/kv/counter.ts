/**
 * Counters shared through the key-value store (Redis) that keep counting on this
 * node while Redis is unreachable, rather than failing the flow they protect. The
 * callback hears when the counting goes local and when it is shared again.
 */
import { MemoryKeyValue } from "./memory";
import type { KeyValue } from "./types";

export class SharedCounter {
	private readonly local = new MemoryKeyValue();
	private degraded = false;

	constructor(
		private readonly shared: KeyValue,
		private readonly onDegraded: (degraded: boolean) => void = () => undefined
	) {}

	async incr(key: string, ttlSeconds: number): Promise<{ count: number; ttl: number }> {
		if (this.shared.kind === "memory") return this.shared.incr(key, ttlSeconds);
		try {
			const counted = await this.shared.incr(key, ttlSeconds);
			if (this.degraded) {
				this.degraded = false;
				this.onDegraded(false);
			}
			return counted;
		} catch {
			if (!this.degraded) {
				this.degraded = true;
				this.onDegraded(true);
			}
			return this.local.incr(key, ttlSeconds);
		}
	}
}
