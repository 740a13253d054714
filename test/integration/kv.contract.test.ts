/**
 * One contract for the short-lived key store: in-process and Redis (real server,
 * keys under a prefix unique to this run).
 */
import net from "node:net";
import Redis from "ioredis";
import { MemoryKeyValue } from "../../lib/kv/memory";
import { RedisKeyValue } from "../../lib/kv/redis";
import type { KeyValue } from "../../lib/kv";
import { describeWith, REDIS_URL, uniqueName } from "../helpers/services";

function contract(name: string, make: () => { kv: KeyValue; cleanup: () => Promise<void> }) {
	describe(`key-value contract: ${name}`, () => {
		let kv: KeyValue;
		let cleanup: () => Promise<void>;
		beforeAll(() => ({ kv, cleanup } = make()));
		afterAll(() => cleanup());

		it("should set only once when using setNX", async () => {
			await expect(kv.setNX("k1", "a", 60)).resolves.toBe(true);
			await expect(kv.setNX("k1", "b", 60)).resolves.toBe(false);
			await expect(kv.get("k1")).resolves.toBe("a");
		});

		it("should hand the value to exactly one of many concurrent getDel callers", async () => {
			await kv.set("k2", "v", 60);
			const got = await Promise.all(Array.from({ length: 50 }, () => kv.getDel("k2")));
			expect(got.filter(v => v === "v")).toHaveLength(1);
			await expect(kv.get("k2")).resolves.toBeNull();
		});

		it("should count and keep the window when incrementing", async () => {
			const a = await kv.incr("k3", 30);
			const b = await kv.incr("k3", 30);
			expect([a.count, b.count]).toEqual([1, 2]);
			expect(b.ttl).toBeGreaterThan(0);
			expect(b.ttl).toBeLessThanOrEqual(30);
		});

		it("should forget a key when deleted", async () => {
			await kv.set("k4", "v", 60);
			await kv.del("k4");
			await expect(kv.get("k4")).resolves.toBeNull();
		});
	});
}

contract("memory", () => ({ kv: new MemoryKeyValue(), cleanup: async () => undefined }));

describe("memory key-value expiry", () => {
	it("should drop a key when its time is up", async () => {
		let now = 1_000_000;
		const kv = new MemoryKeyValue(() => now);
		await kv.set("t", "v", 300);
		now += 299_000;
		await expect(kv.get("t")).resolves.toBe("v");
		now += 1_000;
		await expect(kv.getDel("t")).resolves.toBeNull();
		await expect(kv.setNX("t", "w", 1)).resolves.toBe(true);
	});
});

describeWith("Redis", "redis key-value", () => {
	const prefix = `${uniqueName("kvtest")}:`;
	contract("redis", () => {
		const kv = new RedisKeyValue(REDIS_URL, prefix);
		return { kv, cleanup: () => kv.close() };
	});

	it("should keep every key under its prefix and let them expire when a TTL is given", async () => {
		const kv = new RedisKeyValue(REDIS_URL, prefix);
		const raw = new Redis(REDIS_URL);
		try {
			await kv.set("visible", "v", 120);
			const keys = await raw.keys(`${prefix}*`);
			expect(keys).toContain(`${prefix}visible`);
			const ttl = await raw.ttl(`${prefix}visible`);
			expect(ttl).toBeGreaterThan(100);
			expect(ttl).toBeLessThanOrEqual(120);
		} finally {
			const keys = await raw.keys(`${prefix}*`);
			if (keys.length) await raw.del(...keys);
			raw.disconnect();
			await kv.close();
		}
	});

	it("should fail with 503 UPSTREAM_UNAVAILABLE when Redis cannot be reached", async () => {
		const kv = new RedisKeyValue("redis://127.0.0.1:1", prefix);
		await expect(kv.get("x")).rejects.toMatchObject({ code: 503, type: "UPSTREAM_UNAVAILABLE" });
		await kv.close();
	});

	it("should fail with 503 UPSTREAM_UNAVAILABLE, not hang, when Redis keeps the connection but stops answering", async () => {
		// A relay to the real server that can go silent, as a hung Redis does.
		const target = new URL(REDIS_URL);
		let silent = false;
		const relay = net.createServer(client => {
			const server = net.connect(Number(target.port), target.hostname);
			client.on("data", d => silent || server.write(d));
			server.on("data", d => silent || client.write(d));
			client.on("close", () => server.destroy());
			server.on("close", () => client.destroy());
			client.on("error", () => undefined);
			server.on("error", () => undefined);
		});
		await new Promise<void>(r => relay.listen(0, "127.0.0.1", r));
		const kv = new RedisKeyValue(`redis://127.0.0.1:${(relay.address() as net.AddressInfo).port}`, prefix);
		try {
			await kv.set("hang", "v", 60);
			await expect(kv.get("hang")).resolves.toBe("v");
			silent = true;
			await expect(kv.get("hang")).rejects.toMatchObject({ code: 503, type: "UPSTREAM_UNAVAILABLE" });
		} finally {
			await kv.close();
			relay.close();
		}
	});
});
