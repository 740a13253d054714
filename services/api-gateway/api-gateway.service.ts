/**
 * The backend-for-frontend: every client call enters here. Explicit aliases only
 * (mappingPolicy "restrict"); public routes are listed one by one and every other
 * route requires a valid Bearer token before anything is called. Errors leave as
 * problem documents; every response carries X-Request-Id.
 */
import { randomUUID } from "node:crypto";
import type { Context, ServiceSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import { ClientAddresses } from "../../lib/client-ip";
import { shuttingDown, unauthorized } from "../../lib/errors";
import type { HttpMeta } from "../../lib/http-meta";
import { answerClientError } from "../../lib/http-refusal";
import { RateLimiter } from "../../lib/rate-limit";
import { RuntimeMixin } from "../../mixins/runtime.mixin";
import type { AuthMeta } from "../../middlewares/auth.middleware";
import { answerError, commonHeaders } from "./answers";
import { HttpDrain } from "./drain";
import { buildRoutes, ROUTES } from "./routes";
import type { GatewayMethods, GatewaySettings, GatewayVars, HealthReport, Req, Res } from "./types";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** The scheme name is case-insensitive (RFC 9110); the token is a compact JWS. */
const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/i;

/** The client's X-Request-Id when it is well-formed, else a new one. */
function requestIdOf(req: Req): string {
	const given = req.headers["x-request-id"];
	return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
}

const GatewayService: ServiceSchema<GatewaySettings, GatewayMethods, GatewayVars> = {
	name: "api",
	mixins: [ApiGateway, RuntimeMixin],
	settings: {
		port: 8500,
		ip: "0.0.0.0",
		logRequest: "debug",
		logResponse: "debug",
		log4XXResponses: false,
		logRequestParams: null,
		logResponseData: null,
		rootCallOptions(this: unknown, options: { requestID?: string }, req: Req) {
			options.requestID = requestIdOf(req);
		},
		use: [commonHeaders],
		routes: buildRoutes(ROUTES),
		onError: answerError
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
			async handler(ctx: Context<unknown, HttpMeta>): Promise<HealthReport> {
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
		/** A request that arrives during a stop, or is still unanswered when its grace runs out. */
		refuseDuringStop(req: Req, res: Res) {
			res.setHeader("Connection", "close");
			res.setHeader("X-Request-ID", requestIdOf(req));
			// The rest of the body is read and dropped, so the client reads this answer rather than a reset.
			req.resume();
			this.sendError(req, res, shuttingDown());
		},
		async readiness(): Promise<HealthReport> {
			const rt = this.runtime();
			if (rt.shutdown.stopping) return { status: "unavailable", checks: { node: "stopping" } };
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
		this.corsOrigins = new Set(rt.config.gateway.corsOrigins);
		this.clientAddresses = new ClientAddresses(rt.config.gateway.trustedProxies);
		this.rateLimiter = new RateLimiter(rt.kv(), rt.config.gateway.rateLimits, this.logger);
		this.server?.on("clientError", answerClientError);
		if (this.server) this.drain = new HttpDrain(this.server, this.httpHandler, (req, res) => this.refuseDuringStop(req, res));
	},
	started() {
		if (this.drain) this.runtime().shutdown.add(this.drain, "edge");
	},
	stopped() {
		if (!this.drain) return;
		this.runtime().shutdown.delete(this.drain);
		this.drain.close();
	}
};

export default GatewayService;
