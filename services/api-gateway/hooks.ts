/**
 * The route hooks every gateway route shares. Each applies the policy its matched
 * alias declares (routes.ts, read back as req.$alias.policy): none of them knows an
 * action by name.
 */
import type { Context } from "moleculer";
import { rateLimitSubject } from "../../lib/net/client-ip";
import { badRequest, ClientError, shuttingDown } from "../../lib/errors";
import { EVENT_SEQ, type Timeline } from "../../lib/notifications";
import type { OriginMeta, SocialCallbackMeta } from "../../lib/http/meta";
import { checkJsonText, unsafeKey } from "../../lib/http/json-guard";
import { BINDING_COOKIE, readCookie } from "../../lib/social/state";
import { INBOX_SEQ } from "../../lib/inbox";
import type { LiveStream } from "./live";
import type { InboxSnapshot, InboxStream } from "./inbox-live";
import type { AliasPolicy, AppliedPolicy, BodyKind, GatewayThis, Req, Res } from "./types";

type CallMeta = SocialCallbackMeta & OriginMeta & { idempotencyKey?: string; acceptsHtml?: boolean; wantsNdjson?: boolean };
type BodyCheck = (ctx: Context<unknown, CallMeta>, req: Req) => void;

export const JSON_LIMIT = "1mb";
/** RFC 8058's body is 26 bytes; a little room for a client's own encoding. */
export const ONE_CLICK_LIMIT = "1kb";

/** What a request has before an alias matched (a body the parser refused, an unknown path): the default answers. */
const NO_POLICY: AppliedPolicy = { body: "none" };

export function policyOf(req: Req): AppliedPolicy {
	return req.$alias?.policy ?? NO_POLICY;
}

/** Runs on the raw bytes of every JSON body, before they are decoded (lib/http/json-guard.ts). */
export function verifyJson(_req: Req, _res: Res, raw: Buffer): void {
	checkJsonText(raw);
}

/** body-parser turns an empty body into {}: for a flag that would be a silent reset. */
export function verifyFlagJson(req: Req, res: Res, raw: Buffer): void {
	if (raw.length === 0) throw badRequest("The body must be a JSON object.", [{ field: "value", message: "The body is empty." }]);
	verifyJson(req, res, raw);
}

/** What an Idempotency-Key may be; the OpenAPI document declares the header with it. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Bodies of POST/PUT/PATCH on JSON routes must say they are JSON, and no body may
 * use a key that reaches a prototype (lib/http/json-guard.ts). On an alias that takes one,
 * an Idempotency-Key header is handed to the action (it is scoped there by the
 * verified caller, so nothing is trusted from it).
 */
function checkJsonCall(ctx: Context<unknown, CallMeta>, req: Req): void {
	const key = policyOf(req).idempotencyKey ? req.headers["idempotency-key"] : undefined;
	if (key !== undefined) {
		if (typeof key !== "string" || !IDEMPOTENCY_KEY.test(key)) {
			throw new ClientError(400, "VALIDATION_ERROR", "Idempotency-Key must be 1 to 255 visible ASCII characters.");
		}
		ctx.meta.idempotencyKey = key;
	}
	const unsafe = unsafeKey(req.body);
	if (unsafe !== undefined) throw badRequest(`The body may not use the key "${unsafe}".`, [{ field: unsafe, message: "This key is not allowed." }]);
	const type = (req.headers["content-type"] ?? "").toLowerCase();
	// A DELETE usually sends no body; one that does is held to the same rule.
	if (!["POST", "PUT", "PATCH"].includes(req.method ?? "") && !(req.method === "DELETE" && type)) return;
	if (!type && policyOf(req).bodyless && Number(req.headers["content-length"] ?? 0) === 0 && !req.headers["transfer-encoding"]) return;
	if (!/^application\/json\s*(;\s*charset=utf-8\s*)?$/.test(type)) {
		throw new ClientError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json.");
	}
}

