/**
 * client.sessions and client.me: the signed-in user's sessions (one per sign-in, a
 * refresh-token family) and account. Ending a session stops its refresh token at once
 * and its access tokens within a second on every node.
 */
import type { Request } from "./request.js";
import type { Me, SessionList } from "./types.js";

export interface SessionsApi {
	/** GET /auth/sessions: the open sessions, with user agent, address, times and amr; `current` marks this one. */
	list(): Promise<SessionList>;
	/**
	 * DELETE /auth/sessions/{sessionId}: ends that session. 404 NOT_FOUND for an unknown,
	 * ended or another user's session. Ending the current one signs this client out at
	 * its next call (use auth.logout for that instead).
	 */
	revoke(sessionId: string): Promise<void>;
}

export function sessionsApi(request: Request): SessionsApi {
	return {
		list: () => request("get", "/auth/sessions"),
		revoke: sessionId => request("delete", "/auth/sessions/{sessionId}", { path: { sessionId } })
	};
}

/** GET /auth/me: the signed-in user's account (email, phone, verification, deliverability, factors). */
export function meApi(request: Request): () => Promise<Me> {
	return () => request("get", "/auth/me");
}
