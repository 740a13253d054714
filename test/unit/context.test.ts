/**
 * lib/process/context.ts makes contexts as Moleculer's Context.create does, reading each
 * calling option once. Compared here field by field over every combination of the
 * options create reads, with and without a parent, a parent span and a service.
 */
import { Context, ServiceBroker, type ServiceSchema } from "moleculer";
import { CallContext } from "../../lib/process/context";

/** Everything create sets, for comparison: the shared objects by identity, a request id that is the context's own id (random) as such. */
function made(ctx: Context): Record<string, unknown> {
	const c = ctx as unknown as Record<string, unknown>;
	// params are a copy when cloning is asked for, so they compare by value.
	const values = ["requestID", "meta", "headers", "tracing", "level", "parentID", "caller", "nodeID", "span", "locals", "params"];
	const shared = ["options", "endpoint", "action", "event", "service"];
	return {
		...Object.fromEntries(values.map(f => [f, c[f]])),
		requestID: c.requestID === c.id ? "(its own id)" : c.requestID,
		shared: shared.map(f => c[f])
	};
}

/** Every subset of the given option values. */
function subsets<T extends object>(entries: [keyof T, unknown][]): Partial<T>[] {
	const out: Partial<T>[] = [];
	for (let mask = 0; mask < 1 << entries.length; mask++) {
		out.push(Object.fromEntries(entries.filter((_, i) => mask & (1 << i))) as Partial<T>);
	}
	return out;
}

describe("CallContext.create", () => {
	const broker = new ServiceBroker({ logger: false, nodeID: "ctx-test", ContextFactory: CallContext });
	broker.createService({ name: "svc", actions: { a: { handler: () => 1 } } } as ServiceSchema);

	beforeAll(() => broker.start());
	afterAll(() => broker.stop());

	function parents(): (Context | undefined)[] {
		const endpoint = broker.registry.getActionEndpoints("svc.a")!.getFirst()!;
		const plain = Context.create(broker, endpoint as never, { p: 1 }, { meta: { m: 1, shared: "parent" } });
		const spanned = Context.create(broker, endpoint as never, {}, { requestID: "parent-req" });
		(spanned as unknown as { span: unknown }).span = { id: "span-1" };
		(spanned as unknown as { tracing: boolean }).tracing = true;
		const noMeta = Context.create(broker, null as never);
		(noMeta as unknown as { meta: unknown }).meta = null;
		return [undefined, plain, spanned, noMeta];
	}

	it("should make what Moleculer's Context.create makes, for every combination of options", () => {
		const endpoint = broker.registry.getActionEndpoints("svc.a")!.getFirst()!;
		let compared = 0;
		for (const parentCtx of parents()) {
			const options = subsets<Record<string, unknown>>([
				["paramsCloning", true],
				["requestID", "given-req"],
				["meta", { m: 2, shared: "own" }],
				["headers", { h: "1" }],
				["caller", "explicit-caller"],
				["parentSpan", { id: "pspan", traceID: "trace-1", sampled: true }]
			]);
			for (const base of options) {
				const opts = parentCtx ? { ...base, parentCtx } : base;
				for (const [ep, params] of [[endpoint, { x: { y: 1 } }], [null, null], [endpoint, undefined]] as const) {
					const theirs = Context.create(broker, ep as never, params as never, opts);
					const ours = CallContext.create(broker, ep as never, params as never, opts);
					expect(ours).toBeInstanceOf(Context);
					const [a, b] = [made(ours), made(theirs)];
					expect({ ...a, shared: undefined }).toEqual({ ...b, shared: undefined });
					(a.shared as unknown[]).forEach((v, i) => expect(v).toBe((b.shared as unknown[])[i]));
					// The same objects, not copies, where Moleculer keeps the given ones.
					expect((ours as unknown as { options: unknown }).options).toBe(opts);
					if (!parentCtx?.meta && base.meta) expect(ours.meta).toBe(base.meta);
					if (!base.paramsCloning && params) expect(ours.params).toBe(params);
					compared += 1;
				}
			}
		}
		expect(compared).toBe(4 * 64 * 3);
	});

	it("should default the options as Moleculer does", () => {
		const ours = made(CallContext.create(broker));
		const theirs = made(Context.create(broker));
		expect({ ...ours, shared: undefined }).toEqual({ ...theirs, shared: undefined });
		expect(ours.shared).toEqual(theirs.shared);
	});

	it("should be the broker's factory: calls are made with it", async () => {
		let seen: Context | undefined;
		broker.createService({ name: "probe", actions: { b: { handler: (ctx: Context) => ((seen = ctx), 2) } } } as ServiceSchema);
		await broker.waitForServices("probe");
		await expect(broker.call("probe.b", { q: 1 }, { meta: { k: "v" } })).resolves.toBe(2);
		expect(seen).toBeInstanceOf(CallContext);
		expect(seen!.meta).toEqual({ k: "v" });
	});
});
