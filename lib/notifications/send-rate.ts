/**
 * A send-rate limit shared by every dispatcher node through the key-value store
 * (Redis when configured): at most `perSecond` sends start in any one-second window.
 * While Redis is unreachable each node counts alone, so mail keeps flowing; the
 * cluster may then exceed the rate by the number of nodes, which beats stopping.
 */
import type { KeyValue } from "../kv";
import { SharedCounter } from "../kv/counter";

export class SendRateLimiter {
	private readonly counter: SharedCounter;

	constructor(
		kv: KeyValue,
		private readonly perSecond: number,
		private readonly now: () => number = Date.now,
		onDegraded: (degraded: boolean) => void = () => undefined
	) {
		this.counter = new SharedCounter(kv, onDegraded);
	}

	async acquire(): Promise<void> {
		if (this.perSecond <= 0) return;
		for (;;) {
			const now = this.now();
			const second = Math.floor(now / 1000);
			if ((await this.counter.incr(`send-rate:${second}`, 2)).count <= this.perSecond) return;
			await new Promise(r => setTimeout(r, (second + 1) * 1000 - now + Math.floor(Math.random() * 20)));
		}
	}
}
