/**
 * Templates end to end: Liquid with translations through the gateway, the dispatcher
 * and the file outboxes; versions and restore; preview; the recipient actor's locale
 * (PATCH /actors/{id}); render errors as 422 with the line, and hostile templates that
 * end FAILED (TEMPLATE_RENDER_ERROR) rather than hang a dispatcher.
 */
import fs from "node:fs";
import path from "node:path";
import { http, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { waitForMail } from "../helpers/mail";
import { serviceToken, verifiedUser, type VerifiedUser } from "../helpers/senders";

describe("templates with Liquid, locales and versions", () => {
	let p: Platform;
	let user: VerifiedUser;
	let service: string;

	beforeAll(async () => {
		p = await startPlatform({ DISPATCHER_POLL_MS: "50" });
		user = await verifiedUser(p);
		service = await serviceToken(p, "notifications");
	});
	afterAll(() => p?.stop());

	const order = {
		name: "order-shipped",
		defaultLocale: "en",
		subject: "Order {{ order }} shipped",
		text: "Hello {{ name }}{% if items %}:{% for i in items %} {{ i.title }}{% endfor %}{% endif %}",
		html: "<p>Hello {{ name }}</p>{% for i in items %}<li>{{ i.title }}</li>{% endfor %}",
		locales: { de: { subject: "Bestellung {{ order }} verschickt", text: "Hallo {{ name }}", html: "<p>Hallo {{ name }}</p>" } }
	};

	async function settled(id: string, token: string): Promise<any> {
		let view: any;
		await waitFor(`notification ${id} to settle`, async () => {
			view = (await http(p.baseUrl, "GET", `/notifications/${id}`, { token })).body;
			return view.status === "SENT" || view.status === "FAILED";
		}, 20000);
		return view;
	}

	function sms(id: string): { text: string } {
		const dir = path.join(p.dataDir, "outbox", "sms");
		const file = fs.readdirSync(dir).find(f => f.includes(id))!;
		return JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
	}

	it("should create version 1 with canonical locales, list it, and refuse a template that does not parse with 422 and the line", async () => {
		const created = await http(p.baseUrl, "POST", "/templates", { token: user.token, json: { ...order, locales: { "DE-at": order.locales.de } } });
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({ version: 1, defaultLocale: "en", locales: { "de-AT": order.locales.de } });
		const list = await http(p.baseUrl, "GET", "/templates", { token: user.token });
		expect(list.status).toBe(200);
		expect(list.body.items.map((t: any) => t.templateId)).toContain(created.body.templateId);

		const bad = await http(p.baseUrl, "POST", "/templates", { token: user.token, json: { name: "bad", subject: "s", text: "line one\n{% for x in xs %}\nno end" } });
		expect(bad.status).toBe(422);
		expect(bad.body.code).toBe("TEMPLATE_RENDER_ERROR");
		expect(bad.body.errors).toEqual([expect.objectContaining({ field: "text", line: 2 })]);
		const include = await http(p.baseUrl, "POST", "/templates", { token: user.token, json: { name: "bad", subject: "s", html: '{% include "/etc/passwd" %}' } });
		expect(include.status).toBe(422);
		expect(include.body.errors[0]).toMatchObject({ field: "html", line: 1 });
		const inline = await http(p.baseUrl, "POST", "/notifications", { token: user.token, json: { to: user.email, template: { subject: "s", text: "{{ x" } } });
		expect(inline.status).toBe(422);
		expect(inline.body.errors[0]).toMatchObject({ field: "template.text", line: 1 });
	});

	it("should make every change a new version, list them newest first, restore one as n+1, and send each notification with the version it was accepted with", async () => {
		const created = (await http(p.baseUrl, "POST", "/templates", { token: service, json: { name: "codes", text: "v1 {{ code }}" } })).body;
		const id = created.templateId;
		const first = await http(p.baseUrl, "POST", "/notifications", { token: service, json: { channel: "SMS", to: "+14155550100", templateId: id, variables: { code: "1" }, sendAt: new Date(Date.now() + 2000).toISOString() } });
		expect(first.status).toBe(201);
		const v2 = await http(p.baseUrl, "PUT", `/templates/${id}`, { token: service, json: { name: "codes", text: "v2 {{ code }}" } });
		expect(v2.body).toMatchObject({ version: 2, text: "v2 {{ code }}" });
		const second = await http(p.baseUrl, "POST", "/notifications", { token: service, json: { channel: "SMS", to: "+14155550100", templateId: id, variables: { code: "2" } } });

		const versions = await http(p.baseUrl, "GET", `/templates/${id}/versions`, { token: service });
		expect(versions.status).toBe(200);
		expect(versions.body.items.map((v: any) => [v.version, v.text])).toEqual([[2, "v2 {{ code }}"], [1, "v1 {{ code }}"]]);
		const restored = await http(p.baseUrl, "POST", `/templates/${id}/versions/1/restore`, { token: service });
		expect(restored.status).toBe(200);
		expect(restored.body).toMatchObject({ version: 3, text: "v1 {{ code }}" });
		expect((await http(p.baseUrl, "GET", `/templates/${id}/versions`, { token: service })).body.items[0]).toMatchObject({ version: 3, restoredFrom: 1 });
		expect((await http(p.baseUrl, "POST", `/templates/${id}/versions/9/restore`, { token: service })).status).toBe(404);
		expect((await http(p.baseUrl, "POST", `/templates/${id}/versions/1/restore`, { token: user.token })).status).toBe(403);

		const a = await settled(first.body.notificationId, service);
		const b = await settled(second.body.notificationId, service);
		expect([a.status, a.templateVersion, b.status, b.templateVersion]).toEqual(["SENT", 1, "SENT", 2]);
		expect(sms(a.notificationId).text).toBe("v1 1");
		expect(sms(b.notificationId).text).toBe("v2 2");
	});

	it("should preview per locale and channel without sending, and answer a render limit with 422 and the line", async () => {
		const id = (await http(p.baseUrl, "POST", "/templates", { token: user.token, json: order })).body.templateId;
		const vars = { name: "<Ada>", order: "A-1", items: [{ title: "Tea" }] };
		const en = await http(p.baseUrl, "POST", `/templates/${id}/preview`, { token: user.token, json: { variables: vars } });
		expect(en.status).toBe(200);
		expect(en.body).toEqual({ subject: "Order A-1 shipped", html: "<p>Hello &lt;Ada&gt;</p><li>Tea</li>", text: "Hello <Ada>: Tea", locale: "en" });
		const de = await http(p.baseUrl, "POST", `/templates/${id}/preview`, { token: user.token, json: { variables: vars, locale: "de-AT", channel: "PUSH" } });
		expect(de.body).toEqual({ subject: "Bestellung A-1 verschickt", text: "Hallo <Ada>", locale: "de" });
		const hostile = (await http(p.baseUrl, "POST", "/templates", { token: user.token, json: { name: "loop", subject: "s", text: "ok\n{% for i in (1..1000) %}{% for j in (1..1000) %}{% for k in (1..1000) %}{% endfor %}{% endfor %}{% endfor %}" } })).body;
		const limited = await http(p.baseUrl, "POST", `/templates/${hostile.templateId}/preview`, { token: user.token, json: {} });
		expect(limited.status).toBe(422);
		expect(limited.body).toMatchObject({ code: "TEMPLATE_RENDER_ERROR", errors: [{ field: "text", line: 2 }] });
		expect((await http(p.baseUrl, "GET", "/notifications", { token: user.token })).body.items).toHaveLength(0);

		// Sent, the same template fails at once and for good: no hang, no retries.
		const sent = await http(p.baseUrl, "POST", "/notifications", { token: user.token, json: { to: user.email, templateId: hostile.templateId } });
		const view = await settled(sent.body.notificationId, user.token);
		expect(view.status).toBe("FAILED");
		expect(view.events.at(-1).detail).toMatchObject({ error: "TEMPLATE_RENDER_ERROR", permanent: true, part: "text", line: 2 });
	});

	it("should render in the notification's locale, else the recipient actor's (PATCH /actors/{id}), along de-AT → de → default", async () => {
		const id = (await http(p.baseUrl, "POST", "/templates", { token: user.token, json: order })).body.templateId;
		const vars = { name: "Ada", order: "A-2" };
		const asked = await http(p.baseUrl, "POST", "/notifications", { token: user.token, json: { to: user.email, templateId: id, variables: vars, locale: "de-CH" } });
		expect(asked.status).toBe(201);
		expect((await settled(asked.body.notificationId, user.token)).locale).toBe("de-CH");
		expect((await waitForMail(p.dataDir, user.email, /Bestellung A-2/)).text.trim()).toBe("Hallo Ada");

		expect((await http(p.baseUrl, "PATCH", `/actors/${user.actorId}`, { token: user.token, json: { locale: "not a tag" } })).status).toBe(400);
		const other = await verifiedUser(p);
		expect((await http(p.baseUrl, "PATCH", `/actors/${user.actorId}`, { token: other.token, json: { locale: "de" } })).status).toBe(403);
		const patched = await http(p.baseUrl, "PATCH", `/actors/${user.actorId}`, { token: user.token, json: { locale: "de-at" } });
		expect(patched.status).toBe(200);
		expect(patched.body.locale).toBe("de-AT");
		expect((await http(p.baseUrl, "GET", `/actors/${user.actorId}`, { token: user.token })).body.locale).toBe("de-AT");
		const profile = await http(p.baseUrl, "POST", "/notifications", { token: user.token, json: { to: user.email, templateId: id, variables: { ...vars, order: "A-3" } } });
		await settled(profile.body.notificationId, user.token);
		expect((await waitForMail(p.dataDir, user.email, /Bestellung A-3/)).text.trim()).toBe("Hallo Ada");

		await http(p.baseUrl, "PATCH", `/actors/${user.actorId}`, { token: user.token, json: { locale: "fr-CA" } });
		const fallback = await http(p.baseUrl, "POST", "/notifications", { token: user.token, json: { to: user.email, templateId: id, variables: { ...vars, order: "A-4" } } });
		await settled(fallback.body.notificationId, user.token);
		expect((await waitForMail(p.dataDir, user.email, /Order A-4 shipped/)).text.trim()).toBe("Hello Ada");
	});

	it("should keep a `{{name}}` template and an SMS template without a subject working as before", async () => {
		const legacy = await http(p.baseUrl, "POST", "/notifications", { token: user.token, json: { to: user.email, template: { subject: "Hi {{name}}", html: "<b>{{name}}</b>", text: "{{name}} {{missing}}." }, variables: { name: "<Bo>", missing: "x" } } });
		expect(legacy.status).toBe(201);
		const mail = await waitForMail(p.dataDir, user.email, /Hi <Bo>/);
		expect(mail.html).toContain("<b>&lt;Bo&gt;</b>");
		expect((await http(p.baseUrl, "POST", "/notifications", { token: user.token, json: { to: user.email, template: { subject: "Hi {{name}}", text: "x" } } })).body.code).toBe("TEMPLATE_VARIABLE_MISSING");
		const text = await http(p.baseUrl, "POST", "/notifications", { token: service, json: { channel: "SMS", to: "+14155550100", template: { text: "{% if n > 1 %}{{ n }} codes{% else %}one code{% endif %}" }, variables: { n: 2 } } });
		expect(text.status).toBe(201);
		expect((await settled(text.body.notificationId, service)).status).toBe("SENT");
		expect(sms(text.body.notificationId).text).toBe("2 codes");
	});
});
