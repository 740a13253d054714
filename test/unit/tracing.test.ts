/**
 * Traces: Moleculer's ids as OpenTelemetry's, spans that carry nothing a call was
 * given, store writes and a shared batch under the calls that made them, and nothing
 * in between the store and its callers while tracing is off. Brokers run in this
 * process with the project's middleware order; spans are read where the OTLP exporter
 * would have sent them.
 */
import fs from "node:fs";
import path from "node:path";
import { ExportResultCode } from "@opentelemetry/core";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";
import { ServiceBroker, type Context } from "moleculer";
import { builtInMiddlewares } from "../../moleculer.config";
import { TracingScopeMiddleware } from "../../middlewares/tracing-scope.middleware";
import { ClientError } from "../../lib/errors";
import { createStore, type BatchGroup } from "../../lib/store";
import { GroupCommit } from "../../lib/store/group-commit";
import { SqliteStore } from "../../lib/store/sqlite";
import { SqliteWorkerStore } from "../../lib/store/sqlite-thread";
import { formatTraceparent, parseTraceparent, toSpanId, toTraceId } from "../../lib/tracing/ids";
import { tracingOptions } from "../../lib/tracing/exporter";
import { currentTraceparent } from "../../lib/tracing/scope";
import { TracedStore } from "../../lib/tracing/store";
import { tempDir } from "../helpers/platform";

describe("trace ids", () => {
	it("should keep a UUID's digits as the trace id and hash any other request id", () => {
		expect(toTraceId("0f8fad5b-d9cb-469f-a165-70867728950e")).toBe("0f8fad5bd9cb469fa16570867728950e");
		const hashed = toTraceId("my-request:42");
		expect(hashed).toMatch(/^[0-9a-f]{32}$/);
		expect(toTraceId("my-request:42")).toBe(hashed);
		expect(toTraceId("my-request:43")).not.toBe(hashed);
	});

	it("should take a UUID's random half as the span id and keep ids already in OpenTelemetry's form", () => {
		expect(toSpanId("0f8fad5b-d9cb-469f-a165-70867728950e")).toBe("a16570867728950e");
		expect(toSpanId("a16570867728950e")).toBe("a16570867728950e");
		expect(toTraceId("0f8fad5bd9cb469fa16570867728950e")).toBe("0f8fad5bd9cb469fa16570867728950e");
	});

	it("should read back the traceparent it writes and refuse a malformed or all-zero one", () => {
		const t = formatTraceparent("0f8fad5bd9cb469fa16570867728950e", "a16570867728950e", true);
		expect(t).toBe("00-0f8fad5bd9cb469fa16570867728950e-a16570867728950e-01");
		expect(parseTraceparent(t)).toEqual({ traceId: "0f8fad5bd9cb469fa16570867728950e", spanId: "a16570867728950e", sampled: true });
		expect(parseTraceparent(formatTraceparent("0f8fad5bd9cb469fa16570867728950e", "a16570867728950e", false))?.sampled).toBe(false);
		expect(parseTraceparent("00-00000000000000000000000000000000-a16570867728950e-01")).toBeNull();
		expect(parseTraceparent("01-0f8fad5bd9cb469fa16570867728950e-a16570867728950e")).toBeNull();
	});
});

