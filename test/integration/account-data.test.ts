/**
 * Account data through the gateway, embedded identity provider: changing the email
 * address (the link to the new address, the old one working until it is used), the
 * export (step-up, no secrets, no-store), deleting an account (by its user and by an
 * administrator, everything of it removed, a tombstone kept, deleting again a 410) and
 * the feedback of permanent bounces, complaints and deliveries, as signed SNS events,
 * into the account's emailDeliverable. The email change and deletion again with Cognito
 * (cognito-local).
 */
import fs from "node:fs";
import https from "node:https";
import path from "node:path";
import { decodeJwt } from "jose";
import { ACCOUNT_DELETIONS, ACCOUNT_TOMBSTONES } from "../../lib/accounts/deletion";
import type { AuditEvent } from "../../lib/audit";
import type { NotificationDoc } from "../../lib/notifications/model";
import { platformOnCognito } from "../helpers/cognito-local";
import { linkToken, waitForMail } from "../helpers/mail";
import { expectStatus, http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { browserSubscription } from "../helpers/push-service";
import { PDF } from "../helpers/resumes";
import { markVerified, serviceToken } from "../helpers/senders";
import { makeCert, notification, sesEvent, sign, startHttpsHost, type HttpsHost, type TestCert } from "../helpers/sns";

const UI = "https://ui.example.test";
const VERIFY_PATH = "/verify-email";
const ADMIN = { email: "admin@example.test", password: "Admin-Passw0rd!" };
const ENV = {
	UI_BASE_URL: UI,
	BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
	BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
	DISPATCHER_POLL_MS: "50",
	PUSH_ALLOW_INSECURE_ENDPOINTS: "true",
	SNS_SIGNING_CERT_HOST_PATTERN: "^localhost:\\d+$",
	RATE_LIMIT_LOGIN_PER_IP: "100000",
	RATE_LIMIT_LOGIN_PER_USER: "100000",
	RATE_LIMIT_REGISTER_PER_IP: "100000",
	RATE_LIMIT_REDEEM_PER_IP: "100000",
	RATE_LIMIT_VERIFICATION_PER_USER: "100000",
	RATE_LIMIT_VERIFICATION_PER_IP: "100000"
};

interface Account {
	email: string;
	password: string;
	actorId: string;
	accessToken: string;
	refreshToken: string;
}

describe("account data", () => {
	let p: Platform;
	let admin: string;
	let service: string;
	let tls: TestCert;
	let host: HttpsHost;

	const store = () => runtime(p).store();
	const login = (username: string, password: string) => http(p.baseUrl, "POST", "/auth/login", { json: { username, password } });
	const auditOf = (actorId: string) => store().collection<AuditEvent>("audit_events").find({ actorId }, { sort: { id: 1 } });

	async function register(): Promise<Account> {
		const user = newUser();
		const res = await http(p.baseUrl, "POST", "/auth/register", { json: user });
		expectStatus(res, 201);
		return { email: user.email.toLowerCase(), password: user.password, actorId: res.body.actorId, accessToken: res.body.accessToken, refreshToken: res.body.refreshToken };
	}

	/** A token of the same session whose sign-in is an hour old (a refresh keeps the session's auth_time). */
	async function staleToken(a: Account): Promise<string> {
		await store().collection("idp_refresh_tokens").updateMany({ userId: a.actorId }, { $set: { authTime: Math.floor(Date.now() / 1000) - 3600 } });
		const refreshed = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: a.refreshToken } });
		expectStatus(refreshed, 200);
		a.refreshToken = refreshed.body.refreshToken;
		return refreshed.body.accessToken;
	}

	async function sendMail(to: string): Promise<NotificationDoc> {
		const res = await http(p.baseUrl, "POST", "/notifications", { token: service, json: { to, template: { subject: "Hello", text: "Hi" } } });
		expectStatus(res, 201);
		let doc: NotificationDoc | null = null;
		await waitFor("the mail to be SENT", async () => (doc = await store().collection<NotificationDoc>("notifications").get(res.body.notificationId))?.status === "SENT");
		return doc!;
	}

	async function snsEvent(type: "Delivery" | "Bounce" | "Complaint", n: NotificationDoc, extra: object = {}) {
		const message = sign(notification(sesEvent(type, n.providerMessageId!, extra), `https://localhost:${host.port}/SimpleNotificationService-test.pem`), tls.key);
		const res = await http(p.baseUrl, "POST", "/notifications/webhooks/email-provider", { body: JSON.stringify(message), headers: { "content-type": "text/plain; charset=UTF-8" } });
		expectStatus(res, 200);
	}

	const adminView = async (actorId: string) => {
		const res = await http(p.baseUrl, "GET", `/admin/users/${actorId}`, { token: admin });
		expectStatus(res, 200);
		return res.body;
	};

	beforeAll(async () => {
		tls = makeCert();
		host = await startHttpsHost(tls, tls.cert);
		p = await startPlatform(ENV);
		runtime(p).useSnsAgent(new https.Agent({ ca: tls.cert }));
		const signIn = await login(ADMIN.email, ADMIN.password);
		expectStatus(signIn, 200);
		admin = signIn.body.accessToken;
		service = await serviceToken(p, "documents");
	}, 30000);
	afterAll(async () => {
		await p?.stop();
		await host?.close();
	});

	describe("POST /auth/email/change", () => {
		it("should mail the new address, keep the old one until the link is used, then move the account to the new one", async () => {
			const a = await register();
			const newEmail = `moved-${Date.now()}@example.com`;
			const change = await http(p.baseUrl, "POST", "/auth/email/change", { token: a.accessToken, json: { newEmail: newEmail.toUpperCase() } });
			expectStatus(change, 202);
			const mail = await waitForMail(p.dataDir, newEmail, /Confirm your new email address/);
			const token = linkToken(mail, UI, VERIFY_PATH);

			// Nothing changed yet: the old address signs in, the new one does not.
			expectStatus(await login(a.email, a.password), 200);
			expectStatus(await login(newEmail, a.password), 401);
			expect((await adminView(a.actorId)).email).toBe(a.email);

			const confirmed = await http(p.baseUrl, "POST", "/auth/email/verify", { json: { token } });
			expectStatus(confirmed, 200);
			expect(confirmed.body).toEqual({ emailVerified: true });

			expectStatus(await login(a.email, a.password), 401);
			const signIn = await login(newEmail, a.password);
			expectStatus(signIn, 200);
			expect(decodeJwt(signIn.body.idToken)).toMatchObject({ sub: a.actorId, email: newEmail, email_verified: true });
			expect(await adminView(a.actorId)).toMatchObject({ email: newEmail, emailVerified: true, emailDeliverable: true });
			const actor = await http(p.baseUrl, "GET", `/actors/${a.actorId}`, { token: signIn.body.accessToken });
			expect(actor.body.email).toBe(newEmail);
			// Every session of the old address ended.
			expectStatus(await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: a.refreshToken } }), 401);
			const changed = (await auditOf(a.actorId)).filter(e => e.type === "auth.email_changed");
			expect(changed).toHaveLength(1);
			expect(changed[0].detail).toEqual({ oldEmail: a.email });
			// The link works once.
			const again = await http(p.baseUrl, "POST", "/auth/email/verify", { json: { token } });
			expectStatus(again, 401);
			expect(again.body.code).toBe("INVALID_VERIFICATION_TOKEN");
		});

		it("should answer 409 USER_EXISTS for an address another account holds, before and when the link is used", async () => {
			const [a, b] = [await register(), await register()];
			const taken = await http(p.baseUrl, "POST", "/auth/email/change", { token: a.accessToken, json: { newEmail: b.email } });
			expectStatus(taken, 409);
			expect(taken.body.code).toBe("USER_EXISTS");

			// Taken between the request and the link: the link is refused, nothing moves.
			const newEmail = `race-${Date.now()}@example.com`;
			expectStatus(await http(p.baseUrl, "POST", "/auth/email/change", { token: a.accessToken, json: { newEmail } }), 202);
			const token = linkToken(await waitForMail(p.dataDir, newEmail, /Confirm your new email address/), UI, VERIFY_PATH);
			expectStatus(await http(p.baseUrl, "POST", "/auth/register", { json: { ...newUser(), email: newEmail } }), 201);
			const late = await http(p.baseUrl, "POST", "/auth/email/verify", { json: { token } });
			expectStatus(late, 409);
			expect(late.body.code).toBe("USER_EXISTS");
			expectStatus(await login(a.email, a.password), 200);
			expect((await auditOf(a.actorId)).map(e => e.type)).not.toContain("auth.email_changed");
		});

		it("should refuse bad input, no token, its own address and a stale sign-in", async () => {
			const a = await register();
			for (const json of [{}, { newEmail: "not-an-address" }, { newEmail: "x@example.com", extra: 1 }, { newEmail: a.email }]) {
				const res = await http(p.baseUrl, "POST", "/auth/email/change", { token: a.accessToken, json });
				expectStatus(res, 400);
				expect(res.body.code).toBe("VALIDATION_ERROR");
			}
			expectStatus(await http(p.baseUrl, "POST", "/auth/email/change", { json: { newEmail: "x@example.com" } }), 401);
			const stale = await http(p.baseUrl, "POST", "/auth/email/change", { token: await staleToken(a), json: { newEmail: `s-${Date.now()}@example.com` } });
			expectStatus(stale, 401);
			expect(stale.body.code).toBe("STEP_UP_REQUIRED");
		});
	});

	describe("GET /auth/account/export", () => {
		it("should answer everything held about the user, with no secret, never cached, and audit it", async () => {
			const a = await register();
			const enrol = await http(p.baseUrl, "POST", "/auth/mfa/totp", { token: a.accessToken, json: {} });
			expectStatus(enrol, 201);
			const sub = await http(p.baseUrl, "POST", `/actors/${a.actorId}/push-subscriptions`, { token: a.accessToken, json: browserSubscription() });
			expectStatus(sub, 201);
			const res = await http(p.baseUrl, "GET", "/auth/account/export", { token: a.accessToken });
			expectStatus(res, 200);
			expect(res.headers.get("cache-control")).toContain("no-store");
			const body = res.body;
			expect(body.profile).toMatchObject({ actorId: a.actorId, email: a.email, emailVerified: false, emailDeliverable: true, firstName: "Ada" });
			expect(body.sessions.length).toBeGreaterThanOrEqual(1);
			expect(body.sessions[0]).toMatchObject({ sessionId: expect.any(String), amr: ["pwd"], userAgent: expect.any(String), ip: expect.any(String) });
			expect(body.factors).toEqual([expect.objectContaining({ factorId: enrol.body.factorId, type: "totp", status: "pending" })]);
			// The verification mail of the registration is addressed to the user.
			expect(body.notifications.items.map((n: { to: string }) => n.to)).toContain(a.email);
			expect(body.pushSubscriptions).toEqual([expect.objectContaining({ subscriptionId: sub.body.subscriptionId })]);
			expect(body).toMatchObject({ documents: [], inbox: { items: [], truncated: false }, preferences: { items: [] } });
			const text = JSON.stringify(body);
			for (const secret of [enrol.body.secret, "passwordHash", "seed", "p256dh", "variables"]) expect(text).not.toContain(secret);
			expect((await auditOf(a.actorId)).map(e => e.type)).toContain("auth.account_exported");
		});

		it("should answer 401 STEP_UP_REQUIRED to a stale sign-in and 401 without a token", async () => {
			const a = await register();
			const res = await http(p.baseUrl, "GET", "/auth/account/export", { token: await staleToken(a) });
			expectStatus(res, 401);
			expect(res.body.code).toBe("STEP_UP_REQUIRED");
			expectStatus(await http(p.baseUrl, "GET", "/auth/account/export"), 401);
			expect((await auditOf(a.actorId)).map(e => e.type)).not.toContain("auth.account_exported");
		});
	});

	describe("deleting an account", () => {
		/** An account with something in every place a deletion empties. */
		async function populated(): Promise<Account & { scheduled: string; documentId: string; fileId: string }> {
			const a = await register();
			expectStatus(await http(p.baseUrl, "POST", `/actors/${a.actorId}/push-subscriptions`, { token: a.accessToken, json: browserSubscription() }), 201);
			expectStatus(await http(p.baseUrl, "PUT", `/actors/${a.actorId}/preferences`, { token: a.accessToken, json: { items: [{ channel: "PUSH", category: "news", enabled: false }] } }), 200);
			const inApp = await http(p.baseUrl, "POST", "/notifications", { token: service, json: { channel: "IN_APP", to: a.actorId, template: { subject: "Hi", text: "There" } } });
			expectStatus(inApp, 201);
			await waitFor("the inbox message", async () => (await store().collection("inbox").count({ actorId: a.actorId })) === 1);
			const later = new Date(Date.now() + 3600_000).toISOString();
			const scheduled = await http(p.baseUrl, "POST", "/notifications", { token: service, json: { to: a.email, template: { subject: "Later", text: "Later" }, sendAt: later } });
			expectStatus(scheduled, 201);
			const form = new FormData();
			form.append("candidateId", a.actorId);
			form.append("resume", new Blob([PDF], { type: "application/pdf" }), "cv.pdf");
			const upload = await http(p.baseUrl, "POST", "/resumes", { token: a.accessToken, body: form });
			expectStatus(upload, 201);
			const doc = await store().collection<{ id: string; fileId: string }>("documents").get(upload.body.documentId);
			return { ...a, scheduled: scheduled.body.notificationId, documentId: upload.body.documentId, fileId: doc!.fileId };
		}

		async function expectGone(a: Awaited<ReturnType<typeof populated>>): Promise<void> {
			const s = store();
			await expect(s.collection("actors").get(a.actorId)).resolves.toBeNull();
			await expect(s.collection("idp_users").count({ id: a.actorId })).resolves.toBe(0);
			await expect(s.collection("idp_refresh_tokens").count({ userId: a.actorId })).resolves.toBe(0);
			await expect(s.collection("push_subscriptions").count({ actorId: a.actorId })).resolves.toBe(0);
			await expect(s.collection("inbox").count({ actorId: a.actorId })).resolves.toBe(0);
			await expect(s.collection("unsubscribes").count({ actorId: a.actorId })).resolves.toBe(0);
			await expect(s.collection("documents").count({ candidateId: a.actorId })).resolves.toBe(0);
			await expect(s.collection("account_locks").count({ id: a.actorId })).resolves.toBe(0);
			await expect(s.collection(ACCOUNT_DELETIONS).count({})).resolves.toBe(0);
			await expect(s.collection<NotificationDoc>("notifications").get(a.scheduled)).resolves.toMatchObject({ status: "CANCELLED" });
			expect(fs.existsSync(path.join(p.dataDir, "files", a.fileId))).toBe(false);
			await expect(s.collection(ACCOUNT_TOMBSTONES).get(a.actorId)).resolves.toMatchObject({ id: a.actorId, deletedAt: expect.any(String) });
			expectStatus(await login(a.email, a.password), 401);
			expectStatus(await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: a.refreshToken } }), 401);
			expectStatus(await http(p.baseUrl, "GET", `/admin/users/${a.actorId}`, { token: admin }), 404);
		}

		it("should remove everything of the account at its user's request, keep a tombstone, refuse its access token afterwards, and answer 410 to a second request", async () => {
			const a = await populated();
			const res = await http(p.baseUrl, "DELETE", "/auth/account", { token: a.accessToken });
			expectStatus(res, 202);
			await expectGone(a);
			expect((await auditOf(a.actorId)).filter(e => e.type === "auth.account_deleted").map(e => e.detail)).toEqual([{ by: "self" }]);

			// The deletion ended the session its access token belongs to (the sid deny list): that token is refused like any invalid one.
			const twice = await http(p.baseUrl, "DELETE", "/auth/account", { token: a.accessToken });
			expectStatus(twice, 401);
			const byAdmin = await http(p.baseUrl, "DELETE", `/admin/users/${a.actorId}`, { token: admin });
			expectStatus(byAdmin, 410);
			// The address is free again: a new account, a new actor id.
			const again = await http(p.baseUrl, "POST", "/auth/register", { json: { ...newUser(), email: a.email } });
			expectStatus(again, 201);
			expect(again.body.actorId).not.toBe(a.actorId);
		});

		it("should let an administrator delete another account, and nobody else", async () => {
			const [a, mallory] = [await populated(), await register()];
			const refused = await http(p.baseUrl, "DELETE", `/admin/users/${a.actorId}`, { token: mallory.accessToken });
			expectStatus(refused, 403);
			expectStatus(await http(p.baseUrl, "DELETE", `/admin/users/${a.actorId}`), 401);
			expectStatus(await http(p.baseUrl, "DELETE", "/admin/users/not-a-uuid", { token: admin }), 400);
			const unknown = await http(p.baseUrl, "DELETE", "/admin/users/00000000-0000-4000-8000-000000000000", { token: admin });
			expectStatus(unknown, 404);
			expect(unknown.body.code).toBe("ACTOR_NOT_FOUND");
			expectStatus(await login(a.email, a.password), 200);

			expectStatus(await http(p.baseUrl, "DELETE", `/admin/users/${a.actorId}`, { token: admin }), 202);
			await expectGone(a);
			const [deleted] = (await auditOf(a.actorId)).filter(e => e.type === "auth.account_deleted");
			expect(deleted.detail).toEqual({ by: "admin", adminId: decodeJwt(admin).sub });
		});

		it("should answer 401 STEP_UP_REQUIRED to a stale sign-in and delete nothing", async () => {
			const a = await register();
			const res = await http(p.baseUrl, "DELETE", "/auth/account", { token: await staleToken(a) });
			expectStatus(res, 401);
			expect(res.body.code).toBe("STEP_UP_REQUIRED");
			expectStatus(await login(a.email, a.password), 200);
			await expect(store().collection(ACCOUNT_DELETIONS).count({ id: a.actorId })).resolves.toBe(0);
		});
	});

	describe("undeliverable addresses", () => {
		async function verified(): Promise<Account> {
			const a = await register();
			await markVerified(p, a.email);
			return a;
		}

		it("should mark the account undeliverable on a permanent bounce, audited once, and deliverable again on a later delivery", async () => {
			const a = await verified();
			const [bounced, delivered] = [await sendMail(a.email), await sendMail(a.email)];
			const bounce = { bounce: { bounceType: "Permanent", bouncedRecipients: [{ emailAddress: a.email }] } };
			await snsEvent("Bounce", bounced, bounce);
			expect(await adminView(a.actorId)).toMatchObject({ emailDeliverable: false });
			await snsEvent("Bounce", bounced, bounce);
			const undeliverable = (await auditOf(a.actorId)).filter(e => e.type === "auth.address_undeliverable");
			expect(undeliverable).toHaveLength(1);
			expect(undeliverable[0].detail).toEqual({ reason: "BOUNCED", notificationId: bounced.id });

			await snsEvent("Delivery", delivered);
			expect(await adminView(a.actorId)).toMatchObject({ emailDeliverable: true });
		});

		it("should mark the account undeliverable on a complaint and deliverable again when the address is verified anew", async () => {
			const a = await register();
			const n = await sendMail(a.email);
			await snsEvent("Complaint", n, { complaint: { complainedRecipients: [{ emailAddress: a.email }] } });
			expect(await adminView(a.actorId)).toMatchObject({ emailDeliverable: false });
			expect((await auditOf(a.actorId)).map(e => e.type)).toContain("auth.address_undeliverable");

			// The registration's verification mail, used now.
			const token = linkToken(await waitForMail(p.dataDir, a.email, /Verify your email/), UI, VERIFY_PATH);
			expectStatus(await http(p.baseUrl, "POST", "/auth/email/verify", { json: { token } }), 200);
			expect(await adminView(a.actorId)).toMatchObject({ emailVerified: true, emailDeliverable: true });
		});

		it("should leave accounts alone on a transient bounce or a bounce naming someone else", async () => {
			const a = await verified();
			await snsEvent("Bounce", await sendMail(a.email), { bounce: { bounceType: "Transient", bouncedRecipients: [{ emailAddress: a.email }] } });
			await snsEvent("Bounce", await sendMail(a.email), { bounce: { bounceType: "Permanent", bouncedRecipients: [{ emailAddress: "someone-else@example.com" }] } });
			expect(await adminView(a.actorId)).toMatchObject({ emailDeliverable: true });
			expect((await auditOf(a.actorId)).map(e => e.type)).not.toContain("auth.address_undeliverable");
		});
	});
});

