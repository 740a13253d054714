/**
 * A send-rate limit shared by every dispatcher node through the key-value store
 * (Redis when configured): at most `perSecond` sends start in any one-second window.
 * While Redis is unreachable each node counts alone, so mail keeps flowing; the
 * cluster may then exceed the rate by the number of nodes, which beats stopping.
 */
import type { KeyValue } from "../kv";
import { MemoryKeyValue } from "../kv/memory";

export class SendRateLimiter {
	private readonly local = new MemoryKeyValue();
	private degraded = false;

	constructor(
		private readonly kv: KeyValue,
		private readonly perSecond: number,
		private readonly now: () => number = Date.now,
		private readonly onDegraded: (degraded: boolean) => void = () => undefined
	) {}

	private async count(key: string): Promise<number> {
		try {
			const { count } = await this.kv.incr(key, 2);
			if (this.degraded) {
				this.degraded = false;
				this.onDegraded(false);
			}
			return count;
		} catch {
			if (!this.degraded) {
				this.degraded = true;
				this.onDegraded(true);
			}
			return (await this.local.incr(key, 2)).count;
		}
	}

	async acquire(): Promise<void> {
		if (this.perSecond <= 0) return;
		for (;;) {
			const now = this.now();
			const second = Math.floor(now / 1000);
			if ((await this.count(`send-rate:${second}`)) <= this.perSecond) return;
			await new Promise(r => setTimeout(r, (second + 1) * 1000 - now + Math.floor(Math.random() * 20)));
		}
	}
}
