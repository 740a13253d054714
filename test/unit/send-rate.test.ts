import { MemoryKeyValue } from "../../lib/kv/memory";
import { SendRateLimiter } from "../../lib/notifications/send-rate";
import type { KeyValue } from "../../lib/kv";
import { UpstreamError } from "../../lib/errors";

/** A key-value store whose Redis is down: every call fails as RedisKeyValue fails. */
function downKv(): KeyValue {
	const fail = () => Promise.reject(new UpstreamError("The key-value store is unavailable.", 5));
	return { kind: "redis", setNX: fail, set: fail, get: fail, getDel: fail, del: fail, incr: fail, ping: fail, close: async () => undefined };
}

describe("send-rate limit", () => {
	it("should let the first perSecond sends of a second through and hold the next one", async () => {
		let now = 1_000_000;
		const limiter = new SendRateLimiter(new MemoryKeyValue(() => now), 3, () => now);
		for (let i = 0; i < 3; i++) await limiter.acquire();
		let fourth = false;
		const p = limiter.acquire().then(() => (fourth = true));
		await new Promise(r => setImmediate(r));
		expect(fourth).toBe(false);
		now += 1000;
		await p;
		expect(fourth).toBe(true);
	});

	it("should keep limiting on this node, and say so, when the shared store is down", async () => {
		const states: boolean[] = [];
		let now = 5_000_000;
		const limiter = new SendRateLimiter(downKv(), 2, () => now, d => states.push(d));
		await limiter.acquire();
		await limiter.acquire();
		let third = false;
		const p = limiter.acquire().then(() => (third = true));
		await new Promise(r => setImmediate(r));
		expect(third).toBe(false);
		expect(states).toEqual([true]);
		now += 1000;
		await p;
		expect(third).toBe(true);
	});
});
