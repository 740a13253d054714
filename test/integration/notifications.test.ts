/**
 * Notifications through the gateway: durable accept, idempotency, templates,
 * validation, access, queue order; then delivery by the dispatcher to the outbox and
 * to the real SES emulator, with retries and permanent failures.
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { NotificationQueue } from "../../lib/notifications/queue";
import { SqliteStore } from "../../lib/store/sqlite";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { freePort, waitFor } from "../helpers/processes";
import { serviceToken, verifiedUser, type VerifiedUser } from "../helpers/senders";
import { startSesLocal, type SesLocal } from "../helpers/ses-local";

const ADMIN = { BOOTSTRAP_ADMIN_EMAIL: "admin@example.com", BOOTSTRAP_ADMIN_PASSWORD: "Admin-Passw0rd" };

async function login(p: Platform, username: string, password: string): Promise<string> {
	const res = await http(p.baseUrl, "POST", "/auth/login", { json: { username, password } });
	expect(res.status).toBe(200);
	return res.body.accessToken;
}

async function registered(p: Platform): Promise<{ token: string; actorId: string }> {
	const res = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
	expect(res.status).toBe(201);
	return { token: res.body.accessToken, actorId: res.body.actorId };
}

const inline = (subject = "Hello {{name}}") => ({ template: { subject, html: "<p>Hi {{name}}</p>", text: "Hi {{name}}" }, variables: { name: "Ann" } });

async function statusOf(p: Platform, token: string, id: string) {
	return (await http(p.baseUrl, "GET", `/notifications/${id}`, { token })).body;
}

async function waitForStatus(p: Platform, token: string, id: string, statuses: string[], timeoutMs = 20000) {
	let last: any;
	await waitFor(`notification ${id} to reach ${statuses.join("/")}`, async () => {
		last = await statusOf(p, token, id);
		return statuses.includes(last.status);
	}, timeoutMs);
	return last;
}

describe("accepting notifications (no dispatcher running)", () => {
	let p: Platform;
	let admin: string;
	// Sends to itself (its own verified address), as a user may; the admin sends to anyone.
	let user: VerifiedUser;
	let templateId: string;

	beforeAll(async () => {
		p = await startPlatform({ ...ADMIN, SERVICES: "api-gateway,auth,actors,notifications" });
		admin = await login(p, ADMIN.BOOTSTRAP_ADMIN_EMAIL, ADMIN.BOOTSTRAP_ADMIN_PASSWORD);
		user = await verifiedUser(p);
		const t = await http(p.baseUrl, "POST", "/templates", { token: admin, json: { name: "welcome", subject: "Welcome {{name}}", html: "<b>{{name}}</b>" } });
		expect(t.status).toBe(201);
		templateId = t.body.templateId;
	});
	afterAll(() => p.stop());

	it("should answer 201 with the id and Location, with the record already durable in the store", async () => {
		const res = await http(p.baseUrl, "POST", "/notifications", { token: user.token, json: { to: user.email, templateId, variables: { name: "A" } } });
		expect(res.status).toBe(201);
		expect(res.body).toEqual({ notificationId: expect.any(String), status: "QUEUED" });
		expect(res.headers.get("location")).toBe(`/notifications/${res.body.notificationId}`);
		// A second connection to the file, as another process would open it, sees the record now.
		const other = new SqliteStore(path.join(p.dataDir, "store.sqlite"));
		try {
			await expect(other.collection("notifications").get(res.body.notificationId)).resolves.toMatchObject({
				status: "QUEUED",
				priority: "NORMAL",
				channel: "EMAIL",
				createdBy: { kind: "user", id: user.actorId }
			});
		} finally {
			await other.close();
		}
		const view = await statusOf(p, user.token, res.body.notificationId);
		expect(view).toMatchObject({ status: "QUEUED", attempts: 0, templateId, events: [{ event: "QUEUED" }] });
	});

	it("should return the original notification when the same Idempotency-Key and body come again", async () => {
		const body = { to: "idem@example.com", priority: "HIGH", ...inline() };
		const first = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: body, headers: { "idempotency-key": "order-1" } });
		const reordered = { variables: body.variables, template: body.template, priority: "HIGH", to: "idem@example.com" };
		const again = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: reordered, headers: { "idempotency-key": "order-1" } });
		expect(first.status).toBe(201);
		expect(again.status).toBe(201);
		expect(again.body.notificationId).toBe(first.body.notificationId);
		await expect(runtime(p).store().collection("notifications").count({ to: "idem@example.com" })).resolves.toBe(1);
	});

	it("should answer 422 IDEMPOTENCY_KEY_REUSED when the same key comes with another body", async () => {
		const key = { "idempotency-key": "order-2" };
		await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "k2@example.com", ...inline() }, headers: key });
		const res = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "other@example.com", ...inline() }, headers: key });
		expect(res.status).toBe(422);
		expect(res.body.code).toBe("IDEMPOTENCY_KEY_REUSED");
		await expect(runtime(p).store().collection("notifications").count({ to: "other@example.com" })).resolves.toBe(0);
	});

	it("should create one notification when 20 requests race with one key", async () => {
		const results = await Promise.all(
			Array.from({ length: 20 }, () =>
				http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "race@example.com", ...inline() }, headers: { "idempotency-key": "race" } })
			)
		);
		expect(results.map(r => r.status)).toEqual(Array(20).fill(201));
		expect(new Set(results.map(r => r.body.notificationId)).size).toBe(1);
		await expect(runtime(p).store().collection("notifications").count({ to: "race@example.com" })).resolves.toBe(1);
	});

	it("should keep keys of different callers apart when they happen to be equal", async () => {
		const service = await serviceToken(p);
		const a = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "s@example.com", ...inline() }, headers: { "idempotency-key": "same" } });
		const b = await http(p.baseUrl, "POST", "/notifications", { token: service, json: { to: "s@example.com", ...inline() }, headers: { "idempotency-key": "same" } });
		expect(a.body.notificationId).not.toBe(b.body.notificationId);
	});

	it.each([
		["both templateId and template", (t: string) => ({ to: "x@example.com", templateId: t, ...inline() }), 400, "VALIDATION_ERROR"],
		["neither templateId nor template", () => ({ to: "x@example.com" }), 400, "VALIDATION_ERROR"],
		["an inline template without html or text", () => ({ to: "x@example.com", template: { subject: "s" } }), 400, "VALIDATION_ERROR"],
		["an invalid address", () => ({ to: "not-an-address", ...inline() }), 400, "VALIDATION_ERROR"],
		["an unknown priority", () => ({ to: "x@example.com", priority: "URGENT", ...inline() }), 400, "VALIDATION_ERROR"],
		["an unknown channel", () => ({ to: "x@example.com", channel: "FAX", ...inline() }), 400, "VALIDATION_ERROR"],
		["an unknown field", () => ({ to: "x@example.com", ...inline(), sendAt: "now" }), 400, "VALIDATION_ERROR"],
		["an SMS to an email address", () => ({ to: "x@example.com", channel: "SMS", template: { subject: "s", text: "t" } }), 400, "VALIDATION_ERROR"],
		["an SMS to a national number", () => ({ to: "4155550100", channel: "SMS", template: { subject: "s", text: "t" } }), 400, "VALIDATION_ERROR"],
		["an SMS with an html part", () => ({ to: "+14155550100", channel: "SMS", ...inline() }), 422, "CHANNEL_NOT_SUPPORTED"],
		["an SMS from a stored template with only html", (t: string) => ({ to: "+14155550100", channel: "SMS", templateId: t, variables: { name: "A" } }), 422, "CHANNEL_NOT_SUPPORTED"],
		["an SMS without a text part", () => ({ to: "+14155550100", channel: "SMS", template: { subject: "s", html: "<p>h</p>" } }), 422, "CHANNEL_NOT_SUPPORTED"],
		["a PUSH to an address", () => ({ to: "x@example.com", channel: "PUSH", ...inline() }), 400, "VALIDATION_ERROR"],
		["an unknown template", () => ({ to: "x@example.com", templateId: "00000000-0000-4000-8000-000000000000" }), 422, "TEMPLATE_NOT_FOUND"],
		["a variable the template needs missing", (t: string) => ({ to: "x@example.com", templateId: t, variables: {} }), 422, "TEMPLATE_VARIABLE_MISSING"]
	])("should refuse a request with %s", async (_label, body, status, code) => {
		const before = await runtime(p).store().collection("notifications").count({});
		const res = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: body(templateId) });
		expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
		await expect(runtime(p).store().collection("notifications").count({})).resolves.toBe(before);
	});

	it("should accept an SMS and store the number in E.164, and a PUSH to an actorId", async () => {
		const sms = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { channel: "SMS", to: " +1 (415) 555-0100 ", template: { subject: "s", text: "Hi {{name}}" }, variables: { name: "A" } } });
		expect(sms.status).toBe(201);
		const push = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { channel: "PUSH", to: user.actorId, ...inline() } });
		expect(push.status).toBe(201);
		const coll = runtime(p).store().collection("notifications");
		await expect(coll.get(sms.body.notificationId)).resolves.toMatchObject({ channel: "SMS", to: "+14155550100", status: "QUEUED" });
		await expect(coll.get(push.body.notificationId)).resolves.toMatchObject({ channel: "PUSH", to: user.actorId, status: "QUEUED" });
	});

	it("should name `to` when an SMS number is not valid", async () => {
		const res = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { channel: "SMS", to: "+1 555", template: { subject: "s", text: "t" } } });
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", errors: [{ field: "to" }] });
	});

	it("should answer 401 without a token and 400 with a malformed Idempotency-Key", async () => {
		expect((await http(p.baseUrl, "POST", "/notifications", { json: { to: "x@example.com", ...inline() } })).status).toBe(401);
		const res = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "x@example.com", ...inline() }, headers: { "idempotency-key": "x".repeat(300) } });
		expect(res.status).toBe(400);
	});

	it("should show a notification to its creator, admins and services, and 404 to other users", async () => {
		const created = await http(p.baseUrl, "POST", "/notifications", { token: user.token, json: { to: user.email, ...inline() } });
		expect(created.status).toBe(201);
		const id = created.body.notificationId;
		const stranger = await registered(p);
		expect((await http(p.baseUrl, "GET", `/notifications/${id}`, { token: user.token })).status).toBe(200);
		expect((await http(p.baseUrl, "GET", `/notifications/${id}`, { token: admin })).status).toBe(200);
		const hidden = await http(p.baseUrl, "GET", `/notifications/${id}`, { token: stranger.token });
		expect({ status: hidden.status, code: hidden.body.code }).toEqual({ status: 404, code: "NOTIFICATION_NOT_FOUND" });
		const service = await serviceToken(p);
		await expect(p.broker.call("notifications.get", { notificationId: id }, { meta: { authToken: service } })).resolves.toMatchObject({ notificationId: id });
		expect((await http(p.baseUrl, "GET", "/notifications/not-a-uuid", { token: user.token })).status).toBe(400);
	});

	it("should let users create templates and replace only their own, and admins any", async () => {
		const mine = await http(p.baseUrl, "POST", "/templates", { token: user.token, json: { name: "mine", subject: "s", text: "t" } });
		expect(mine.status).toBe(201);
		const stranger = await registered(p);
		const denied = await http(p.baseUrl, "PUT", `/templates/${mine.body.templateId}`, { token: stranger.token, json: { name: "x", subject: "s", text: "t" } });
		expect({ status: denied.status, code: denied.body.code }).toEqual({ status: 403, code: "FORBIDDEN" });
		expect((await http(p.baseUrl, "PUT", `/templates/${mine.body.templateId}`, { token: user.token, json: { name: "mine2", subject: "s", text: "t" } })).status).toBe(200);
		expect((await http(p.baseUrl, "PUT", `/templates/${mine.body.templateId}`, { token: admin, json: { name: "mine3", subject: "s", text: "t" } })).status).toBe(200);
		const t = await http(p.baseUrl, "POST", "/templates", { token: admin, json: { name: "x", subject: "s {{a}}", html: "<i>{{a}}</i>", text: "t" } });
		expect(t.status).toBe(201);
		expect(t.headers.get("location")).toBe(`/templates/${t.body.templateId}`);
		const put = await http(p.baseUrl, "PUT", `/templates/${t.body.templateId}`, { token: admin, json: { name: "y", subject: "new {{b}}", text: "only text" } });
		expect(put.status).toBe(200);
		const got = await http(p.baseUrl, "GET", `/templates/${t.body.templateId}`, { token: user.token });
		expect(got.body).toMatchObject({ templateId: t.body.templateId, name: "y", subject: "new {{b}}", text: "only text" });
		expect(got.body.html).toBeUndefined();
		expect((await http(p.baseUrl, "GET", "/templates/00000000-0000-4000-8000-000000000000", { token: user.token })).status).toBe(404);
		expect((await http(p.baseUrl, "POST", "/templates", { token: admin, json: { name: "x", subject: "s" } })).status).toBe(400);
	});

	it("should claim by priority, then first in first out, when the backlog is mixed", async () => {
		const queue = new NotificationQueue(runtime(p).store(), runtime(p).statusEvents);
		// Empty the queue of what earlier tests left.
		await runtime(p).store().collection("notifications").deleteMany({});
		const order = ["LOW", "NORMAL", "CRITICAL", "HIGH", "LOW", "CRITICAL", "NORMAL", "HIGH", "LOW", "CRITICAL", "HIGH", "NORMAL"];
		const ids: Record<string, string[]> = { CRITICAL: [], HIGH: [], NORMAL: [], LOW: [] };
		for (const [i, priority] of order.entries()) {
			const res = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: `q${i}@example.com`, priority, ...inline() } });
			ids[priority].push(res.body.notificationId);
		}
		const first = await queue.claim(5, 60000);
		const rest = await queue.claim(100, 60000);
		expect([...first, ...rest].map(n => n.id)).toEqual([...ids.CRITICAL, ...ids.HIGH, ...ids.NORMAL, ...ids.LOW]);
		expect(first.every(n => n.status === "PROCESSING" && n.attempts === 1 && n.leaseToken)).toBe(true);
		await expect(queue.claim(10, 60000)).resolves.toEqual([]);
	});

	it("should hold LOW notifications when asked, without delaying the others", async () => {
		const queue = new NotificationQueue(runtime(p).store(), runtime(p).statusEvents);
		await runtime(p).store().collection("notifications").deleteMany({});
		const low = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "low@example.com", priority: "LOW", ...inline() } });
		const normal = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "n@example.com", ...inline() } });
		expect((await queue.claim(10, 60000, { holdLow: true })).map(n => n.id)).toEqual([normal.body.notificationId]);
		expect((await queue.claim(10, 60000)).map(n => n.id)).toEqual([low.body.notificationId]);
	});

	it("should return an expired lease to the queue and refuse the old holder's result", async () => {
		const queue = new NotificationQueue(runtime(p).store(), runtime(p).statusEvents);
		await runtime(p).store().collection("notifications").deleteMany({});
		const res = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "lease@example.com", ...inline() } });
		const [held] = await queue.claim(1, 1);
		await waitFor("the lease to expire", async () => (await queue.reapExpired(8)) === 1);
		const [again] = await queue.claim(1, 60000);
		expect(again.id).toBe(res.body.notificationId);
		expect(again.attempts).toBe(2);
		await expect(queue.settle({ notification: held, status: "SENT", event: "SENT", set: { providerMessageId: "stale" } })).resolves.toBe(false);
		await expect(queue.settle({ notification: again, status: "SENT", event: "SENT", set: { providerMessageId: "fresh" } })).resolves.toBe(true);
		const view = await statusOf(p, admin, again.id);
		expect(view).toMatchObject({ status: "SENT", providerMessageId: "fresh" });
		// The stale holder's result left no event either.
		expect(view.events.map((e: any) => e.event)).toEqual(["QUEUED", "LEASE_EXPIRED", "SENT"]);
	});
});

describe("dispatching in one process", () => {
	let ses: SesLocal;
	beforeAll(async () => {
		ses = await startSesLocal();
	});
	afterAll(() => ses.stop());

	it("should send to the outbox with escaped HTML and record SENT with the provider message id", async () => {
		const p = await startPlatform();
		try {
			const token = await serviceToken(p);
			const res = await http(p.baseUrl, "POST", "/notifications", {
				token,
				json: { to: "out@example.com", priority: "CRITICAL", template: { subject: "Hi {{n}}", html: "<p>{{n}}</p>" }, variables: { n: "<b>x</b>" } }
			});
			const view = await waitForStatus(p, token, res.body.notificationId, ["SENT"]);
			expect(view.attempts).toBe(1);
			expect(view.events.map((e: any) => e.event)).toEqual(["QUEUED", "SENT"]);
			const files = fs.readdirSync(path.join(p.dataDir, "outbox")).filter(f => f.startsWith(res.body.notificationId));
			expect(files).toEqual([`${res.body.notificationId}.${view.providerMessageId}.eml`]);
			const eml = fs.readFileSync(path.join(p.dataDir, "outbox", files[0]), "utf8");
			expect(eml).toContain("<p>&lt;b&gt;x&lt;/b&gt;</p>");
			expect(eml).toContain("To: out@example.com");
			expect(eml).toContain("From: noreply@localhost");
		} finally {
			await p.stop();
		}
	});

	it("should mark a suppressed recipient SUPPRESSED without sending", async () => {
		const p = await startPlatform();
		try {
			const token = await serviceToken(p);
			await runtime(p).store().collection("suppressions").insert({ id: "blocked@example.com", reason: "BOUNCED", createdAt: new Date().toISOString() } as never);
			const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: "Blocked@Example.com", ...inline() } });
			const view = await waitForStatus(p, token, res.body.notificationId, ["SUPPRESSED"]);
			expect(view.events.map((e: any) => e.event)).toEqual(["QUEUED", "SUPPRESSED"]);
			// The outbox holds no message of it (nor exists, if nothing else was sent).
			const files = fs.existsSync(path.join(p.dataDir, "outbox")) ? fs.readdirSync(path.join(p.dataDir, "outbox")) : [];
			expect(files.filter(f => f.startsWith(res.body.notificationId))).toEqual([]);
		} finally {
			await p.stop();
		}
	});

	it("should send through SES v2 and store the message id SES returned", async () => {
		const p = await startPlatform({ EMAIL_PROVIDER: "ses", AWS_SES_ENDPOINT: ses.endpoint, NOTIFICATION_MAIL_FROM_EMAIL: "sender@example.org" });
		try {
			const token = await serviceToken(p);
			const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: "ses@example.com", ...inline() } });
			const view = await waitForStatus(p, token, res.body.notificationId, ["SENT"]);
			const sent = (await ses.emails()).filter(e => e.messageId === view.providerMessageId);
			expect(sent).toHaveLength(1);
			expect(sent[0]).toMatchObject({ from: "sender@example.org", destination: { to: ["ses@example.com"] }, subject: "Hello Ann" });
			expect(sent[0].body.html).toBe("<p>Hi Ann</p>");
		} finally {
			await p.stop();
		}
	});

	it("should fail at once without retrying when SES rejects the message", async () => {
		const p = await startPlatform({ EMAIL_PROVIDER: "ses", AWS_SES_ENDPOINT: ses.endpoint, NOTIFICATION_RETRY_BASE_MS: "20" });
		try {
			const token = await serviceToken(p);
			// The emulator rejects (400) a message whose subject renders empty, as SES does.
			const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: "bad@example.com", template: { subject: "{{s}}", text: "t" }, variables: { s: "" } } });
			const view = await waitForStatus(p, token, res.body.notificationId, ["FAILED"]);
			expect(view.attempts).toBe(1);
			expect(view.events.map((e: any) => e.event)).toEqual(["QUEUED", "FAILED"]);
			expect(view.events[1].detail).toMatchObject({ attempt: 1, permanent: true });
		} finally {
			await p.stop();
		}
	});

	it("should retry with growing delays when SES cannot be reached, then fail when attempts run out", async () => {
		const closed = await freePort();
		const base = 60;
		const p = await startPlatform({
			EMAIL_PROVIDER: "ses",
			AWS_SES_ENDPOINT: `http://127.0.0.1:${closed}`,
			NOTIFICATION_RETRY_BASE_MS: String(base),
			NOTIFICATION_MAX_ATTEMPTS: "4",
			DISPATCHER_POLL_MS: "20"
		});
		try {
			const token = await serviceToken(p);
			const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: "retry@example.com", ...inline() } });
			const view = await waitForStatus(p, token, res.body.notificationId, ["FAILED"]);
			expect(view.attempts).toBe(4);
			const failures = view.events.filter((e: any) => e.event === "ATTEMPT_FAILED");
			expect(failures.map((e: any) => e.detail.attempt)).toEqual([1, 2, 3]);
			failures.forEach((e: any, i: number) => {
				const delay = Date.parse(e.detail.retryAt) - Date.parse(e.occurredAt);
				const step = base * 2 ** i;
				expect(delay).toBeGreaterThanOrEqual(step / 2 - 5);
				expect(delay).toBeLessThanOrEqual(step + 5);
				expect(e.detail.error).not.toBe("");
			});
			expect(view.events.at(-1)).toMatchObject({ event: "FAILED", detail: { attempt: 4, permanent: false } });
		} finally {
			await p.stop();
		}
	});

	it("should recover and send when SES comes back between retries", async () => {
		const port = await freePort();
		const p = await startPlatform({
			EMAIL_PROVIDER: "ses",
			AWS_SES_ENDPOINT: `http://127.0.0.1:${port}`,
			NOTIFICATION_RETRY_BASE_MS: "100",
			DISPATCHER_POLL_MS: "20"
		});
		// Forwards to the emulator once "up"; until then refuses connections like a down endpoint.
		let proxy: net.Server | null = null;
		try {
			const token = await serviceToken(p);
			const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: "later@example.com", ...inline() } });
			await waitFor("a failed attempt", async () => (await statusOf(p, token, res.body.notificationId)).events.some((e: any) => e.event === "ATTEMPT_FAILED"));
			const target = new URL(ses.endpoint);
			proxy = net.createServer(c => {
				const up = net.connect(Number(target.port), target.hostname);
				c.pipe(up).pipe(c);
				up.on("error", () => c.destroy());
				c.on("error", () => up.destroy());
			});
			await new Promise<void>(r => proxy!.listen(port, "127.0.0.1", r));
			const view = await waitForStatus(p, token, res.body.notificationId, ["SENT"]);
			expect(view.attempts).toBeGreaterThanOrEqual(2);
			expect((await ses.emails()).some(e => e.messageId === view.providerMessageId)).toBe(true);
		} finally {
			await p.stop();
			await new Promise(r => (proxy ? proxy.close(r) : r(null)));
		}
	});
});

describe("notification metrics", () => {
	it("should publish Moleculer's metrics, queue depth and age per priority, and outcome counters", async () => {
		const port = await freePort();
		const p = await startPlatform({ METRICS_PORT: String(port), METRICS_SAMPLE_MS: "100", SERVICES: "api-gateway,auth,actors,notifications" });
		const scrape = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
		try {
			// A registration queues the verification mail, CRITICAL, counted below with the 3 LOW.
			await registered(p);
			const token = await serviceToken(p);
			for (let i = 0; i < 3; i++) await http(p.baseUrl, "POST", "/notifications", { token, json: { to: `m${i}@example.com`, priority: "LOW", ...inline() } });
			await waitFor("the LOW queue depth to show 3", async () => /notifications_queue_depth\{[^}]*priority="LOW"[^}]*\} 3\b/.test(await scrape()));
			const text = await scrape();
			// The verification mail waits for a dispatcher too.
			expect(text).toMatch(/notifications_queue_depth\{[^}]*priority="CRITICAL"[^}]*\} 1\b/);
			expect(text).toMatch(/notifications_queue_oldest_age_seconds\{[^}]*priority="LOW"/);
			expect(text).toMatch(/moleculer_request_total/);
			expect(text).toMatch(/^notifications_email_bounce_rate(\{[^}]*\})? 0$/m);
			expect(text).toMatch(/^notifications_email_complaint_rate(\{[^}]*\})? 0$/m);

			p.broker.createService((await import("../../services/dispatcher.service")).default as never);
			await waitFor("the sent counter to reach 4", async () => /notifications_outcomes_total\{[^}]*outcome="sent"[^}]*\} 4\b/.test(await scrape()));
		} finally {
			await p.stop();
		}
	});
});

describe("pausing LOW notifications with the feature flag", () => {
	it("should hold LOW while notifications.low-priority is paused, send the others, and send LOW after", async () => {
		const p = await startPlatform({ ...ADMIN, DISPATCHER_POLL_MS: "50" });
		try {
			const admin = await login(p, ADMIN.BOOTSTRAP_ADMIN_EMAIL, ADMIN.BOOTSTRAP_ADMIN_PASSWORD);
			const flag = "/admin/features/notifications.low-priority";
			expect((await http(p.baseUrl, "PUT", flag, { token: admin, json: { paused: true } })).status).toBe(200);
			const low = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "low@example.com", priority: "LOW", ...inline() } });
			const high = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "high@example.com", priority: "HIGH", ...inline() } });
			await waitForStatus(p, admin, high.body.notificationId, ["SENT"]);
			// The HIGH one went out after the LOW one was accepted: the LOW one was held, not just slow.
			expect((await statusOf(p, admin, low.body.notificationId)).status).toBe("QUEUED");
			expect((await http(p.baseUrl, "PUT", flag, { token: admin, json: { paused: false } })).status).toBe(200);
			await waitForStatus(p, admin, low.body.notificationId, ["SENT"]);
		} finally {
			await p.stop();
		}
	});
});

describe("leases while sends wait for the send rate", () => {
	it("should send each notification once when waiting for the rate outlasts the configured lease", async () => {
		// Eight sends at two per second take four seconds; the lease is one second. A
		// dispatcher takes the rate token before it claims, so no lease runs out while a
		// notification waits its turn (a send waiting for the rate extends its lease), and none is taken over and sent a second time.
		const p = await startPlatform({ EMAIL_SEND_RATE_PER_SECOND: "2", NOTIFICATION_LEASE_MS: "1000", EMAIL_SEND_TIMEOUT_MS: "500", DISPATCHER_POLL_MS: "50" });
		try {
			const token = await serviceToken(p);
			const ids: string[] = [];
			for (let i = 0; i < 8; i++) ids.push((await http(p.baseUrl, "POST", "/notifications", { token, json: { to: `rate${i}@example.com`, ...inline() } })).body.notificationId);
			const coll = runtime(p).store().collection("notifications");
			await waitFor("all 8 to be SENT", async () => (await coll.count({ status: "SENT", id: { $in: ids } })) === 8, 20000);
			const files = fs.readdirSync(path.join(p.dataDir, "outbox"));
			for (const id of ids) expect(files.filter(f => f.startsWith(id))).toHaveLength(1);
		} finally {
			await p.stop();
		}
	});
});
