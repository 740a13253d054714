/**
 * Response headers the document declares on every operation, as components.headers:
 * X-Request-Id on every answer (services/api-gateway/api-gateway.service.ts), and the
 * Bearer challenge on every 401 (lib/problem.ts). test/helpers/openapi.ts checks that
 * every answer carries the headers its response marks required.
 */
export const COMPONENT_HEADERS = {
	RequestId: {
		description: "The request's id: the client's X-Request-Id when well-formed, else a new one. Problem documents repeat it as requestId.",
		required: true,
		schema: { type: "string" }
	},
	WWWAuthenticate: {
		description:
			'RFC 6750: `Bearer realm="auth-notify"`, with `error="invalid_token"` and an `error_description` when the Bearer token sent was refused (invalid, expired, not an access token).',
		required: true,
		schema: { type: "string" }
	}
};

const header = (name: keyof typeof COMPONENT_HEADERS) => ({ $ref: `#/components/headers/${name}` });

/** An operation's responses with the headers every answer carries, and every 401's challenge. */
export function withCommonHeaders(responses: Record<string, unknown>): Record<string, unknown> {
	for (const [status, response] of Object.entries(responses)) {
		const r = response as { headers?: Record<string, unknown> };
		r.headers = { ...r.headers, "X-Request-Id": header("RequestId") };
		if (status === "401") r.headers["WWW-Authenticate"] = header("WWWAuthenticate");
	}
	return responses;
}
