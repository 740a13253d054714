/**
 * A Redis outage must cost the send rate nothing but the one call that finds it: a
 * private redis-server is stopped under a 10-per-second send limit, and the limiter
 * keeps handing out close to 10 per second (not one per Redis timeout), then shares
 * its counts through Redis again once the server is back.
 */
import Redis from "ioredis";
import { RedisKeyValue } from "../../lib/kv/redis";
import { SendRateLimiter } from "../../lib/notifications/send-rate";
import { waitFor } from "../helpers/processes";
import { REDIS_SERVER, startRedisServer, type PrivateServer } from "../helpers/servers";
import { describeWithPrograms, uniqueName } from "../helpers/services";

const PER_SECOND = 10;
const MEASURE_MS = 3000;

describeWithPrograms({ "redis-server": REDIS_SERVER }, "send rate with Redis stopped", () => {
	let redis: PrivateServer;
	beforeAll(async () => {
		redis = await startRedisServer();
	});
	afterAll(() => redis.stop());

	it("should keep acquiring at the configured rate while Redis is down and share counts again when it is back", async () => {
		const prefix = `${uniqueName("circuit")}:`;
		const kv = new RedisKeyValue(redis.url, prefix);
		const raw = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
		raw.on("error", () => undefined);
		const states: boolean[] = [];
		const limiter = new SendRateLimiter(kv, PER_SECOND, Date.now, d => states.push(d));
		const sharedKeys = async () => (await raw.keys(`${prefix}send-rate:*`)).length;
		try {
			await raw.connect();
			await limiter.acquire();
			expect(await sharedKeys()).toBeGreaterThan(0);

			await redis.stop();
			// The one call that finds Redis gone waits for it; every later call counts locally at once.
			await waitFor("counting to go local", async () => {
				await limiter.acquire();
				return states.length > 0;
			});
			expect(states).toEqual([true]);
			const start = Date.now();
			let acquired = 0;
			while (Date.now() - start < MEASURE_MS) {
				await limiter.acquire();
				acquired++;
			}
			const perSecond = acquired / ((Date.now() - start) / 1000);
			// One Redis timeout per call (the failure this guards against) gives about 1 per second.
			expect(perSecond).toBeGreaterThanOrEqual(8);
			expect(states).toEqual([true]);

			await redis.start();
			await waitFor("counting to be shared again", async () => {
				await limiter.acquire();
				return states.at(-1) === false;
			}, 20000);
			expect(states).toEqual([true, false]);
			// The restarted server kept nothing, so a key there was counted after recovery.
			await waitFor("a shared count in Redis", async () => {
				await limiter.acquire();
				return (await sharedKeys()) > 0;
			});
		} finally {
			raw.disconnect();
			await kv.close();
		}
	}, 60000);
});
