/**
 * Every method of the client SDK (client/src) against a fetch that stands in for the
 * gateway: what each sends (method, path with its parameters encoded, query, token or
 * none, headers, body) and what it makes of the answer (the body, nothing for 202/204,
 * a Blob, ApiError with the problem document). The fake is the point here: it shows the
 * request exactly as it leaves. test/unit/client-sdk.test.ts drives the SDK against the
 * real platform, and the types tie each method to the OpenAPI document.
 */
import { ApiError, createClient, memoryStorage, type Client, type Preferences, type TokenStorage } from "../../client/src/index";

const BASE = "http://gateway.test";
const SESSION_KEY = "auth-notify.session";
const NOW = 1_700_000_000;
const ID = "0190a5c4-1c2b-7def-8123-456789abcdef";

interface Sent {
	method: string;
	path: string;
	headers: Record<string, string>;
	body: unknown;
}

interface Answer {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
}

function json(status: number, body?: unknown, headers: Record<string, string> = {}): Answer {
	return { status, body, headers };
}

function tokens(n: number) {
	return { accessToken: `access-${n}`, idToken: `id-${n}`, refreshToken: `refresh-${n}`, expiresAt: NOW + 3600, expiresIn: 3600, tokenType: "Bearer" as const };
}

/** A client whose storage holds a valid session, and the requests it sends to a gateway that answers from `answers` in turn. */
async function setup(answers: Answer[] = [], signedIn = true) {
	const sent: Sent[] = [];
	const storage: TokenStorage = memoryStorage();
	if (signedIn) await storage.set(SESSION_KEY, JSON.stringify({ accessToken: "access-0", refreshToken: "refresh-0", expiresAt: NOW + 3600 }));
	const onAuthRequired = jest.fn();
	const fetch: typeof globalThis.fetch = async (input, init = {}) => {
		const headers = Object.fromEntries(new Headers(init.headers).entries());
		const raw = init.body;
		const body = typeof raw === "string" && headers["content-type"] === "application/json" ? JSON.parse(raw) : raw;
		sent.push({ method: init.method ?? "GET", path: String(input).slice(BASE.length), headers, body });
		const a = answers.shift() ?? json(200, {});
		const text = a.body === undefined ? null : typeof a.body === "string" ? a.body : JSON.stringify(a.body);
		const type = typeof a.body === "string" ? "text/html" : a.status >= 400 ? "application/problem+json" : "application/json";
		return new Response(text, { status: a.status, headers: { ...(text === null ? {} : { "content-type": type }), ...a.headers } });
	};
	const client = createClient({ baseUrl: `${BASE}/`, storage, fetch, onAuthRequired, locks: null, now: () => NOW });
	return { client, sent, storage, onAuthRequired };
}

interface Row {
	call: (c: Client) => Promise<unknown>;
	method: string;
	path: string;
	/** Whether the session's token goes along. */
	token: boolean;
	body?: unknown;
	headers?: Record<string, string>;
	answer: Answer;
	result: unknown;
}

