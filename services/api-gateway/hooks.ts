/**
 * The gateway's route hooks, error answers and common headers: everything the
 * schema in api-gateway.service.ts wires together.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { Errors, type Context } from "moleculer";
import { ClientAddresses, rateLimitSubject } from "../../lib/client-ip";
import type { RateLimitedRoute } from "../../lib/config";
import { badRequest, ClientError, notFound } from "../../lib/errors";
import { checkJsonText, unsafeKey } from "../../lib/json-guard";
import { toProblem } from "../../lib/problem";
import { RateLimiter } from "../../lib/rate-limit";
import type { Runtime } from "../../lib/runtime";
import { failureCode, failureRedirect } from "../../lib/social/sign-in";
import { BINDING_COOKIE, readCookie } from "../../lib/social/state";
import type { SocialCallbackMeta } from "../auth.service";

export type Req = IncomingMessage & {
	$ctx?: Context;
	$service?: GatewayThis;
	$route?: { opts?: { jsonOnly?: boolean } };
	$alias?: { action?: string };
	$params?: unknown;
	query?: Record<string, unknown>;
	body?: unknown;
};
export type Res = ServerResponse;
export interface GatewayThis {
	logger: { error: (...a: unknown[]) => void };
	runtime(): Runtime;
	corsOrigins: Set<string>;
	clientAddresses: ClientAddresses;
	rateLimiter: RateLimiter;
	server?: Server;
}

export const SOCIAL_CALLBACK = "auth.socialCallback";

export const JSON_LIMIT = "1mb";
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** The scheme name is case-insensitive (RFC 9110); the token is a compact JWS. */
export const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/i;

export interface HealthReport {
	status: "ok" | "unavailable";
	checks: Record<string, "ok" | "down">;
}


/** Runs on the raw bytes of every JSON body, before they are decoded (lib/json-guard.ts). */
export function verifyJson(_req: Req, _res: Res, raw: Buffer): void {
	checkJsonText(raw);
}

export function jsonRoute(path: string, aliases: Record<string, string>, authentication: boolean, extra: object = {}) {
	return {
		...extra,
		logging: false,
		path,
		aliases,
		authentication,
		mappingPolicy: "restrict",
		mergeParams: true,
		jsonOnly: true,
		bodyParsers: { json: { limit: JSON_LIMIT, strict: true, verify: verifyJson } },
		onBeforeCall: beforeJsonCall
	};
}

export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Bodies of POST/PUT/PATCH on JSON routes must say they are JSON, and no body may
 * use a key that reaches a prototype (lib/json-guard.ts). An Idempotency-Key header
 * is handed to the action (it is scoped there by the verified caller, so nothing is
 * trusted from it).
 */
export function beforeJsonCall(ctx: Context<unknown, { idempotencyKey?: string }>, _route: unknown, req: Req): void {
	const key = req.headers["idempotency-key"];
	if (key !== undefined) {
		if (typeof key !== "string" || !IDEMPOTENCY_KEY.test(key)) {
			throw new ClientError(400, "VALIDATION_ERROR", "Idempotency-Key must be 1 to 255 visible ASCII characters.");
		}
		ctx.meta.idempotencyKey = key;
	}
	const unsafe = unsafeKey(req.body);
	if (unsafe !== undefined) throw badRequest(`The body may not use the key "${unsafe}".`, [{ field: unsafe, message: "This key is not allowed." }]);
	if (!["POST", "PUT", "PATCH"].includes(req.method ?? "")) return;
	const type = (req.headers["content-type"] ?? "").toLowerCase();
	if (!/^application\/json\s*(;\s*charset=utf-8\s*)?$/.test(type)) {
		throw new ClientError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json.");
	}
}

