/**
 * Ends sessions: the one place sign-out, sign-out everywhere, the "not me" link, the
 * lockout, an administrator's lock or end-sessions, a password change or reset and an
 * account's deletion go through. The provider ends the refresh tokens at once; the
 * hook the process attaches to its provider (lib/runtime.ts: lib/sessions) marks the
 * sessions ended and puts their `sid` on the deny list every node holds, so their
 * access tokens stop within a second too. Where the provider's access tokens carry no
 * `sid` (Cognito), the keys it names for them (sessionDenyKeys) join the list as well.
 */
import type { CreatedUser, IdentityProvider } from "../idp/types";

export interface SessionEndHook {
	/** The sids of the user's open sessions (all but `keep`), read before the provider ends them. */
	open(sub: string, keep?: string): Promise<string[]>;
	/** These sessions have ended: deny their access tokens everywhere (by their sids and the provider's further `keys`). */
	ended(sub: string, sids: string[], keys?: string[]): Promise<void>;
}

const hooks = new WeakMap<IdentityProvider, SessionEndHook>();

export function attachSessionEnds(idp: IdentityProvider, hook: SessionEndHook): void {
	hooks.set(idp, hook);
}

/** Tells the hook, after the provider has ended them, so the keys it names include every token issued until then. */
async function told(idp: IdentityProvider, sub: string, sids: string[]): Promise<void> {
	const hook = hooks.get(idp);
	if (!hook) return;
	const keys = idp.sessionDenyKeys && sids.length > 0 ? await idp.sessionDenyKeys(sids) : [];
	await hook.ended(sub, sids, keys);
}

export async function endEverySession(idp: IdentityProvider, user: CreatedUser, keepSession?: string): Promise<void> {
	const hook = hooks.get(idp);
	const sids = hook ? await hook.open(user.sub, keepSession) : [];
	await idp.revokeAllSessions(user, keepSession);
	await told(idp, user.sub, sids);
}

/** Sign-out: the session this refresh token belongs to. */
export async function endSessionOf(idp: IdentityProvider, refreshToken: string): Promise<{ sub: string; sid: string } | null> {
	const owner = (await idp.sessionOwner?.(refreshToken)) ?? null;
	await idp.revokeSession(refreshToken);
	if (owner) await told(idp, owner.sub, [owner.sid]);
	return owner;
}

/**
 * Ends the user's session with this sid; false when the user has no such open session
 * (another user's id, an ended one). With a provider that cannot end one session by
 * its id, the deny list and the session record alone end it.
 */
export async function endSessionById(idp: IdentityProvider, sub: string, sid: string, known: boolean): Promise<boolean> {
	const revoked = idp.revokeSessionById ? await idp.revokeSessionById(sub, sid) : known;
	if (!revoked) return false;
	await told(idp, sub, [sid]);
	return true;
}

/** Tells the hook of a session the provider ended itself (a reused refresh token). */
export async function sessionEnded(idp: IdentityProvider, sub: string, sid: string): Promise<void> {
	await told(idp, sub, [sid]);
}
