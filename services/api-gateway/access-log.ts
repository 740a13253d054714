/**
 * The access log: one line per request at info, written when the request is done
 * (services/api-gateway/drain.ts says when that is): method, path, status, duration,
 * request id and who called, when the token named someone.
 *
 * What a URL carries can be a credential, so the path is logged as the route sees it
 * and no further: a path parameter named like a secret (an unsubscribe link's signed
 * token) is replaced, and of the query string only the names are kept (the social
 * callback's `code` and `state` are credentials, and the query of a route added later
 * could be too), and only names that look like names. SECURITY.md says so.
 */
import type { Logger } from "moleculer";
import type { IndexedAlias, ResolvedAlias } from "./alias-index";
import { answeredStatus } from "./observe";
import type { Req, Res } from "./types";

export const REDACTED = "[redacted]";
/** Path parameters that hold a credential. */
const SECRET_PARAM = /token|secret|pass(word)?|key|code|state/i;
/** A query parameter's name as routes name them; anything else could be a value sent without "=". */
const PARAM_NAME = /^[A-Za-z0-9_.-]{1,32}$/;
/** A URL is the client's text: a line holds this much of it at most. */
const MAX_PATH_CHARS = 512;

export type ResolveAlias = (url: string, method: string) => ResolvedAlias<IndexedAlias> | false;

/**
 * The path's segments, with those the alias declares as secret parameters replaced.
 * A URL that fits the alias's pattern has as many segments (moleculer-web trims one
 * trailing "/"); one that does not keeps only the alias's fixed segments.
 */
function maskSegments(path: string, alias: IndexedAlias): string {
	const template = alias.fullPath.split("/");
	if (!template.some(seg => seg.startsWith(":") && SECRET_PARAM.test(seg))) return path;
	const given = (path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path).split("/");
	if (given.length !== template.length) return alias.fullPath.replace(/:\w+/g, REDACTED);
	return given.map((seg, i) => (template[i].startsWith(":") && SECRET_PARAM.test(template[i]) ? REDACTED : seg)).join("/");
}

/** The path a line shows: secret parameters replaced, the query reduced to its names. */
export function loggedPath(url: string, method: string, matched: IndexedAlias | undefined, resolve: ResolveAlias): string {
	const q = url.indexOf("?");
	const path = q === -1 ? url : url.slice(0, q);
	// An alias matched before the request failed is on the request; one that failed earlier (its body, say) is looked up.
	const alias = matched ?? (resolve(path, method) || undefined)?.alias;
	let out = alias ? maskSegments(path, alias) : path;
	if (q !== -1) {
		const names = url
			.slice(q + 1)
			.split("&")
			.filter(Boolean)
			.map(pair => {
				const name = pair.split("=", 1)[0];
				return `${PARAM_NAME.test(name) ? name : REDACTED}=${REDACTED}`;
			});
		if (names.length > 0) out += `?${names.join("&")}`;
	}
	return out.length > MAX_PATH_CHARS ? `${out.slice(0, MAX_PATH_CHARS)}…` : out;
}

export interface AccessLine {
	method: string;
	path: string;
	/** The status sent; 499 (nginx's) when the client went away before any was, as the metrics count it (observe.ts). */
	status: number;
	ms: number;
	requestId?: string;
	/** "user:<sub>" or "service:<serviceId>", once the Bearer token was verified. */
	principal?: string;
	/** The answer was not sent in full: the client went away (an event stream's usual end) or the node cut it. */
	incomplete?: true;
}

export function accessLine(req: Req, res: Res, resolve: ResolveAlias, now = performance.now()): AccessLine {
	const method = req.method ?? "";
	// moleculer-web rewrites req.url to the part below the route's path; originalUrl is the whole.
	const url = typeof req.originalUrl === "string" ? req.originalUrl : (req.url ?? "");
	const line: AccessLine = {
		method,
		path: loggedPath(url, method, req.$alias, resolve),
		status: answeredStatus(res),
		ms: Math.round((now - (req.$began ?? now)) * 10) / 10
	};
	const requestId = res.getHeader("X-Request-ID") ?? req.$ctx?.requestID;
	if (typeof requestId === "string") line.requestId = requestId;
	const p = req.$principal;
	if (p) line.principal = p.kind === "user" ? `user:${p.sub}` : `service:${p.serviceId}`;
	if (!res.writableEnded) line.incomplete = true;
	return line;
}

/** The drain's `done`: one info line per request. */
export function accessLogger(logger: Logger, resolve: ResolveAlias): (req: Req, res: Res) => void {
	return (req, res) => logger.info("HTTP request", accessLine(req, res, resolve));
}
