/**
 * Who tests send as. Tests run with the production rule of who may send
 * (NOTIFICATIONS_USER_SEND=self): a user token sends only to its own verified address
 * or itself, so a test that sends to any other address sends as a service or as the
 * bootstrap administrator, and a test of a user's own notifications uses a verified
 * user sending to itself.
 */
import { http, newUser, runtime, type Platform } from "./platform";

export const ADMIN = { email: "root@example.com", password: "Root-Passw0rd" };

/** Settings under which a platform creates ADMIN at start (in this process or as a child). */
export const ADMIN_ENV = { BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password };

/** The access token of ADMIN, from a platform started with ADMIN_ENV. */
export async function adminToken(baseUrl: string): Promise<string> {
	const res = await http(baseUrl, "POST", "/auth/login", { json: { username: ADMIN.email, password: ADMIN.password } });
	expect(res.status).toBe(200);
	return res.body.accessToken;
}

/**
 * A token of the platform's own service account, for a platform in this process. "auth"
 * also sends the account mails (verification, reset) as itself: a test that follows all
 * of a service's notifications (its webhook endpoints, say) takes another id.
 */
export function serviceToken(p: Platform, serviceId = "auth"): Promise<string> {
	return runtime(p).serviceTokens.get(serviceId);
}

export interface VerifiedUser {
	token: string;
	actorId: string;
	email: string;
}

/** Marks a registered user's address verified, as following the verification mail's link would. */
export async function markVerified(p: Platform, email: string): Promise<void> {
	const idp = await runtime(p).idp();
	const found = await idp.findUserByEmail(email);
	expect(found).not.toBeNull();
	await idp.markEmailVerified(found!.username);
}

/** A fresh user whose address is verified: it may send email to itself. */
export async function verifiedUser(p: Platform): Promise<VerifiedUser> {
	const user = newUser();
	const res = await http(p.baseUrl, "POST", "/auth/register", { json: user });
	expect(res.status).toBe(201);
	await markVerified(p, user.email);
	return { token: res.body.accessToken, actorId: res.body.actorId, email: user.email.toLowerCase() };
}
