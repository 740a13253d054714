/**
 * Moleculer's trace and span ids as OpenTelemetry's. Moleculer names a span by its
 * context's id (a UUID) and a trace by the request id, which is the gateway's
 * X-Request-Id when a client sends a well-formed one. OpenTelemetry wants 16 and 8
 * bytes in hex. The mapping is a pure function of the id, so every node maps a parent
 * id it heard over NATS to the id its owner exported, and ids already in
 * OpenTelemetry's form (a stored traceparent) map to themselves.
 */
import { createHash } from "node:crypto";

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;

function digest(id: string, chars: number): string {
	return createHash("sha256").update(id).digest("hex").slice(0, chars);
}

/** A UUID (or 32 hex digits) as it is; anything else by its hash. */
export function toTraceId(id: string): string {
	const hex = id.replace(/-/g, "").toLowerCase();
	return HEX32.test(hex) && !/^0+$/.test(hex) ? hex : digest(id, 32);
}

/**
 * 16 hex digits as they are; a UUID by its last 16 (a v4 UUID's 62 random bits
 * there, where the first 16 include the version); anything else by its hash.
 */
export function toSpanId(id: string): string {
	const hex = id.replace(/-/g, "").toLowerCase();
	const span = HEX16.test(hex) ? hex : HEX32.test(hex) ? hex.slice(16) : digest(id, 16);
	return /^0+$/.test(span) ? digest(id, 16) : span;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A W3C traceparent (version 00), or null when it is malformed. */
export function parseTraceparent(value: string): { traceId: string; spanId: string; sampled: boolean } | null {
	const m = TRACEPARENT.exec(value);
	if (!m || /^0+$/.test(m[1]!) || /^0+$/.test(m[2]!)) return null;
	return { traceId: m[1]!, spanId: m[2]!, sampled: (parseInt(m[3]!, 16) & 1) === 1 };
}

export function formatTraceparent(traceId: string, spanId: string, sampled: boolean): string {
	return `00-${traceId}-${spanId}-${sampled ? "01" : "00"}`;
}
