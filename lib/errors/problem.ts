/**
 * Turns any error into an RFC 9457 problem document with the contract's codes.
 * Client errors keep their message; 5xx answers say only a generic detail and the
 * request id, while the caller logs the full error.
 */
import { Errors } from "moleculer";
import { isErrorCode, type ErrorCode, type ErrorData, type FieldProblem, type ProblemMembers } from "./index";
import { isStorageFault, STORAGE_RETRY_AFTER_SECONDS } from "./storage-faults";

export interface Problem {
	type: string;
	title: string;
	status: number;
	detail: string;
	code: ErrorCode;
	requestId: string;
	errors?: FieldProblem[];
	/** MFA_REQUIRED and MFA_ENROLLMENT_REQUIRED: the token that finishes the sign-in. */
	mfaToken?: string;
	/** MFA_REQUIRED: the factors the user can answer with. */
	factors?: string[];
}

export interface ProblemResult {
	problem: Problem;
	headers: Record<string, string>;
	/** True when the full error belongs in the log (5xx). */
	serverSide: boolean;
}

const TITLES: Record<number, string> = {
	400: "Bad Request",
	401: "Unauthorized",
	403: "Forbidden",
	404: "Not Found",
	405: "Method Not Allowed",
	408: "Request Timeout",
	409: "Conflict",
	413: "Content Too Large",
	415: "Unsupported Media Type",
	422: "Unprocessable Content",
	429: "Too Many Requests",
	431: "Request Header Fields Too Large",
	500: "Internal Server Error",
	502: "Bad Gateway",
	503: "Service Unavailable"
};

const SECRET_FIELDS = /pass(word)?|token|secret|key/i;

/**
 * fastest-validator's own enum messages name the allowed values where the submitted
 * value belongs ("The 'priority' field value 'CRITICAL, HIGH, NORMAL, LOW' does not
 * match any of the allowed values."), or not at all. These name them as the allowed
 * values, and echo nothing the client sent (moleculer.config.ts hands them to the
 * broker's validator).
 */
export const VALIDATION_MESSAGES = {
	enumValue: "The '{field}' field must be one of: {expected}.",
	stringEnum: "The '{field}' field must be one of: {expected}.",
	arrayEnum: "Each value of the '{field}' field must be one of: {expected}."
} as const;

/** The realm of every challenge (RFC 6750 section 3). */
const REALM = "auth-notify";

/** The code for a client error whose type is not one of ours (moleculer-web's, a library's). */
const GENERIC_CODES: Record<number, ErrorCode> = {
	400: "VALIDATION_ERROR",
	401: "UNAUTHORIZED",
	403: "FORBIDDEN",
	404: "NOT_FOUND",
	405: "METHOD_NOT_ALLOWED",
	413: "PAYLOAD_TOO_LARGE",
	415: "UNSUPPORTED_MEDIA_TYPE",
	429: "RATE_LIMITED"
};

interface AnyError {
	name?: string;
	message?: string;
	code?: unknown;
	type?: unknown;
	status?: unknown;
	statusCode?: unknown;
	data?: unknown;
}

/**
 * Field problems from fastest-validator, without the submitted values. A message that
 * holds the value is replaced. The field's name and the allowed values a message names
 * are the schema's, not the client's, so a value that is part of them ("MAIL" of
 * "EMAIL") does not count; nor does one of a few characters that merely occurs in the
 * wording ("n" in "one"), unless quoted, as fastest-validator quotes what it echoes.
 */
function fieldProblems(data: unknown): FieldProblem[] {
	if (!Array.isArray(data)) return [];
	return data.slice(0, 50).map((d: { field?: unknown; message?: unknown; actual?: unknown; expected?: unknown }) => {
		const field = typeof d.field === "string" ? d.field : "";
		let message = typeof d.message === "string" ? d.message : "is invalid";
		const own = message.replace(`'${field}'`, "").replace(typeof d.expected === "string" ? d.expected : "", "");
		const echoesValue = typeof d.actual === "string" && d.actual.length > 0 && (own.includes(`'${d.actual}'`) || (d.actual.length >= 4 && own.includes(d.actual)));
		if (echoesValue || SECRET_FIELDS.test(field)) message = `The '${field}' field is invalid.`;
		return { field, message };
	});
}

interface Classified {
	status: number;
	code: ErrorCode;
	detail: string;
	errors?: FieldProblem[];
	retryAfter?: number;
	members?: ProblemMembers;
	maxAge?: number;
}