function requireSnsBody(_ctx: Context, req: Req): void {
	const type = (req.headers["content-type"] ?? "").toLowerCase();
	if (!/^(text\/plain|application\/json)\s*(;|$)/.test(type)) {
		throw new ClientError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the SNS message as text/plain or application/json.");
	}
}

/**
 * Feature-flag routes see the body apart from the path (mergeParams: false), because
 * the body is the flag's value and must be checked as a whole: merged into params, an
 * array or a primitive would vanish. The action gets { featureName, value }.
 */
function flagParams(ctx: Context<unknown, CallMeta>, req: Req): void {
	checkJsonCall(ctx, req);
	const { body, params } = req.$params as { body?: unknown; params?: Record<string, string> };
	req.$params = req.method === "PUT" ? { ...params, value: body } : { ...params };
}

/** busboy throws on a body that is not multipart or has no boundary; refused here with the contract's codes. */
function requireMultipart(_ctx: Context, req: Req): void {
	const type = req.headers["content-type"] ?? "";
	if (!/^multipart\/form-data\s*(;|$)/i.test(type)) {
		throw new ClientError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the resume as multipart/form-data.");
	}
	const boundary = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(type);
	if (!boundary) throw badRequest("The multipart boundary is missing.");
	// RFC 2046: 1 to 70 characters. busboy throws on very long ones, which would be a 500.
	const value = boundary[1] ?? boundary[2] ?? "";
	if (value.length < 1 || value.length > 70) throw badRequest("The multipart boundary must be 1 to 70 characters.");
}

/** A one-click POST carries List-Unsubscribe=One-Click as a form (or no body); nothing of it reaches the action but the path. */
function oneClick(ctx: Context<unknown, CallMeta>, req: Req): void {
	const { body, params } = req.$params as { body?: Record<string, unknown>; params?: Record<string, string> };
	if (req.method === "POST") {
		const type = (req.headers["content-type"] ?? "").toLowerCase();
		const keys = Object.keys(body ?? {});
		if (type && !/^application\/x-www-form-urlencoded\s*(;|$)/.test(type)) {
			throw new ClientError(415, "UNSUPPORTED_MEDIA_TYPE", "Send List-Unsubscribe=One-Click as application/x-www-form-urlencoded.");
		}
		if (!(keys.length === 0 || (keys.length === 1 && body!["List-Unsubscribe"] === "One-Click"))) {
			throw badRequest("The body must be List-Unsubscribe=One-Click, or empty.");
		}
		ctx.meta.acceptsHtml = /\btext\/html\b/.test(String(req.headers.accept ?? ""));
	}
	req.$params = { ...params };
}

const BODY_CHECKS: Record<BodyKind, BodyCheck> = {
	none: () => undefined,
	"one-click": oneClick,
	json: checkJsonCall,
	sns: requireSnsBody,
	multipart: requireMultipart,
	flag: flagParams
};

/**
 * Counts the attempt against the alias's bucket, per client address and, when the
 * body names an account, per account.
 */
async function countAttempt(gateway: GatewayThis, limit: NonNullable<AliasPolicy["rateLimit"]>, req: Req): Promise<void> {
	const body = (req.body ?? {}) as Record<string, unknown>;
	const username = limit.userField ? body[limit.userField] : undefined;
	await gateway.rateLimiter.hit(limit.bucket, {
		address: rateLimitSubject(gateway.clientAddresses.of(req.socket.remoteAddress, req.headers["x-forwarded-for"])),
		username: typeof username === "string" ? username : undefined
	});
}

/**
 * Whether beforeCall or afterCall has anything to do for an alias of this policy.
 * routes.ts leaves both hooks off the routes of aliases that need neither (the plain
 * reads): moleculer-web awaits each hook it finds, a turn of the microtask queue per
 * request even when the hook returns at once. Every policy field the two hooks read
 * is named here; test/unit/route-hooks.test.ts holds them to it.
 */
