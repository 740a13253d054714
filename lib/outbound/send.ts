/**
 * One attempt of one delivery: the body signed per Standard Webhooks, POSTed with a
 * deadline, redirects not followed (a 3xx is a failed attempt), the address checked
 * as the connection is made.
 */
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { Webhook } from "standardwebhooks";
import { isPublicAddress, publicOnlyLookup } from "../net/public-address";

export interface AttemptResult {
	ok: boolean;
	responseCode?: number;
	error?: string;
}

/** What a receiver may answer is read up to this many bytes and dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export function signedHeaders(secret: string, webhookId: string, body: string, now = new Date()): Record<string, string> {
	return {
		"content-type": "application/json",
		"webhook-id": webhookId,
		"webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
		"webhook-signature": new Webhook(secret).sign(webhookId, now, body)
	};
}

export function attempt(url: string, secret: string, webhookId: string, body: string, opts: { timeoutMs: number; allowPrivate: boolean }): Promise<AttemptResult> {
	const u = new URL(url);
	const host = u.hostname.replace(/^\[|\]$/g, "");
	// Node connects to an address literal without a lookup: it is checked here instead.
	if (!opts.allowPrivate && isIP(host) && !isPublicAddress(host)) return Promise.resolve({ ok: false, error: "ADDRESS_NOT_ALLOWED" });
	if (!opts.allowPrivate && u.protocol !== "https:") return Promise.resolve({ ok: false, error: "ADDRESS_NOT_ALLOWED" });
	const client = u.protocol === "https:" ? https : http;
	return new Promise(resolve => {
		let settled = false;
		const done = (r: AttemptResult) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			resolve(r);
		};
		const req = client.request(
			u,
			{
				method: "POST",
				headers: { ...signedHeaders(secret, webhookId, body), "content-length": Buffer.byteLength(body), "user-agent": "auth-notify-webhooks" },
				// Resolves the name and connects only to the public address it checked.
				...(opts.allowPrivate ? {} : { lookup: publicOnlyLookup }),
				agent: false
			},
			res => {
				let read = 0;
				res.on("data", (chunk: Buffer) => {
					read += chunk.length;
					if (read > MAX_RESPONSE_BYTES) res.destroy();
				});
				const code = res.statusCode ?? 0;
				const finish = () => done(code >= 200 && code < 300 ? { ok: true, responseCode: code } : { ok: false, responseCode: code, ...(code >= 300 && code < 400 ? { error: "REDIRECT_NOT_FOLLOWED" } : {}) });
				res.on("end", finish);
				res.on("close", finish);
			}
		);
		const timer = setTimeout(() => {
			req.destroy();
			done({ ok: false, error: "TIMEOUT" });
		}, opts.timeoutMs);
		req.on("error", (err: NodeJS.ErrnoException) => done({ ok: false, error: err.code === "ENOTPUBLIC" ? "ADDRESS_NOT_ALLOWED" : (err.code ?? "REQUEST_FAILED") }));
		req.end(body);
	});
}
