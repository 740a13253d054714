/**
 * What an action sets in its meta to shape the gateway's HTTP answer (moleculer-web
 * reads these fields), and what the gateway itself hands an action in meta.
 */
export interface HttpMeta {
	$statusCode?: number;
	$location?: string;
	$responseType?: string;
	$responseHeaders?: Record<string, string>;
}

/** Set by the gateway from the callback request's Cookie header; checked against the state, never trusted. */
export interface SocialCallbackMeta extends HttpMeta {
	socialBinding?: string;
}

/**
 * Where a request came from, set by the gateway on the aliases whose actions record
 * security events (the `origin` policy): for the audit trail, never for a decision.
 */
export interface OriginMeta extends HttpMeta {
	clientIp?: string;
	userAgent?: string;
}
