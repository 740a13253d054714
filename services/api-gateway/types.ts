/**
 * The gateway's shapes: a route alias's policy (declared in routes.ts, read by the
 * hooks), the service's own state and methods, and the request as moleculer-web
 * hands it to the hooks.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Context, Service, ServiceSettingSchema, Span } from "moleculer";
import type { ClientAddresses } from "../../lib/net/client-ip";
import type { RateLimitedRoute } from "../../lib/config";
import type { RateLimiter } from "../../lib/rate-limit";
import type { RuntimeMethods } from "../../mixins/runtime.mixin";
import type { Drain } from "../../lib/process/shutdown";
import type { Principal } from "../../lib/auth/rules";
import type { LiveStream, LiveStreams } from "./live";
import type { InboxStream, InboxStreams } from "./inbox-live";
import type { AliasIndex, IndexedAlias, ResolvedAlias } from "./alias-index";

/**
 * How a route reads its body. moleculer-web parses bodies per route, so every alias
 * of a route shares one kind:
 * - none: no body parser;
 * - json: application/json, an object or an array;
 * - sns: text/plain or application/json, kept as text for the service to parse (SNS posts JSON as text/plain);
 * - multipart: multipart/form-data, streamed to the action as it arrives;
 * - flag: any JSON value, handed to the action apart from the path parameters;
 * - one-click: RFC 8058's `List-Unsubscribe=One-Click` form body, or none; only the path reaches the action.
 */
export type BodyKind = "none" | "json" | "sns" | "multipart" | "flag" | "one-click";

export interface AliasPolicy {
	/** Attempts counted against this bucket's limits before anything is called; userField is the body field naming the account. */
	rateLimit?: { bucket: RateLimitedRoute; userField?: string };
	/** A POST that takes no body: an empty one needs no Content-Type (one that is sent must still be JSON). */
	bodyless?: boolean;
	/** The Idempotency-Key header is checked and handed to the action, which makes retries safe with it; elsewhere it means nothing and is not read. */
	idempotencyKey?: boolean;
	/** The answer carries tokens: no cache may keep it. */
	noStore?: boolean;
	/** Parameters come from the JSON body only: a query string on a POST is refused, as it would put secrets in URLs. */
	bodyParamsOnly?: boolean;
	/** The social sign-in binding cookie is handed to the action in meta (moleculer-web parses no cookies). */
	bindingCookie?: boolean;
	/** A browser navigation ends at the UI even when it fails, with only an error code; otherwise failures are problem documents. */
	failure?: "problem" | "ui-redirect";
	/**
	 * "sse": with `Accept: text/event-stream` the answer is a live stream of the
	 * notification's events (services/api-gateway/live.ts); the action answers the
	 * timeline it begins with (after Last-Event-ID). Without it, that timeline as JSON.
	 * "inbox": the same for an actor's inbox (services/api-gateway/inbox-live.ts): the
	 * action answers the messages after Last-Event-ID and the counts.
	 * "ndjson": with `Accept: application/x-ndjson` the action is told so (meta
	 * wantsNdjson) and answers a stream of JSON lines instead of a page.
	 */
	stream?: "sse" | "inbox" | "ndjson";
	/**
	 * The Bearer token may also be an enrolment mfaToken (MFA_ENFORCE), which only the
	 * auth service can check: it is handed on unverified, and the action's rule decides.
	 */
	enrolmentBearer?: boolean;
	/** The client's address and User-Agent are handed to the action in meta (OriginMeta), for the audit trail. */
	origin?: boolean;
}

/** What a matched alias carries as req.$alias.policy: its route's body kind and policy, overridden by its own. */
export interface AppliedPolicy extends AliasPolicy {
	body: BodyKind;
}

export interface HealthReport {
	status: "ok" | "unavailable";
	/** Each dependency's state, or only { node: "stopping" } during an orderly stop. */
	checks: Record<string, "ok" | "down" | "stopping">;
}

export type GatewaySettings = ServiceSettingSchema & Record<string, unknown>;

/** State the gateway builds in created(). */
export interface GatewayVars {
	corsOrigins: Set<string>;
	clientAddresses: ClientAddresses;
	rateLimiter: RateLimiter;
	/** This node's live status streams. */
	live: LiveStreams;
	/** This node's live inbox streams. */
	inbox: InboxStreams;
	/** moleculer-web's HTTP server, made by createServer before this service's created(). */
	server?: Server;
	/** moleculer-web's: whether the server is HTTPS (never, here). */
	isHTTPS?: boolean;
	/** Every request passes through it: the gateway's part in the orderly stop. */
	/** services/api-gateway/drain.ts: tracks the requests under way for the orderly stop. */
	drain?: Drain & { close(): void };
	/** moleculer-web's aliases, in its order. */
	aliases: GatewayAlias[];
	/** Built from `aliases` at the first request (alias-index.ts). */
	aliasIndex?: AliasIndex<GatewayAlias>;
}

/** moleculer-web's Alias, as far as the gateway reads it. */
export interface GatewayAlias extends IndexedAlias {
	action?: string | null;
	policy?: AppliedPolicy;
}

export interface GatewayMethods extends RuntimeMethods {
	readiness(): Promise<HealthReport>;
	refuseDuringStop(req: Req, res: Res): void;
	/** moleculer-web's handler of the server's "request" event; settles once the request is answered (or its answer streams). */
	httpHandler(req: Req, res: Res): Promise<void>;
	/** moleculer-web's: answers through the route's or the service's onError. */
	sendError(req: Req, res: Res, err: unknown): void;
	/** moleculer-web's alias lookup (through alias-index.ts). */
	resolveAlias(url: string, method?: string): ResolvedAlias<GatewayAlias> | false;
}

export type GatewayThis = Service<GatewaySettings> & GatewayVars & GatewayMethods;

export type Req = IncomingMessage & {
	$ctx?: Context;
	$service?: GatewayThis;
	/** Set once the route's middlewares (body parsers included) have run and an alias matched. */
	$alias?: GatewayAlias;
	/** moleculer-web's: the path without its query string or a trailing slash, once the request reached its router. */
	parsedUrl?: unknown;
	/** With tracing on: the HTTP request's span (observe.ts). */
	$span?: Span;
	/** performance.now() at the request's arrival: stamped by the drain for the access log, else by observe.ts when traces or metrics are on. */
	$began?: number;
	$params?: unknown;
	/** Who the Bearer token names, once the gateway has checked it. */
	$principal?: Principal;
	/** The live stream this request opens (an alias with stream "sse" and Accept: text/event-stream). */
	$live?: LiveStream;
	/** The inbox stream this request opens (an alias with stream "inbox" and Accept: text/event-stream). */
	$inbox?: InboxStream;
	/** The whole URL, kept by moleculer-web before it cuts req.url down to the part below the route's path. */
	originalUrl?: string;
	query?: Record<string, unknown>;
	body?: unknown;
};
export type Res = ServerResponse;
