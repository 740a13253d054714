/**
 * The dev inbox and the platform's own account pages, through the gateway: with the
 * file providers and no UI_BASE_URL, the verification mail links to PUBLIC_URL/ui,
 * GET /admin/outbox lists it, GET /admin/outbox/{id} gives its link decoded (checked
 * against mailparser's reading of the same file), and the page the link opens and the
 * call it makes verify the address. test/integration/first-hour.test.ts clicks the
 * same link in Chromium. SMS and push (PUSH_PROVIDER=file) are listed beside the mails.
 */
import { outbox } from "../helpers/mail";
import { http, startPlatform, type Platform } from "../helpers/platform";
import { ADMIN_ENV, adminToken } from "../helpers/senders";

let p: Platform;
let admin: string;
/** The actor registered by the first test. */
let grace: string;

beforeAll(async () => {
	p = await startPlatform({ ...ADMIN_ENV, PUSH_PROVIDER: "file" });
	admin = await adminToken(p.baseUrl);
});
afterAll(() => p?.stop());

async function waitForOutbox(to: string, id?: string): Promise<{ id: string; subject?: string; channel: string; to: string }> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		const res = await http(p.baseUrl, "GET", "/admin/outbox", { token: admin });
		expect(res.status).toBe(200);
		const found = res.body.items.find((m: { to: string; id: string }) => m.to === to && (id === undefined || m.id === id));
		if (found) return found;
		if (Date.now() > deadline) throw new Error(`No message to ${to} in the outbox: ${JSON.stringify(res.body)}`);
		await new Promise(resolve => setTimeout(resolve, 25));
	}
}

