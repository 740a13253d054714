/**
 * How the gateway answers beyond an action's result: the headers every answer
 * carries, CORS, and failures (problem documents, or a redirect to the UI for an
 * alias whose policy asks for one).
 */
import { randomUUID } from "node:crypto";
import { Errors } from "moleculer";
import { badRequest, notFound } from "../../lib/errors";
import { toProblem } from "../../lib/errors/problem";
import { failureRedirect, redirectHeaders } from "../../lib/social/redirect";
import { policyOf } from "./hooks";
import type { GatewayThis, Req, Res } from "./types";

export const CORS_ALLOW_METHODS = "GET, POST, PUT, PATCH, DELETE";
export const CORS_ALLOW_HEADERS = "Authorization, Content-Type, Idempotency-Key, Last-Event-ID, X-Request-Id";
export const CORS_EXPOSE_HEADERS = "Location, Retry-After, X-Request-Id";
export const CORS_MAX_AGE_SECONDS = "600";

/**
 * The scheme name is case-insensitive (RFC 9110). Only the scheme is matched here: the
 * verifier checks the rest is a compact JWS before verifying it, and a cached token
 * is only ever a whole-string match of one that passed.
 */
export const BEARER = /^Bearer +/i;
/** An Authorization header that carries a Bearer token (anything after the scheme). */
const BEARER_SENT = /^Bearer +\S/i;

/**
 * Headers every answer carries, and CORS by exact origin; true when the origin is
 * allowed. Also written by the error handlers, because a request can fail before the
 * route's middlewares run (a broken path encoding, a body the parser refuses).
 */
export function writeCommonHeaders(gateway: Pick<GatewayThis, "corsOrigins">, req: Req, res: Res): boolean {
	// Named in lower case, as HTTP/2 sends every name (HTTP/1.1 names are case-insensitive):
	// Node lower-cases a name to store it, and one already in lower case is kept as it is,
	// where a capitalized one is copied and looked up in V8's string table on every answer.
	res.setHeader("x-content-type-options", "nosniff");
	// Addresses here can carry codes and states (the social callback): never pass them on.
	res.setHeader("referrer-policy", "no-referrer");
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
 * Runs first for every request, before moleculer-web: the headers above, and OPTIONS.
 * An origin not on the list gets no CORS header at all (the browser then keeps the
 * answer from the page), and with an empty list nothing changes. No route answers
 * OPTIONS other than an allowed preflight (moleculer-web would otherwise run the
 * action the preflight names): an allowed one is answered 204 here, any other 404.
 * True when the request was answered here.
 */
export function answerAtEntry(gateway: GatewayThis, req: Req, res: Res, requestId: (req: Req) => string): boolean {
	const allowed = writeCommonHeaders(gateway, req, res);
	if (req.method !== "OPTIONS") return false;
	res.setHeader("X-Request-ID", requestId(req));
	if (allowed && typeof req.headers["access-control-request-method"] === "string") {
		res.writeHead(204, {
			"Access-Control-Allow-Methods": CORS_ALLOW_METHODS,
			"Access-Control-Allow-Headers": CORS_ALLOW_HEADERS,
			"Access-Control-Max-Age": CORS_MAX_AGE_SECONDS
		});
		res.end();
		return true;
	}
	// The rest of the body is read and dropped, so the client reads this answer rather than a reset.
	req.resume();
	gateway.sendError(req, res, notFound());
	return true;
}

function requestIdOf(req: Req, res: Res): string {
	return req.$ctx?.requestID ?? (res.getHeader("X-Request-ID") as string | undefined) ?? randomUUID();
}

/** Every failure becomes a problem document, with only a generic detail for 5xx. */
function sendProblem(this: GatewayThis, req: Req, res: Res, err: unknown): void {
	const requestId = requestIdOf(req, res);
	const authorization = req.headers.authorization;
	const { problem, headers, serverSide } = toProblem(err, requestId, { bearerSent: typeof authorization === "string" && BEARER_SENT.test(authorization) });
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
 * The social callback is a browser navigation: it ends at the UI even when the auth
 * service cannot be reached or the request is malformed, with only an error code.
 */
function redirectToUi(gateway: GatewayThis, req: Req, res: Res, err: unknown): void {
	const requestId = requestIdOf(req, res);
	const redirect = failureRedirect(gateway.runtime().config, err, gateway.logger, { requestId });
	if (res.headersSent) return;
	writeCommonHeaders(gateway, req, res);
	res.writeHead(302, { Location: redirect.location, ...redirectHeaders(redirect), "X-Request-ID": requestId });
	res.end();
}

/** A body that ends inside a part: busboy reports it as a plain Error, but it is the client's. */
const TRUNCATED_MULTIPART = /unexpected end of multipart data$/i;

function uploadFailure(err: unknown): unknown {
	const truncated = err instanceof Error && !(err instanceof Errors.MoleculerError) && TRUNCATED_MULTIPART.test(err.message);
	return truncated ? badRequest("The multipart body ended early.") : err;
}

/** The gateway's one error handler: the matched alias's policy decides the form of the answer. */
export function answerError(this: GatewayThis, req: Req, res: Res, err: unknown): void {
	const policy = policyOf(req);
	if (policy.failure === "ui-redirect") return redirectToUi(this, req, res, err);
	sendProblem.call(this, req, res, policy.body === "multipart" ? uploadFailure(err) : err);
}
