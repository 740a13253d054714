/**
 * The one way every method of the client reaches the platform: an operation of the
 * OpenAPI document named by its method and path, its path and query parameters, a
 * JSON (or multipart) body, and the answer read as the operation's success body or
 * thrown as ApiError with the problem document. All of it is typed from api-types.ts,
 * so a method that names a route, a parameter or a field the platform does not have
 * does not compile, and a change of the document shows up where it matters.
 */
import type { components, paths } from "./api-types.js";

export type Problem = components["schemas"]["Problem"];
/** The platform's stable codes (a problem document's `code`); HTTP_ERROR when an answer had none. */
export type ErrorCode = Problem["code"] | "HTTP_ERROR";

/** A failed call: the platform's problem document, its status and stable code. */
export class ApiError extends Error {
	readonly status: number;
	/** One of ErrorCode; typed open because a newer platform may answer with a code this build does not know. */
	readonly code: ErrorCode | (string & {});
	readonly problem?: Problem;
	/** Seconds the server asked to wait (Retry-After on 429 and 503). */
	readonly retryAfter?: number;
	/** MFA_REQUIRED: the token for client.mfa.verify; MFA_ENROLLMENT_REQUIRED: the Bearer token for the enrolment methods. */
	readonly mfaToken?: string;
	/** MFA_REQUIRED: the factors the user can answer with. */
	readonly factors?: Problem["factors"];
	constructor(status: number, problem?: Problem, retryAfter?: number) {
		super(problem?.detail || `HTTP ${status}`);
		this.name = "ApiError";
		this.status = status;
		this.code = problem?.code ?? "HTTP_ERROR";
		this.problem = problem;
		this.retryAfter = retryAfter;
		if (problem?.mfaToken !== undefined) this.mfaToken = problem.mfaToken;
		if (problem?.factors !== undefined) this.factors = problem.factors;
	}
}

export type Method = "get" | "put" | "post" | "patch" | "delete";
/** The document's paths that have an operation for this method. */
export type PathOf<M extends Method> = { [P in keyof paths]: paths[P][M] extends undefined ? never : P }[keyof paths];
/** The operation at this method and path. */
export type Operation<M extends Method, P extends PathOf<M>> = NonNullable<paths[P][M]>;

type PathParams<O> = O extends { parameters: { path: infer X } } ? X : never;
/** An operation's query parameters; never when it takes none. */
export type QueryParams<O> = O extends { parameters: { query?: infer Q } } ? Exclude<Q, undefined> : never;
type BodyContent<O> = O extends { requestBody?: infer B } ? (NonNullable<B> extends { content: infer C } ? C : never) : never;
/** An operation's JSON body; never when it takes none. */
export type JsonBody<O> = BodyContent<O> extends { "application/json": infer B } ? B : never;
type TakesForm<O> = [BodyContent<O>] extends [never] ? false : BodyContent<O> extends { "multipart/form-data": unknown } ? true : false;
type Answer<R> = R extends { content: { "application/json": infer B } } ? B : undefined;
type SuccessStatus = 200 | 201 | 202 | 204;
/** What the operation answers when it succeeds: its JSON body, or undefined for an empty one. */
export type Result<O> = O extends { responses: infer R } ? { [S in keyof R & SuccessStatus]: Answer<R[S]> }[keyof R & SuccessStatus] : never;

/** A part that is optional when an empty value would do (no required field), required otherwise. */
type Part<K extends string, T> = [T] extends [never] ? { [_ in K]?: never } : {} extends T ? { [_ in K]?: T } : { [_ in K]: T };

/** The request's parts, each typed by the operation: path parameters, query, body. */
export type RequestOptions<O> = Part<"path", PathParams<O>> &
	Part<"query", QueryParams<O>> &
	(TakesForm<O> extends true ? { body: FormData } : Part<"body", JsonBody<O>>) & {
		headers?: Record<string, string>;
		signal?: AbortSignal;
		/** false for the routes that take no token (sign-in, password reset, the VAPID key); true by default. */
		auth?: boolean;
	};

/** Options may be left out when the operation needs none. */
type OptionsArg<O> = {} extends RequestOptions<O> ? [options?: RequestOptions<O>] : [options: RequestOptions<O>];

/**
 * Calls one operation of the platform's API: `request("get", "/notifications/{notificationId}",
 * { path: { notificationId } })`. Sends the session's token unless `auth: false`.
 */
export type Request = <M extends Method, P extends PathOf<M>>(method: M, path: P, ...options: OptionsArg<Operation<M, P>>) => Promise<Result<Operation<M, P>>>;

/** How requests leave: with the session's token (refreshed when needed) or without one. */
export interface Transport {
	authorized(path: string, init: RequestInit): Promise<Response>;
	anonymous(path: string, init: RequestInit): Promise<Response>;
}

/** Untyped view of RequestOptions, for building the request. */
interface Parts {
	path?: Record<string, string | number>;
	query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined>;
	body?: unknown;
	headers?: Record<string, string>;
	signal?: AbortSignal;
	auth?: boolean;
}

/** Sends an operation and returns the raw answer, whatever its status. */
export function send(t: Transport, method: Method, template: string, o: Parts = {}): Promise<Response> {
	const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = o.path?.[name];
		if (value === undefined || value === "") throw new TypeError(`${template}: the path parameter ${name} is missing`);
		return encodeURIComponent(String(value));
	});
	const headers: Record<string, string> = { ...o.headers };
	let body: RequestInit["body"];
	if (typeof FormData !== "undefined" && o.body instanceof FormData) body = o.body;
	else if (o.body !== undefined) {
		headers["content-type"] = "application/json";
		body = JSON.stringify(o.body);
	}
	const init: RequestInit = { method: method.toUpperCase(), headers, body, signal: o.signal };
	return o.auth === false ? t.anonymous(path + queryString(o.query), init) : t.authorized(path + queryString(o.query), init);
}

function queryString(query: Parts["query"]): string {
	const q = new URLSearchParams();
	for (const [name, value] of Object.entries(query ?? {})) {
		if (value === undefined) continue;
		for (const v of Array.isArray(value) ? value : [value]) q.append(name, String(v));
	}
	const text = q.toString();
	return text ? `?${text}` : "";
}

export function requester(t: Transport): Request {
	return (async (method: Method, path: string, options?: Parts) => answer(await send(t, method, path, options))) as Request;
}

/** Throws ApiError unless the answer is a success. */
export async function ensureOk(res: Response): Promise<Response> {
	if (res.ok) return res;
	const text = await res.text();
	const wait = Number(res.headers.get("retry-after") ?? NaN);
	throw new ApiError(res.status, problemIn(text), Number.isFinite(wait) ? wait : undefined);
}

/** A success's JSON body (undefined when empty), or the failure as ApiError. */
export async function answer<T>(res: Response): Promise<T> {
	const text = await (await ensureOk(res)).text();
	return (text ? JSON.parse(text) : undefined) as T;
}

/** A proxy's HTML error page is no problem document: the error then carries the status alone. */
function problemIn(text: string): Problem | undefined {
	try {
		const body = JSON.parse(text) as unknown;
		return body && typeof body === "object" && typeof (body as Problem).code === "string" ? (body as Problem) : undefined;
	} catch {
		return undefined;
	}
}