describe("the dev inbox", () => {
	it("should list the verification mail and give its link to the platform's own page, decoded", async () => {
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: { email: "grace@example.com", password: "Correct-Horse-9", firstName: "Grace", lastName: "Hopper" } });
		expect(reg.status).toBe(201);
		grace = reg.body.actorId;
		const listed = await waitForOutbox("grace@example.com");
		expect(listed).toMatchObject({ channel: "EMAIL", subject: expect.stringMatching(/verify/i) });
		const res = await http(p.baseUrl, "GET", `/admin/outbox/${listed.id}`, { token: admin });
		expect(res.status).toBe(200);
		expect(res.headers.get("cache-control")).toBe("no-store");
		const mail = res.body;
		const link = new RegExp(`${p.config.publicUrl.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}/ui/verify-email#token=([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])`);
		const token = link.exec(mail.text)?.[1];
		expect(token).toBeDefined();
		expect(mail.html).toContain(`/ui/verify-email#token=${token}`);
		expect(mail.headers).toEqual(expect.arrayContaining([{ name: "To", value: "grace@example.com" }]));
		// The same file as a mail client reads it.
		const [read] = (await outbox(p.dataDir)).filter(m => m.to === "grace@example.com");
		expect(mail.text.trimEnd()).toBe(read.text.trimEnd());
		expect(mail.subject).toBe(read.subject);

		const page = await http(p.baseUrl, "GET", "/ui/verify-email");
		expect(page.status).toBe(200);
		expect(page.headers.get("content-type")).toMatch(/^text\/html/);
		expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
		expect(page.body).toContain('<script type="module" src="ui.js">');
		const script = await http(p.baseUrl, "GET", "/ui/ui.js");
		expect(script.status).toBe(200);
		expect(script.body).toContain("../auth/email/verify");
		// What the page's script posts.
		const verified = await http(p.baseUrl, "POST", "/auth/email/verify", { json: { token } });
		expect(verified).toMatchObject({ status: 200, body: { emailVerified: true } });
	});

	it("should list SMS and push messages with the mails, newest first, each with what was sent", async () => {
		const actorId = grace;
		const sms = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { channel: "SMS", to: "+14155550100", template: { text: "Your code is 123456" } } });
		expect(sms.status).toBe(201);
		await waitForOutbox("+14155550100");
		const push = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { channel: "PUSH", to: actorId, template: { subject: "Ping", text: "Pushed" } } });
		expect(push.status).toBe(201);
		await waitForOutbox(actorId);
		const page = (await http(p.baseUrl, "GET", "/admin/outbox", { token: admin })).body;
		expect(page.items.slice(0, 2).map((m: { channel: string }) => m.channel)).toEqual(["PUSH", "SMS"]);
		const [pushed, texted] = page.items;
		expect((await http(p.baseUrl, "GET", `/admin/outbox/${pushed.id}`, { token: admin })).body).toMatchObject({
			channel: "PUSH",
			to: actorId,
			notificationId: push.body.notificationId,
			payload: { notificationId: push.body.notificationId, title: "Ping", body: "Pushed" }
		});
		expect((await http(p.baseUrl, "GET", `/admin/outbox/${texted.id}`, { token: admin })).body).toMatchObject({ channel: "SMS", text: "Your code is 123456" });
		const deadline = Date.now() + 10_000;
		let status = "";
		while (status !== "SENT" && Date.now() < deadline) {
			status = (await http(p.baseUrl, "GET", `/notifications/${push.body.notificationId}`, { token: admin })).body.status;
			if (status !== "SENT") await new Promise(resolve => setTimeout(resolve, 25));
		}
		expect(status).toBe("SENT");
	});

	it("should list in-app messages from the store beside the files, with the recipient's state", async () => {
		const sent = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { channel: "IN_APP", to: grace, template: { subject: "Welcome", text: "Open https://example.com/start" }, data: { plan: "pro" } } });
		expect(sent.status).toBe(201);
		const listed = await waitForOutbox(grace, `in-app.${sent.body.notificationId}`);
		expect(listed).toMatchObject({ channel: "IN_APP", to: grace, subject: "Welcome", preview: "Open https://example.com/start" });
		const page = (await http(p.baseUrl, "GET", "/admin/outbox", { token: admin })).body;
		expect(page.items[0].id).toBe(listed.id);
		const one = await http(p.baseUrl, "GET", `/admin/outbox/${listed.id}`, { token: admin });
		expect(one).toMatchObject({ status: 200, body: { channel: "IN_APP", to: grace, actorId: grace, notificationId: sent.body.notificationId, title: "Welcome", body: "Open https://example.com/start", data: { plan: "pro" }, state: "unread" } });
		// The recipient reads it: the dev inbox shows the state the inbox holds.
		const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: "grace@example.com", password: "Correct-Horse-9" } });
		const marked = await http(p.baseUrl, "PATCH", `/actors/${grace}/inbox/${sent.body.notificationId}`, { token: login.body.accessToken, json: { read: true } });
		expect(marked.status).toBe(200);
		expect((await http(p.baseUrl, "GET", `/admin/outbox/${listed.id}`, { token: admin })).body.state).toBe("read");
		expect((await http(p.baseUrl, "GET", `/admin/outbox/in-app.0190a5c4-0000-7000-8000-000000000001`, { token: admin })).status).toBe(404);
	});

	it("should serve the reset page and no other", async () => {
		expect((await http(p.baseUrl, "GET", "/ui/reset-password")).body).toContain('autocomplete="new-password"');
		expect((await http(p.baseUrl, "GET", "/ui/admin")).status).toBe(404);
	});

	it.each([
		["a path out of the folder", "email..%2F..%2Fstore.sqlite", 400, "VALIDATION_ERROR"],
		["a name of another shape", "email.....", 404, "NOT_FOUND"],
		["an unknown channel", "fax.0190a5c4-0000-7000-8000-000000000001.0190a5c4-0000-7000-8000-000000000002", 404, "NOT_FOUND"],
		["a message that is not there", "email.0190a5c4-0000-7000-8000-000000000001.0190a5c4-0000-7000-8000-000000000002", 404, "NOT_FOUND"]
	])("should answer with a problem for %s, never a file", async (_what, id, status, code) => {
		const res = await http(p.baseUrl, "GET", `/admin/outbox/${id}`, { token: admin });
		expect(res).toMatchObject({ status, body: { code } });
	});

	it("should refuse anyone but an administrator", async () => {
		expect((await http(p.baseUrl, "GET", "/admin/outbox")).status).toBe(401);
		const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: "grace@example.com", password: "Correct-Horse-9" } });
		expect((await http(p.baseUrl, "GET", "/admin/outbox", { token: login.body.accessToken })).status).toBe(403);
	});
});
