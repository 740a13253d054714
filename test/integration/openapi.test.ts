/**
 * The running platform against its own GET /openapi.json: real requests to every kind
 * of route, success and failure, and each answer's status must be documented for its
 * operation, the headers it marks required (X-Request-Id, the 401 challenge) must
 * come, and its body must match the documented schema (problem documents included;
 * test/helpers/openapi.ts). Also GET /docs: the page, its files and its
 * Content-Security-Policy.
 */
import { createECDH, randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { CONSOLE_CSP } from "../../services/api-gateway/console";
import { DOCS_CSP } from "../../services/api-gateway/docs";
import { DocumentedAnswers } from "../helpers/openapi";
import { http, newUser, startPlatform, type HttpResult, type Platform } from "../helpers/platform";
import { verifiedUser } from "../helpers/senders";

const ADMIN = { BOOTSTRAP_ADMIN_EMAIL: "admin@example.com", BOOTSTRAP_ADMIN_PASSWORD: "Admin-Passw0rd" };

let p: Platform;
let answers: DocumentedAnswers;

async function call(method: string, template: string, url: string, opts: Parameters<typeof http>[3] = {}): Promise<HttpResult> {
	const res = await http(p.baseUrl, method, url, opts);
	answers.conforms(method, template, res);
	return res;
}

beforeAll(async () => {
	// Webhook endpoints on loopback for the create/list/delete requests (nothing is delivered).
	p = await startPlatform({ ...ADMIN, WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
	answers = await DocumentedAnswers.load(p.baseUrl);
});
afterAll(() => p.stop());

describe("answers of the running platform against its OpenAPI document", () => {
	it("should document every answer of the account and token routes", async () => {
		const user = newUser();
		await call("POST", "/auth/register", "/auth/register", { json: user });
		await call("POST", "/auth/register", "/auth/register", { json: user });
		await call("POST", "/auth/register", "/auth/register", { json: { email: "nope" } });
		await call("POST", "/auth/register", "/auth/register", { body: "{", headers: { "content-type": "application/json" } });
		await call("POST", "/auth/register", "/auth/register", { body: "x", headers: { "content-type": "text/plain" } });
		const login = await call("POST", "/auth/login", "/auth/login", { json: { username: user.email, password: user.password } });
		expect(login.status).toBe(200);
		await call("POST", "/auth/login", "/auth/login", { json: { username: user.email, password: "Wrong-Passw0rd" } });
		const refreshed = await call("POST", "/auth/tokens/refresh", "/auth/tokens/refresh", { json: { refreshToken: login.body.refreshToken } });
		expect(refreshed.status).toBe(200);
		await call("POST", "/auth/refresh-user-token", "/auth/refresh-user-token", { json: { refreshToken: "not-a-token" } });
		await call("POST", "/auth/tokens/exchange", "/auth/tokens/exchange", { json: { token: "not-a-token" } });
		await call("GET", "/auth/social/login", "/auth/social/login");
		const callback = await call("GET", "/auth/social/login/callback", "/auth/social/login/callback?error=access_denied");
		expect(callback.status).toBe(302);
		await call("GET", "/.well-known/jwks.json", "/.well-known/jwks.json");
		await call("GET", "/health/live", "/health/live");
		await call("GET", "/health/ready", "/health/ready");
	});

	it("should document every answer of the actor, template, notification, feature, resume and webhook routes", async () => {
		// A user sends to its own verified address (to another, 403).
		const { token, actorId, email } = await verifiedUser(p);
		const missing = "0190a0a0-0000-7000-8000-000000000000";
		await call("GET", "/actors/{id}", `/actors/${actorId}`, { token });
		await call("GET", "/actors/{id}", `/actors/${missing}`, { token });
		await call("GET", "/actors/{id}", `/actors/${actorId}`);
		await call("GET", "/actors/{id}", `/actors/not-a-uuid`, { token });
		await call("GET", "/actor", `/actor?actorId=${actorId}`, { token });
		const t = await call("POST", "/templates", "/templates", { token, json: { name: "hello", subject: "Hi {{name}}", text: "Hi {{name}}" } });
		expect(t.status).toBe(201);
		await call("GET", "/templates/{id}", `/templates/${t.body.templateId}`, { token });
		await call("GET", "/templates/{id}", `/templates/${missing}`, { token });
		await call("PUT", "/templates/{id}", `/templates/${t.body.templateId}`, { token, json: { name: "hello", subject: "Hello", text: "Hello" } });
		await call("POST", "/templates", "/templates", { token, json: { name: "broken", subject: "s", text: "{% if x %}" } });
		await call("GET", "/templates", "/templates", { token });
		await call("GET", "/templates/{id}/versions", `/templates/${t.body.templateId}/versions`, { token });
		await call("GET", "/templates/{id}/versions", `/templates/${missing}/versions`, { token });
		await call("POST", "/templates/{id}/versions/{version}/restore", `/templates/${t.body.templateId}/versions/1/restore`, { token });
		await call("POST", "/templates/{id}/versions/{version}/restore", `/templates/${t.body.templateId}/versions/99/restore`, { token });
		await call("POST", "/templates/{id}/preview", `/templates/${t.body.templateId}/preview`, { token, json: { variables: { name: "Ann" }, locale: "de", channel: "SMS" } });
		await call("PATCH", "/actors/{id}", `/actors/${actorId}`, { token, json: { locale: "de-AT" } });
		await call("PATCH", "/actors/{id}", `/actors/${actorId}`, { token, json: { locale: "no tag!" } });
		const n = await call("POST", "/notifications", "/notifications", { token, json: { to: email, templateId: t.body.templateId, variables: { name: "Ann" } } });
		expect(n.status).toBe(201);
		await call("POST", "/notifications", "/notifications", { token, json: { to: email, channel: "FAX" } });
		const refused = await call("POST", "/notifications", "/notifications", { token, json: { to: "someone-else@example.com", templateId: t.body.templateId, variables: { name: "Ann" } } });
		expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: "RECIPIENT_NOT_ALLOWED" });
		await call("GET", "/notifications/{notificationId}", `/notifications/${n.body.notificationId}`, { token });
		await call("GET", "/notifications/{notificationId}", `/notifications/${missing}`, { token });
		await call("GET", "/admin/features", "/admin/features", { token });
		await call("GET", "/admin/features/{featureName}", "/admin/features/none", { token });
		await call("PUT", "/admin/features/{featureName}", "/admin/features/none", { token, json: { enabled: true } });
		await call("POST", "/resumes", "/resumes", { token, json: {} });
		await call("GET", "/resumes/{id}", `/resumes/${missing}`, { token });
		await call("GET", "/resumes/{id}/content", `/resumes/${missing}/content`, { token });
		await call("POST", "/notifications/webhooks/email-provider", "/notifications/webhooks/email-provider", { body: "{}", headers: { "content-type": "text/plain" } });
		await call("POST", "/notifications/webhooks/email-provider", "/notifications/webhooks/email-provider", { body: "{", headers: { "content-type": "application/json" } });
		const admin = await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.BOOTSTRAP_ADMIN_EMAIL, password: ADMIN.BOOTSTRAP_ADMIN_PASSWORD } });
		await call("PUT", "/admin/features/{featureName}", "/admin/features/probe", { token: admin.body.accessToken, json: { enabled: true } });
		await call("GET", "/admin/features/{featureName}", "/admin/features/probe", { token: admin.body.accessToken });
		await call("GET", "/admin/features", "/admin/features", { token: admin.body.accessToken });
	});

	it("should document every answer of the account lifecycle, service account, issuer and key routes", async () => {
		const user = newUser();
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: user });
		expect(reg.status).toBe(201);
		let token = reg.body.accessToken as string;
		expect((await call("POST", "/auth/email/verification", "/auth/email/verification", { token })).status).toBe(202);
		expect((await call("POST", "/auth/email/verify", "/auth/email/verify", { json: { token: "A".repeat(43) } })).status).toBe(401);
		expect((await call("POST", "/auth/password/forgot", "/auth/password/forgot", { json: { email: user.email } })).status).toBe(202);
		expect((await call("POST", "/auth/password/reset", "/auth/password/reset", { json: { token: "A".repeat(43), password: "Other-Horse-9" } })).status).toBe(401);
		const change = await call("POST", "/auth/password/change", "/auth/password/change", { token, json: { currentPassword: "Wrong-Horse-9", newPassword: "Other-Horse-9" } });
		expect(change.status).toBe(401);
		expect((await call("POST", "/auth/password/change", "/auth/password/change", { token, json: { currentPassword: user.password, newPassword: "Other-Horse-9" } })).status).toBe(204);
		// Signing out ends the session of `token` too (its access token is refused from then on): sign-out everywhere from another.
		user.password = "Other-Horse-9";
		const signIn = () => http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } });
		const second = (await signIn()).body.accessToken as string;
		expect((await call("POST", "/auth/logout", "/auth/logout", { json: { refreshToken: reg.body.refreshToken } })).status).toBe(204);
		expect((await call("POST", "/auth/logout/all", "/auth/logout/all", { token: second })).status).toBe(204);
		token = (await signIn()).body.accessToken as string;

		const admin = await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.BOOTSTRAP_ADMIN_EMAIL, password: ADMIN.BOOTSTRAP_ADMIN_PASSWORD } });
		const adminToken = admin.body.accessToken as string;
		const serviceId = `probe-${Date.now().toString(36)}`;
		const created = await call("POST", "/admin/service-accounts", "/admin/service-accounts", { token: adminToken, json: { serviceId } });
		expect(created.status).toBe(201);
		expect((await call("POST", "/admin/service-accounts", "/admin/service-accounts", { token: adminToken, json: { serviceId } })).status).toBe(409);
		expect((await call("POST", "/admin/service-accounts", "/admin/service-accounts", { token, json: { serviceId: "other" } })).status).toBe(403);
		expect((await call("GET", "/admin/service-accounts", "/admin/service-accounts", { token: adminToken })).status).toBe(200);
		const service = await call("POST", "/auth/services/token", "/auth/services/token", { json: { username: created.body.username, password: created.body.password } });
		expect(service.status).toBe(200);
		expect((await call("POST", "/auth/services/token", "/auth/services/token", { json: { username: created.body.username, password: "wrong" } })).status).toBe(401);
		expect((await call("DELETE", "/admin/service-accounts/{serviceId}", `/admin/service-accounts/${serviceId}`, { token: adminToken })).status).toBe(204);
		expect((await call("DELETE", "/admin/service-accounts/{serviceId}", `/admin/service-accounts/${serviceId}`, { token: adminToken })).status).toBe(404);

		expect((await call("GET", "/idp/{pool}/.well-known/openid-configuration", "/idp/actors/.well-known/openid-configuration")).status).toBe(200);
		expect((await call("GET", "/idp/{pool}/.well-known/jwks.json", "/idp/services/.well-known/jwks.json")).status).toBe(200);
		expect((await call("GET", "/idp/{pool}/.well-known/jwks.json", "/idp/nobody/.well-known/jwks.json")).status).toBe(400);
		expect((await call("POST", "/admin/keys/rotate", "/admin/keys/rotate", { token: adminToken })).status).toBe(201);

		const actorId = reg.body.actorId as string;
		const missing = "0190a0a0-0000-7000-8000-000000000000";
		const users = await call("GET", "/admin/users", `/admin/users?query=${encodeURIComponent(user.email)}`, { token: adminToken });
		expect(users.body.items).toEqual([expect.objectContaining({ actorId, locked: false })]);
		expect((await call("GET", "/admin/users", "/admin/users?cursor=%21", { token: adminToken })).status).toBe(400);
		expect((await call("GET", "/admin/users", "/admin/users", { token })).status).toBe(403);
		expect((await call("POST", "/admin/users/{actorId}/lock", `/admin/users/${actorId}/lock`, { token: adminToken })).status).toBe(204);
		expect((await call("POST", "/admin/users/{actorId}/lock", `/admin/users/${missing}/lock`, { token: adminToken })).status).toBe(404);
		expect((await call("GET", "/admin/users/{actorId}", `/admin/users/${actorId}`, { token: adminToken })).body).toMatchObject({ locked: true, emailVerified: false });
		expect((await call("GET", "/admin/users/{actorId}", `/admin/users/${missing}`, { token: adminToken })).status).toBe(404);
		expect((await call("POST", "/admin/users/{actorId}/unlock", `/admin/users/${actorId}/unlock`, { token: adminToken })).status).toBe(204);
		expect((await call("POST", "/admin/users/{actorId}/unlock", `/admin/users/not-a-uuid/unlock`, { token: adminToken })).status).toBe(400);

		// The lock ended every session (its access tokens too): sign in again.
		const again = await signIn();
		expect(again.status).toBe(200);
		const fresh = again.body.accessToken as string;
		expect((await call("GET", "/auth/me", "/auth/me", { token })).status).toBe(401);
		expect((await call("GET", "/auth/me", "/auth/me", { token: fresh })).body).toMatchObject({ actorId, emailVerified: false, emailDeliverable: true, factors: [] });
		const sessions = await call("GET", "/auth/sessions", "/auth/sessions", { token: fresh });
		expect(sessions.body.items).toEqual([expect.objectContaining({ current: true })]);
		expect((await call("GET", "/auth/sessions", "/auth/sessions", { token: service.body.idToken })).status).toBe(403);
		expect((await call("DELETE", "/auth/sessions/{sessionId}", "/auth/sessions/no-such-session", { token: fresh })).status).toBe(404);
		const other = await signIn();
		const otherSid = (await http(p.baseUrl, "GET", "/auth/sessions", { token: other.body.accessToken })).body.items.find((s: { current: boolean }) => s.current).sessionId;
		expect((await call("DELETE", "/auth/sessions/{sessionId}", `/auth/sessions/${otherSid}`, { token: fresh })).status).toBe(204);
		const third = await signIn();
		expect((await call("DELETE", "/auth/sessions", "/auth/sessions", { token: fresh })).status).toBe(204);
		expect((await call("GET", "/auth/sessions", "/auth/sessions", { token: third.body.accessToken })).status).toBe(401);
		expect((await call("DELETE", "/auth/sessions", "/auth/sessions", { token: service.body.idToken })).status).toBe(403);
		expect((await call("DELETE", "/admin/users/{actorId}/sessions", `/admin/users/${missing}/sessions`, { token: adminToken })).status).toBe(404);
		expect((await call("DELETE", "/admin/users/{actorId}/sessions", `/admin/users/${actorId}/sessions`, { token: fresh })).status).toBe(403);
		const relogin = await signIn();
		expect((await call("DELETE", "/admin/users/{actorId}/sessions", `/admin/users/${actorId}/sessions`, { token: adminToken })).status).toBe(204);
		expect((await call("GET", "/auth/sessions", "/auth/sessions", { token: relogin.body.accessToken })).status).toBe(401);
		const last = await signIn();
		const userToken = last.body.accessToken as string;

		const own = await call("GET", "/auth/audit", "/auth/audit", { token: userToken });
		expect(own.status).toBe(200);
		expect(own.body.items.length).toBeGreaterThan(0);
		expect((await call("GET", "/auth/audit", "/auth/audit?cursor=nope", { token: userToken })).status).toBe(400);
		const search = await call("GET", "/admin/audit", `/admin/audit?actorId=${actorId}&type=auth.locked`, { token: adminToken });
		expect(search.body.items).toEqual([expect.objectContaining({ actorId, type: "auth.locked" })]);
		expect((await call("GET", "/admin/audit", "/admin/audit?type=auth.nothing", { token: adminToken })).status).toBe(400);
		expect((await call("GET", "/admin/audit", "/admin/audit", { token: userToken })).status).toBe(403);
		const notMe = await call("POST", "/auth/security/not-me", "/auth/security/not-me", { json: { token: "A".repeat(43) } });
		expect(notMe).toMatchObject({ status: 401, body: { code: "INVALID_SECURITY_TOKEN" } });
	});

	it("should document every answer of the listing, cancel, live, push, webhook endpoint, preference and unsubscribe routes", async () => {
		// Lists and cancels what it sent itself, to its own verified address.
		const { token, actorId, email } = await verifiedUser(p);
		const missing = "0190a0a0-0000-7000-8000-000000000000";
		const t = await http(p.baseUrl, "POST", "/templates", { token, json: { name: "later", subject: "Later", text: "Later" } });
		const sendAt = new Date(Date.now() + 3_600_000).toISOString();
		const n = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: email, templateId: t.body.templateId, sendAt } });
		expect(n.status).toBe(201);
		const page = await call("GET", "/notifications", "/notifications?limit=5", { token });
		expect(page.body.items.map((i: { notificationId: string }) => i.notificationId)).toContain(n.body.notificationId);
		expect((await call("GET", "/notifications", "/notifications?cursor=bogus", { token })).status).toBe(400);
		expect((await call("GET", "/notifications/{notificationId}/events", `/notifications/${n.body.notificationId}/events`, { token })).status).toBe(200);
		expect((await call("GET", "/notifications/{notificationId}/events", `/notifications/${missing}/events`, { token })).status).toBe(404);
		const cancelled = await call("DELETE", "/notifications/{notificationId}", `/notifications/${n.body.notificationId}`, { token });
		expect(cancelled.body.status).toBe("CANCELLED");
		expect((await call("DELETE", "/notifications/{notificationId}", `/notifications/${n.body.notificationId}`, { token })).status).toBe(409);

		expect((await call("GET", "/notifications/push/vapid-public-key", "/notifications/push/vapid-public-key")).status).toBe(200);
		const keys = { p256dh: createECDH("prime256v1").generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") };
		// Registration resolves the endpoint's name, and nothing resolves public names here: a public address literal.
		const sub = await call("POST", "/actors/{id}/push-subscriptions", `/actors/${actorId}/push-subscriptions`, { token, json: { endpoint: "https://1.1.1.1/send/1", keys } });
		expect(sub.status).toBe(201);
		expect((await call("POST", "/actors/{id}/push-subscriptions", `/actors/${actorId}/push-subscriptions`, { token, json: { endpoint: "ftp://x", keys } })).status).toBe(400);
		expect((await call("GET", "/actors/{id}/push-subscriptions", `/actors/${actorId}/push-subscriptions`, { token })).status).toBe(200);
		expect((await call("GET", "/actors/{id}/push-subscriptions", `/actors/${missing}/push-subscriptions`, { token })).status).toBe(403);
		const subUrl = `/actors/${actorId}/push-subscriptions/${sub.body.subscriptionId}`;
		expect((await call("DELETE", "/actors/{id}/push-subscriptions/{subscriptionId}", subUrl, { token })).status).toBe(204);
		expect((await call("DELETE", "/actors/{id}/push-subscriptions/{subscriptionId}", subUrl, { token })).status).toBe(404);

		const endpoint = await call("POST", "/webhook-endpoints", "/webhook-endpoints", { token, json: { url: "http://127.0.0.1:9/hook", events: ["notification.sent"] } });
		expect(endpoint.status).toBe(201);
		expect((await call("POST", "/webhook-endpoints", "/webhook-endpoints", { token, json: { url: "not a url" } })).status).toBe(400);
		expect((await call("GET", "/webhook-endpoints", "/webhook-endpoints", { token })).status).toBe(200);
		expect((await call("DELETE", "/webhook-endpoints/{endpointId}", `/webhook-endpoints/${endpoint.body.endpointId}`, { token })).status).toBe(204);
		expect((await call("DELETE", "/webhook-endpoints/{endpointId}", `/webhook-endpoints/${endpoint.body.endpointId}`, { token })).status).toBe(404);

		expect((await call("GET", "/actors/{id}/preferences", `/actors/${actorId}/preferences`, { token })).status).toBe(200);
		const items = [{ channel: "EMAIL", category: "marketing", enabled: false }];
		expect((await call("PUT", "/actors/{id}/preferences", `/actors/${actorId}/preferences`, { token, json: { items } })).status).toBe(200);
		expect((await call("PUT", "/actors/{id}/preferences", `/actors/${missing}/preferences`, { token, json: { items } })).status).toBe(403);

		const admin = await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.BOOTSTRAP_ADMIN_EMAIL, password: ADMIN.BOOTSTRAP_ADMIN_PASSWORD } });
		const adminToken = admin.body.accessToken as string;
		expect((await call("GET", "/admin/suppressions", "/admin/suppressions?address=nobody@example.com", { token: adminToken })).status).toBe(200);
		expect((await call("GET", "/admin/suppressions", "/admin/suppressions", { token })).status).toBe(403);
		expect((await call("DELETE", "/admin/suppressions/{channel}/{address}", "/admin/suppressions/EMAIL/nobody@example.com", { token: adminToken })).status).toBe(404);
		expect((await call("GET", "/admin/unsubscribes", "/admin/unsubscribes?address=nobody@example.com", { token: adminToken })).status).toBe(200);
		expect((await call("GET", "/admin/unsubscribes", "/admin/unsubscribes", { token })).status).toBe(403);
		expect((await call("DELETE", "/admin/unsubscribes/{channel}/{address}/{category}", "/admin/unsubscribes/EMAIL/nobody@example.com/digest", { token: adminToken })).status).toBe(404);
		expect((await call("DELETE", "/admin/unsubscribes/{channel}/{address}/{category}", "/admin/unsubscribes/FAX/nobody@example.com/digest", { token: adminToken })).status).toBe(400);
		expect((await call("GET", "/admin/stats", "/admin/stats", { token: adminToken })).status).toBe(200);
		expect((await call("GET", "/admin/stats", "/admin/stats", { token })).status).toBe(403);
		const providers = await call("GET", "/admin/providers", "/admin/providers", { token: adminToken });
		expect(providers.status).toBe(200);
		expect(providers.body.items.map((i: { channel: string; name: string; state: string }) => `${i.channel} ${i.name} ${i.state}`)).toEqual(["EMAIL file up", "SMS file up"]);
		expect((await call("GET", "/admin/providers", "/admin/providers", { token })).status).toBe(403);
		expect((await call("GET", "/admin/providers", "/admin/providers")).status).toBe(401);
		expect((await call("GET", "/admin/webhook-endpoints", "/admin/webhook-endpoints", { token: adminToken })).status).toBe(200);
		expect((await call("GET", "/admin/webhook-endpoints", "/admin/webhook-endpoints", { token })).status).toBe(403);
		// The users registered above were mailed: the dev inbox has something to show.
		const outbox = await call("GET", "/admin/outbox", "/admin/outbox", { token: adminToken });
		expect(outbox.status).toBe(200);
		expect(outbox.body.items.length).toBeGreaterThan(0);
		expect((await call("GET", "/admin/outbox", "/admin/outbox?cursor=bm9wZQ", { token: adminToken })).status).toBe(400);
		expect((await call("GET", "/admin/outbox", "/admin/outbox", { token })).status).toBe(403);
		expect((await call("GET", "/admin/outbox/{id}", `/admin/outbox/${outbox.body.items[0].id}`, { token: adminToken })).status).toBe(200);
		expect((await call("GET", "/admin/outbox/{id}", `/admin/outbox/email.${missing}.${missing}`, { token: adminToken })).status).toBe(404);
		expect((await call("GET", "/admin/outbox/{id}", "/admin/outbox/email.x%2Fy", { token: adminToken })).status).toBe(400);

		expect((await call("GET", "/unsubscribe/{token}", "/unsubscribe/not-a-token")).status).toBe(400);
		const oneClick = { body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } };
		expect((await call("POST", "/unsubscribe/{token}", "/unsubscribe/not-a-token", oneClick)).status).toBe(400);
		expect((await call("POST", "/unsubscribe/{token}", "/unsubscribe/not-a-token", { body: "{}", headers: { "content-type": "application/json" } })).status).toBe(415);
		expect((await call("POST", "/notifications/webhooks/sms-provider", "/notifications/webhooks/sms-provider", { body: "{}", headers: { "content-type": "text/plain" } })).status).toBe(400);
	});

	it("should document every answer of the inbox routes", async () => {
		const { token, actorId } = await verifiedUser(p);
		const other = await verifiedUser(p);
		const missing = "0190a0a0-0000-7000-8000-000000000000";
		const n = await http(p.baseUrl, "POST", "/notifications", { token, json: { channel: "IN_APP", to: actorId, template: { subject: "Hi", text: "Hello" }, data: { a: 1 } } });
		expect(n.status).toBe(201);
		const base = `/actors/${actorId}/inbox`;
		const deadline = Date.now() + 10000;
		let page: HttpResult;
		while ((page = await call("GET", "/actors/{id}/inbox", `${base}?limit=1`, { token })).body.items.length === 0 && Date.now() < deadline) await new Promise(r => setTimeout(r, 25));
		expect(page.body.items).toHaveLength(1);
		expect((await call("GET", "/actors/{id}/inbox", `${base}?state=bogus`, { token })).status).toBe(400);
		expect((await call("GET", "/actors/{id}/inbox", base, { token: other.token })).status).toBe(403);
		expect((await call("GET", "/actors/{id}/inbox/count", `${base}/count`, { token })).body).toEqual({ unread: 1, unseen: 1 });
		expect((await call("GET", "/actors/{id}/inbox/count", `${base}/count`, { token: other.token })).status).toBe(403);
		expect((await call("PATCH", "/actors/{id}/inbox/{notificationId}", `${base}/${n.body.notificationId}`, { token, json: { read: true } })).status).toBe(200);
		expect((await call("PATCH", "/actors/{id}/inbox/{notificationId}", `${base}/${missing}`, { token, json: { read: true } })).status).toBe(404);
		expect((await call("PATCH", "/actors/{id}/inbox/{notificationId}", `${base}/${n.body.notificationId}`, { token, json: { read: 1 } })).status).toBe(400);
		expect((await call("POST", "/actors/{id}/inbox/read-all", `${base}/read-all`, { token })).status).toBe(204);
		expect((await call("POST", "/actors/{id}/inbox/read-all", `${base}/read-all`, { token: other.token })).status).toBe(403);
		expect((await call("GET", "/actors/{id}/inbox/stream", `${base}/stream`, { token })).body).toEqual({ items: [], counts: { unread: 0, unseen: 0 } });
		expect((await call("GET", "/actors/{id}/inbox/stream", `${base}/stream`, { token: other.token })).status).toBe(403);
	});

	it("should document every answer of the second-factor routes", async () => {
		const user = newUser();
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: user });
		const token = reg.body.accessToken as string;
		const started = await call("POST", "/auth/mfa/totp", "/auth/mfa/totp", { token, json: { name: "Phone" } });
		expect(started.status).toBe(201);
		const seed = new TOTP({ secret: Secret.fromBase32(started.body.secret) });
		const confirm = (code: string) => call("POST", "/auth/mfa/totp/{factorId}/confirm", `/auth/mfa/totp/${started.body.factorId}/confirm`, { token, json: { code } });
		expect((await confirm(seed.generate({ timestamp: Date.now() - 3_600_000 }))).status).toBe(401);
		expect((await confirm(seed.generate())).status).toBe(200);
		expect((await confirm(seed.generate())).status).toBe(404);
		expect((await call("GET", "/auth/mfa/factors", "/auth/mfa/factors", { token })).status).toBe(200);
		expect((await call("GET", "/auth/mfa/factors", "/auth/mfa/factors")).status).toBe(401);
		expect((await call("POST", "/auth/mfa/recovery-codes", "/auth/mfa/recovery-codes", { token })).status).toBe(201);

		const gated = await call("POST", "/auth/login", "/auth/login", { json: { username: user.email, password: user.password } });
		expect(gated.status).toBe(403);
		const mfaToken = gated.body.mfaToken as string;
		expect((await call("POST", "/auth/mfa/challenge", "/auth/mfa/challenge", { json: { mfaToken, type: "sms" } })).status).toBe(400);
		expect((await call("POST", "/auth/mfa/challenge", "/auth/mfa/challenge", { json: { mfaToken: "A".repeat(43), type: "sms" } })).status).toBe(401);
		expect((await call("POST", "/auth/mfa/verify", "/auth/mfa/verify", { json: { mfaToken, type: "totp", code: seed.generate({ timestamp: Date.now() - 3_600_000 }) } })).status).toBe(401);
		expect((await call("POST", "/auth/mfa/verify", "/auth/mfa/verify", { json: { mfaToken, type: "totp" } })).status).toBe(400);
		const verified = await call("POST", "/auth/mfa/verify", "/auth/mfa/verify", { json: { mfaToken, type: "totp", code: seed.generate({ timestamp: Date.now() + 30_000 }) } });
		expect(verified.status).toBe(200);

		expect((await call("DELETE", "/auth/mfa/factors/{factorId}", `/auth/mfa/factors/${reg.body.actorId}`, { token })).status).toBe(404);
		expect((await call("DELETE", "/auth/mfa/factors/{factorId}", `/auth/mfa/factors/${started.body.factorId}`, { token })).status).toBe(204);
		const admin = await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.BOOTSTRAP_ADMIN_EMAIL, password: ADMIN.BOOTSTRAP_ADMIN_PASSWORD } });
		expect((await call("DELETE", "/admin/users/{actorId}/mfa", `/admin/users/${reg.body.actorId}/mfa`, { token: admin.body.accessToken })).status).toBe(204);
		expect((await call("DELETE", "/admin/users/{actorId}/mfa", `/admin/users/${reg.body.actorId}/mfa`, { token })).status).toBe(403);
	});

	it("should document every answer of the passkey routes that needs no authenticator", async () => {
		const user = newUser();
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: user });
		const token = reg.body.accessToken as string;
		// Real ceremonies: test/integration/browser-passkeys.test.ts.
		expect((await call("POST", "/auth/passkeys/registration/options", "/auth/passkeys/registration/options", { token })).status).toBe(200);
		expect((await call("POST", "/auth/passkeys/registration/options", "/auth/passkeys/registration/options")).status).toBe(401);
		expect((await call("POST", "/auth/passkeys/registration", "/auth/passkeys/registration", { token, json: { response: { id: "x" } } })).status).toBe(400);
		const options = await call("POST", "/auth/passkeys/authentication/options", "/auth/passkeys/authentication/options", { json: { username: user.email } });
		expect(options.status).toBe(200);
		const assertion = { id: "AAAA", rawId: "AAAA", type: "public-key", response: { clientDataJSON: "AAAA", authenticatorData: "AAAA", signature: "AAAA" }, clientExtensionResults: {} };
		expect((await call("POST", "/auth/passkeys/authentication", "/auth/passkeys/authentication", { json: { challengeId: options.body.challengeId, response: assertion } })).status).toBe(401);
		expect((await call("POST", "/auth/passkeys/authentication", "/auth/passkeys/authentication", { json: { challengeId: options.body.challengeId, response: {} } })).status).toBe(400);
	});

	it("should serve the reference page and its own files under a strict Content-Security-Policy", async () => {
		const page = await call("GET", "/docs", "/docs");
		expect(page.status).toBe(200);
		expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
		expect(page.headers.get("content-security-policy")).toBe(DOCS_CSP);
		expect(DOCS_CSP).toContain("script-src 'self'");
		expect(DOCS_CSP).not.toContain("unsafe");
		// Every file the page loads is served here: nothing from another origin.
		const sources = [...String(page.body).matchAll(/(?:src|href)="([^"]+)"/g)].map(m => m[1]);
		expect(sources).toEqual(["/docs/favicon-32x32.png", "/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js", "/docs/init.js"]);
		for (const src of sources) {
			const res = await call("GET", "/docs/{file}", src);
			expect(res.status).toBe(200);
		}
		const init = await http(p.baseUrl, "GET", "/docs/init.js");
		expect(init.body).toContain("validatorUrl: null");
		const other = await call("GET", "/docs/{file}", "/docs/..%2Fpackage.json");
		expect(other.status).toBe(404);
	});

	it("should serve the console and its own files under a strict Content-Security-Policy", async () => {
		const page = await call("GET", "/console", "/console");
		expect(page.status).toBe(200);
		expect(page.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
		expect(CONSOLE_CSP).not.toContain("unsafe");
		const sources = [...String(page.body).matchAll(/(?:src|href)="([^"]+)"/g)].map(m => m[1]);
		expect(sources).toEqual(["/console/favicon.svg", "/console/console.css", "/console/app.js"]);
		for (const src of [...sources, "/console/client.js"]) {
			const res = await call("GET", "/console/{file}", src);
			expect({ src, status: res.status, csp: res.headers.get("content-security-policy") }).toEqual({ src, status: 200, csp: CONSOLE_CSP });
		}
		expect((await call("GET", "/console/{file}", "/console/..%2Fpackage.json")).status).toBe(404);
	});

	it("should document every answer of the one-time code routes", async () => {
		const started = await call("POST", "/auth/otp", "/auth/otp", { json: { email: "nobody-here@example.com" } });
		expect(started.status).toBe(202);
		const id = started.body.challengeId as string;
		expect((await call("GET", "/auth/otp/{challengeId}", `/auth/otp/${id}`)).status).toBe(200);
		expect((await call("GET", "/auth/otp/{challengeId}", "/auth/otp/0b9c3a52-8a53-4c55-9d0e-2b8f7f1e4c11")).status).toBe(404);
		expect((await call("POST", "/auth/otp/verify", "/auth/otp/verify", { json: { challengeId: id, code: "000000" } })).status).toBe(401);
		expect((await call("POST", "/auth/otp/verify", "/auth/otp/verify", { json: { code: "12" } })).status).toBe(400);
		expect((await call("POST", "/auth/otp/{challengeId}/resend", `/auth/otp/${id}/resend`, { json: {} })).status).toBe(202);
		expect((await call("POST", "/auth/otp", "/auth/otp", { json: { email: "not an address" } })).status).toBe(400);
		expect((await call("POST", "/auth/otp", "/auth/otp", { json: { phone: "+14155550100" } })).status).toBe(202);
		expect((await call("POST", "/auth/otp", "/auth/otp", { json: { phone: "0415" } })).status).toBe(400);

		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		const token = reg.body.accessToken as string;
		expect((await call("PUT", "/auth/phone", "/auth/phone", { token, json: { phone: "+14155550100" } })).status).toBe(202);
		expect((await call("PUT", "/auth/phone", "/auth/phone", { token, json: { phone: "+1415" } })).status).toBe(400);
		expect((await call("POST", "/auth/phone/verify", "/auth/phone/verify", { token, json: { code: "000000" } })).status).toBe(401);
	});

	it("should serve the platform's own account pages under the console's Content-Security-Policy", async () => {
		for (const file of ["verify-email", "reset-password", "magic-link", "ui.js"]) {
			const res = await call("GET", "/ui/{page}", `/ui/${file}`);
			expect({ file, status: res.status, csp: res.headers.get("content-security-policy") }).toEqual({ file, status: 200, csp: CONSOLE_CSP });
		}
		expect((await call("GET", "/ui/{page}", "/ui/..%2Fpackage.json")).status).toBe(404);
		const callback = await call("GET", "/ui/auth/callback", "/ui/auth/callback?error=ACCESS_DENIED");
		expect({ status: callback.status, csp: callback.headers.get("content-security-policy") }).toEqual({ status: 200, csp: CONSOLE_CSP });
	});

	it("should document every answer of the account-data routes", async () => {
		const a = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		const b = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		const token = a.body.accessToken as string;
		expect((await call("POST", "/auth/email/change", "/auth/email/change", { token, json: { newEmail: `changed-${Date.now()}@example.com` } })).status).toBe(202);
		const taken = (await http(p.baseUrl, "GET", `/actors/${b.body.actorId}`, { token: b.body.accessToken })).body.email as string;
		expect((await call("POST", "/auth/email/change", "/auth/email/change", { token, json: { newEmail: taken } })).status).toBe(409);
		expect((await call("POST", "/auth/email/change", "/auth/email/change", { token, json: { newEmail: "nope" } })).status).toBe(400);
		expect((await call("GET", "/auth/account/export", "/auth/account/export", { token })).status).toBe(200);
		expect((await call("GET", "/auth/account/export", "/auth/account/export")).status).toBe(401);
		expect((await call("DELETE", "/auth/account", "/auth/account", { token })).status).toBe(202);
		// The deletion ended the account's sessions: the same token is refused before the route runs (410 comes to a second administrator's request below).
		expect((await call("DELETE", "/auth/account", "/auth/account", { token })).status).toBe(401);
		const admin = await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.BOOTSTRAP_ADMIN_EMAIL, password: ADMIN.BOOTSTRAP_ADMIN_PASSWORD } });
		const adminToken = admin.body.accessToken as string;
		expect((await call("DELETE", "/admin/users/{actorId}", `/admin/users/${b.body.actorId}`)).status).toBe(401);
		expect((await call("DELETE", "/admin/users/{actorId}", `/admin/users/${b.body.actorId}`, { token: b.body.accessToken })).status).toBe(403);
		expect((await call("DELETE", "/admin/users/{actorId}", "/admin/users/0190a0a0-0000-7000-8000-000000000000", { token: adminToken })).status).toBe(404);
		expect((await call("DELETE", "/admin/users/{actorId}", `/admin/users/${b.body.actorId}`, { token: adminToken })).status).toBe(202);
		expect((await call("DELETE", "/admin/users/{actorId}", `/admin/users/${b.body.actorId}`, { token: adminToken })).status).toBe(410);
	});

	it("should have checked an answer of every documented operation", () => {
		const all = Object.entries(answers.doc.paths).flatMap(([path, ops]) => Object.keys(ops).map(m => `${m.toUpperCase()} ${path}`));
		expect(all.filter(op => !answers.checked.has(op))).toEqual([]);
	});
});
