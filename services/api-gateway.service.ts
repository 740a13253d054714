/**
 * The backend-for-frontend: every client call enters here. Explicit aliases only
 * (mappingPolicy "restrict"); public routes are listed one by one and every other
 * route requires a valid Bearer token before anything is called. Errors leave as
 * problem documents; every response carries X-Request-Id.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { Errors, type Context, type ServiceSchema, type ServiceSettingSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import { ClientAddresses, rateLimitSubject } from "../lib/client-ip";
import type { RateLimitedRoute } from "../lib/config";
import { badRequest, ClientError, notFound, unauthorized } from "../lib/errors";
import { answerClientError } from "../lib/http-refusal";
import { checkJsonText, unsafeKey } from "../lib/json-guard";
import { toProblem } from "../lib/problem";
import { RateLimiter } from "../lib/rate-limit";
import { MAX_RESUME_BYTES, UPLOAD_DEADLINE_MS } from "../lib/resume";
import type { Runtime } from "../lib/runtime";
import { failureCode, failureRedirect } from "../lib/social/sign-in";
import { BINDING_COOKIE, readCookie } from "../lib/social/state";
import { RuntimeMixin, type RuntimeMethods } from "../mixins/runtime.mixin";
import type { AuthMeta } from "../middlewares/auth.middleware";
import type { SocialCallbackMeta } from "./auth.service";

type Req = IncomingMessage & {
	$ctx?: Context;
	$service?: GatewayThis;
	$route?: { opts?: { jsonOnly?: boolean } };
	$alias?: { action?: string };
	$params?: unknown;
	query?: Record<string, unknown>;
	body?: unknown;
};
type Res = ServerResponse;
interface GatewayThis {
	logger: { error: (...a: unknown[]) => void };
	runtime(): Runtime;
	corsOrigins: Set<string>;
	clientAddresses: ClientAddresses;
	rateLimiter: RateLimiter;
	server?: Server;
}

const SOCIAL_CALLBACK = "auth.socialCallback";

const JSON_LIMIT = "1mb";
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** The scheme name is case-insensitive (RFC 9110); the token is a compact JWS. */
const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/i;

export interface HealthReport {
	status: "ok" | "unavailable";
	checks: Record<string, "ok" | "down">;
}


/** Runs on the raw bytes of every JSON body, before they are decoded (lib/json-guard.ts). */
function verifyJson(_req: Req, _res: Res, raw: Buffer): void {
	checkJsonText(raw);
}

