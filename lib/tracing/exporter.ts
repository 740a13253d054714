/**
 * Moleculer's tracing, exported through the OpenTelemetry SDK. Moleculer makes the
 * spans: one per action call on the node that runs it, with the trace id (the request
 * id), the parent id and the sampling decision carried across nodes in every NATS
 * request; the gateway adds the HTTP request's span, and library code its own
 * children (lib/tracing/scope.ts). This exporter turns each finished span into an
 * OpenTelemetry span and hands it to a BatchSpanProcessor, whose OTLPTraceExporter
 * posts batches as OTLP/HTTP JSON. Nothing is exported that the allow-lists here do
 * not name (SECURITY.md, "Traces").
 */
import { diag, DiagLogLevel, SpanKind, SpanStatusCode, TraceFlags, type Attributes, type AttributeValue, type Link, type SpanContext, type SpanStatus } from "@opentelemetry/api";
import { millisToHrTime } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes, type Resource } from "@opentelemetry/resources";
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace";
import { ATTR_ERROR_TYPE, ATTR_SERVICE_INSTANCE_ID, ATTR_SERVICE_NAME, ATTR_SERVICE_NAMESPACE } from "@opentelemetry/semantic-conventions";
import { TracerExporters, type Span, type Tracer, type TracerOptions } from "moleculer";
import type { TracingConfig } from "../config";
import { toSpanId, toTraceId } from "./ids";

/** The kinds of span this project makes, as Span.type: Moleculer's "action", and the project's own. */
export type SpanType = "action" | "http" | "db" | "provider" | "delivery";

/** What a span may carry in span.meta (Moleculer's field for data that is not a tag). */
export interface SpanMeta {
	links?: readonly Span[];
}

/** How long a stop waits for the last spans to leave: a collector that does not answer must not hold the node's exit. */
const FLUSH_ON_STOP_MS = 2000;

const SCOPE = { name: "auth-notify" } as const;

const KIND: Record<string, SpanKind> = { http: SpanKind.SERVER, db: SpanKind.CLIENT, provider: SpanKind.CLIENT, delivery: SpanKind.CONSUMER };

/**
 * Attributes of an action span, by Moleculer's tags. Its params, meta and response
 * are never read (tags.action turns their capture off too): they hold passwords,
 * tokens and addresses.
 */
function actionAttributes(tags: Record<string, unknown>): Attributes {
	const action = tags.action as { name?: string } | null;
	const attrs: Attributes = {
		"moleculer.action": action?.name,
		"moleculer.node_id": tags.nodeID as string,
		"moleculer.request_id": tags.requestID as string,
		"moleculer.calling_level": tags.callingLevel as number,
		"moleculer.remote_call": tags.remoteCall === true
	};
	if (tags.remoteCall === true) attrs["moleculer.caller_node_id"] = tags.callerNodeID as string;
	return attrs;
}

/** The project's own spans set only primitive tags, each chosen to be safe (SECURITY.md). */
function ownAttributes(tags: Record<string, unknown>): Attributes {
	const attrs: Attributes = {};
	for (const [key, value] of Object.entries(tags)) {
		if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") attrs[key] = value as AttributeValue;
	}
	return attrs;
}

/**
 * A failed span: error.type is the contract's code (ClientError's `type`), a send's
 * code (SendError's) or the error's class, never its message, which can hold what
 * the request carried. A client's mistake (a status below 500) does not make the span
 * an error.
 */
function failure(err: unknown, attrs: Attributes): SpanStatus {
	const e = (typeof err === "object" && err !== null ? err : {}) as { type?: unknown; name?: unknown; code?: unknown };
	const named = [e.type, e.code, e.name].find((v): v is string => typeof v === "string" && v !== "");
	const type = named ?? "Error";
	attrs[ATTR_ERROR_TYPE] = type;
	return typeof e.code === "number" && e.code < 500 ? { code: SpanStatusCode.UNSET } : { code: SpanStatusCode.ERROR, message: type };
}

function context(traceID: string, id: string, isRemote: boolean): SpanContext {
	return { traceId: toTraceId(traceID), spanId: toSpanId(id), traceFlags: TraceFlags.SAMPLED, isRemote };
}

