import { BoundedCache } from "../../lib/cache";

describe("BoundedCache", () => {
	let now = 1_000;
	const clock = () => now;
	beforeEach(() => {
		now = 1_000;
	});

	it("should drop the oldest entry when it is full", () => {
		const c = new BoundedCache<string, number>(2, clock);
		c.set("a", 1, 5_000);
		c.set("b", 2, 5_000);
		c.set("c", 3, 5_000);
		expect([c.get("a"), c.get("b"), c.get("c"), c.size]).toEqual([undefined, 2, 3, 2]);
	});

	it("should treat a replaced entry as the newest", () => {
		const c = new BoundedCache<string, number>(2, clock);
		c.set("a", 1, 5_000);
		c.set("b", 2, 5_000);
		c.set("a", 10, 5_000);
		c.set("c", 3, 5_000);
		expect([c.get("a"), c.get("b"), c.get("c")]).toEqual([10, undefined, 3]);
	});

	it("should stop answering with an entry once its time is up", () => {
		const c = new BoundedCache<string, number>(4, clock);
		c.set("a", 1, 2_000);
		now = 1_999;
		expect(c.get("a")).toBe(1);
		now = 2_000;
		expect(c.get("a")).toBeUndefined();
		expect(c.size).toBe(0);
	});

	it("should share one load among concurrent misses and keep its value until its expiry", async () => {
		const c = new BoundedCache<string, string>(4, clock);
		let loads = 0;
		const load = async () => `v${++loads}`;
		const got = await Promise.all(Array.from({ length: 5 }, () => c.getOrLoad("k", load, () => 3_000)));
		expect(got).toEqual(["v1", "v1", "v1", "v1", "v1"]);
		expect(await c.getOrLoad("k", load, () => 3_000)).toBe("v1");
		now = 3_000;
		expect(await c.getOrLoad("k", load, () => 9_000)).toBe("v2");
		expect(loads).toBe(2);
	});

	it("should not keep a failed load, so the next caller tries again", async () => {
		const c = new BoundedCache<string, string>(4, clock);
		await expect(c.getOrLoad("k", async () => Promise.reject(new Error("down")), () => 9_000)).rejects.toThrow("down");
		await expect(c.getOrLoad("k", async () => "up", () => 9_000)).resolves.toBe("up");
	});
});
