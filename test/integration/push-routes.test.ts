/**
 * The Web Push routes through the gateway: the VAPID public key a page subscribes
 * with, and an actor's push subscriptions (register, list, delete) with who may touch
 * them and what is refused (an endpoint whose name resolves to loopback or a private
 * address included). The dispatcher fails a subscription that aims at a non-public
 * destination for good. The last test registers a browser subscription through
 * the route and sends to it: the push service on loopback checks the VAPID JWT was
 * signed by the key the route published and decrypts the payload.
 */
import { randomBytes, randomUUID } from "node:crypto";
import os from "node:os";
import type { NotificationDoc } from "../../lib/notifications/model";
import { SUBSCRIPTIONS_COLLECTION, type PushSubscriptionDoc } from "../../lib/push";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { browserSubscription, startPushService } from "../helpers/push-service";

const PROBLEM = "application/problem+json; charset=utf-8";
const ADMIN = { email: "root@example.com", password: "Root-Passw0rd-1" };

interface Actor {
	token: string;
	actorId: string;
}

describe("Web Push routes", () => {
	let p: Platform;
	let service: Awaited<ReturnType<typeof startPushService>>;
	let ann: Actor;
	let bob: Actor;
	let admin: string;
	let serviceToken: string;

	const path = (a: Actor | string) => `/actors/${typeof a === "string" ? a : a.actorId}/push-subscriptions`;
	const stored = (actorId: string) => runtime(p).store().collection<PushSubscriptionDoc>(SUBSCRIPTIONS_COLLECTION).find({ actorId });

	async function register(): Promise<Actor> {
		const res = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		expect(res.status).toBe(201);
		return { token: res.body.accessToken, actorId: res.body.actorId };
	}

	beforeAll(async () => {
		service = await startPushService();
		p = await startPlatform({ BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password, DISPATCHER_POLL_MS: "50" });
		[ann, bob] = [await register(), await register()];
		const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.email, password: ADMIN.password } });
		expect(login.status).toBe(200);
		admin = login.body.accessToken;
		serviceToken = await runtime(p).serviceTokens.get("documents");
	});
	afterAll(async () => {
		await p?.stop();
		await service?.close();
	});

	it("should publish the VAPID public key without a token, the same key on every call", async () => {
		const res = await http(p.baseUrl, "GET", "/notifications/push/vapid-public-key");
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(["publicKey"]);
		const raw = Buffer.from(res.body.publicKey, "base64url");
		expect(raw).toHaveLength(65);
		expect(raw[0]).toBe(0x04);
		expect((await http(p.baseUrl, "GET", "/notifications/push/vapid-public-key")).body).toEqual(res.body);
	});

	it("should register, list and delete the caller's own subscriptions", async () => {
		const sub = browserSubscription();
		const created = await http(p.baseUrl, "POST", path(ann), { token: ann.token, json: sub });
		expect(created.status).toBe(201);
		expect(created.body).toEqual({ subscriptionId: expect.any(String), endpoint: sub.endpoint, createdAt: expect.any(String) });
		expect(created.headers.get("location")).toBe(`${path(ann)}/${created.body.subscriptionId}`);
		await expect(stored(ann.actorId)).resolves.toEqual([expect.objectContaining({ id: created.body.subscriptionId, endpoint: sub.endpoint, keys: sub.keys })]);

		// The browser subscribing again is the same subscription.
		expect((await http(p.baseUrl, "POST", path(ann), { token: ann.token, json: sub })).body.subscriptionId).toBe(created.body.subscriptionId);

		const list = await http(p.baseUrl, "GET", path(ann), { token: ann.token });
		expect(list.status).toBe(200);
		expect(list.body).toEqual({ items: [created.body] });

		const removed = await http(p.baseUrl, "DELETE", `${path(ann)}/${created.body.subscriptionId}`, { token: ann.token });
		expect(removed.status).toBe(204);
		await expect(stored(ann.actorId)).resolves.toEqual([]);
		const again = await http(p.baseUrl, "DELETE", `${path(ann)}/${created.body.subscriptionId}`, { token: ann.token });
		expect({ status: again.status, code: again.body.code }).toEqual({ status: 404, code: "NOT_FOUND" });
	});

	it("should refuse another user with 403 and change nothing", async () => {
		const mine = await http(p.baseUrl, "POST", path(ann), { token: ann.token, json: browserSubscription() });
		expect(mine.status).toBe(201);
		const attempts = [
			await http(p.baseUrl, "POST", path(ann), { token: bob.token, json: browserSubscription() }),
			await http(p.baseUrl, "GET", path(ann), { token: bob.token }),
			await http(p.baseUrl, "DELETE", `${path(ann)}/${mine.body.subscriptionId}`, { token: bob.token })
		];
		for (const res of attempts) {
			expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: "FORBIDDEN" });
			expect(res.headers.get("content-type")).toBe(PROBLEM);
		}
		await expect(stored(ann.actorId)).resolves.toEqual([expect.objectContaining({ id: mine.body.subscriptionId })]);
		await expect(stored(bob.actorId)).resolves.toEqual([]);
	});

	it("should let services and administrators manage any existing actor's subscriptions", async () => {
		const byService = await http(p.baseUrl, "POST", path(bob), { token: serviceToken, json: browserSubscription() });
		expect(byService.status).toBe(201);
		const byAdmin = await http(p.baseUrl, "POST", path(bob), { token: admin, json: browserSubscription() });
		expect(byAdmin.status).toBe(201);
		const listed = await http(p.baseUrl, "GET", path(bob), { token: admin });
		expect(listed.body.items.map((i: { subscriptionId: string }) => i.subscriptionId).sort()).toEqual([byService.body.subscriptionId, byAdmin.body.subscriptionId].sort());
		expect((await http(p.baseUrl, "DELETE", `${path(bob)}/${byAdmin.body.subscriptionId}`, { token: serviceToken })).status).toBe(204);
		const nobody = await http(p.baseUrl, "POST", path(randomUUID()), { token: serviceToken, json: browserSubscription() });
		expect({ status: nobody.status, code: nobody.body.code }).toEqual({ status: 404, code: "ACTOR_NOT_FOUND" });
	});

	it.each<[string, () => object, string | null]>([
		["an http endpoint", () => browserSubscription("http://push.example.com/send/1"), "endpoint"],
		["a loopback endpoint", () => browserSubscription("https://127.0.0.1/send/1"), "endpoint"],
		["a name under localhost (RFC 6761), with the root's dot", () => browserSubscription(`https://localhost.:${service.origin.split(":")[2]}/send/1`), "endpoint"],
		["the machine's own host name", () => browserSubscription(`https://${os.hostname()}/send/1`), "endpoint"],
		["a name that resolves to nothing", () => browserSubscription("https://push.invalid/send/1"), "endpoint"],
		["no endpoint", () => ({ keys: browserSubscription().keys }), "endpoint"],
		["no keys", () => ({ endpoint: "https://push.example.com/send/1" }), "keys.p256dh"],
		["a p256dh that is no P-256 point", () => ({ ...browserSubscription(), keys: { p256dh: "AAAA", auth: randomBytes(16).toString("base64url") } }), "keys.p256dh"],
		["an auth secret of the wrong length", () => ({ ...browserSubscription(), keys: { ...browserSubscription().keys, auth: randomBytes(8).toString("base64url") } }), "keys.auth"],
		["an unknown field", () => ({ ...browserSubscription(), actorId: randomUUID() }), null]
	])("should answer 400 VALIDATION_ERROR for %s", async (_label, body, field) => {
		const res = await http(p.baseUrl, "POST", path(bob), { token: bob.token, json: body() });
		expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: "VALIDATION_ERROR" });
		expect(res.headers.get("content-type")).toBe(PROBLEM);
		if (field) expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
		await expect(stored(bob.actorId)).resolves.toHaveLength(1);
	});

	it("should answer 400 for ids that are not UUIDs and 401 without a token", async () => {
		expect((await http(p.baseUrl, "GET", "/actors/not-a-uuid/push-subscriptions", { token: admin })).status).toBe(400);
		expect((await http(p.baseUrl, "DELETE", `${path(bob)}/not-a-uuid`, { token: admin })).status).toBe(400);
		const anonymous = await http(p.baseUrl, "GET", path(bob));
		expect({ status: anonymous.status, code: anonymous.body.code }).toEqual({ status: 401, code: "UNAUTHORIZED" });
	});

	it("should fail for good, in one attempt and without connecting, a send to subscriptions that aim at loopback", async () => {
		// Kept before registration checked names (the store as an earlier version left it).
		const me = await register();
		const port = service.origin.split(":")[2];
		const docs = runtime(p).store().collection<PushSubscriptionDoc>(SUBSCRIPTIONS_COLLECTION);
		for (const host of ["localhost.", os.hostname()]) {
			const endpoint = `https://${host}:${port}/ok/${randomUUID()}`;
			await docs.insert({ id: randomUUID(), actorId: me.actorId, endpointHash: randomUUID(), endpoint, keys: browserSubscription().keys, createdAt: new Date().toISOString() });
		}
		const before = service.received.length + service.refused.length;
		const sent = await http(p.baseUrl, "POST", "/notifications", { token: me.token, json: { channel: "PUSH", to: me.actorId, template: { subject: "Hello", text: "Nobody" } } });
		expect(sent.status).toBe(201);
		const notifications = runtime(p).store().collection<NotificationDoc>("notifications");
		let doc: NotificationDoc | null = null;
		await waitFor("the send to end", async () => ["FAILED", "QUEUED", "SENT"].includes((doc = await notifications.get(sent.body.notificationId))?.status ?? "") && doc!.attempts > 0);
		expect(doc).toMatchObject({ status: "FAILED", attempts: 1, lastError: "ENDPOINT_NOT_ALLOWED" });
		const view = await http(p.baseUrl, "GET", `/notifications/${sent.body.notificationId}`, { token: me.token });
		expect(view.body.events.map((e: { event: string }) => e.event)).toEqual(["QUEUED", "FAILED"]);
		expect(view.body.events[1].detail).toMatchObject({ error: "ENDPOINT_NOT_ALLOWED", permanent: true });
		expect(service.received.length + service.refused.length).toBe(before);
	});

	it("should push to a subscription registered through the route, signed with the published key", async () => {
		const q = await startPlatform({ PUSH_ALLOW_INSECURE_ENDPOINTS: "true", DISPATCHER_POLL_MS: "50" });
		try {
			const reg = await http(q.baseUrl, "POST", "/auth/register", { json: newUser() });
			const me: Actor = { token: reg.body.accessToken, actorId: reg.body.actorId };
			const { publicKey } = (await http(q.baseUrl, "GET", "/notifications/push/vapid-public-key")).body;
			const browser = service.subscribe("ok");
			expect((await http(q.baseUrl, "POST", path(me), { token: me.token, json: { ...browser, expirationTime: null } })).status).toBe(201);
			const sent = await http(q.baseUrl, "POST", "/notifications", { token: me.token, json: { channel: "PUSH", to: me.actorId, template: { subject: "Hello", text: "From the route" } } });
			expect(sent.status).toBe(201);
			const id = sent.body.notificationId;
			await waitFor("the push service to receive it", async () => service.received.some(r => r.payload.notificationId === id));
			const got = service.received.find(r => r.payload.notificationId === id)!;
			expect(got.vapidKey).toBe(publicKey);
			expect(got.payload).toEqual({ notificationId: id, title: "Hello", body: "From the route" });
			await waitFor("SENT", async () => (await http(q.baseUrl, "GET", `/notifications/${id}`, { token: me.token })).body.status === "SENT");
		} finally {
			await q.stop();
		}
	});
});
