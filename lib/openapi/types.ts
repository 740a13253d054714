/**
 * What an action declares about its HTTP answers, beside its `params` (the request
 * side comes from those). The gateway's own refusals (token, body, rate limit,
 * availability) are added from the route's policy, so an action lists only the
 * codes its handler answers with.
 */
import type { ErrorCode } from "../errors";
import type { JsonSchema } from "./fastest-validator";

export interface AnswerDoc {
	description: string;
	/** The body's JSON Schema (a $ref into components.schemas, usually); none for an empty body. */
	schema?: JsonSchema;
	/** application/json unless given; several when the body's type varies (each with the same schema). */
	contentType?: string | readonly string[];
	/** Response headers the answer carries, name to description. */
	headers?: Record<string, string>;
}

export interface ActionDoc {
	summary: string;
	description?: string;
	/** The JSON body, when the handler checks it itself and `params` can only say `any` of its fields. */
	body?: JsonSchema;
	/** The answer when the call succeeds. */
	success: AnswerDoc & { status: 200 | 201 | 202 | 204 | 302 };
	/** Contract codes the handler itself answers with, as problem documents. */
	problems?: readonly ErrorCode[];
	/**
	 * The few codes the contract answers with another status on this route than
	 * lib/openapi/codes.ts's (INVALID_WEBAUTHN_RESPONSE: 400 at registration, 401 at sign-in).
	 */
	problemStatus?: Partial<Record<ErrorCode, number>>;
	/** Answers that are neither success nor a problem document (readiness's 503 report). */
	other?: Record<number, AnswerDoc>;
	/** When the action never touches storage, STORAGE_UNAVAILABLE is left out. */
	storage?: false;
	/**
	 * A request body the server accepts, for the document (and for clients to copy):
	 * test/integration/openapi-examples.test.ts sends each one to its route.
	 */
	example?: unknown;
}