const actor = { actorId: ID, email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", createdAt: "2024-01-01T00:00:00.000Z", updatedAt: "2024-01-01T00:00:00.000Z" };
const notification = { notificationId: ID, status: "CANCELLED", channel: "EMAIL", to: "ada@example.com", priority: "NORMAL", attempts: 0, createdAt: "t", updatedAt: "t", events: [] };
const template = { templateId: ID, name: "welcome", subject: "Hi {{name}}", text: "Hello" };
const prefs: Preferences = { items: [{ channel: "EMAIL", category: "marketing", enabled: false }] };
const subscription = { endpoint: "https://push.example.com/s/1", keys: { p256dh: "BP256", auth: "secret16" } };
const flag = { featureName: "notifications.low-priority", value: { paused: true }, updatedAt: "t", updatedBy: ID };

const ROWS: Record<string, Row> = {
	"auth.requestEmailVerification": { call: c => c.auth.requestEmailVerification(), method: "POST", path: "/auth/email/verification", token: true, answer: json(202), result: undefined },
	"auth.verifyEmail": { call: c => c.auth.verifyEmail("tok"), method: "POST", path: "/auth/email/verify", token: false, body: { token: "tok" }, answer: json(200, { emailVerified: true }), result: { emailVerified: true } },
	"auth.forgotPassword": { call: c => c.auth.forgotPassword("ada@example.com"), method: "POST", path: "/auth/password/forgot", token: false, body: { email: "ada@example.com" }, answer: json(202), result: undefined },
	"auth.resetPassword": { call: c => c.auth.resetPassword("tok", "New-Passw0rd"), method: "POST", path: "/auth/password/reset", token: false, body: { token: "tok", password: "New-Passw0rd" }, answer: json(204), result: undefined },
	"auth.changePassword": {
		call: c => c.auth.changePassword("Old-Passw0rd", "New-Passw0rd"),
		method: "POST",
		path: "/auth/password/change",
		token: true,
		body: { currentPassword: "Old-Passw0rd", newPassword: "New-Passw0rd" },
		answer: json(204),
		result: undefined
	},
	"actors.get": { call: c => c.actors.get(ID), method: "GET", path: `/actors/${ID}`, token: true, answer: json(200, actor), result: actor },
	"actors.find": { call: c => c.actors.find("a b&c"), method: "GET", path: "/actor?actorId=a+b%26c", token: true, answer: json(200, { items: [] }), result: { items: [] } },
	"preferences.get": { call: c => c.preferences.get(ID), method: "GET", path: `/actors/${ID}/preferences`, token: true, answer: json(200, prefs), result: prefs },
	"preferences.put": { call: c => c.preferences.put(ID, prefs.items), method: "PUT", path: `/actors/${ID}/preferences`, token: true, body: prefs, answer: json(200, prefs), result: prefs },
	"pushSubscriptions.vapidPublicKey": { call: c => c.pushSubscriptions.vapidPublicKey(), method: "GET", path: "/notifications/push/vapid-public-key", token: false, answer: json(200, { publicKey: "BKey" }), result: "BKey" },
	"pushSubscriptions.list": { call: c => c.pushSubscriptions.list(ID), method: "GET", path: `/actors/${ID}/push-subscriptions`, token: true, answer: json(200, { items: [] }), result: { items: [] } },
	"pushSubscriptions.create (a browser PushSubscription)": {
		call: c => c.pushSubscriptions.create(ID, { toJSON: () => ({ ...subscription, expirationTime: null }) }),
		method: "POST",
		path: `/actors/${ID}/push-subscriptions`,
		token: true,
		body: { ...subscription, expirationTime: null },
		answer: json(201, { subscriptionId: ID, endpoint: subscription.endpoint, createdAt: "t" }),
		result: { subscriptionId: ID, endpoint: subscription.endpoint, createdAt: "t" }
	},
	"pushSubscriptions.create (its JSON)": { call: c => c.pushSubscriptions.create(ID, subscription), method: "POST", path: `/actors/${ID}/push-subscriptions`, token: true, body: subscription, answer: json(201, {}), result: {} },
	"pushSubscriptions.delete": { call: c => c.pushSubscriptions.delete(ID, "s/1"), method: "DELETE", path: `/actors/${ID}/push-subscriptions/s%2F1`, token: true, answer: json(204), result: undefined },
	"inbox.list": {
		call: c => c.inbox.list(ID, { state: "unread", cursor: "019a0000-0000-7000-8000-000000000000", limit: 5 }),
		method: "GET",
		path: `/actors/${ID}/inbox?state=unread&cursor=019a0000-0000-7000-8000-000000000000&limit=5`,
		token: true,
		answer: json(200, { items: [] }),
		result: { items: [] }
	},
	"inbox.count": { call: c => c.inbox.count(ID), method: "GET", path: `/actors/${ID}/inbox/count`, token: true, answer: json(200, { unread: 2, unseen: 1 }), result: { unread: 2, unseen: 1 } },
	"inbox.mark": {
		call: c => c.inbox.mark(ID, ID, { read: true, archived: false }),
		method: "PATCH",
		path: `/actors/${ID}/inbox/${ID}`,
		token: true,
		body: { read: true, archived: false },
		answer: json(200, { notificationId: ID }),
		result: { notificationId: ID }
	},
	"inbox.readAll": { call: c => c.inbox.readAll(ID), method: "POST", path: `/actors/${ID}/inbox/read-all`, token: true, answer: json(204), result: undefined },
	"notifications.send": {
		call: c => c.notifications.send({ to: "ada@example.com", templateId: ID, variables: { name: "Ada", lines: [1, { a: null }] } }, { idempotencyKey: "order-7" }),
		method: "POST",
		path: "/notifications",
		token: true,
		headers: { "idempotency-key": "order-7", "content-type": "application/json" },
		body: { to: "ada@example.com", templateId: ID, variables: { name: "Ada", lines: [1, { a: null }] } },
		answer: json(201, { notificationId: ID, status: "QUEUED" }, { location: `/notifications/${ID}` }),
		result: { notificationId: ID, status: "QUEUED" }
	},
	"notifications.get": { call: c => c.notifications.get(ID), method: "GET", path: `/notifications/${ID}`, token: true, answer: json(200, notification), result: notification },
	"notifications.list": {
		call: c => c.notifications.list({ status: "SENT", to: "ada+x@example.com", limit: 20, cursor: "c1" }),
		method: "GET",
		path: "/notifications?status=SENT&to=ada%2Bx%40example.com&limit=20&cursor=c1",
		token: true,
		answer: json(200, { items: [], nextCursor: "c2" }),
		result: { items: [], nextCursor: "c2" }
	},
	"notifications.list (no filters)": { call: c => c.notifications.list(), method: "GET", path: "/notifications", token: true, answer: json(200, { items: [] }), result: { items: [] } },
	"notifications.cancel": { call: c => c.notifications.cancel(ID), method: "DELETE", path: `/notifications/${ID}`, token: true, answer: json(200, notification), result: notification },
	"notifications.timeline": {
		call: c => c.notifications.timeline(ID, "3"),
		method: "GET",
		path: `/notifications/${ID}/events?after=3`,
		token: true,
		headers: { accept: "application/json" },
		answer: json(200, { notificationId: ID, status: "SENT", items: [] }),
		result: { notificationId: ID, status: "SENT", items: [] }
	},
	"templates.create": { call: c => c.templates.create({ name: "welcome", subject: "Hi {{name}}", text: "Hello" }), method: "POST", path: "/templates", token: true, body: { name: "welcome", subject: "Hi {{name}}", text: "Hello" }, answer: json(201, template), result: template },
	"templates.get": { call: c => c.templates.get(ID), method: "GET", path: `/templates/${ID}`, token: true, answer: json(200, template), result: template },
	"templates.update": { call: c => c.templates.update(ID, { name: "welcome", subject: "Hello" }), method: "PUT", path: `/templates/${ID}`, token: true, body: { name: "welcome", subject: "Hello" }, answer: json(200, template), result: template },
	"webhookEndpoints.create": {
		call: c => c.webhookEndpoints.create({ url: "https://hooks.example.com/an", events: ["notification.sent"] }),
		method: "POST",
		path: "/webhook-endpoints",
		token: true,
		body: { url: "https://hooks.example.com/an", events: ["notification.sent"] },
		answer: json(201, { endpointId: ID, secret: "whsec_x" }),
		result: { endpointId: ID, secret: "whsec_x" }
	},
	"webhookEndpoints.list": { call: c => c.webhookEndpoints.list(), method: "GET", path: "/webhook-endpoints", token: true, answer: json(200, { items: [] }), result: { items: [] } },
	"webhookEndpoints.delete": { call: c => c.webhookEndpoints.delete(ID), method: "DELETE", path: `/webhook-endpoints/${ID}`, token: true, answer: json(204), result: undefined },
	"resumes.get": { call: c => c.resumes.get(ID), method: "GET", path: `/resumes/${ID}`, token: true, answer: json(200, { documentId: ID }), result: { documentId: ID } },
	"admin.features.list": { call: c => c.admin.features.list(), method: "GET", path: "/admin/features", token: true, answer: json(200, { items: [flag] }), result: { items: [flag] } },
	"admin.features.get": { call: c => c.admin.features.get(flag.featureName), method: "GET", path: `/admin/features/${flag.featureName}`, token: true, answer: json(200, flag), result: flag },
	"admin.features.set": { call: c => c.admin.features.set(flag.featureName, { paused: true }), method: "PUT", path: `/admin/features/${flag.featureName}`, token: true, body: { paused: true }, answer: json(200, flag), result: flag },
	"admin.suppressions.list": { call: c => c.admin.suppressions.list({ address: "ada@example.com" }), method: "GET", path: "/admin/suppressions?address=ada%40example.com", token: true, answer: json(200, { items: [] }), result: { items: [] } },
	"admin.suppressions.delete": { call: c => c.admin.suppressions.delete("SMS", "+14155550100"), method: "DELETE", path: "/admin/suppressions/SMS/%2B14155550100", token: true, answer: json(204), result: undefined },
	"admin.unsubscribes.list": { call: c => c.admin.unsubscribes.list(), method: "GET", path: "/admin/unsubscribes", token: true, answer: json(200, { items: [] }), result: { items: [] } },
	"admin.unsubscribes.delete": {
		call: c => c.admin.unsubscribes.delete("EMAIL", "ada@example.com", "*"),
		method: "DELETE",
		path: "/admin/unsubscribes/EMAIL/ada%40example.com/*",
		token: true,
		answer: json(204),
		result: undefined
	},
	"admin.serviceAccounts.create": {
		call: c => c.admin.serviceAccounts.create("billing"),
		method: "POST",
		path: "/admin/service-accounts",
		token: true,
		body: { serviceId: "billing" },
		answer: json(201, { serviceId: "billing", username: "service-billing", password: "pw", createdAt: "t" }),
		result: { serviceId: "billing", username: "service-billing", password: "pw", createdAt: "t" }
	},
	"admin.serviceAccounts.list": { call: c => c.admin.serviceAccounts.list(), method: "GET", path: "/admin/service-accounts", token: true, answer: json(200, { items: [] }), result: { items: [] } },
	"admin.serviceAccounts.delete": { call: c => c.admin.serviceAccounts.delete("billing"), method: "DELETE", path: "/admin/service-accounts/billing", token: true, answer: json(204), result: undefined },
	"sessions.list": {
		call: c => c.sessions.list(),
		method: "GET",
		path: "/auth/sessions",
		token: true,
		answer: json(200, { items: [{ sessionId: "s1", createdAt: "t", lastUsedAt: "t", userAgent: "UA", ip: "203.0.113.7", amr: ["pwd"], current: true }] }),
		result: { items: [{ sessionId: "s1", createdAt: "t", lastUsedAt: "t", userAgent: "UA", ip: "203.0.113.7", amr: ["pwd"], current: true }] }
	},
	"sessions.revoke": { call: c => c.sessions.revoke("s/1"), method: "DELETE", path: "/auth/sessions/s%2F1", token: true, answer: json(204), result: undefined },
	me: {
		call: c => c.me(),
		method: "GET",
		path: "/auth/me",
		token: true,
		answer: json(200, { actorId: ID, email: "ada@example.com", emailVerified: true, phoneVerified: false, emailDeliverable: true, factors: [], createdAt: "t" }),
		result: { actorId: ID, email: "ada@example.com", emailVerified: true, phoneVerified: false, emailDeliverable: true, factors: [], createdAt: "t" }
	},
	"admin.keys.rotate": { call: c => c.admin.keys.rotate(), method: "POST", path: "/admin/keys/rotate", token: true, answer: json(201, { kid: "k2" }), result: { kid: "k2" } },
	"admin.stats": { call: c => c.admin.stats(), method: "GET", path: "/admin/stats", token: true, answer: json(200, { at: "t" }), result: { at: "t" } },
	"admin.providers": {
		call: c => c.admin.providers(),
		method: "GET",
		path: "/admin/providers",
		token: true,
		answer: json(200, { items: [{ channel: "EMAIL", name: "ses", state: "up", consecutiveFailures: 0, since: "t" }] }),
		result: { items: [{ channel: "EMAIL", name: "ses", state: "up", consecutiveFailures: 0, since: "t" }] }
	},
	"admin.webhookEndpoints.list": { call: c => c.admin.webhookEndpoints.list(), method: "GET", path: "/admin/webhook-endpoints", token: true, answer: json(200, { items: [] }), result: { items: [] } },
	"request (any operation, parameters encoded)": {
		call: c => c.request("get", "/templates/{id}", { path: { id: "a/b?c" } }),
		method: "GET",
		path: "/templates/a%2Fb%3Fc",
		token: true,
		answer: json(200, template),
		result: template
	}
};

describe("@auth-notify/client methods", () => {
	it.each(Object.entries(ROWS))("should send %s as the route expects and return its answer", async (_name, row) => {
		const { client, sent } = await setup([row.answer]);
		await expect(row.call(client)).resolves.toEqual(row.result);
		expect(sent).toHaveLength(1);
		const [req] = sent;
		expect({ method: req.method, path: req.path, body: req.body }).toEqual({ method: row.method, path: row.path, body: row.body });
		expect(req.headers.authorization).toBe(row.token ? "Bearer access-0" : undefined);
		expect(req.headers).toMatchObject(row.headers ?? {});
		if (row.body === undefined) expect(req.headers["content-type"]).toBeUndefined();
	});

	it("should answer a problem document as ApiError with its status, code, field errors and Retry-After", async () => {
		const problem = { type: "urn:auth-notify:problem:invalid-password", title: "Unprocessable", status: 422, detail: "The password is too weak.", code: "INVALID_PASSWORD", requestId: "r1", errors: [{ field: "newPassword", message: "too short" }] };
		const { client } = await setup([json(422, problem), json(429, { ...problem, status: 429, code: "RATE_LIMITED" }, { "retry-after": "7" })]);
		const err = await client.auth.changePassword("a", "b").catch((e: unknown) => e);
		expect(err).toBeInstanceOf(ApiError);
		expect(err).toMatchObject({ name: "ApiError", status: 422, code: "INVALID_PASSWORD", message: "The password is too weak.", problem, retryAfter: undefined });
		await expect(client.auth.forgotPassword("ada@example.com")).rejects.toMatchObject({ status: 429, code: "RATE_LIMITED", retryAfter: 7 });
	});

	it("should answer a failure without a problem document (a proxy's page) as ApiError HTTP_ERROR", async () => {
		const { client } = await setup([json(502, "<html>Bad Gateway</html>")]);
		await expect(client.templates.get(ID)).rejects.toMatchObject({ name: "ApiError", status: 502, code: "HTTP_ERROR", problem: undefined, message: "HTTP 502" });
	});

	it("should send nothing and ask for sign-in when a route needs a token and there is no session", async () => {
		const { client, sent, onAuthRequired } = await setup([json(202)], false);
		await expect(client.notifications.list()).rejects.toMatchObject({ status: 401 });
		expect(sent).toEqual([]);
		expect(onAuthRequired).toHaveBeenCalledTimes(1);
		await expect(client.auth.forgotPassword("ada@example.com")).resolves.toBeUndefined();
		expect(sent.map(s => s.path)).toEqual(["/auth/password/forgot"]);
	});

	it("should upload a resume as multipart/form-data with its file name and candidate", async () => {
		const { client, sent } = await setup([json(201, { documentId: ID })]);
		const file = new Blob(["%PDF-1.4"], { type: "application/pdf" });
		await expect(client.resumes.upload({ candidateId: ID, file, filename: "cv.pdf" })).resolves.toEqual({ documentId: ID });
		const [req] = sent;
		expect({ method: req.method, path: req.path, auth: req.headers.authorization }).toEqual({ method: "POST", path: "/resumes", auth: "Bearer access-0" });
		// fetch sets multipart/form-data with its boundary itself.
		expect(req.headers["content-type"]).toBeUndefined();
		const form = req.body as FormData;
		expect([...form.keys()]).toEqual(["candidateId", "resume"]);
		expect(form.get("candidateId")).toBe(ID);
		const part = form.get("resume") as File;
		expect({ name: part.name, type: part.type, text: await part.text() }).toEqual({ name: "cv.pdf", type: "application/pdf", text: "%PDF-1.4" });
	});

	it("should download a resume's content as a Blob of its type, and refuse with the problem's code", async () => {
		const { client, sent } = await setup([{ status: 200, body: undefined }]);
		const blob = await client.resumes.content(ID);
		expect(blob).toBeInstanceOf(Blob);
		expect(sent[0].path).toBe(`/resumes/${ID}/content`);
		const { client: other } = await setup([json(404, { type: "t", title: "Not Found", status: 404, detail: "No such document.", code: "DOCUMENT_NOT_FOUND", requestId: "r" })]);
		await expect(other.resumes.content(ID)).rejects.toMatchObject({ status: 404, code: "DOCUMENT_NOT_FOUND" });
	});

	it("should keep the session a token exchange gives", async () => {
		const { client, sent, storage } = await setup([json(200, tokens(1))], false);
		await expect(client.auth.exchangeToken("one-time")).resolves.toEqual(tokens(1));
		expect(sent[0]).toMatchObject({ method: "POST", path: "/auth/tokens/exchange", body: { token: "one-time" } });
		expect(sent[0].headers.authorization).toBeUndefined();
		expect(JSON.parse((await storage.get(SESSION_KEY))!)).toEqual({ accessToken: "access-1", refreshToken: "refresh-1", expiresAt: NOW + 3600 });
	});

	it("should rotate the tokens on auth.refresh although they are still valid, and use the new ones", async () => {
		const { client, sent, storage } = await setup([json(200, tokens(1)), json(200, actor)]);
		await expect(client.auth.refresh()).resolves.toEqual(tokens(1));
		expect(sent[0]).toMatchObject({ method: "POST", path: "/auth/tokens/refresh", body: { refreshToken: "refresh-0" } });
		expect(JSON.parse((await storage.get(SESSION_KEY))!).refreshToken).toBe("refresh-1");
		await client.actors.get(ID);
		expect(sent[1].headers.authorization).toBe("Bearer access-1");
	});

	it("should sign out and throw 401 when auth.refresh is refused or there is no session", async () => {
		const refused = { type: "t", title: "Unauthorized", status: 401, detail: "No.", code: "INVALID_REFRESH_TOKEN", requestId: "r" };
		const { client, storage, onAuthRequired } = await setup([json(401, refused)]);
		await expect(client.auth.refresh()).rejects.toMatchObject({ status: 401 });
		expect(await storage.get(SESSION_KEY)).toBeNull();
		expect(onAuthRequired).toHaveBeenCalledTimes(1);
		await expect(client.auth.refresh()).rejects.toMatchObject({ status: 401 });
	});

	it("should end every session with auth.logoutAll and forget this one", async () => {
		const { client, sent, storage } = await setup([json(204)]);
		await expect(client.auth.logoutAll()).resolves.toBeUndefined();
		expect(sent[0]).toMatchObject({ method: "POST", path: "/auth/logout/all", body: undefined, headers: { authorization: "Bearer access-0" } });
		expect(await storage.get(SESSION_KEY)).toBeNull();
	});

	it("should keep the session when logoutAll is refused", async () => {
		const { client, storage } = await setup([json(503, { type: "t", title: "Unavailable", status: 503, detail: "Later.", code: "UPSTREAM_UNAVAILABLE", requestId: "r" })]);
		await expect(client.auth.logoutAll()).rejects.toMatchObject({ code: "UPSTREAM_UNAVAILABLE" });
		expect(await storage.get(SESSION_KEY)).not.toBeNull();
	});

	it("should read a mail link's token from the address fragment, and nothing else", async () => {
		const { client } = await setup();
		expect(client.auth.linkToken("https://ui.example.com/verify-email#token=abc_-123")).toBe("abc_-123");
		expect(client.auth.linkToken("https://ui.example.com/verify-email?token=abc")).toBeNull();
		expect(client.auth.linkToken("https://ui.example.com/verify-email")).toBeNull();
	});

	it("should sign a service account in once for parallel calls, send its service token, and sign in again when it expires", async () => {
		const sent: Sent[] = [];
		let clock = NOW;
		let logins = 0;
		const fetch: typeof globalThis.fetch = async (input, init = {}) => {
			const headers = Object.fromEntries(new Headers(init.headers).entries());
			sent.push({ method: init.method ?? "GET", path: String(input).slice(BASE.length), headers, body: init.body });
			if (String(input).endsWith("/auth/services/token")) {
				logins += 1;
				return Response.json({ ...tokens(logins), idToken: `service-${logins}`, expiresAt: clock + 3600 });
			}
			return Response.json({ items: [] });
		};
		const onAuthRequired = jest.fn();
		const service = createClient({ baseUrl: BASE, fetch, onAuthRequired, locks: null, now: () => clock, serviceAccount: { username: "service-billing", password: "pw" } });
		await Promise.all(Array.from({ length: 5 }, () => service.notifications.list()));
		expect(sent.filter(s => s.path === "/auth/services/token").map(s => JSON.parse(s.body as string))).toEqual([{ username: "service-billing", password: "pw" }]);
		expect(sent.filter(s => s.path === "/notifications").map(s => s.headers.authorization)).toEqual(Array(5).fill("Bearer service-1"));
		clock += 3600;
		await service.notifications.list();
		expect(logins).toBe(2);
		expect(sent.at(-1)!.headers.authorization).toBe("Bearer service-2");
		expect(onAuthRequired).not.toHaveBeenCalled();
	});

	it("should throw a service account's refused sign-in as it is", async () => {
		const refused = { type: "t", title: "Unauthorized", status: 401, detail: "No.", code: "INVALID_CREDENTIALS", requestId: "r" };
		const fetch: typeof globalThis.fetch = async () => Response.json(refused, { status: 401 });
		const service = createClient({ baseUrl: BASE, fetch, locks: null, serviceAccount: { username: "service-billing", password: "wrong" } });
		await expect(service.templates.get(ID)).rejects.toMatchObject({ status: 401, code: "INVALID_CREDENTIALS" });
	});

	it("should keep the old names working beside the auth namespace", async () => {
		const { client } = await setup();
		expect(client.login).toBe(client.auth.login);
		expect(client.register).toBe(client.auth.register);
		expect(client.logout).toBe(client.auth.logout);
		expect(client.startSocialLogin("/inbox")).toBe(`${BASE}/auth/social/login?returnTo=%2Finbox`);
	});
});