export function needsHooks(p: AppliedPolicy): boolean {
	return p.body !== "none" || p.bodyParamsOnly === true || p.bindingCookie === true || p.rateLimit !== undefined || p.stream !== undefined || p.noStore === true || p.idempotencyKey === true || p.origin === true;
}

/**
 * Runs before the Bearer token is checked and anything is called. The body must be of
 * the route's kind and, for body-params-only aliases, carry every parameter: query
 * parameters would be merged into the params and win over the body, putting secrets
 * in URLs, which end up in logs, proxies and browser history. A request of the right
 * shape is then counted against the rate limits before anything checks a credential.
 */
export function beforeCall(this: GatewayThis, ctx: Context<unknown, CallMeta>, _route: unknown, req: Req, res: Res): void | Promise<void> {
	const policy = policyOf(req);
	BODY_CHECKS[policy.body](ctx, req);
	if (policy.bodyParamsOnly && (req.method === "POST" || req.method === "PUT" || req.method === "PATCH") && Object.keys(req.query ?? {}).length > 0) {
		throw badRequest("Send the parameters in the JSON body, not in the URL.");
	}
	if (policy.bindingCookie) ctx.meta.socialBinding = readCookie(req.headers.cookie, BINDING_COOKIE);
	if (policy.stream === "ndjson") ctx.meta.wantsNdjson = /(^|,)\s*application\/x-ndjson\s*(;|,|$)/i.test(req.headers.accept ?? "");
	if (policy.origin) {
		ctx.meta.clientIp = this.clientAddresses.of(req.socket.remoteAddress, req.headers["x-forwarded-for"]);
		const ua = req.headers["user-agent"];
		if (typeof ua === "string") ctx.meta.userAgent = ua.slice(0, 512);
	}
	// Only the rate limit waits (on the store); an alias without one, the busy reads among them, answers without a promise.
	if (policy.rateLimit) return countAttempt(this, policy.rateLimit, req).then(() => openIfLive(this, policy, req, res));
	openIfLive(this, policy, req, res);
}

/** Opens the live stream of an "sse" alias: after the rate limit, before the action reads the timeline. */
function openIfLive(gateway: GatewayThis, policy: AppliedPolicy, req: Req, res: Res): void {
	if (policy.stream === "sse") openLiveStream(gateway, req, res);
	else if (policy.stream === "inbox") openInboxStream(gateway, req, res);
}

