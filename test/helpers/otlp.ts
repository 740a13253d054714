/**
 * A local OTLP/HTTP trace receiver: the collector's POST /v1/traces, taking JSON as the
 * OpenTelemetry SDK's OTLP/HTTP exporter sends it (protobuf would be refused with 415,
 * and the test would see no span). Every span is kept with its resource's attributes.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

interface OtlpValue {
	stringValue?: string;
	intValue?: string | number;
	boolValue?: boolean;
	doubleValue?: number;
}

interface OtlpAttribute {
	key: string;
	value: OtlpValue;
}

interface OtlpSpan {
	traceId: string;
	spanId: string;
	parentSpanId?: string;
	name: string;
	kind: number;
	attributes?: OtlpAttribute[];
	links?: { traceId: string; spanId: string }[];
	status?: { code?: number; message?: string };
}

interface ExportRequest {
	resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

/** A received span with its attributes and its resource's as plain objects. */
export interface ReceivedSpan {
	traceId: string;
	spanId: string;
	parentSpanId?: string;
	name: string;
	/** OTLP's numbering: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
	kind: number;
	attributes: Record<string, string | number | boolean>;
	resource: Record<string, string | number | boolean>;
	links: { traceId: string; spanId: string }[];
	status: { code?: number; message?: string };
}

function values(attrs: OtlpAttribute[] = []): Record<string, string | number | boolean> {
	const out: Record<string, string | number | boolean> = {};
	for (const { key, value } of attrs) {
		out[key] = value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue);
	}
	return out;
}

export class OtlpReceiver {
	readonly spans: ReceivedSpan[] = [];
	/** Content types of every export received. */
	readonly contentTypes: string[] = [];
	private server: Server | null = null;

	async start(): Promise<string> {
		this.server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on("data", c => chunks.push(c));
			req.on("end", () => {
				const type = String(req.headers["content-type"] ?? "");
				this.contentTypes.push(type);
				if (req.method !== "POST" || req.url !== "/v1/traces") return void res.writeHead(404).end();
				if (!type.startsWith("application/json")) return void res.writeHead(415).end();
				const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ExportRequest;
				for (const rs of body.resourceSpans ?? []) {
					const resource = values(rs.resource?.attributes);
					for (const ss of rs.scopeSpans ?? []) {
						for (const s of ss.spans ?? []) {
							this.spans.push({
								traceId: s.traceId,
								spanId: s.spanId,
								parentSpanId: s.parentSpanId || undefined,
								name: s.name,
								kind: s.kind,
								attributes: values(s.attributes),
								resource,
								links: s.links ?? [],
								status: s.status ?? {}
							});
						}
					}
				}
				res.writeHead(200, { "content-type": "application/json" }).end("{}");
			});
		});
		await new Promise<void>(resolve => this.server!.listen(0, "127.0.0.1", resolve));
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	trace(traceId: string): ReceivedSpan[] {
		return this.spans.filter(s => s.traceId === traceId);
	}

	async stop(): Promise<void> {
		await new Promise<void>(resolve => (this.server ? this.server.close(() => resolve()) : resolve()));
	}
}
