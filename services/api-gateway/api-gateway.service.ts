/**
 * The backend-for-frontend: every client call enters here. Explicit aliases only
 * (mappingPolicy "restrict"); public routes are listed one by one and every other
 * route requires a valid Bearer token before anything is called. Errors leave as
 * problem documents; every response carries X-Request-Id.
 */
import { randomUUID } from "node:crypto";
import { type Context, type ServiceSchema, type ServiceSettingSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import { ClientAddresses } from "../../lib/client-ip";
import { unauthorized } from "../../lib/errors";
import { answerClientError } from "../../lib/http-refusal";
import { RateLimiter } from "../../lib/rate-limit";
import { MAX_RESUME_BYTES, UPLOAD_DEADLINE_MS } from "../../lib/resume";
import { RuntimeMixin, type RuntimeMethods } from "../../mixins/runtime.mixin";
import type { AuthMeta } from "../../middlewares/auth.middleware";
import {
	type Req,
	type Res,
	type GatewayThis,
	SOCIAL_CALLBACK,
	JSON_LIMIT,
	REQUEST_ID,
	BEARER,
	type HealthReport,
	verifyJson,
	jsonRoute,
	requireSnsBody,
	featureParams,
	verifyFlagJson,
	requireMultipart,
	uploadResult,
	uploadError,
	commonHeaders,
	noStore,
	passBindingCookie,
	sendProblem,
	socialError,
	authBeforeCall
} from "./hooks";

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
			// A node whose services keep nothing in the store never opens it.
			if (rt.usesStore()) await probe("store", () => rt.store().ping());
			if (rt.config.natsUrl) {
				await probe("transporter", async () => {
					if (!this.broker.transit?.connected || !rt.transportUp) throw new Error("disconnected");
				});
			}
			if (rt.config.redisUrl) await probe("redis", () => rt.kv().ping());
			// Without the embedded provider's public keys no token can be checked (Cognito's are fetched per kid).
			if (rt.config.idp.kind === "embedded") await probe("keys", () => rt.publicKeys().ready());
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
