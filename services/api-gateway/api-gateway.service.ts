/**
 * The backend-for-frontend: every client call enters here. Explicit aliases only
 * (mappingPolicy "restrict"); public routes are listed one by one and every other
 * route requires a valid Bearer token before anything is called. Errors leave as
 * problem documents; every response carries X-Request-Id.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { Context, ServiceSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import { ClientAddresses } from "../../lib/net/client-ip";
import { jsonText } from "../../lib/http/json-text";
import { shuttingDown, unauthorized } from "../../lib/errors";
import type { HttpMeta } from "../../lib/http/meta";
import { answerClientError } from "../../lib/errors/http-refusal";
import { RateLimiter } from "../../lib/rate-limit";
import { RuntimeMixin } from "../../mixins/runtime.mixin";
import { looksLikeMfaToken } from "../../lib/mfa/token-shape";
import type { AuthMeta } from "../../middlewares/auth.middleware";
import { ref } from "../../lib/openapi/schemas";
import { answerAtEntry, answerError, BEARER } from "./answers";
import { policyOf } from "./hooks";
import { CONSOLE_ACTIONS } from "./console";
import { DOCS_ACTIONS } from "./docs";
import { UI_ACTIONS } from "./ui-pages";
import { HttpDrain } from "./drain";
import { AliasIndex, describeOnce } from "./alias-index";
import { GATEWAY_HTTP_OBJECTS } from "./http-objects";
import { accessLogger } from "./access-log";
import { LiveStreams } from "./live";
import { InboxStreams, type InboxSnapshot } from "./inbox-live";
import { EventStream } from "./sse-streams";
import { INBOX_CHANGED, type InboxChange } from "../../lib/inbox";
import { observeRequests } from "./observe";
import { STATUS_EVENTS, type StatusEvent, type StatusEvents } from "../../lib/delivery";
import type { Timeline } from "../../lib/notifications";
import { buildRoutes, ROUTES } from "./routes";
import type { GatewayMethods, GatewaySettings, GatewayVars, HealthReport, Req, Res } from "./types";

/** How long a stop without the orderly drain lets open event streams end before they are cut. */
const STREAM_END_WAIT_MS = 1000;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const LOGS_INFO = new Set(["info", "debug", "trace"]);

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
		/**
		 * moleculer-web hands the client's X-Request-Id on as it is: only a well-formed one
		 * is kept. Otherwise the root context's own id (a random UUID Moleculer makes for
		 * every context anyway) is the request id, so none is generated twice.
		 */
		rootCallOptions(this: unknown, options: { requestID?: string }, req: Req) {
			// moleculer-web read X-Request-Id (or X-Correlation-Id, which is not honoured here) into it; none given is the usual case.
			if (options.requestID === undefined) return;
			const given = req.headers["x-request-id"];
			options.requestID = typeof given === "string" && REQUEST_ID.test(given) ? given : undefined;
		},
		routes: buildRoutes(ROUTES),
		onError: answerError
	},
	actions: {
		// moleculer-web's alias listing is not part of this API.
		listAliases: false,
		addRoute: false,
		removeRoute: false,
		// moleculer-web names its span by the raw URL and tags it with it; a query can hold
		// a sign-in's code and state, and Moleculer writes span names and tags to its debug log.
		rest: { auth: "public", tracing: { spanName: "api.rest", tags: { params: false } } },
		...DOCS_ACTIONS,
		...CONSOLE_ACTIONS,
		...UI_ACTIONS,
		live: {
			visibility: "published",
			auth: "public",
			openapi: { summary: "Liveness", success: { status: 200, description: "The process answers.", schema: ref("HealthReport") }, storage: false },
			handler(): HealthReport {
				return { status: "ok", checks: {} };
			}
		},
		ready: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Readiness",
				success: { status: 200, description: "Every dependency answers.", schema: ref("HealthReport") },
				other: { 503: { description: "A dependency is down, or the node is stopping.", schema: ref("HealthReport"), headers: { "Retry-After": "Seconds." } } },
				storage: false
			},
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
	events: {
		/** Recorded on any node (lib/notifications/events.ts): the live streams of this node follow them. */
		[STATUS_EVENTS](ctx: Context<StatusEvents>) {
			for (const e of ctx.params.events) this.live.deliver(e);
		},
		/** One event at a time, as nodes of an earlier version send them during a rolling upgrade. */
		"notifications.status"(ctx: Context<StatusEvent>) {
			this.live.deliver(ctx.params);
		},
		/** A change to an actor's inbox on any node (lib/inbox): this node's inbox streams of that actor follow it. */
		[INBOX_CHANGED](ctx: Context<InboxChange>) {
			this.inbox.deliver(ctx.params);
		}
	},
	methods: {
		/**
		 * moleculer-web's createServer for plain HTTP (the gateway serves nothing else),
		 * with requests and responses of one shape (http-objects.ts).
		 */
		createServer() {
			if (this.server) return;
			this.server = createServer(GATEWAY_HTTP_OBJECTS, this.httpHandler);
			this.isHTTPS = false;
			if (this.settings.httpServerTimeout) this.server.setTimeout(this.settings.httpServerTimeout as number);
			this.server.requestTimeout = this.settings.requestTimeout as number;
		},
		/**
		 * Replaces moleculer-web's handler, which logs whole errors of failed body
		 * parsing (their data can hold the submitted body, passwords included).
		 */
		errorHandler(req: Req, res: Res, err: unknown) {
			this.sendError(req, res, err);
		},
		/** moleculer-web's, except for an event stream (status or inbox), whose end by the client is not a warning (sse-streams.ts sendEventStream). */
		sendResponse(req: Req, res: Res, data: unknown, action: unknown): void {
			if (!(data instanceof EventStream)) return ApiGateway.methods!.sendResponse.call(this, req, res, data, action);
			if (res.headersSent) data.destroy();
			else data.sendTo(res, this.logger);
		},
		/** moleculer-web's JSON.stringify, except for a result whose text was kept when it was cached (lib/http/json-text.ts). */
		encodeResponse(_req: Req, _res: Res, data: unknown): string {
			return jsonText(data);
		},
		/** moleculer-web's alias lookup, through an index of its aliases (alias-index.ts); the same answers. */
		resolveAlias(url: string, method = "GET") {
			if (this.aliasIndex?.aliases !== this.aliases) {
				this.aliasIndex = new AliasIndex(this.aliases);
				describeOnce(this.aliases);
			}
			return this.aliasIndex.resolve(url, method);
		},
		/** Verifies the Bearer token here, then hands it on in meta; each service verifies it again. */
		authenticate(ctx: Context<unknown, AuthMeta>, _route: unknown, req: Req): null | Promise<null> {
			const header = req.headers.authorization;
			const m = typeof header === "string" ? BEARER.exec(header) : null;
			if (!m) throw unauthorized();
			const token = header!.slice(m[0].length);
			if (policyOf(req).enrolmentBearer && looksLikeMfaToken(token)) {
				ctx.meta.authToken = token;
				return null;
			}
			const rt = this.runtime();
			// A token verified before (and unexpired) passes without a promise; any other is verified in full.
			const cached = rt.cachedPrincipal(token);
			if (cached) {
				req.$principal = cached;
				ctx.meta.authToken = token;
				return null;
			}
			return rt
				.verifier()
				.then(v => v.verify(token))
				.then(principal => {
					req.$principal = principal;
					ctx.meta.authToken = token;
					return null;
				});
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
			if (rt.usesStore()) {
				await probe("store", () => rt.store().ping());
				// After a storage fault, ready again only once a real write succeeds (lib/process/storage-health.ts).
				await probe("storage", () => rt.probeStorage());
			}
			if (rt.config.natsUrl) {
				await probe("transporter", async () => {
					if (!this.broker.transit?.connected || !rt.transportUp) throw new Error("disconnected");
				});
			}
			if (rt.config.redisUrl) await probe("redis", () => rt.kv().ping());
			// Without the embedded provider's public keys no token can be checked (Cognito's are fetched per kid).
			if (rt.config.idp.kind === "embedded") await probe("keys", () => rt.keysReady());
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
		// Access was checked when the stream opened; the caller's token may expire while it stays open.
		this.live = new LiveStreams(rt.config.gateway.live, async (notificationId, after) => {
			// As this node's service ("api-gateway", its name in SERVICES and in the identity provider).
			const authToken = await rt.serviceTokens.get("api-gateway");
			const timeline = await this.broker.call<Timeline, object>("notifications.events", after ? { notificationId, after } : { notificationId }, { meta: { authToken } });
			return timeline.items;
		}, (err, notificationId) => {
			this.logger.warn("Reading a live stream's timeline failed; trying again with the next heartbeat", { notificationId, error: err.message });
		});
		this.inbox = new InboxStreams(rt.config.gateway.live, async (actorId, after) => {
			const authToken = await rt.serviceTokens.get("api-gateway");
			return this.broker.call<InboxSnapshot, object>("notifications.inboxStream", { id: actorId, after }, { meta: { authToken } });
		}, (err, actorId) => {
			this.logger.warn("Reading an inbox stream's messages failed; trying again with the next heartbeat", { actorId, error: err.message });
		});
		this.server?.on("clientError", answerClientError);
		if (this.server) {
			// Every request passes the drain, then the common headers and OPTIONS, then moleculer-web.
			const serve = observeRequests(this, (req: Req, res: Res) => (answerAtEntry(this, req, res, requestIdOf) ? undefined : this.httpHandler(req, res)));
			// One line per request at info (access-log.ts); below info, nothing is stamped or built.
			const accessLog = LOGS_INFO.has(rt.config.logLevel) ? accessLogger(this.logger, (url, method) => this.resolveAlias(url, method)) : undefined;
			this.drain = new HttpDrain(this.server, this.httpHandler, (req, res) => this.refuseDuringStop(req, res), serve, accessLog);
		}
	},
	started() {
		this.runtime().shutdown.add(this.live);
		this.runtime().shutdown.add(this.inbox);
		if (this.drain) this.runtime().shutdown.add(this.drain, "edge");
	},
	async stopped() {
		this.runtime().shutdown.delete(this.live);
		this.runtime().shutdown.delete(this.inbox);
		// A stop without the orderly drain (tests, a failed start) still ends every stream.
		const ended = Promise.all([this.live.begin(), this.inbox.begin()]);
		await Promise.race([ended, new Promise(resolve => setTimeout(resolve, STREAM_END_WAIT_MS).unref())]);
		await Promise.all([this.live.abort(), this.inbox.abort()]);
		if (!this.drain) return;
		this.runtime().shutdown.delete(this.drain);
		this.drain.close();
	}
};

export default GatewayService;
