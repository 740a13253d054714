/**
 * Bounded calls without a timer per call (middlewares/deadline.middleware.ts), in a
 * real broker with the project's middleware list: what Moleculer's own Timeout
 * middleware promises still holds.
 */
import { Errors, ServiceBroker, type Context, type ServiceSchema } from "moleculer";
import { builtInMiddlewares } from "../../moleculer.config";
import { DeadlineMiddleware, Deadlines } from "../../middlewares/deadline.middleware";

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

describe("call deadlines", () => {
	let broker: ServiceBroker;
	let deadlines: Deadlines;
	let nestedLeft: number | undefined;

	beforeEach(async () => {
		deadlines = new Deadlines(10);
		const list = builtInMiddlewares().map(m => (typeof m === "object" && (m as { name?: string }).name === "Deadline" ? DeadlineMiddleware(deadlines) : m));
		broker = new ServiceBroker({ logger: false, requestTimeout: 200, internalMiddlewares: false, middlewares: list });
		broker.createService({
			name: "slow",
			actions: {
				wait: (ctx: Context<{ ms: number }>) => sleep(ctx.params.ms).then(() => "done"),
				unbounded: { timeout: 0, handler: (ctx: Context<{ ms: number }>) => sleep(ctx.params.ms).then(() => "done") },
				short: { timeout: 50, handler: (ctx: Context<{ ms: number }>) => sleep(ctx.params.ms).then(() => "done") },
				fails: () => Promise.reject(new Error("boom")),
				probe: (ctx: Context<{ ms: number }>) => {
					nestedLeft = ctx.options.timeout ?? undefined;
					return sleep(ctx.params.ms).then(() => "done");
				},
				nested: async (ctx: Context) => {
					await sleep(120);
					return ctx.call("slow.probe", { ms: 150 });
				}
			}
			// Moleculer's typings leave out an action's own `timeout`, which it reads.
		} as unknown as ServiceSchema);
		await broker.start();
	});

	afterEach(() => broker.stop());

	it("installs Moleculer's own middlewares in its order, Deadline in place of Timeout", async () => {
		const stock = new ServiceBroker({ logger: false });
		const stockNames = (stock.middlewares as unknown as { list: { name?: string }[] }).list.map(m => m.name);
		const ours = (broker.middlewares as unknown as { list: { name?: string }[] }).list.map(m => m.name);
		expect(ours).toEqual(stockNames.map(n => (n === "Timeout" ? "Deadline" : n)));
	});

	it("answers a call that ends in time", async () => {
		await expect(broker.call("slow.wait", { ms: 20 })).resolves.toBe("done");
		await expect(broker.call("slow.fails")).rejects.toThrow("boom");
		expect(deadlines.size).toBe(0);
	});

	it("fails a call past the broker's requestTimeout with RequestTimeoutError, soon after", async () => {
		const started = Date.now();
		const err = await broker.call("slow.wait", { ms: 1000 }).catch((e: unknown) => e);
		const took = Date.now() - started;
		expect(err).toBeInstanceOf(Errors.RequestTimeoutError);
		expect((err as Errors.RequestTimeoutError).data).toMatchObject({ action: "slow.wait" });
		expect(took).toBeGreaterThanOrEqual(195);
		expect(took).toBeLessThan(600);
		expect(deadlines.size).toBe(0);
	});

	it("takes the call's own timeout, then the action's, and 0 as none", async () => {
		await expect(broker.call("slow.wait", { ms: 300 }, { timeout: 1000 })).resolves.toBe("done");
		await expect(broker.call("slow.wait", { ms: 300 }, { timeout: 50 })).rejects.toBeInstanceOf(Errors.RequestTimeoutError);
		await expect(broker.call("slow.short", { ms: 150 })).rejects.toBeInstanceOf(Errors.RequestTimeoutError);
		await expect(broker.call("slow.unbounded", { ms: 300 })).resolves.toBe("done");
	});

	it("gives a nested call what is left of its caller's timeout", async () => {
		// 200 ms in all: the nested call starts after 120 ms and would need 150.
		const started = Date.now();
		await expect(broker.call("slow.nested")).rejects.toBeInstanceOf(Errors.RequestTimeoutError);
		expect(Date.now() - started).toBeLessThan(400);
		expect(nestedLeft).toBeGreaterThan(40);
		// What is left is measured on process.hrtime, while the 120 ms sleep runs on
		// libuv's loop clock, kept in whole milliseconds: the sleep can end up to 1 ms
		// of hrtime early (CI once saw 80.07 left).
		expect(nestedLeft).toBeLessThan(81);
	});

	it("runs its interval only while calls are under way", async () => {
		const pending = broker.call("slow.wait", { ms: 50 });
		expect(deadlines.size).toBe(1);
		await pending;
		await sleep(30);
		expect((deadlines as unknown as { timer?: unknown }).timer).toBeUndefined();
	});
});