function classify(err: AnyError): Classified {
	const type = typeof err.type === "string" ? err.type : "";
	const code = typeof err.code === "number" ? err.code : undefined;
	const data = (err.data ?? {}) as ErrorData;

	// Parameter validation (Moleculer's ValidationError).
	if (err instanceof Errors.ValidationError || type === "VALIDATION_ERROR") {
		const errors = Array.isArray(err.data) ? fieldProblems(err.data) : data.errors;
		return { status: 400, code: "VALIDATION_ERROR", detail: err.message || "The request is invalid.", errors };
	}
	// Body parser failures (http-errors: status + type such as entity.parse.failed).
	const httpStatus = typeof err.status === "number" ? err.status : typeof err.statusCode === "number" ? err.statusCode : undefined;
	if (type === "entity.too.large" || httpStatus === 413) {
		return { status: 413, code: "PAYLOAD_TOO_LARGE", detail: "The request body is too large." };
	}
	if (type === "entity.parse.failed" || type === "INVALID_REQUEST_BODY") {
		return { status: 400, code: "MALFORMED_JSON", detail: "The request body is not valid JSON." };
	}
	if (type === "encoding.unsupported" || type === "charset.unsupported" || httpStatus === 415) {
		return { status: 415, code: "UNSUPPORTED_MEDIA_TYPE", detail: "The request's content type or charset is not supported." };
	}
	if (httpStatus && httpStatus >= 400 && httpStatus < 500 && !code) {
		return { status: 400, code: "VALIDATION_ERROR", detail: "The request could not be read." };
	}
	// The store or file storage could not take a write (disk full, read-only): retry later, maybe elsewhere.
	if (type === "STORAGE_UNAVAILABLE" || isStorageFault(err)) {
		return {
			status: 503,
			code: "STORAGE_UNAVAILABLE",
			detail: "The platform cannot store data right now. Try again shortly.",
			retryAfter: data.retryAfter ?? STORAGE_RETRY_AFTER_SECONDS
		};
	}
	if (type === "SHUTTING_DOWN") {
		return { status: 503, code: "SHUTTING_DOWN", detail: "The service is stopping. Try again shortly.", retryAfter: data.retryAfter ?? 5 };
	}
	if (type === "UPSTREAM_UNAVAILABLE" && data.expose === true) {
		return { status: 503, code: "UPSTREAM_UNAVAILABLE", detail: err.message ?? "" };
	}
	// A service that is not running anywhere, or did not answer in time (a 408 is the client's own slowness).
	const serviceTimeout = type === "REQUEST_TIMEOUT" && code !== 408;
	if (type === "SERVICE_NOT_FOUND" || type === "SERVICE_NOT_AVAILABLE" || serviceTimeout || err.name === "ServiceUnavailableError" || type === "UPSTREAM_UNAVAILABLE") {
		return { status: 503, code: "UPSTREAM_UNAVAILABLE", detail: "A service this request needs is unavailable. Try again later.", retryAfter: data.retryAfter ?? 5 };
	}
	if (code === 404 && (type === "NOT_FOUND" || !/^[A-Z_]+$/.test(type))) {
		return { status: 404, code: "NOT_FOUND", detail: "No such resource." };
	}
	if (code === 429 || type === "RATE_LIMIT_EXCEEDED" || type === "RATE_LIMITED") {
		return { status: 429, code: "RATE_LIMITED", detail: err.message || "Too many requests.", retryAfter: data.retryAfter ?? 1 };
	}
	// Our own client errors: the code is the status, the type is the contract code.
	if (code && code >= 400 && code < 500 && isErrorCode(type)) {
		return { status: code, code: type, detail: err.message ?? "", errors: data.errors, retryAfter: data.retryAfter, members: data.members, maxAge: data.maxAge };
	}
	// Someone else's client error: only codes clients know leave, and a message nobody checked stays in.
	if (code && code >= 400 && code < 500) {
		const status = GENERIC_CODES[code] ? code : 400;
		return { status, code: GENERIC_CODES[status], detail: "The request could not be processed." };
	}
	return { status: 500, code: "INTERNAL", detail: "An unexpected error occurred." };
}

/** RFC 6750's error_description admits printable ASCII but the double quote and the backslash. */
function quotable(text: string): string {
	return text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "");
}

/**
 * RFC 9110 section 11.6.1: every 401 names a scheme the resource takes, and here the
 * only one is Bearer. `error="invalid_token"` only when the Bearer token sent is what
 * was refused (RFC 6750 section 3.1); a request without one, or a 401 about something
 * else (a password, a refresh token in the body), gets the bare challenge, so a client
 * never drops a good access token because a password was wrong. SECURITY.md says why.
 */
function challenge(code: ErrorCode, detail: string, bearerSent: boolean, maxAge?: number): string {
	// RFC 9470: the token is fine, its authentication is too old for this route.
	if (code === "STEP_UP_REQUIRED") {
		return `Bearer realm="${REALM}", error="insufficient_user_authentication", error_description="${quotable(detail)}"${maxAge !== undefined ? `, max_age=${maxAge}` : ""}`;
	}
	if (!bearerSent || code !== "UNAUTHORIZED") return `Bearer realm="${REALM}"`;
	return `Bearer realm="${REALM}", error="invalid_token", error_description="${quotable(detail)}"`;
}

export interface RequestFacts {
	/** The request carried an Authorization header with a Bearer token. */
	bearerSent?: boolean;
}

export function toProblem(err: unknown, requestId: string, request: RequestFacts = {}): ProblemResult {
	const c = classify((err ?? {}) as AnyError);
	const problem: Problem = {
		type: `urn:auth-notify:problem:${c.code.toLowerCase().replace(/_/g, "-")}`,
		title: TITLES[c.status] ?? "Error",
		status: c.status,
		detail: c.detail,
		code: c.code,
		requestId
	};
	if (c.errors?.length) problem.errors = c.errors;
	if (c.members?.mfaToken !== undefined) problem.mfaToken = c.members.mfaToken;
	if (c.members?.factors !== undefined) problem.factors = c.members.factors;
	const headers: Record<string, string> = {};
	if (c.retryAfter) headers["Retry-After"] = String(c.retryAfter);
	if (c.status === 401) headers["WWW-Authenticate"] = challenge(c.code, c.detail, request.bearerSent === true, c.maxAge);
	// A refusal during a stop is the stop working, not a failure worth a log line per request;
	// a storage fault is logged once, where it happened (lib/process/storage-health.ts).
	return { problem, headers, serverSide: c.status >= 500 && c.code !== "SHUTTING_DOWN" && c.code !== "STORAGE_UNAVAILABLE" };
}
