import Redis from "ioredis";
import { UpstreamError } from "../errors";
import type { KeyValue } from "./types";

const INCR_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

const READY_TIMEOUT_MS = 1000;
/** A server that holds the connection open but stops answering fails a call, never hangs it. */
const COMMAND_TIMEOUT_MS = 1000;

/** Every key is prefixed, so several deployments (and test runs) can share one server. */
export class RedisKeyValue implements KeyValue {
	readonly kind = "redis" as const;
	readonly client: Redis;

	constructor(url: string, private readonly prefix: string) {
		this.client = new Redis(url, {
			lazyConnect: false,
			maxRetriesPerRequest: 1,
			enableOfflineQueue: false,
			connectTimeout: 2000,
			commandTimeout: COMMAND_TIMEOUT_MS,
			retryStrategy: times => Math.min(times * 200, 2000)
		});
		this.client.on("error", () => undefined);
	}

	private k(key: string): string {
		return `${this.prefix}${key}`;
	}

	/** Commands fail fast while Redis is away (no offline queue), so wait briefly for the connection. */
	private ready(): Promise<void> {
		if (this.client.status === "ready") return Promise.resolve();
		return new Promise((resolve, reject) => {
			const done = (err?: Error) => {
				clearTimeout(timer);
				this.client.off("ready", onReady);
				if (err) reject(err);
				else resolve();
			};
			const onReady = () => done();
			const timer = setTimeout(() => done(new Error("Redis is not connected")), READY_TIMEOUT_MS);
			this.client.once("ready", onReady);
		});
	}

	private async run<R>(op: () => Promise<R>): Promise<R> {
		try {
			await this.ready();
			return await op();
		} catch {
			throw new UpstreamError("The key-value store is unavailable.", 5);
		}
	}

	async setNX(key: string, value: string, ttlSeconds: number): Promise<boolean> {
		return this.run(async () => (await this.client.set(this.k(key), value, "EX", ttlSeconds, "NX")) === "OK");
	}

	async set(key: string, value: string, ttlSeconds: number): Promise<void> {
		await this.run(() => this.client.set(this.k(key), value, "EX", ttlSeconds));
	}

	async get(key: string): Promise<string | null> {
		return this.run(() => this.client.get(this.k(key)));
	}

	async getDel(key: string): Promise<string | null> {
		return this.run(() => this.client.getdel(this.k(key)));
	}

	async del(key: string): Promise<void> {
		await this.run(() => this.client.del(this.k(key)));
	}

	async incr(key: string, ttlSeconds: number): Promise<{ count: number; ttl: number }> {
		return this.run(async () => {
			const [count, ttl] = (await this.client.eval(INCR_SCRIPT, 1, this.k(key), ttlSeconds)) as [number, number];
			return { count, ttl };
		});
	}

	async ping(): Promise<void> {
		await this.run(() => this.client.ping());
	}

	async close(): Promise<void> {
		this.client.disconnect();
	}
}
