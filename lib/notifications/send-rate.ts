/**
 * A channel's send-rate limit shared by every dispatcher node through the key-value
 * store (Redis when configured): at most `perSecond` sends of that channel start in
 * any one-second window.
 * While Redis is unreachable each node counts alone, so mail keeps flowing; the
 * cluster may then exceed the rate by the number of nodes, which beats stopping.
 */
import type { KeyValue } from "../kv";
import { SharedCounter } from "../kv/counter";
import type { Channel } from "./model";

export class SendRateLimiter {
	private readonly counter: SharedCounter;

	constructor(
		kv: KeyValue,
		private readonly perSecond: number,
		private readonly now: () => number = Date.now,
		onDegraded: (degraded: boolean) => void = () => undefined,
		private readonly channel: Channel = "EMAIL"
	) {
		this.counter = new SharedCounter(kv, onDegraded);
	}

	/** `whileWaiting` is told before each wait how long it lasts (a caller holding a lease extends it). */
	async acquire(whileWaiting?: (ms: number) => Promise<void>): Promise<void> {
		if (this.perSecond <= 0) return;
		for (;;) {
			const now = this.now();
			const second = Math.floor(now / 1000);
			if ((await this.counter.incr(`send-rate:${this.channel}:${second}`, 2)).count <= this.perSecond) return;
			const ms = (second + 1) * 1000 - now + Math.floor(Math.random() * 20);
			await whileWaiting?.(ms);
			await new Promise(r => setTimeout(r, ms));
		}
	}
}
