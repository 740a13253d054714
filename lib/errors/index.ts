/**
 * Application errors. They are Moleculer's built-in error classes (the only ones that
 * survive a trip over NATS) with `code` = HTTP status and `type` = the contract's
 * stable SCREAMING_SNAKE code. Callers branch on `err.type`.
 */
import { Errors } from "moleculer";

/** Every code a problem document can carry; clients branch on these. */
export const ERROR_CODES = [
	"VALIDATION_ERROR",
	"MALFORMED_JSON",
	"UNAUTHORIZED",
	"INVALID_CREDENTIALS",
	"INVALID_REFRESH_TOKEN",
	"INVALID_TEMPORARY_TOKEN",
	"FORBIDDEN",
	"RECIPIENT_NOT_ALLOWED",
	"SERVICE_NOT_ALLOWED",
	"USER_NOT_CONFIRMED",
	"INVALID_SIGNATURE",
	"NOT_FOUND",
	"ACTOR_NOT_FOUND",
	"NOTIFICATION_NOT_FOUND",
	"DOCUMENT_NOT_FOUND",
	"FEATURE_NOT_FOUND",
	"METHOD_NOT_ALLOWED",
	"USER_EXISTS",
	"ACTOR_EXISTS",
	"IDEMPOTENCY_CONFLICT",
	"INVALID_UNSUBSCRIBE_TOKEN",
	"NOT_CANCELLABLE",
	"PAYLOAD_TOO_LARGE",
	"UNSUPPORTED_MEDIA_TYPE",
	"INVALID_PASSWORD",
	"TEMPLATE_NOT_FOUND",
	"TEMPLATE_VARIABLE_MISSING",
	"TEMPLATE_RENDER_ERROR",
	"CHANNEL_NOT_SUPPORTED",
	"IDEMPOTENCY_KEY_REUSED",
	"RATE_LIMITED",
	"REQUEST_TIMEOUT",
	"INTERNAL",
	"UPSTREAM_UNAVAILABLE",
	"STORAGE_UNAVAILABLE",
	"SHUTTING_DOWN",
	"EMAIL_NOT_VERIFIED",
	"EMAIL_ALREADY_VERIFIED",
	"INVALID_VERIFICATION_TOKEN",
	"INVALID_RESET_TOKEN",
	"INVALID_SECURITY_TOKEN",
	"SERVICE_EXISTS",
	"WEBHOOK_ENDPOINT_EXISTS",
	"WEBHOOK_ENDPOINT_LIMIT_REACHED",
	"MFA_REQUIRED",
	"MFA_ENROLLMENT_REQUIRED",
	"INVALID_MFA_CODE",
	"INVALID_MFA_TOKEN",
	"STEP_UP_REQUIRED",
	"INVALID_WEBAUTHN_RESPONSE",
	"INVALID_OTP",
	"NOT_SUPPORTED_BY_PROVIDER",
	"ACCOUNT_DELETED"
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(v: unknown): v is ErrorCode {
	return typeof v === "string" && (ERROR_CODES as readonly string[]).includes(v);
}

export interface FieldProblem {
	field: string;
	message: string;
	/** Where in the field's text (a template that cannot be parsed or rendered), from 1. */
	line?: number;
	column?: number;
}

export interface ErrorData {
	errors?: FieldProblem[];
	retryAfter?: number;
	/** A 503 whose message is safe to show (it names no internals). */
	expose?: boolean;
	/** Extension members of the problem document (RFC 9457 section 3.2): MFA_REQUIRED's mfaToken and factors. */
	members?: ProblemMembers;
	/** STEP_UP_REQUIRED: the largest age of auth_time the route accepts, in seconds (RFC 9470 max_age). */
	maxAge?: number;
}

/** The extension members a problem document may carry. */
export interface ProblemMembers {
	mfaToken?: string;
	factors?: string[];
}

export class ClientError extends Errors.MoleculerClientError {
	constructor(status: number, code: ErrorCode, detail: string, data?: ErrorData) {
		super(detail, status, code, data);
	}
}

export class UpstreamError extends Errors.MoleculerRetryableError {
	constructor(detail: string, retryAfter?: number) {
		super(detail, 503, "UPSTREAM_UNAVAILABLE", retryAfter ? { retryAfter } : undefined);
	}
}

/** A route the configured identity provider cannot serve (passwordless sign-in with Cognito): 501. */
export const notSupportedByProvider = (detail: string) => new Errors.MoleculerError(detail, 501, "NOT_SUPPORTED_BY_PROVIDER");

/** A feature this deployment has not configured: a 503 that says so, with no Retry-After. */
export const notConfigured = (detail: string) =>
	new Errors.MoleculerError(detail, 503, "UPSTREAM_UNAVAILABLE", { expose: true } satisfies ErrorData);

/** The node is stopping: a request it did not start, or could not finish within the grace. Safe to retry elsewhere. */
export const shuttingDown = () =>
	new Errors.MoleculerRetryableError("The service is stopping. Try again shortly.", 503, "SHUTTING_DOWN", { retryAfter: 5 } satisfies ErrorData);

export const badRequest = (detail: string, errors?: FieldProblem[]) =>
	new ClientError(400, "VALIDATION_ERROR", detail, errors ? { errors } : undefined);
export const unauthorized = (detail = "A valid Bearer token is required.") =>
	new ClientError(401, "UNAUTHORIZED", detail);
export const forbidden = (code: "FORBIDDEN" | "SERVICE_NOT_ALLOWED" = "FORBIDDEN", detail = "Not allowed.") =>
	new ClientError(403, code, detail);
export const notFound = (code: ErrorCode = "NOT_FOUND", detail = "The resource does not exist.") =>
	new ClientError(404, code, detail);

/** True for our own errors and Moleculer's client errors: safe to show their message. */
export function isClientFacing(err: unknown): err is Errors.MoleculerError {
	return err instanceof Errors.MoleculerError && typeof err.code === "number" && err.code >= 400 && err.code < 500;
}