export function requireSnsBody(_ctx: Context, _route: unknown, req: Req): void {
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
export function featureParams(ctx: Context, route: unknown, req: Req): void {
	beforeJsonCall(ctx, route, req);
	const { body, params } = req.$params as { body?: unknown; params?: Record<string, string> };
	req.$params = req.method === "PUT" ? { ...params, value: body } : { ...params };
}

/** body-parser turns an empty body into {}: for a flag that would be a silent reset. */
export function verifyFlagJson(req: Req, res: Res, raw: Buffer): void {
	if (raw.length === 0) throw badRequest("The body must be a JSON object.", [{ field: "value", message: "The body is empty." }]);
	verifyJson(req, res, raw);
}

/** busboy throws on a body that is not multipart or has no boundary; refused here with the contract's codes. */
export function requireMultipart(_ctx: Context, _route: unknown, req: Req): void {
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

/**
 * moleculer-web resolves a failed upload with its error after already answering with
 * it; rethrown here, it reaches onError (which sees the answer is sent) instead of
 * being sent again as a result.
 */
export function uploadResult(_ctx: Context, _route: unknown, _req: Req, _res: Res, data: unknown): unknown {
	if (data instanceof Error) throw data;
	// With empty: true and no part at all, nothing was called.
	if (Array.isArray(data) && data.length === 0) {
		throw badRequest("The resume file is missing.", [{ field: "resume", message: "A file part named 'resume' is required." }]);
	}
	return data;
}

/** A body that ends inside a part: busboy reports it as a plain Error, but it is the client's. */
export const TRUNCATED_MULTIPART = /unexpected end of multipart data$/i;

export function uploadError(this: GatewayThis, req: Req, res: Res, err: unknown): void {
	const truncated = err instanceof Error && !(err instanceof Errors.MoleculerError) && TRUNCATED_MULTIPART.test(err.message);
	sendProblem.call(this, req, res, truncated ? badRequest("The multipart body ended early.") : err);
}

/** The attempts counted per action, and the body field that names the account. */
export const RATE_LIMITED: Record<string, { route: RateLimitedRoute; userField?: string }> = {
	"auth.login": { route: "login", userField: "username" },
	"auth.register": { route: "register", userField: "email" },
	"auth.refresh": { route: "refresh" },
	"auth.exchange": { route: "exchange" }
};

/**
 * The /auth actions take passwords and tokens: from the body only. Query parameters
 * would be merged into the params and win over the body, putting secrets in URLs,
 * which end up in logs, proxies and browser history. A request of the right shape
 * is then counted against the rate limits before anything checks a credential.
 */
export async function authBeforeCall(this: GatewayThis, ctx: Context, route: unknown, req: Req): Promise<void> {
	beforeJsonCall(ctx, route, req);
	if (req.method === "POST" && Object.keys(req.query ?? {}).length > 0) {
		throw badRequest("Send the parameters in the JSON body, not in the URL.");
	}
	const limited = RATE_LIMITED[req.$alias?.action ?? ""];
	if (!limited) return;
	const body = (req.body ?? {}) as Record<string, unknown>;
	const username = limited.userField ? body[limited.userField] : undefined;
	await this.rateLimiter.hit(limited.route, {
		address: rateLimitSubject(this.clientAddresses.of(req.socket.remoteAddress, req.headers["x-forwarded-for"])),
		username: typeof username === "string" ? username : undefined
	});
}

export const CORS_ALLOW_METHODS = "GET, POST, PUT";
export const CORS_ALLOW_HEADERS = "Authorization, Content-Type, Idempotency-Key, X-Request-Id";
export const CORS_EXPOSE_HEADERS = "Location, Retry-After, X-Request-Id";
export const CORS_MAX_AGE_SECONDS = "600";

/**
 * Headers every answer carries, and CORS by exact origin; true when the origin is
 * allowed. Also written by the error handlers, because a request can fail before the
 * route's middlewares run (a broken path encoding, a body the parser refuses).
 */
export function writeCommonHeaders(gateway: Pick<GatewayThis, "corsOrigins">, req: Req, res: Res): boolean {
	res.setHeader("X-Content-Type-Options", "nosniff");
	// Addresses here can carry codes and states (the social callback): never pass them on.
	res.setHeader("Referrer-Policy", "no-referrer");
	const origin = req.headers.origin;
	const allowed = typeof origin === "string" && gateway.corsOrigins.has(origin);
	if (gateway.corsOrigins.size > 0) res.setHeader("Vary", "Origin");
	if (allowed) {
		res.setHeader("Access-Control-Allow-Origin", origin);
		res.setHeader("Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS);
	}
	return allowed;
}

/**
 * The route middleware for the headers above. An origin not on the list
 * gets no CORS header at all (the browser then keeps the answer from the page), and
 * with an empty list nothing changes. No route answers OPTIONS other than an allowed
 * preflight: moleculer-web would otherwise run the action the preflight names.
 */
export function commonHeaders(req: Req, res: Res, next: (err?: unknown) => void): void {
	const allowed = writeCommonHeaders(req.$service!, req, res);
	if (req.method !== "OPTIONS") return next();
	if (allowed && typeof req.headers["access-control-request-method"] === "string") {
		res.writeHead(204, {
			"Access-Control-Allow-Methods": CORS_ALLOW_METHODS,
			"Access-Control-Allow-Headers": CORS_ALLOW_HEADERS,
			"Access-Control-Max-Age": CORS_MAX_AGE_SECONDS
		});
		res.end();
		return;
	}
	next(notFound());
}

/** Answers that carry tokens must not be kept by any cache. */
export function noStore(_ctx: Context, _route: unknown, _req: Req, res: Res, data: unknown): unknown {
	res.setHeader("Cache-Control", "no-store");
	res.setHeader("Pragma", "no-cache");
	return data;
}

/** The callback checks the binding cookie against the state; moleculer-web does not parse cookies. */
export function passBindingCookie(ctx: Context<unknown, SocialCallbackMeta>, _route: unknown, req: Req): void {
	if (req.$alias?.action === SOCIAL_CALLBACK) ctx.meta.socialBinding = readCookie(req.headers.cookie, BINDING_COOKIE);
}

export function requestIdOf(req: Req, res: Res): string {
	return req.$ctx?.requestID ?? (res.getHeader("X-Request-ID") as string | undefined) ?? randomUUID();
}

/** Every failure becomes a problem document, with only a generic detail for 5xx. */
export function sendProblem(this: GatewayThis, req: Req, res: Res, err: unknown): void {
	const requestId = requestIdOf(req, res);
	const { problem, headers, serverSide } = toProblem(err, requestId);
	if (serverSide) this.logger.error("Request failed", { requestId, method: req.method, err });
	if (res.headersSent) return;
	writeCommonHeaders(this, req, res);
	res.setHeader("Content-Type", "application/problem+json; charset=utf-8");
	res.setHeader("X-Request-ID", requestId);
	res.setHeader("Cache-Control", "no-store");
	for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
	res.writeHead(problem.status);
	res.end(JSON.stringify(problem));
}

/**
 * The callback is a browser navigation: it ends at the UI even when the auth service
 * cannot be reached or the request is malformed, with only an error code.
 */
export function socialError(this: GatewayThis, req: Req, res: Res, err: unknown): void {
	if (req.$alias?.action !== SOCIAL_CALLBACK) return sendProblem.call(this, req, res, err);
	const requestId = requestIdOf(req, res);
	const code = failureCode(err);
	if (code !== "INVALID_REQUEST") this.logger.error("Social sign-in callback failed", { requestId, err });
	if (res.headersSent) return;
	writeCommonHeaders(this, req, res);
	const { location, cookie } = failureRedirect(this.runtime().config, code);
	res.writeHead(302, { Location: location, "Set-Cookie": cookie, "Cache-Control": "no-store", "X-Request-ID": requestId });
	res.end();
}
