/**
 * SMS and PUSH end to end through the gateway and the dispatcher: the default file
 * SMS provider writes the message to DATA_DIR/outbox/sms, and Web Push goes to a
 * push service on loopback (plain HTTP, allowed by PUSH_ALLOW_INSECURE_ENDPOINTS).
 * Each channel asks of a template only what it uses: SMS the text (an html part is
 * refused), EMAIL and PUSH also the subject (the mail's subject, the push's title).
 */
import fs from "node:fs";
import path from "node:path";
import { PushSubscriptions, SUBSCRIPTIONS_COLLECTION } from "../../lib/push";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { startPushService } from "../helpers/push-service";
import { serviceToken } from "../helpers/senders";

describe("SMS and PUSH through the dispatcher", () => {
	let p: Platform;
	let service: Awaited<ReturnType<typeof startPushService>>;
	// Pushes to itself, as a user may; SMS is sent by a service (a user may send none).
	let user: { token: string; actorId: string };

	beforeAll(async () => {
		service = await startPushService();
		p = await startPlatform({ PUSH_ALLOW_INSECURE_ENDPOINTS: "true", DISPATCHER_POLL_MS: "50" });
		const res = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		expect(res.status).toBe(201);
		user = { token: res.body.accessToken, actorId: res.body.actorId };
	});
	afterAll(async () => {
		await p?.stop();
		await service?.close();
	});

	async function sentOrFailed(id: string, token: string) {
		let view: any;
		await waitFor(`notification ${id} to be sent or fail`, async () => {
			view = (await http(p.baseUrl, "GET", `/notifications/${id}`, { token })).body;
			return view.status === "SENT" || view.status === "FAILED";
		}, 20000);
		return view;
	}

	it("should write an SMS to the outbox as { notificationId, to, from, text } and record SENT with its segments", async () => {
		const token = await serviceToken(p);
		const res = await http(p.baseUrl, "POST", "/notifications", {
			token,
			json: { channel: "SMS", to: "+1 415 555 0100", template: { subject: "ignored", text: "Code {{code}}" }, variables: { code: "1234" } }
		});
		expect(res.status).toBe(201);
		const id = res.body.notificationId;
		const view = await sentOrFailed(id, token);
		expect(view.status).toBe("SENT");
		expect(view.events.find((e: any) => e.event === "SENT").detail).toMatchObject({ segments: 1, providerMessageId: expect.any(String) });
		const dir = path.join(p.dataDir, "outbox", "sms");
		const files = fs.readdirSync(dir).filter(f => f.includes(id));
		expect(files).toHaveLength(1);
		expect(JSON.parse(fs.readFileSync(path.join(dir, files[0]), "utf8"))).toEqual({ notificationId: id, to: "+14155550100", from: null, text: "Code 1234" });
	});

	it("should send an SMS whose inline or stored template has only a text part", async () => {
		const token = await serviceToken(p);
		const inline = await http(p.baseUrl, "POST", "/notifications", { token, json: { channel: "SMS", to: "+14155550120", template: { text: "Inline {{code}}" }, variables: { code: "1" } } });
		expect(inline.status).toBe(201);
		const stored = await http(p.baseUrl, "POST", "/templates", { token, json: { name: "sms-code", text: "Stored {{code}}" } });
		expect(stored.status).toBe(201);
		expect(stored.body).not.toHaveProperty("subject");
		const byId = await http(p.baseUrl, "POST", "/notifications", { token, json: { channel: "SMS", to: "+14155550121", templateId: stored.body.templateId, variables: { code: "2" } } });
		expect(byId.status).toBe(201);
		const dir = path.join(p.dataDir, "outbox", "sms");
		for (const [id, text] of [[inline.body.notificationId, "Inline 1"], [byId.body.notificationId, "Stored 2"]]) {
			expect((await sentOrFailed(id, token)).status).toBe("SENT");
			const [file] = fs.readdirSync(dir).filter(f => f.includes(id));
			expect(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"))).toMatchObject({ notificationId: id, text });
		}
	});

	it("should refuse an SMS template with an html part, and EMAIL or PUSH without a subject, storing nothing", async () => {
		const token = await serviceToken(p);
		const count = () => runtime(p).store().collection("notifications").count({});
		const before = await count();
		const textOnly = (await http(p.baseUrl, "POST", "/templates", { token, json: { name: "text-only", text: "t" } })).body.templateId;
		const cases: [object, number, string, string?][] = [
			[{ channel: "SMS", to: "+14155550122", template: { text: "t", html: "<p>h</p>" } }, 422, "CHANNEL_NOT_SUPPORTED"],
			[{ channel: "SMS", to: "+14155550122", template: { html: "<p>h</p>" } }, 422, "CHANNEL_NOT_SUPPORTED"],
			[{ channel: "EMAIL", to: "a@example.com", template: { text: "t" } }, 400, "VALIDATION_ERROR", "template.subject"],
			[{ channel: "PUSH", to: user.actorId, template: { text: "t" } }, 400, "VALIDATION_ERROR", "template.subject"],
			[{ channel: "EMAIL", to: "a@example.com", templateId: textOnly }, 422, "CHANNEL_NOT_SUPPORTED"],
			[{ channel: "PUSH", to: user.actorId, templateId: textOnly }, 422, "CHANNEL_NOT_SUPPORTED"]
		];
		for (const [json, status, code, field] of cases) {
			const res = await http(p.baseUrl, "POST", "/notifications", { token, json });
			expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
			if (field) expect(res.body.errors).toEqual([expect.objectContaining({ field })]);
		}
		await expect(count()).resolves.toBe(before);
	});

	it("should send an EMAIL with the template version it was accepted with, though the stored template lost its subject since", async () => {
		const token = await serviceToken(p);
		const created = await http(p.baseUrl, "POST", "/templates", { token, json: { name: "later-text-only", subject: "Hello", text: "t" } });
		const sendAt = new Date(Date.now() + 86_400_000).toISOString();
		const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: "later@example.com", templateId: created.body.templateId, sendAt } });
		expect(res.status).toBe(201);
		const replaced = await http(p.baseUrl, "PUT", `/templates/${created.body.templateId}`, { token, json: { name: "later-text-only", text: "t" } });
		expect(replaced.status).toBe(200);
		expect(replaced.body).not.toHaveProperty("subject");
		// Accepted now, the new version would not suit EMAIL.
		expect((await http(p.baseUrl, "POST", "/notifications", { token, json: { to: "later@example.com", templateId: created.body.templateId } })).body.code).toBe("CHANNEL_NOT_SUPPORTED");
		// The day has passed.
		await runtime(p).store().collection("notifications").updateMany({ id: res.body.notificationId }, { $set: { availableAt: new Date().toISOString() } });
		const view = await sentOrFailed(res.body.notificationId, token);
		expect({ status: view.status, templateVersion: view.templateVersion }).toEqual({ status: "SENT", templateVersion: 1 });
	});

	it("should push to every subscription of the actor, record SENT with each, and delete one the push service answers 410 for", async () => {
		const subs = new PushSubscriptions(runtime(p).store());
		const ok = await subs.add(user.actorId, service.subscribe("ok"), true);
		const gone = await subs.add(user.actorId, service.subscribe("gone410"), true);
		const res = await http(p.baseUrl, "POST", "/notifications", { token: user.token, json: { channel: "PUSH", to: user.actorId, priority: "HIGH", template: { subject: "Hi {{name}}", text: "Body" }, variables: { name: "Ann" } } });
		expect(res.status).toBe(201);
		const id = res.body.notificationId;
		const view = await sentOrFailed(id, user.token);
		expect(view.status).toBe("SENT");
		const detail = view.events.find((e: any) => e.event === "SENT").detail;
		expect(detail.subscriptions).toEqual(expect.arrayContaining([
			{ subscriptionId: ok.subscriptionId, outcome: "sent", status: 201 },
			{ subscriptionId: gone.subscriptionId, outcome: "gone", status: 410 }
		]));
		expect(service.received.find(r => r.path.startsWith("/ok/"))?.payload).toEqual({ notificationId: id, title: "Hi Ann", body: "Body" });
		const left = await runtime(p).store().collection(SUBSCRIPTIONS_COLLECTION).find({ actorId: user.actorId });
		expect(left.map(d => d.id)).toEqual([ok.subscriptionId]);
	});
});