/** One finished Moleculer span as the SDK's ReadableSpan. */
export function toReadableSpan(span: Span, resource: Resource): ReadableSpan {
	const type = span.type as SpanType;
	const action = type === "action";
	const attributes = action ? actionAttributes(span.tags) : ownAttributes(span.tags);
	let status: SpanStatus = { code: SpanStatusCode.UNSET };
	if (span.error) status = failure(span.error, attributes);
	else if (type === "http" && Number(span.tags["http.response.status_code"]) >= 500) {
		attributes[ATTR_ERROR_TYPE] = String(span.tags["http.response.status_code"]);
		status = { code: SpanStatusCode.ERROR };
	}
	const own = context(span.traceID, span.id, false);
	const remoteParent = span.tags.remoteCall === true || type === "delivery";
	const links: Link[] = ((span.meta as SpanMeta).links ?? []).map(l => ({ context: context(l.traceID, l.id, false) }));
	const start = span.startTime ?? 0;
	const end = span.finishTime ?? start;
	return {
		name: action ? String((span.tags.action as { name?: string } | null)?.name ?? span.name) : span.name,
		kind: action ? (span.tags.remoteCall === true ? SpanKind.SERVER : SpanKind.INTERNAL) : (KIND[type] ?? SpanKind.INTERNAL),
		spanContext: () => own,
		parentSpanContext: span.parentID ? context(span.traceID, span.parentID, remoteParent) : undefined,
		startTime: millisToHrTime(start),
		endTime: millisToHrTime(end),
		duration: millisToHrTime(end - start),
		status,
		attributes,
		links,
		events: [],
		ended: true,
		resource,
		instrumentationScope: SCOPE,
		droppedAttributesCount: 0,
		droppedEventsCount: 0,
		droppedLinksCount: 0
	};
}

export class OtlpTraceExporter extends TracerExporters.Base {
	private processor: BatchSpanProcessor | null = null;
	private resource: Resource | null = null;

	/** `spanExporter` replaces the OTLP/HTTP one (tests read spans in memory). */
	constructor(
		private readonly config: TracingConfig,
		private readonly node: { nodeID: string; namespace: string },
		private readonly spanExporter?: SpanExporter
	) {
		super({});
	}

	override init(tracer: Tracer): void {
		super.init(tracer);
		const log = this.logger;
		// The SDK reports a collector it cannot reach through its diagnostic logger, which is silent unless set.
		diag.setLogger(
			{ error: m => log.warn(`OpenTelemetry: ${m}`), warn: m => log.warn(`OpenTelemetry: ${m}`), info: () => undefined, debug: () => undefined, verbose: () => undefined },
			{ logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true }
		);
		this.resource = resourceFromAttributes({
			[ATTR_SERVICE_NAME]: this.config.serviceName,
			[ATTR_SERVICE_NAMESPACE]: this.node.namespace,
			[ATTR_SERVICE_INSTANCE_ID]: this.node.nodeID
		});
		const exporter = this.spanExporter ?? new OTLPTraceExporter({ url: this.config.url, headers: this.config.headers });
		this.processor = new BatchSpanProcessor({ exporter, scheduledDelayMillis: this.config.scheduleDelayMs });
	}

	override spanFinished(span: Span): void {
		if (this.processor && this.resource) this.processor.onEnd(toReadableSpan(span, this.resource));
	}

	/** The spans still waiting leave before the broker stops, within FLUSH_ON_STOP_MS. */
	override stop(): Promise<void> {
		const processor = this.processor;
		this.processor = null;
		if (!processor) return Promise.resolve();
		let timer: NodeJS.Timeout | undefined;
		const bound = new Promise<void>(resolve => (timer = setTimeout(resolve, FLUSH_ON_STOP_MS).unref()));
		return Promise.race([processor.shutdown().catch(() => undefined), bound]).finally(() => clearTimeout(timer));
	}
}

/**
 * The broker's tracing options: Moleculer traces every action (events carry no request
 * work here: wake-ups and cache drops), captures none of their params, meta or
 * responses, and exports through OtlpTraceExporter.
 */
export function tracingOptions(config: TracingConfig, node: { nodeID: string; namespace: string }, spanExporter?: SpanExporter): TracerOptions {
	return {
		enabled: true,
		// Moleculer resolves an exporter instance as it is; its typings list only the built-in names.
		exporter: new OtlpTraceExporter(config, node, spanExporter) as unknown as TracerOptions["exporter"],
		// Decided where a trace starts (the gateway's request, a delivery without a stored parent); every call under it follows.
		sampling: { rate: config.sampleRatio },
		actions: true,
		events: false,
		tags: { action: { params: false, meta: false, response: false }, event: { params: false, meta: false } }
	};
}
