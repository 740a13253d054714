/**
 * client.sessions and client.me: the signed-in user's sessions (one per device that
 * signed in), ending one, and the account as the platform holds it.
 */
import type { Request } from "./request.js";
import type { Me, SessionList } from "./types.js";

export interface SessionsApi {
	/** GET /auth/sessions: the open sessions, newest first; `current` marks this client's own. */
	list(): Promise<SessionList>;
	/**
	 * DELETE /auth/sessions/{sessionId}: that session's refresh token stops at once, its
	 * access tokens within a second on every node. 404 for an id that is not an open
	 * session of the signed-in user's.
	 */
	revoke(sessionId: string): Promise<void>;
	/** DELETE /auth/sessions: signs out every other device; this client's session keeps working. */
	revokeOthers(): Promise<void>;
}

export function sessionsApi(request: Request): SessionsApi {
	return {
		list: () => request("get", "/auth/sessions"),
		revoke: async sessionId => {
			await request("delete", "/auth/sessions/{sessionId}", { path: { sessionId } });
		},
		revokeOthers: async () => {
			await request("delete", "/auth/sessions");
		}
	};
}

/** GET /auth/me: the signed-in user's account (address and its state, second factors, creation time). */
export function meApi(request: Request): () => Promise<Me> {
	return () => request("get", "/auth/me");
}
