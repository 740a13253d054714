/**
 * SMS and PUSH end to end through the gateway and the dispatcher: the default file
 * SMS provider writes the message to DATA_DIR/outbox/sms, and Web Push goes to a
 * push service on loopback (plain HTTP, allowed by PUSH_ALLOW_INSECURE_ENDPOINTS).
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
