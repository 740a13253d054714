/**
 * Step-up (RFC 9470): routes that change how an account is protected need a recent
 * sign-in, whatever token the caller holds. The sign-in time is the token's auth_time
 * (embedded provider; a refresh keeps it), the platform's session record (Cognito,
 * whose pool tokens cannot carry it: lib/mfa/sessions.ts), or the time the first factor
 * passed for the holder of an enrolment mfaToken.
 */
import type { UserPrincipal } from "../auth/rules";
import { ClientError } from "../errors";
import type { Store } from "../store";
import { MfaRecords } from "./records";
import { AuthSessions } from "./sessions";

export { looksLikeMfaToken } from "./token-shape";

export const stepUpRequired = (maxAgeSec: number) =>
	new ClientError(401, "STEP_UP_REQUIRED", `This route needs a sign-in at most ${maxAgeSec} seconds old: sign in again.`, { maxAge: maxAgeSec });

/** The principal of a live enrolment mfaToken, admitted only where the action's rule says "enrolment"; 401 INVALID_MFA_TOKEN otherwise. */
export async function enrolmentPrincipal(store: Store, token: string, now: () => number = Date.now): Promise<UserPrincipal> {
	const rec = await new MfaRecords(store, undefined, now).liveToken(token, "enrol");
	if (!rec) throw new ClientError(401, "INVALID_MFA_TOKEN", "The mfaToken is unknown, expired, used or out of tries. Sign in again.");
	return {
		kind: "user",
		sub: rec.userSub,
		username: rec.username,
		groups: rec.groups,
		isAdmin: false,
		exp: Math.floor(Date.parse(rec.expiresAt) / 1000),
		authTime: rec.authTime,
		amr: rec.amr,
		enrolmentOnly: true
	};
}

/** When the caller's session was signed in to (Unix seconds), or undefined when nothing says. */
export async function authTimeOf(p: UserPrincipal, cognito: boolean, store: () => Store, now: () => number = Date.now): Promise<number | undefined> {
	if (!cognito || p.enrolmentOnly) return p.authTime;
	const session = await new AuthSessions(store(), now).of(p.jti);
	// A session opened before the platform kept records: the pool's own claim.
	return session?.authTime ?? p.authTime;
}

/** STEP_UP_REQUIRED unless the sign-in is at most `maxAgeSec` old. */
export function checkStepUp(authTime: number | undefined, maxAgeSec: number, now: () => number = Date.now): void {
	if (authTime === undefined || Math.floor(now() / 1000) - authTime > maxAgeSec) throw stepUpRequired(maxAgeSec);
}
