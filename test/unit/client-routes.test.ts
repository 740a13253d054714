/**
 * The client SDK's namespaces (client/src) against the real platform in this process:
 * the account's lifecycle through the mailed links (read from the file outbox as a mail
 * client would), a user's templates, notifications, preferences, push subscriptions,
 * webhook endpoints and resumes, and the admin namespace for an administrator and a
 * user. Each call's answer and the state it leaves are checked where the platform keeps
 * them; test/unit/client-methods.test.ts checks the requests byte for byte.
 */
import { Secret, TOTP } from "otpauth";
import { ApiError, createClient, type Client } from "../../client/src/index";
import { linkToken, waitForMail } from "../helpers/mail";
import { newUser, startPlatform, type Platform } from "../helpers/platform";
import { browserSubscription } from "../helpers/push-service";
import { ADMIN, ADMIN_ENV, markVerified } from "../helpers/senders";

const UI = "https://ui.example.test";
let p: Platform;

beforeAll(async () => {
	p = await startPlatform({ ...ADMIN_ENV, UI_BASE_URL: UI, WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
});
afterAll(() => p.stop());

function client(): Client {
	return createClient({ baseUrl: p.baseUrl, locks: null });
}

/** The claims of a JWT, unverified: only to read what the platform put there. */
function claims(jwt: string): Record<string, unknown> {
	return JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString("utf8"));
}

async function signedUp(verified = false): Promise<{ c: Client; email: string; password: string; actorId: string }> {
	const c = client();
	const user = newUser();
	const { actorId } = await c.register(user);
	if (verified) await markVerified(p, user.email);
	return { c, email: user.email.toLowerCase(), password: user.password, actorId };
}

describe("@auth-notify/client namespaces against the platform", () => {
	it("should verify the email and reset and change the password through the mailed links", async () => {
		const { c, email, password } = await signedUp();
		const verifyMail = await waitForMail(p.dataDir, email, /verify/i);
		const link = `${UI}/verify-email#token=${linkToken(verifyMail, UI, "/verify-email")}`;
		await expect(c.auth.verifyEmail(c.auth.linkToken(link)!)).resolves.toEqual({ emailVerified: true });
		const renewed = await c.auth.refresh();
		expect(claims(renewed.idToken).email_verified).toBe(true);
		await expect(c.auth.requestEmailVerification()).rejects.toMatchObject({ status: 409, code: "EMAIL_ALREADY_VERIFIED" });

		await expect(c.auth.forgotPassword(email)).resolves.toBeUndefined();
		const resetMail = await waitForMail(p.dataDir, email, /password/i);
		await expect(c.auth.resetPassword(linkToken(resetMail, UI, "/reset-password"), "Reset-Passw0rd-2")).resolves.toBeUndefined();
		await expect(c.login(email, password)).rejects.toMatchObject({ code: "INVALID_CREDENTIALS" });
		await c.login(email, "Reset-Passw0rd-2");
		await expect(c.auth.changePassword("Wrong-Passw0rd", "Changed-Passw0rd-3")).rejects.toMatchObject({ status: 401, code: "INVALID_CREDENTIALS" });
		await expect(c.auth.changePassword("Reset-Passw0rd-2", "Changed-Passw0rd-3")).resolves.toBeUndefined();

		const other = client();
		await other.login(email, "Changed-Passw0rd-3");
		await expect(c.auth.logoutAll()).resolves.toBeUndefined();
		expect(await c.accessToken()).toBeNull();
		// The other device's session ended too: its refresh token is refused, and it is signed out.
		await expect(other.auth.refresh()).rejects.toBeInstanceOf(ApiError);
		expect(await other.accessToken()).toBeNull();
	});

	it("should keep a user's templates, notifications and preferences", async () => {
		const { c, email, actorId } = await signedUp(true);
		const template = await c.templates.create({ name: "welcome", subject: "Hello {{name}}", text: "Order {{order.id}}" });
		await expect(c.templates.update(template.templateId, { name: "welcome", subject: "Hi {{name}}", text: "Order {{order.id}}" })).resolves.toMatchObject({ subject: "Hi {{name}}" });
		await expect(c.templates.get(template.templateId)).resolves.toMatchObject({ templateId: template.templateId, subject: "Hi {{name}}" });

		const sent = await c.notifications.send({ to: email, templateId: template.templateId, variables: { name: "Ada", order: { id: 7 } } });
		const later = await c.notifications.send({ to: email, template: { subject: "Later", text: "Later" }, sendAt: new Date(Date.now() + 3_600_000).toISOString() });
		const page = await c.notifications.list({ to: email, limit: 10 });
		expect(page.items.map(n => n.notificationId)).toEqual([later.notificationId, sent.notificationId]);
		await expect(c.notifications.timeline(sent.notificationId)).resolves.toMatchObject({ notificationId: sent.notificationId, items: expect.arrayContaining([expect.objectContaining({ event: "QUEUED", status: "QUEUED" })]) });
		await expect(c.notifications.cancel(later.notificationId)).resolves.toMatchObject({ status: "CANCELLED" });
		await expect(c.notifications.cancel(later.notificationId)).rejects.toMatchObject({ status: 409, code: "NOT_CANCELLABLE" });
		await expect(c.notifications.list({ status: "CANCELLED", to: email })).resolves.toMatchObject({ items: [{ notificationId: later.notificationId }] });

		await expect(c.actors.get(actorId)).resolves.toMatchObject({ actorId, email });
		await expect(c.actors.find(actorId)).resolves.toMatchObject({ items: [{ actorId }] });
		const items = [{ channel: "EMAIL" as const, category: "marketing", enabled: false }];
		await expect(c.preferences.put(actorId, items)).resolves.toEqual({ items });
		await expect(c.preferences.get(actorId)).resolves.toEqual({ items });
	});

	it("should keep a user's push subscriptions, webhook endpoints and resumes", async () => {
		const { c, actorId } = await signedUp();
		expect(Buffer.from(await c.pushSubscriptions.vapidPublicKey(), "base64url")).toHaveLength(65);
		const sub = browserSubscription();
		const created = await c.pushSubscriptions.create(actorId, { toJSON: () => sub });
		await expect(c.pushSubscriptions.list(actorId)).resolves.toEqual({ items: [created] });
		await c.pushSubscriptions.delete(actorId, created.subscriptionId);
		await expect(c.pushSubscriptions.list(actorId)).resolves.toEqual({ items: [] });

		const endpoint = await c.webhookEndpoints.create({ url: "http://127.0.0.1:9/hook", events: ["notification.delivered"] });
		expect(endpoint.secret).toMatch(/^whsec_/);
		const { secret: _shownOnce, ...listed } = endpoint;
		await expect(c.webhookEndpoints.list()).resolves.toMatchObject({ items: [listed] });
		await c.webhookEndpoints.delete(endpoint.endpointId);
		await expect(c.webhookEndpoints.list()).resolves.toEqual({ items: [] });

		const meta = await c.resumes.upload({ file: new Blob(["Ada Lovelace, analyst"], { type: "text/plain" }), filename: "cv.txt", candidateId: actorId });
		expect(meta).toMatchObject({ candidateId: actorId, filename: "cv.txt", size: 21 });
		await expect(c.resumes.get(meta.documentId)).resolves.toEqual(meta);
		const content = await c.resumes.content(meta.documentId);
		expect(await content.text()).toBe("Ada Lovelace, analyst");
	});

	it("should serve the admin namespace to an administrator and refuse a user", async () => {
		const admin = client();
		await admin.login(ADMIN.email, ADMIN.password);
		await expect(admin.admin.features.set("notifications.low-priority", { paused: false })).resolves.toMatchObject({ value: { paused: false } });
		await expect(admin.admin.features.get("notifications.low-priority")).resolves.toMatchObject({ featureName: "notifications.low-priority" });
		await expect(admin.admin.features.list()).resolves.toMatchObject({ items: expect.arrayContaining([expect.objectContaining({ featureName: "notifications.low-priority" })]) });
		await expect(admin.admin.suppressions.list({ address: "nobody@example.com" })).resolves.toEqual({ items: [] });
		// A user's preference is an unsubscribe record an operator can see and remove (EMAIL ones need a verified address).
		const user = await signedUp(true);
		await user.c.preferences.put(user.actorId, [{ channel: "EMAIL", category: "marketing", enabled: false }]);
		await expect(admin.admin.unsubscribes.list({ address: user.email })).resolves.toMatchObject({ items: [{ channel: "EMAIL", address: user.email, category: "marketing" }] });
		await admin.admin.unsubscribes.delete("EMAIL", user.email, "marketing");
		await expect(admin.admin.unsubscribes.list({ address: user.email })).resolves.toEqual({ items: [] });
		await expect(user.c.preferences.get(user.actorId)).resolves.toEqual({ items: [] });
		const account = await admin.admin.serviceAccounts.create("billing");
		await expect(admin.admin.serviceAccounts.list()).resolves.toMatchObject({ items: expect.arrayContaining([expect.objectContaining({ serviceId: "billing" })]) });
		// The account signs a backend's client in; a service may send to any address.
		const billing = createClient({ baseUrl: p.baseUrl, serviceAccount: { username: account.username, password: account.password } });
		const { notificationId } = await billing.notifications.send({ to: "customer@example.com", template: { subject: "Invoice", text: "Attached." } });
		await expect(billing.notifications.get(notificationId)).resolves.toMatchObject({ to: "customer@example.com" });
		expect(claims((await billing.accessToken())!)["custom:service_id"]).toBe("billing");
		await admin.admin.serviceAccounts.delete("billing");
		await expect(admin.admin.serviceAccounts.delete("billing")).rejects.toMatchObject({ status: 404 });
		await expect(admin.admin.keys.rotate()).resolves.toEqual({ kid: expect.any(String) });
		await expect(admin.admin.stats()).resolves.toMatchObject({ queue: expect.anything() });
		await expect(admin.admin.webhookEndpoints.list()).resolves.toMatchObject({ items: expect.any(Array) });

		await expect(user.c.admin.features.list()).rejects.toMatchObject({ status: 403, code: "FORBIDDEN" });
	});

	it("should enrol an authenticator app, sign in in two steps through MFA_REQUIRED, and manage the factors", async () => {
		const { c, email, password, actorId } = await signedUp();
		const { factorId, secret, otpauthUri } = await c.mfa.enrolTotp("Phone");
		expect(otpauthUri).toMatch(/^otpauth:\/\/totp\//);
		const totp = new TOTP({ secret: Secret.fromBase32(secret) });
		const { recoveryCodes } = await c.mfa.confirmTotp(factorId, totp.generate());
		expect(recoveryCodes).toHaveLength(10);
		await expect(c.mfa.factors()).resolves.toMatchObject({ items: [{ factorId, type: "totp", name: "Phone" }], recoveryCodesLeft: 10 });

		const other = client();
		const refused = await other.login(email, password).then(
			() => null,
			(err: unknown) => err
		);
		expect(refused).toBeInstanceOf(ApiError);
		expect(refused).toMatchObject({ status: 403, code: "MFA_REQUIRED", mfaToken: expect.any(String), factors: ["totp", "recovery"] });
		await expect(other.accessToken()).resolves.toBeNull();
		const mfaToken = (refused as ApiError).mfaToken!;
		await expect(other.mfa.verify(mfaToken, "totp", "000000")).rejects.toMatchObject({ status: 401, code: expect.stringMatching(/^INVALID_MFA_CODE$/) });
		const tokens = await other.mfa.verify(mfaToken, "recovery", recoveryCodes![0]);
		expect(claims(tokens.accessToken)).toMatchObject({ sub: actorId, amr: ["pwd", "otp", "mfa"] });
		await expect(other.accessToken()).resolves.toBe(tokens.accessToken);

		await expect(other.mfa.regenerateRecoveryCodes()).resolves.toMatchObject({ codes: expect.any(Array) });
		await expect(other.mfa.removeFactor(actorId)).rejects.toMatchObject({ status: 404 });
		await expect(other.mfa.removeFactor(factorId)).resolves.toBeUndefined();
		await expect(other.mfa.factors()).resolves.toEqual({ items: [], recoveryCodesLeft: 0 });
	});

	it("should let an administrator remove a user's factors", async () => {
		const { c, email, password, actorId } = await signedUp();
		const { factorId, secret } = await c.mfa.enrolTotp();
		await c.mfa.confirmTotp(factorId, new TOTP({ secret: Secret.fromBase32(secret) }).generate());
		await expect(client().login(email, password)).rejects.toMatchObject({ code: "MFA_REQUIRED" });
		const admin = client();
		await admin.login(ADMIN.email, ADMIN.password);
		await expect(c.admin.users.removeMfa(actorId)).rejects.toMatchObject({ status: 403 });
		await expect(admin.admin.users.removeMfa(actorId)).resolves.toBeUndefined();
		await expect(client().login(email, password)).resolves.toMatchObject({ tokenType: "Bearer" });
	});
});
