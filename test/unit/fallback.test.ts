import { ServiceBroker, type Context, type ServiceSchema } from "moleculer";
import { builtInMiddlewares } from "../../moleculer.config";

/** Moleculer's built-ins as the project installs them, with its Fallback. */
function broker(nodeID: string, transporter: "Fake" | null = null): ServiceBroker {
	return new ServiceBroker({ nodeID, logger: false, transporter, internalMiddlewares: false, middlewares: builtInMiddlewares() });
}

const flaky = {
	name: "flaky",
	actions: {
		fails: () => Promise.reject(new Error("boom")),
		ok: () => "fine",
		withFallback: {
			fallback: "rescue",
			handler: () => Promise.reject(new Error("boom"))
		},
		remember: (ctx: Context) => {
			seen = ctx;
			return Promise.reject(new Error("boom"));
		}
	},
	methods: {
		rescue(_ctx: Context, err: Error) {
			return `rescued from ${err.message}`;
		}
	}
} as unknown as ServiceSchema;

let seen: Context | undefined;

describe("fallbacks", () => {
	describe("on one node", () => {
		const b = broker("solo");
		beforeAll(async () => {
			b.createService(flaky);
			await b.start();
		});
		afterAll(() => b.stop());

		it("passes a call without fallbackResponse to an action without fallback straight on, error and all", async () => {
			await expect(b.call("flaky.ok")).resolves.toBe("fine");
			await expect(b.call("flaky.fails")).rejects.toThrow("boom");
		});

		it("answers the call's fallbackResponse, a value or a function of the context and error, as Moleculer does", async () => {
			await expect(b.call("flaky.fails", {}, { fallbackResponse: "spare" })).resolves.toBe("spare");
			const fn = jest.fn((_ctx: Context, err: Error) => `from ${err.message}`);
			await expect(b.call("flaky.fails", {}, { fallbackResponse: fn })).resolves.toBe("from boom");
			expect(fn).toHaveBeenCalledTimes(1);
			await expect(b.call("flaky.ok", {}, { fallbackResponse: "spare" })).resolves.toBe("fine");
		});

		it("answers an action's own fallback method, and marks the context", async () => {
			await expect(b.call("flaky.withFallback")).resolves.toBe("rescued from boom");
			await expect(b.call("flaky.remember", {}, { fallbackResponse: "spare" })).resolves.toBe("spare");
			expect((seen as unknown as { fallbackResult?: boolean }).fallbackResult).toBe(true);
		});
	});

	describe("across nodes", () => {
		const caller = broker("caller", "Fake");
		const callee = broker("callee", "Fake");
		beforeAll(async () => {
			callee.createService(flaky);
			await Promise.all([caller.start(), callee.start()]);
			await caller.waitForServices("flaky");
		});
		afterAll(() => Promise.all([caller.stop(), callee.stop()]));

		it("answers the call's fallbackResponse for a remote action, and passes other errors on", async () => {
			await expect(caller.call("flaky.fails", {}, { fallbackResponse: "spare" })).resolves.toBe("spare");
			await expect(caller.call("flaky.fails")).rejects.toThrow("boom");
			await expect(caller.call("flaky.ok")).resolves.toBe("fine");
		});
	});
});