describe("the store without tracing", () => {
	it("should be the backend itself, with nothing in between", async () => {
		const dir = tempDir();
		const store = createStore({ dataDir: dir });
		try {
			expect(store).toBeInstanceOf(SqliteWorkerStore);
			expect(createStore({ dataDir: dir, tracing: { url: "http://127.0.0.1:4318/v1/traces", headers: {}, serviceName: "t", scheduleDelayMs: 10, sampleRatio: 1 } })).toBeInstanceOf(TracedStore);
		} finally {
			await store.close();
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe("spans of a traced broker", () => {
	let dir: string;
	let backend: SqliteStore;
	let broker: ServiceBroker;
	let exported: ReadableSpan[];
	const stored: (string | undefined)[] = [];

	/** A broker whose tracing keeps `sampleRatio` of the traces. */
	async function start(sampleRatio: number): Promise<void> {
		dir = tempDir();
		backend = new SqliteStore(path.join(dir, "s.sqlite"));
		const store = new TracedStore(backend);
		const committer = new GroupCommit(store);
		exported = [];
		const memory: SpanExporter = {
			export: (spans, done) => {
				exported.push(...spans);
				done({ code: ExportResultCode.SUCCESS });
			},
			shutdown: async () => undefined
		};
		broker = new ServiceBroker({
			nodeID: "unit",
			namespace: "tracing",
			logger: false,
			tracing: tracingOptions({ url: "http://127.0.0.1:1/v1/traces", headers: {}, serviceName: "unit", scheduleDelayMs: 10, sampleRatio }, { nodeID: "unit", namespace: "tracing" }, memory),
			internalMiddlewares: false,
			middlewares: [TracingScopeMiddleware(), ...builtInMiddlewares()]
		});
		broker.createService({
			name: "things",
			actions: {
				add: {
					params: { id: "string", password: "string" },
					async handler(ctx: Context<{ id: string; password: string }>) {
						stored.push(currentTraceparent());
						const group: BatchGroup = [{ op: "insert", collection: "actors", doc: { id: ctx.params.id, email: `${ctx.params.id}@secret.example` } as never }];
						await committer.submit([group]);
						await store.collection("actors").updateMany({ id: ctx.params.id }, { $set: { email: `${ctx.params.id}.changed@secret.example` } });
						return "ok";
					}
				},
				refuse: {
					handler() {
						throw new ClientError(401, "INVALID_CREDENTIALS", "The username or password is wrong.");
					}
				},
				fail: {
					handler() {
						throw new Error("the provider said no to someone@secret.example");
					}
				}
			}
		});
		await broker.start();
	}

	async function finish(): Promise<void> {
		await broker.stop();
		await backend.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}

	beforeEach(() => start(1));
	afterEach(() => finish());

	/** Stopping the broker hands the spans still waiting to the exporter. */
	async function spans(): Promise<ReadableSpan[]> {
		await broker.stop();
		return exported;
	}

	it("should trace only the sampled share of calls, and store an unsampled call's traceparent as such", async () => {
		await finish();
		await start(0.5);
		stored.length = 0;
		await broker.call("things.add", { id: "d", password: "p" });
		await broker.call("things.add", { id: "e", password: "p" });
		const all = await spans();
		const calls = all.filter(s => s.name === "things.add");
		expect(calls).toHaveLength(1);
		expect(all.filter(s => s.attributes["db.system.name"] === "sqlite").map(s => s.parentSpanContext?.spanId)).toEqual([calls[0]!.spanContext().spanId, calls[0]!.spanContext().spanId]);
		expect(stored.map(t => t?.slice(-2))).toEqual(["00", "01"]);
	});

	it("should put a shared batch under the first call in it and link the others, and each call's own write under it", async () => {
		stored.length = 0;
		await Promise.all([broker.call("things.add", { id: "a", password: "hunter2" }), broker.call("things.add", { id: "b", password: "hunter2" })]);
		const all = await spans();
		const calls = all.filter(s => s.name === "things.add");
		expect(calls).toHaveLength(2);
		expect(calls[0]!.spanContext().traceId).not.toBe(calls[1]!.spanContext().traceId);
		const batches = all.filter(s => s.name === "batch actors");
		expect(batches).toHaveLength(1);
		const batch = batches[0]!;
		const [first, second] = calls[0]!.spanContext().spanId === batch.parentSpanContext?.spanId ? [calls[0]!, calls[1]!] : [calls[1]!, calls[0]!];
		expect(batch.parentSpanContext?.spanId).toBe(first.spanContext().spanId);
		expect(batch.spanContext().traceId).toBe(first.spanContext().traceId);
		expect(batch.links.map(l => l.context.spanId)).toEqual([second.spanContext().spanId]);
		expect(batch.kind).toBe(SpanKind.CLIENT);
		expect(batch.attributes).toEqual({ "db.system.name": "sqlite", "db.operation.name": "batch", "db.collection.name": "actors", "db.operation.batch.size": 2 });
		for (const call of calls) {
			const updates = all.filter(s => s.name === "updateMany actors" && s.parentSpanContext?.spanId === call.spanContext().spanId);
			expect(updates).toHaveLength(1);
		}
		// What each call stored to continue its trace later names its own span.
		expect(stored.sort()).toEqual(calls.map(c => formatTraceparent(c.spanContext().traceId, c.spanContext().spanId, true)).sort());
	});

	it("should never carry a call's params, a document or an error's message", async () => {
		await broker.call("things.add", { id: "c", password: "hunter2" });
		await expect(broker.call("things.fail")).rejects.toThrow();
		const text = JSON.stringify((await spans()).map(s => ({ name: s.name, attributes: s.attributes, status: s.status })));
		expect(text).not.toMatch(/hunter2|secret\.example|said no/);
	});

	it("should mark a platform failure as an error and a client's mistake as not, each with its code", async () => {
		await expect(broker.call("things.refuse")).rejects.toMatchObject({ type: "INVALID_CREDENTIALS" });
		await expect(broker.call("things.fail")).rejects.toThrow();
		const all = await spans();
		const refused = all.find(s => s.name === "things.refuse")!;
		expect(refused.status.code).toBe(SpanStatusCode.UNSET);
		expect(refused.attributes["error.type"]).toBe("INVALID_CREDENTIALS");
		const failed = all.find(s => s.name === "things.fail")!;
		expect(failed.status).toEqual({ code: SpanStatusCode.ERROR, message: "Error" });
		expect(failed.resource.attributes).toMatchObject({ "service.name": "unit", "service.instance.id": "unit", "service.namespace": "tracing" });
	});
});
