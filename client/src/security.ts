/**
 * client.audit and client.security: the signed-in user's security events (each alert's
 * delivery status with it), and the "not me" link of a security alert.
 */
import type { Request } from "./request.js";
import type { AuditPage, NotMeResult } from "./types.js";

export interface AuditApi {
	/** GET /auth/audit: the signed-in user's events, newest first, 50 a page; pass the answer's nextCursor for the next. */
	list(cursor?: string): Promise<AuditPage>;
}

export interface SecurityApi {
	/**
	 * POST /auth/security/not-me with the token of an alert's link (`#token=` of
	 * UI_BASE_URL + UI_NOT_ME_PATH): every session ends and password sign-in is refused
	 * until a reset. 401 INVALID_SECURITY_TOKEN for a used, expired or unknown token.
	 */
	notMe(token: string): Promise<NotMeResult>;
}

export function auditApi(request: Request): AuditApi {
	return { list: cursor => request("get", "/auth/audit", { query: { cursor } }) };
}

export function securityApi(request: Request): SecurityApi {
	return { notMe: token => request("post", "/auth/security/not-me", { body: { token }, auth: false }) };
}
