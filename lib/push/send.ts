/**
 * One Web Push message to one subscription (RFC 8030 delivery, RFC 8291 aes128gcm
 * payload encryption, RFC 8292 VAPID). The web-push library encrypts the payload and
 * signs the VAPID JWT; the request itself is made here, so the dispatcher's abort
 * signal really ends it and the connection reaches public addresses only.
 */
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import type * as WebPush from "web-push";
import type { Urgency } from "web-push";
import type { Priority } from "../delivery";
import { isPublicAddress, publicOnlyLookup } from "../net/public-address";

export type { Urgency };

export interface PushSubscriptionKeys {
	endpoint: string;
	keys: { p256dh: string; auth: string };
}

export interface VapidDetails {
	subject: string;
	publicKey: string;
	privateKey: string;
}

/**
 * How long a push service keeps a message for an offline device (TTL, seconds) and
 * how eagerly it wakes the device (Urgency, RFC 8030 §5.3): higher priorities wake it
 * even on a low battery and wait longer for it; marketing waits for power or Wi-Fi and
 * goes stale soonest.
 */
export const PUSH_DELIVERY: Readonly<Record<Priority, { ttl: number; urgency: Urgency }>> = {
	CRITICAL: { ttl: 86400, urgency: "high" },
	HIGH: { ttl: 86400, urgency: "normal" },
	NORMAL: { ttl: 43200, urgency: "normal" },
	LOW: { ttl: 14400, urgency: "low" }
};

/** A 4096-byte record less the aes128gcm header (86), the tag (16) and the padding delimiter (1). */
export const MAX_PAYLOAD_BYTES = 3993;

export interface PushOptions {
	ttl: number;
	urgency: Urgency;
	vapid: VapidDetails;
	/** Up to 32 base64url characters: a later message with the same topic replaces one the push service still holds. */
	topic?: string;
	signal?: AbortSignal;
	timeoutMs?: number;
	/** Tests: an agent that trusts their own CA. */
	agent?: https.Agent;
	/** Tests only (PUSH_ALLOW_INSECURE_ENDPOINTS): http: and non-public endpoints. */
	allowInsecure?: boolean;
}

export type PushOutcome =
	| { outcome: "sent"; status: number; location?: string }
	/** 404 or 410: the subscription has expired or was unsubscribed; delete it. */
	| { outcome: "gone"; status: number }
	| { outcome: "failed"; permanent: boolean; error: string; status?: number };

function failed(error: string, permanent: boolean, status?: number): PushOutcome {
	return { outcome: "failed", permanent, error, ...(status !== undefined ? { status } : {}) };
}

function outcomeOf(status: number, location: string | undefined): PushOutcome {
	if (status >= 200 && status < 300) return { outcome: "sent", status, ...(location ? { location } : {}) };
	if (status === 404 || status === 410) return { outcome: "gone", status };
	if (status === 413) return failed("PAYLOAD_TOO_LARGE", true, status);
	// A refused VAPID JWT is the platform's key or clock, not the message: retried like credentials.
	if (status === 429 || status >= 500 || status === 401 || status === 403) return failed(`PUSH_${status}`, false, status);
	return failed(`PUSH_${status}`, true, status);
}

export async function sendPush(subscription: PushSubscriptionKeys, payload: string, opts: PushOptions): Promise<PushOutcome> {
	if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) return failed("PAYLOAD_TOO_LARGE", true);
	const url = new URL(subscription.endpoint);
	const secure = url.protocol === "https:";
	const host = url.hostname.replace(/^\[|\]$/g, "");
	if (!opts.allowInsecure && (!secure || (isIP(host) !== 0 && !isPublicAddress(host)))) return failed("ENDPOINT_NOT_ALLOWED", true);
	let details: WebPush.RequestDetails;
	try {
		// Loaded on the first push only: the library costs about 10 MB of RSS in a process that never sends one.
		details = (require("web-push") as typeof WebPush).generateRequestDetails(subscription, payload, {
			TTL: opts.ttl,
			urgency: opts.urgency,
			topic: opts.topic,
			vapidDetails: opts.vapid,
			contentEncoding: "aes128gcm"
		});
	} catch {
		// The subscription's keys do not make a P-256 key and an auth secret.
		return failed("INVALID_SUBSCRIPTION", true);
	}
	return new Promise<PushOutcome>(resolve => {
		const req = (secure ? https : http).request(url, {
			method: "POST",
			headers: details.headers,
			signal: opts.signal,
			timeout: opts.timeoutMs,
			...(secure && opts.agent ? { agent: opts.agent } : {}),
			...(opts.allowInsecure ? {} : { lookup: publicOnlyLookup })
		});
		req.on("response", res => {
			// The body says nothing the status does not; read it to free the socket.
			res.resume();
			const location = res.headers.location;
			res.on("end", () => resolve(outcomeOf(res.statusCode ?? 0, typeof location === "string" ? location : undefined)));
			res.on("error", () => resolve(failed("PUSH_NETWORK_ERROR", false)));
		});
		req.on("timeout", () => req.destroy(Object.assign(new Error("timeout"), { code: "ETIMEDOUT" })));
		req.on("error", err => {
			const code = (err as NodeJS.ErrnoException).code;
			resolve(failed(err.name === "AbortError" ? "SEND_ABORTED" : code === "ENOTPUBLIC" ? "ENDPOINT_NOT_ALLOWED" : "PUSH_NETWORK_ERROR", code === "ENOTPUBLIC"));
		});
		req.end(details.body ?? undefined);
	});
}
