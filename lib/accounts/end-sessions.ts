/**
 * Ends every session of a user: the one place the "not me" link, the lockout and an
 * administrator's lock go through, so the sessions work (a `sid` deny list that stops
 * access tokens too) plugs in here.
 */
import type { CreatedUser, IdentityProvider } from "../idp/types";

export async function endEverySession(idp: IdentityProvider, user: CreatedUser): Promise<void> {
	await idp.revokeAllSessions(user);
}