function jsonRoute(path: string, aliases: Record<string, string>, authentication: boolean, extra: object = {}) {
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

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Bodies of POST/PUT/PATCH on JSON routes must say they are JSON, and no body may
 * use a key that reaches a prototype (lib/json-guard.ts). An Idempotency-Key header
 * is handed to the action (it is scoped there by the verified caller, so nothing is
 * trusted from it).
 */
function beforeJsonCall(ctx: Context<unknown, { idempotencyKey?: string }>, _route: unknown, req: Req): void {
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

function requireSnsBody(_ctx: Context, _route: unknown, req: Req): void {
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
function featureParams(ctx: Context, route: unknown, req: Req): void {
	beforeJsonCall(ctx, route, req);
	const { body, params } = req.$params as { body?: unknown; params?: Record<string, string> };
	req.$params = req.method === "PUT" ? { ...params, value: body } : { ...params };
}

/** body-parser turns an empty body into {}: for a flag that would be a silent reset. */
function verifyFlagJson(req: Req, res: Res, raw: Buffer): void {
	if (raw.length === 0) throw badRequest("The body must be a JSON object.", [{ field: "value", message: "The body is empty." }]);
	verifyJson(req, res, raw);
}

/** busboy throws on a body that is not multipart or has no boundary; refused here with the contract's codes. */
function requireMultipart(_ctx: Context, _route: unknown, req: Req): void {
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
function uploadResult(_ctx: Context, _route: unknown, _req: Req, _res: Res, data: unknown): unknown {
	if (data instanceof Error) throw data;
	// With empty: true and no part at all, nothing was called.
	if (Array.isArray(data) && data.length === 0) {
		throw badRequest("The resume file is missing.", [{ field: "resume", message: "A file part named 'resume' is required." }]);
	}
	return data;
}

/** A body that ends inside a part: busboy reports it as a plain Error, but it is the client's. */
const TRUNCATED_MULTIPART = /unexpected end of multipart data$/i;

function uploadError(this: GatewayThis, req: Req, res: Res, err: unknown): void {
	const truncated = err instanceof Error && !(err instanceof Errors.MoleculerError) && TRUNCATED_MULTIPART.test(err.message);
	sendProblem.call(this, req, res, truncated ? badRequest("The multipart body ended early.") : err);
}

/** The attempts counted per action, and the body field that names the account. */
const RATE_LIMITED: Record<string, { route: RateLimitedRoute; userField?: string }> = {
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
async function authBeforeCall(this: GatewayThis, ctx: Context, route: unknown, req: Req): Promise<void> {
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

const CORS_ALLOW_METHODS = "GET, POST, PUT";
const CORS_ALLOW_HEADERS = "Authorization, Content-Type, Idempotency-Key, X-Request-Id";
const CORS_EXPOSE_HEADERS = "Location, Retry-After, X-Request-Id";
const CORS_MAX_AGE_SECONDS = "600";

/**
 * Headers every answer carries, and CORS by exact origin; true when the origin is
 * allowed. Also written by the error handlers, because a request can fail before the
 * route's middlewares run (a broken path encoding, a body the parser refuses).
 */
function writeCommonHeaders(gateway: Pick<GatewayThis, "corsOrigins">, req: Req, res: Res): boolean {
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
function commonHeaders(req: Req, res: Res, next: (err?: unknown) => void): void {
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
function noStore(_ctx: Context, _route: unknown, _req: Req, res: Res, data: unknown): unknown {
	res.setHeader("Cache-Control", "no-store");
	res.setHeader("Pragma", "no-cache");
	return data;
}

/** The callback checks the binding cookie against the state; moleculer-web does not parse cookies. */
function passBindingCookie(ctx: Context<unknown, SocialCallbackMeta>, _route: unknown, req: Req): void {
	if (req.$alias?.action === SOCIAL_CALLBACK) ctx.meta.socialBinding = readCookie(req.headers.cookie, BINDING_COOKIE);
}

function requestIdOf(req: Req, res: Res): string {
	return req.$ctx?.requestID ?? (res.getHeader("X-Request-ID") as string | undefined) ?? randomUUID();
}

/** Every failure becomes a problem document, with only a generic detail for 5xx. */
function sendProblem(this: GatewayThis, req: Req, res: Res, err: unknown): void {
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
function socialError(this: GatewayThis, req: Req, res: Res, err: unknown): void {
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

const GatewayService: ServiceSchema<ServiceSettingSchema & Record<string, unknown>, RuntimeMethods> = {
	name: "api",
	mixins: [ApiGateway as unknown as Partial<ServiceSchema>, RuntimeMixin],
	// Route logging is off: moleculer-web formats its per-request lines whenever it is
	// on, whatever the log level, which costs more than the rest of a cached request.
	// Failures are logged by onError.
	settings: {
		port: 8500,
		ip: "0.0.0.0",
		logRequest: "debug",
		logResponse: "debug",
		log4XXResponses: false,
		logRequestParams: null,
		logResponseData: null,
		rootCallOptions(this: unknown, options: { requestID?: string }, req: Req) {
			const given = req.headers["x-request-id"];
			options.requestID = typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
		},
		use: [commonHeaders],
		routes: [
			{
				path: "/health",
				logging: false,
				aliases: { "GET live": "api.live", "GET ready": "api.ready" },
				mappingPolicy: "restrict",
				bodyParsers: false,
				authentication: false
			},
			{
				path: "/.well-known",
				logging: false,
				aliases: { "GET jwks.json": "auth.jwks" },
				mappingPolicy: "restrict",
				bodyParsers: false,
				authentication: false
			},
			{
				...jsonRoute(
					"/auth",
					{
						"POST login": "auth.login",
						"POST register": "auth.register",
						"POST tokens/refresh": "auth.refresh",
						"POST refresh-user-token": "auth.refresh",
						"POST tokens/exchange": "auth.exchange"
					},
					false,
					{ onAfterCall: noStore }
				),
				onBeforeCall: authBeforeCall
			},
			{
				path: "/auth/social",
				logging: false,
				aliases: { "GET login": "auth.socialLogin", "GET login/callback": SOCIAL_CALLBACK },
				mappingPolicy: "restrict",
				bodyParsers: false,
				authentication: false,
				onBeforeCall: passBindingCookie,
				onAfterCall: noStore,
				onError: socialError
			},
			{
				// SNS posts its JSON as text/plain; both types are read as they are, the service parses.
				path: "/notifications/webhooks",
				logging: false,
				aliases: { "POST email-provider": "webhooks.emailProvider" },
				mappingPolicy: "restrict",
				authentication: false,
				mergeParams: false,
				bodyParsers: {
					json: { limit: JSON_LIMIT, strict: false, verify: verifyJson },
					text: { limit: JSON_LIMIT, type: "text/plain", verify: verifyJson }
				},
				onBeforeCall: requireSnsBody
			},
			{
				// The file streams to the documents service as it arrives; no body parser runs.
				path: "/resumes",
				aliases: { "POST /": "multipart:documents.upload" },
				authentication: true,
				mappingPolicy: "restrict",
				mergeParams: true,
				bodyParsers: false,
				busboyConfig: {
					// empty: fields without a file still reach the action, which answers 400.
					empty: true,
					limits: {
						files: 1,
						fields: 8,
						parts: 16,
						fieldSize: 1024,
						headerPairs: 32,
						// The documents service enforces the contract's 10 MiB itself and answers only
						// after removing what it wrote. This bound only caps what a remote consumer
						// can be sent; the margin keeps it from ever cutting in first.
						fileSize: MAX_RESUME_BYTES + 1024 * 1024
					}
				},
				// The deadline inside the upload fires first, so the gateway always hears its outcome.
				callOptions: { timeout: UPLOAD_DEADLINE_MS + 15_000 },
				onBeforeCall: requireMultipart,
				onAfterCall: uploadResult,
				onError: uploadError
			},
			{
				path: "/admin/features",
				aliases: {
					"GET /": "features.list",
					"GET /:featureName": "features.get",
					"PUT /:featureName": "features.set"
				},
				authentication: true,
				mappingPolicy: "restrict",
				mergeParams: false,
				bodyParsers: { json: { limit: JSON_LIMIT, strict: false, verify: verifyFlagJson } },
				onBeforeCall: featureParams
			},
			jsonRoute(
				"",
				{
					"GET actors/:id": "actors.get",
					"GET actor": "actors.find",
					"GET resumes/:id": "documents.get",
					"GET resumes/:id/content": "documents.content",
					"POST notifications": "notifications.create",
					"GET notifications/:notificationId": "notifications.get",
					"POST templates": "notifications.createTemplate",
					"GET templates/:id": "notifications.getTemplate",
					"PUT templates/:id": "notifications.updateTemplate"
				},
				true
			)
		],
		onError: sendProblem
	},
	actions: {
		// moleculer-web's alias listing is not part of this API.
		listAliases: false,
		addRoute: false,
		removeRoute: false,
		rest: { auth: "public" },
		live: {
			visibility: "published",
			auth: "public",
			handler(): HealthReport {
				return { status: "ok", checks: {} };
			}
		},
		ready: {
			visibility: "published",
			auth: "public",
			async handler(ctx: Context<unknown, { $statusCode?: number; $responseHeaders?: Record<string, string> }>): Promise<HealthReport> {
				const report = await this.readiness();
				if (report.status !== "ok") {
					ctx.meta.$statusCode = 503;
					ctx.meta.$responseHeaders = { "Retry-After": "5" };
				}
				return report;
			}
		}
	},
	methods: {
		/**
		 * Replaces moleculer-web's handler, which logs whole errors of failed body
		 * parsing (their data can hold the submitted body, passwords included).
		 */
		errorHandler(req: Req, res: Res, err: unknown) {
			this.sendError(req, res, err);
		},
		/** Verifies the Bearer token here, then hands it on in meta; each service verifies it again. */
		async authenticate(ctx: Context<unknown, AuthMeta>, _route: unknown, req: Req) {
			const header = req.headers.authorization;
			const m = typeof header === "string" ? BEARER.exec(header) : null;
			if (!m) throw unauthorized();
			await (await this.runtime().verifier()).verify(m[1]);
			ctx.meta.authToken = m[1];
			return null;
		},
		async readiness(): Promise<HealthReport> {
			const rt = this.runtime();
			const checks: HealthReport["checks"] = {};
			const probe = async (name: string, fn: () => Promise<unknown>) => {
				try {
					await fn();
					checks[name] = "ok";
				} catch {
					checks[name] = "down";
				}
			};
			await probe("store", () => rt.store().ping());
			if (rt.config.natsUrl) {
				await probe("transporter", async () => {
					if (!this.broker.transit?.connected || !rt.transportUp) throw new Error("disconnected");
				});
			}
			if (rt.config.redisUrl) await probe("redis", () => rt.kv().ping());
			const status = Object.values(checks).every(c => c === "ok") ? "ok" : "unavailable";
			return { status, checks };
		}
	},
	created() {
		const rt = this.runtime();
		this.settings.port = rt.config.port;
		const self = this as unknown as GatewayThis;
		self.corsOrigins = new Set(rt.config.gateway.corsOrigins);
		self.clientAddresses = new ClientAddresses(rt.config.gateway.trustedProxies);
		self.rateLimiter = new RateLimiter(rt.kv(), rt.config.gateway.rateLimits, this.logger);
		self.server?.on("clientError", answerClientError);
	}
};

export default GatewayService;