function wantsEventStream(req: Req): boolean {
	return /(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(req.headers.accept ?? "");
}

/**
 * A client resumes after the event named by Last-Event-ID (SSE's own header; the
 * `after` query parameter does the same for plain JSON reads). The stream is opened
 * here, before the action reads the timeline, so nothing recorded in between is lost;
 * it is dropped with the response if the call fails.
 */
function openLiveStream(gateway: GatewayThis, req: Req, res: Res): void {
	const params = req.$params as Record<string, unknown>;
	const lastEventId = req.headers["last-event-id"];
	if (typeof lastEventId === "string" && lastEventId !== "") {
		if (!EVENT_SEQ.test(lastEventId)) throw badRequest("Last-Event-ID does not name an event of this stream.", [{ field: "Last-Event-ID", message: "Use the id of an event this stream sent." }]);
		params.after = lastEventId;
	}
	if (!wantsEventStream(req)) return;
	const stream = gateway.live.watch(String(params.notificationId), typeof params.after === "string" ? params.after : undefined);
	req.$live = stream;
	// Whichever way the response ends, the stream goes with it (and stops counting).
	res.once("close", () => stream.destroy());
}

/** An inbox stream, as openLiveStream: Last-Event-ID names the last message the client has. */
function openInboxStream(gateway: GatewayThis, req: Req, res: Res): void {
	const params = req.$params as Record<string, unknown>;
	const lastEventId = req.headers["last-event-id"];
	if (typeof lastEventId === "string" && lastEventId !== "") {
		if (!INBOX_SEQ.test(lastEventId)) throw badRequest("Last-Event-ID does not name an event of this stream.", [{ field: "Last-Event-ID", message: "Use the id of a message this stream sent." }]);
		params.after = lastEventId.toLowerCase();
	}
	if (!wantsEventStream(req)) return;
	const stream = gateway.inbox.watch(String(params.id).toLowerCase(), typeof params.after === "string" ? params.after : undefined);
	req.$inbox = stream;
	res.once("close", () => stream.destroy());
}

/** Refuses a stream over its limits (429, or 503 during a stop); the stream is dropped then. */
function admitStream(gateway: GatewayThis, req: Req, stream: LiveStream | InboxStream, admit: (principal: string) => ReturnType<GatewayThis["live"]["admit"]>): void {
	if (stream.destroyed) throw shuttingDown();
	const p = req.$principal;
	const admission = admit(p ? `${p.kind}:${p.sub}` : "anonymous");
	if (admission === "admitted") return;
	stream.destroy();
	if (admission === "node-limit" && gateway.runtime().shutdown.stopping) throw shuttingDown();
	throw new ClientError(429, "RATE_LIMITED", admission === "principal-limit" ? "Too many open event streams for this caller." : "This node has too many open event streams.", { retryAfter: 30 });
}

function eventStreamHeaders(res: Res): void {
	res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
	res.setHeader("Cache-Control", "no-store");
	res.setHeader("X-Accel-Buffering", "no");
}

/** Past the access check: counted against the limits, then begins with the messages after Last-Event-ID and the counts. */
function beginInboxStream(req: Req, res: Res, snapshot: InboxSnapshot): InboxStream {
	const stream = req.$inbox!;
	const gateway = req.$service!;
	admitStream(gateway, req, stream, principal => gateway.inbox.admit(stream, principal));
	eventStreamHeaders(res);
	stream.begin(snapshot, gateway.inbox.heartbeatMs);
	if (req.$principal) stream.endAt(req.$principal.exp * 1000);
	return stream;
}

/**
 * Past the access check: the stream is counted against its limits, then begins with the
 * timeline. Its headers go on the response itself: the gateway's sendResponse sends a
 * live stream without moleculer-web's (sse-streams.ts sendEventStream).
 */
function beginLiveStream(req: Req, res: Res, timeline: Timeline): LiveStream {
	const stream = req.$live!;
	const gateway = req.$service!;
	admitStream(gateway, req, stream, principal => gateway.live.admit(stream, principal));
	eventStreamHeaders(res);
	stream.begin(timeline.items, gateway.live.heartbeatMs);
	if (req.$principal) stream.endAt(req.$principal.exp * 1000);
	return stream;
}

/**
 * moleculer-web resolves a failed upload with its error after already answering with
 * it; rethrown here, it reaches the error handler (which sees the answer is sent)
 * instead of being sent again as a result.
 */
function uploadResult(data: unknown): unknown {
	if (data instanceof Error) throw data;
	// With empty: true and no part at all, nothing was called.
	if (Array.isArray(data) && data.length === 0) {
		throw badRequest("The resume file is missing.", [{ field: "resume", message: "A file part named 'resume' is required." }]);
	}
	return data;
}

/** Runs on a result before it is sent. For uploads moleculer-web calls it with the alias as `this`, so it uses none. */
export function afterCall(_ctx: Context, _route: unknown, req: Req, res: Res, data: unknown): unknown {
	const policy = policyOf(req);
	const result =
		policy.body === "multipart" ? uploadResult(data) : req.$live ? beginLiveStream(req, res, data as Timeline) : req.$inbox ? beginInboxStream(req, res, data as InboxSnapshot) : data;
	if (policy.noStore) {
		res.setHeader("Cache-Control", "no-store");
		res.setHeader("Pragma", "no-cache");
	}
	return result;
}
