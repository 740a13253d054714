/**
 * A send-rate limit shared by every dispatcher node through the key-value store
 * (Redis when configured): at most `perSecond` sends start in any one-second window.
 */
import type { KeyValue } from "../kv";

export class SendRateLimiter {
	constructor(
		private readonly kv: KeyValue,
		private readonly perSecond: number,
		private readonly now: () => number = Date.now
	) {}

	async acquire(): Promise<void> {
		if (this.perSecond <= 0) return;
		for (;;) {
			const now = this.now();
			const second = Math.floor(now / 1000);
			const { count } = await this.kv.incr(`send-rate:${second}`, 2);
			if (count <= this.perSecond) return;
			await new Promise(r => setTimeout(r, (second + 1) * 1000 - now + Math.floor(Math.random() * 20)));
		}
	}
}
