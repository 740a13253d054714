/**
 * The audit timeline, security alerts, "not me" and the lockout end to end through the
 * gateway, with the embedded identity provider: alerts are read from the file outbox
 * where the platform's own dispatcher wrote them, and an alert's delivery moves to
 * DELIVERED on a signed SNS Delivery event (a certificate the test made, served over
 * local HTTPS, as in webhook.test.ts).
 */
import https from "node:https";
import { LifecycleTokens } from "../../lib/accounts/lifecycle-tokens";
import type { NotificationDoc } from "../../lib/notifications/model";
import { linkToken, waitForMail } from "../helpers/mail";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { makeCert, notification, sesEvent, sign, startHttpsHost, type HttpsHost, type TestCert } from "../helpers/sns";

const UI = "https://ui.example.test";
const ADMIN = { email: "admin@example.test", password: "Admin-Passw0rd!" };
const PASSWORD = "Correct-Horse-9!";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const ALERT = (title: string) => new RegExp(`^Security alert: ${title}$`);

interface AuditItem {
	eventId: string;
	type: string;
	occurredAt: string;
	ip: string | null;
	userAgent: string | null;
	sessionId?: string;
	notificationId?: string;
	deliveryStatus?: string;
}

describe("audit timeline, security alerts and lockout", () => {
	let p: Platform;
	let tls: TestCert;
	let host: HttpsHost;
	let certUrl: string;
	let adminToken: string;

	beforeAll(async () => {
		tls = makeCert();
		host = await startHttpsHost(tls, tls.cert);
		certUrl = `https://localhost:${host.port}/SimpleNotificationService-test.pem`;
		p = await startPlatform({
			UI_BASE_URL: UI,
			SNS_SIGNING_CERT_HOST_PATTERN: "^localhost:\\d+$",
			BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
			BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
			RATE_LIMIT_FORGOT_PER_IP: "100000",
			RATE_LIMIT_FORGOT_PER_USER: "100000",
			RATE_LIMIT_REDEEM_PER_IP: "100000",
			RATE_LIMIT_LOGIN_PER_IP: "100000",
			RATE_LIMIT_LOGIN_PER_USER: "100000",
			RATE_LIMIT_REGISTER_PER_IP: "100000",
			RATE_LIMIT_REFRESH_PER_IP: "100000",
			// No grace: a rotated token presented again is reuse at once.
			REFRESH_TOKEN_REUSE_INTERVAL_SECONDS: "0"
		});
		runtime(p).useSnsAgent(new https.Agent({ ca: tls.cert }));
		const admin = await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.email, password: ADMIN.password } });
		expect(admin.status).toBe(200);
		adminToken = admin.body.accessToken;
	});
	afterAll(async () => {
		await p?.stop();
		await host?.close();
	});

	async function register() {
		const user = newUser({ password: PASSWORD });
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: user });
		expect(reg.status).toBe(201);
		return { email: user.email.toLowerCase(), actorId: reg.body.actorId as string, tokens: reg.body as { accessToken: string; refreshToken: string } };
	}

	const login = (email: string, password: string, userAgent?: string) =>
		http(p.baseUrl, "POST", "/auth/login", { json: { username: email, password }, headers: userAgent ? { "user-agent": userAgent } : {} });

	async function audit(token: string): Promise<AuditItem[]> {
		const res = await http(p.baseUrl, "GET", "/auth/audit", { token });
		expect(res.status).toBe(200);
		return res.body.items;
	}

	async function resetPassword(email: string, count = 1): Promise<void> {
		expect((await http(p.baseUrl, "POST", "/auth/password/forgot", { json: { email } })).status).toBe(202);
		const token = linkToken(await waitForMail(p.dataDir, email, /Reset your password/, count), UI, "/reset-password");
		expect((await http(p.baseUrl, "POST", "/auth/password/reset", { json: { token, password: "Brand-New-Passw0rd!" } })).status).toBe(204);
	}

	it("should mail a new-device alert whose not-me link ends every session and blocks password sign-in until a reset", async () => {
		const u = await register();
		// The device that registered is known: signing in from it raises no alert.
		const known = await login(u.email, PASSWORD);
		expect(known.status).toBe(200);
		const before = await audit(known.body.accessToken);
		expect(before.map(e => e.type)).toEqual(["auth.signed_in", "auth.registered"]);
		expect(before[0]).toMatchObject({ ip: expect.stringMatching(/127\.0\.0\.1/), userAgent: expect.any(String), sessionId: expect.any(String) });

		const fresh = await login(u.email, PASSWORD, FIREFOX);
		expect(fresh.status).toBe(200);
		const mail = await waitForMail(p.dataDir, u.email, ALERT("New sign-in"));
		expect(mail.text).toContain("Firefox");
		expect(mail.html).toContain(`${UI}/not-me#token=`);
		const items = await audit(known.body.accessToken);
		const newDevice = items.find(e => e.type === "auth.signed_in_new_device")!;
		expect(newDevice).toMatchObject({ userAgent: FIREFOX, notificationId: mail.notificationId, sessionId: expect.any(String) });

		// A signed SNS Delivery event moves the alert's delivery, and the audit shows it.
		const notifications = runtime(p).store().collection<NotificationDoc>("notifications");
		let doc: NotificationDoc | null = null;
		await waitFor("the alert to be SENT", async () => (doc = await notifications.get(mail.notificationId))?.status === "SENT");
		expect((await audit(known.body.accessToken)).find(e => e.eventId === newDevice.eventId)?.deliveryStatus).toBe("SENT");
		const webhook = await http(p.baseUrl, "POST", "/notifications/webhooks/email-provider", {
			body: JSON.stringify(sign(notification(sesEvent("Delivery", doc!.providerMessageId!), certUrl), tls.key)),
			headers: { "content-type": "text/plain; charset=UTF-8" }
		});
		expect(webhook.status).toBeLessThan(300);
		await waitFor("the alert to be DELIVERED", async () => (await notifications.get(mail.notificationId))?.status === "DELIVERED");
		expect((await audit(known.body.accessToken)).find(e => e.eventId === newDevice.eventId)?.deliveryStatus).toBe("DELIVERED");

		// "Not me": every session ends, the right password is refused until a reset.
		const token = linkToken(mail, UI, "/not-me");
		const notMe = await http(p.baseUrl, "POST", "/auth/security/not-me", { json: { token }, headers: { "user-agent": FIREFOX } });
		expect(notMe.status).toBe(200);
		expect(notMe.body).toEqual({ sessionsRevoked: true, passwordSignInBlocked: true });
		for (const t of [u.tokens, known.body, fresh.body]) {
			const refresh = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: t.refreshToken } });
			expect(refresh.status).toBe(401);
		}
		const refused = await login(u.email, PASSWORD);
		expect(refused.status).toBe(401);
		expect(refused.body.code).toBe("INVALID_CREDENTIALS");
		// Used once: a second time is refused.
		const again = await http(p.baseUrl, "POST", "/auth/security/not-me", { json: { token } });
		expect(again.status).toBe(401);
		expect(again.body.code).toBe("INVALID_SECURITY_TOKEN");

		await resetPassword(u.email);
		const after = await login(u.email, "Brand-New-Passw0rd!");
		expect(after.status).toBe(200);
		const types = (await audit(after.body.accessToken)).map(e => e.type);
		expect(types).toEqual(expect.arrayContaining(["auth.not_me", "auth.password_reset", "auth.sign_in_failed", "auth.email_verified"]));
		// The reset raised its own alert.
		await waitForMail(p.dataDir, u.email, ALERT("Password reset"));
	});

	it("should refuse an expired or unknown not-me token with 401 INVALID_SECURITY_TOKEN", async () => {
		const u = await register();
		const past = new LifecycleTokens(runtime(p).store(), () => Date.now() - 8 * 86_400_000);
		const expired = await past.mint("not-me", { sub: u.actorId, username: u.email, email: u.email }, 7 * 86_400);
		for (const token of [expired, "A".repeat(43), "not-a-token"]) {
			const res = await http(p.baseUrl, "POST", "/auth/security/not-me", { json: { token } });
			expect(res.status).toBe(401);
			expect(res.body.code).toBe("INVALID_SECURITY_TOKEN");
		}
		// Nothing happened to the account.
		expect((await login(u.email, PASSWORD)).status).toBe(200);
	});

	it("should lock password sign-in after 10 failures with the wrong password's answer, alert the owner, and unlock on a reset", async () => {
		const u = await register();
		const unknown = await login(`nobody-${Date.now()}@example.test`, "Wrong-Passw0rd!");
		expect(unknown.status).toBe(401);
		for (let i = 0; i < 10; i++) {
			const res = await login(u.email, "Wrong-Passw0rd!");
			expect(res.status).toBe(401);
			expect({ code: res.body.code, detail: res.body.detail }).toEqual({ code: unknown.body.code, detail: unknown.body.detail });
		}
		// The 11th, with the right password, gets the same answer.
		const right = await login(u.email, PASSWORD);
		expect(right.status).toBe(401);
		expect({ code: right.body.code, detail: right.body.detail }).toEqual({ code: "INVALID_CREDENTIALS", detail: unknown.body.detail });
		const mail = await waitForMail(p.dataDir, u.email, ALERT("Account locked"));
		expect(mail.text).toMatch(/reset your password/i);

		const events = await http(p.baseUrl, "GET", `/admin/audit?actorId=${u.actorId}&type=auth.locked`, { token: adminToken });
		expect(events.status).toBe(200);
		expect(events.body.items).toHaveLength(1);
		expect(events.body.items[0]).toMatchObject({ actorId: u.actorId, type: "auth.locked", detail: { reason: "lockout" }, notificationId: mail.notificationId });

		await resetPassword(u.email);
		expect((await login(u.email, "Brand-New-Passw0rd!")).status).toBe(200);
	});

	it("should let administrators search and stream the audit, and users read only their own", async () => {
		const a = await register();
		const b = await register();
		const lock = await http(p.baseUrl, "POST", `/admin/users/${a.actorId}/lock`, { token: adminToken });
		expect(lock.status).toBe(204);
		expect((await http(p.baseUrl, "POST", `/admin/users/${a.actorId}/unlock`, { token: adminToken })).status).toBe(204);

		const page = await http(p.baseUrl, "GET", `/admin/audit?actorId=${a.actorId}`, { token: adminToken });
		expect(page.status).toBe(200);
		expect(page.body.items.map((e: AuditItem) => e.type)).toEqual(["auth.unlocked", "auth.locked", "auth.registered"]);
		expect(page.body.items.every((e: { actorId: string }) => e.actorId === a.actorId)).toBe(true);

		const from = new Date(Date.now() - 60_000).toISOString();
		const stream = await fetch(`${p.baseUrl}/admin/audit?type=auth.registered&from=${encodeURIComponent(from)}`, {
			headers: { authorization: `Bearer ${adminToken}`, accept: "application/x-ndjson" }
		});
		expect(stream.status).toBe(200);
		expect(stream.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
		const lines = (await stream.text()).trim().split("\n").map(l => JSON.parse(l) as AuditItem & { actorId: string });
		expect(lines.every(l => l.type === "auth.registered")).toBe(true);
		expect(lines.map(l => l.actorId)).toEqual(expect.arrayContaining([a.actorId, b.actorId]));

		// A user reads only their own timeline: no parameter names another, and the admin search is refused.
		const bLogin = await login(b.email, PASSWORD);
		const own = await audit(bLogin.body.accessToken);
		expect(own.length).toBeGreaterThan(0);
		expect(own.every(e => !("actorId" in e))).toBe(true);
		const sneaky = await http(p.baseUrl, "GET", `/auth/audit?actorId=${a.actorId}`, { token: bLogin.body.accessToken });
		expect(sneaky.status).toBe(400);
		const search = await http(p.baseUrl, "GET", `/admin/audit?actorId=${a.actorId}`, { token: bLogin.body.accessToken });
		expect(search.status).toBe(403);
		const bad = await http(p.baseUrl, "GET", "/admin/audit?cursor=nope", { token: adminToken });
		expect(bad.status).toBe(400);
	});

	it("should audit refresh-token reuse and alert the owner", async () => {
		const u = await register();
		const first = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: u.tokens.refreshToken } });
		expect(first.status).toBe(200);
		const reused = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: u.tokens.refreshToken } });
		expect(reused.status).toBe(401);
		const mail = await waitForMail(p.dataDir, u.email, ALERT("Session ended"));
		const fresh = await login(u.email, PASSWORD);
		const reuse = (await audit(fresh.body.accessToken)).find(e => e.type === "auth.refresh_reuse_detected");
		expect(reuse).toMatchObject({ notificationId: mail.notificationId, sessionId: expect.any(String) });
	});

	it("should refuse turning security alerts off in preferences", async () => {
		const u = await register();
		const res = await http(p.baseUrl, "PUT", `/actors/${u.actorId}/preferences`, { token: u.tokens.accessToken, json: { items: [{ channel: "PUSH", category: "security", enabled: false }] } });
		expect(res.status).toBe(400);
	});
});