describe("account data with the Cognito identity provider (cognito-local)", () => {
	let p: Platform;
	platformOnCognito(ENV, platform => (p = platform));

	async function register() {
		const user = newUser();
		const res = await http(p.baseUrl, "POST", "/auth/register", { json: user });
		expectStatus(res, 201);
		return { email: user.email.toLowerCase(), password: user.password, actorId: res.body.actorId as string, accessToken: res.body.accessToken as string };
	}

	it("should move the address with AdminUpdateUserAttributes only when the link is used", async () => {
		const a = await register();
		const newEmail = `cognito-moved-${Date.now()}@example.com`;
		expectStatus(await http(p.baseUrl, "POST", "/auth/email/change", { token: a.accessToken, json: { newEmail } }), 202);
		const token = linkToken(await waitForMail(p.dataDir, newEmail, /Confirm your new email address/), UI, VERIFY_PATH);
		const idp = await runtime(p).idp();
		await expect(idp.findProfileByEmail(a.email)).resolves.toMatchObject({ sub: a.actorId });

		expectStatus(await http(p.baseUrl, "POST", "/auth/email/verify", { json: { token } }), 200);
		await expect(idp.findProfileByEmail(newEmail)).resolves.toMatchObject({ sub: a.actorId, email: newEmail, emailVerified: true });
		await expect(runtime(p).store().collection("actors").get(a.actorId)).resolves.toMatchObject({ email: newEmail });
		const changed = await runtime(p).store().collection<AuditEvent>("audit_events").find({ actorId: a.actorId, type: "auth.email_changed" });
		expect(changed.map(e => e.detail)).toEqual([{ oldEmail: a.email }]);
	});

	it("should delete the pool's user with the account, refuse its access token afterwards, and answer 410 to an administrator's second request", async () => {
		const a = await register();
		const exported = await http(p.baseUrl, "GET", "/auth/account/export", { token: a.accessToken });
		expectStatus(exported, 200);
		// The registration's session, from the platform's record of it (the pool's tokens carry no sid).
		expect(exported.body.sessions).toEqual([expect.objectContaining({ sessionId: expect.any(String), amr: ["pwd"], userAgent: expect.any(String), ip: expect.any(String) })]);
		expectStatus(await http(p.baseUrl, "DELETE", "/auth/account", { token: a.accessToken }), 202);
		await expect((await runtime(p).idp()).findUserByEmail(a.email)).resolves.toBeNull();
		await expect(runtime(p).store().collection("actors").get(a.actorId)).resolves.toBeNull();
		await expect(runtime(p).store().collection(ACCOUNT_TOMBSTONES).get(a.actorId)).resolves.toMatchObject({ id: a.actorId });
		expectStatus(await http(p.baseUrl, "POST", "/auth/login", { json: { username: a.email, password: a.password } }), 401);
		// The deletion ended the session, and the pool's access tokens carry no sid: the platform denies them by their jti.
		expectStatus(await http(p.baseUrl, "DELETE", "/auth/account", { token: a.accessToken }), 401);
		const signIn = await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.email, password: ADMIN.password } });
		expectStatus(signIn, 200);
		expectStatus(await http(p.baseUrl, "DELETE", `/admin/users/${a.actorId}`, { token: signIn.body.accessToken }), 410);
	});
});
