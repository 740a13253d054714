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
