/**
 * The backend-for-frontend: every client call enters here. Explicit aliases only
 * (mappingPolicy "restrict"); public routes are listed one by one and every other
 * route requires a valid Bearer token before anything is called. Errors leave as
 * problem documents; every response carries X-Request-Id.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import { ClientError, notImplemented, unauthorized } from "../lib/errors";
import { toProblem } from "../lib/problem";
import { RuntimeMixin, type RuntimeMethods } from "../mixins/runtime.mixin";
import type { AuthMeta } from "../middlewares/auth.middleware";

type Req = IncomingMessage & { $ctx?: Context; $route?: { opts?: { jsonOnly?: boolean } }; body?: unknown };
type Res = ServerResponse;

const JSON_LIMIT = "1mb";
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/;

export interface HealthReport {
	status: "ok" | "unavailable";
	checks: Record<string, "ok" | "down">;
}

/** Routes whose targets arrive with later work: they already demand a token. */
const LATER = "api.notImplemented";

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
		bodyParsers: { json: { limit: JSON_LIMIT, strict: true } },
		onBeforeCall: beforeJsonCall
	};
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Bodies of POST/PUT/PATCH on JSON routes must say they are JSON. An
 * Idempotency-Key header is handed to the action (it is scoped there by the
 * verified caller, so nothing is trusted from it).
 */
function beforeJsonCall(ctx: Context<unknown, { idempotencyKey?: string }>, _route: unknown, req: Req): void {
	const key = req.headers["idempotency-key"];
	if (key !== undefined) {
		if (typeof key !== "string" || !IDEMPOTENCY_KEY.test(key)) {
			throw new ClientError(400, "VALIDATION_ERROR", "Idempotency-Key must be 1 to 255 visible ASCII characters.");
		}
		ctx.meta.idempotencyKey = key;
	}
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

/** Answers that carry tokens must not be kept by any cache. */
function noStore(_ctx: Context, _route: unknown, _req: Req, res: Res, data: unknown): unknown {
	res.setHeader("Cache-Control", "no-store");
	res.setHeader("Pragma", "no-cache");
	return data;
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
		use: [
			(_req: Req, res: Res, next: () => void) => {
				res.setHeader("X-Content-Type-Options", "nosniff");
				next();
			}
		],
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
			jsonRoute(
				"/auth",
				{
					"POST login": "auth.login",
					"POST register": "auth.register",
					"POST tokens/refresh": "auth.refresh",
					"POST refresh-user-token": "auth.refresh",
					"POST tokens/exchange": LATER,
					"GET social/login": LATER,
					"GET social/login/callback": LATER
				},
				false,
				{ onAfterCall: noStore }
			),
			{
				// SNS posts its JSON as text/plain; both types are read as they are, the service parses.
				path: "/notifications/webhooks",
				logging: false,
				aliases: { "POST email-provider": "webhooks.emailProvider" },
				mappingPolicy: "restrict",
				authentication: false,
				mergeParams: false,
				bodyParsers: { json: { limit: JSON_LIMIT, strict: false }, text: { limit: JSON_LIMIT, type: "text/plain" } },
				onBeforeCall: requireSnsBody
			},
			jsonRoute(
				"",
				{
					"GET actors/:id": "actors.get",
					"GET actor": "actors.find",
					"POST resumes": LATER,
					"GET resumes/:id": LATER,
					"GET resumes/:id/content": LATER,
					"GET admin/features": LATER,
					"GET admin/features/:featureName": LATER,
					"PUT admin/features/:featureName": LATER,
					"POST notifications": "notifications.create",
					"GET notifications/:notificationId": "notifications.get",
					"POST templates": "notifications.createTemplate",
					"GET templates/:id": "notifications.getTemplate",
					"PUT templates/:id": "notifications.updateTemplate"
				},
				true
			)
		],
		onError(this: { logger: { error: (...a: unknown[]) => void; warn: (...a: unknown[]) => void } }, req: Req, res: Res, err: unknown) {
			const requestId = req.$ctx?.requestID ?? (res.getHeader("X-Request-ID") as string | undefined) ?? randomUUID();
			const { problem, headers, serverSide } = toProblem(err, requestId);
			if (serverSide) this.logger.error("Request failed", { requestId, method: req.method, err });
			if (res.headersSent) return;
			res.setHeader("Content-Type", "application/problem+json; charset=utf-8");
			res.setHeader("X-Request-ID", requestId);
			res.setHeader("Cache-Control", "no-store");
			for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
			res.writeHead(problem.status);
			res.end(JSON.stringify(problem));
		}
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
		},
		notImplemented: {
			visibility: "published",
			auth: "public",
			handler() {
				throw notImplemented();
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
		this.settings.port = this.runtime().config.port;
	}
};

export default GatewayService;
