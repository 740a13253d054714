/**
 * Web Push against a push service on loopback HTTPS (a certificate the test makes
 * with openssl; test/helpers/push-service.ts) that verifies VAPID and decrypts.
 * Subscriptions and the VAPID key live in a real SQLite store.
 */
import { createECDH, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import * as webpush from "web-push";
import { createChannels, type ChannelSender } from "../../lib/channels";
import { ConfigError, loadConfig, type Config, type Env } from "../../lib/config";
import { loadVapidKeys, MAX_SUBSCRIPTIONS_PER_ACTOR, PushSubscriptions, sendPush, SUBSCRIPTIONS_COLLECTION, VAPID_COLLECTION, vapidPublicKey, type PushSubscriptionDoc, type StoredVapidKey } from "../../lib/push";
import { SendError } from "../../lib/errors/send-error";
import { SqliteStore } from "../../lib/store/sqlite";
import { startPushService } from "../helpers/push-service";
import { makeCert, type TestCert } from "../helpers/sns";
import { tempDir } from "../helpers/platform";
import { waitFor } from "../helpers/processes";

describe("Web Push", () => {
	let tls: TestCert;
	let service: Awaited<ReturnType<typeof startPushService>>;
	let agent: https.Agent;
	let dataDir: string;
	let stores: SqliteStore[];
	let config: Config;

	const configure = (env: Env = {}) => loadConfig({ LOG_LEVEL: "silent", DATA_DIR: dataDir, PUSH_ALLOW_INSECURE_ENDPOINTS: "true", ...env });
	const openStore = () => {
		const s = new SqliteStore(path.join(dataDir, "store.sqlite"));
		stores.push(s);
		return s;
	};

	beforeAll(async () => {
		tls = makeCert();
		service = await startPushService(tls);
		agent = new https.Agent({ ca: tls.cert });
	});
	afterAll(async () => {
		agent.destroy();
		await service.close();
	});
	beforeEach(() => {
		dataDir = tempDir();
		stores = [];
		config = configure();
	});
	afterEach(async () => {
		for (const s of stores) await s.close();
		fs.rmSync(dataDir, { recursive: true, force: true });
	});

	describe("sendPush", () => {
		const vapid = () => loadVapidKeys(openStore(), config);
		const options = async () => ({ ttl: 600, urgency: "high" as const, vapid: await vapid(), agent, allowInsecure: true });

		it("should deliver a payload the subscriber decrypts, signed for the endpoint's origin, with TTL, Urgency and Topic", async () => {
			const sub = service.subscribe("ok");
			const opts = await options();
			const out = await sendPush(sub, JSON.stringify({ title: "Hi", body: "Grüße 👋" }), { ...opts, topic: "abc123" });
			expect(out).toMatchObject({ outcome: "sent", status: 201, location: expect.stringContaining(`${service.origin}/messages/`) });
			const got = service.received.find(r => sub.endpoint.endsWith(r.path))!;
			expect(got.payload).toEqual({ title: "Hi", body: "Grüße 👋" });
			expect(got.headers).toMatchObject({ ttl: "600", urgency: "high", topic: "abc123", "content-encoding": "aes128gcm" });
			expect(got.vapidKey).toBe(opts.vapid.publicKey);
			expect(got.jwt).toMatchObject({ aud: service.origin, sub: "mailto:noreply@localhost" });
			expect(service.refused).toEqual([]);
		});

		it.each([
			["gone404", { outcome: "gone", status: 404 }],
			["gone410", { outcome: "gone", status: 410 }],
			["big", { outcome: "failed", permanent: true, error: "PAYLOAD_TOO_LARGE", status: 413 }],
			["busy", { outcome: "failed", permanent: false, error: "PUSH_429", status: 429 }],
			["down", { outcome: "failed", permanent: false, error: "PUSH_500", status: 500 }]
		])("should read the push service's answer at /%s as %j", async (kind, expected) => {
			await expect(sendPush(service.subscribe(kind), "{}", await options())).resolves.toEqual(expected);
		});

		it("should refuse a payload over one record, and keys that are no P-256 key, without a request", async () => {
			const before = service.received.length + service.refused.length;
			await expect(sendPush(service.subscribe("ok"), "x".repeat(3994), await options())).resolves.toMatchObject({ outcome: "failed", permanent: true, error: "PAYLOAD_TOO_LARGE" });
			const bad = { ...service.subscribe("ok"), keys: { p256dh: Buffer.alloc(65, 9).toString("base64url"), auth: randomBytes(16).toString("base64url") } };
			await expect(sendPush(bad, "{}", await options())).resolves.toMatchObject({ outcome: "failed", permanent: true, error: "INVALID_SUBSCRIPTION" });
			expect(service.received.length + service.refused.length).toBe(before);
		});

		it("should reach only public addresses unless insecure endpoints are allowed", async () => {
			const before = service.received.length;
			const opts = { ...(await options()), allowInsecure: false };
			// An address literal is refused before connecting; a name is checked on every address it resolves to.
			await expect(sendPush(service.subscribe("ok"), "{}", opts)).resolves.toMatchObject({ outcome: "failed", permanent: true, error: "ENDPOINT_NOT_ALLOWED" });
			await expect(sendPush(service.subscribe("ok", "localhost"), "{}", opts)).resolves.toMatchObject({ outcome: "failed", permanent: true, error: "ENDPOINT_NOT_ALLOWED" });
			// Loopback by name (RFC 6761), also where the resolver does not know it, and the machine's own name: refused for good, not retried.
			for (const host of ["localhost.", "push.localhost", os.hostname()]) {
				await expect(sendPush(service.subscribe("ok", host), "{}", opts)).resolves.toMatchObject({ outcome: "failed", permanent: true, error: "ENDPOINT_NOT_ALLOWED" });
			}
			await expect(sendPush({ ...service.subscribe("ok"), endpoint: "http://push.example.com/x" }, "{}", opts)).resolves.toMatchObject({ error: "ENDPOINT_NOT_ALLOWED" });
			expect(service.received.length).toBe(before);
		});

		it("should end the request when the signal aborts", async () => {
			const abort = new AbortController();
			const before = service.hung();
			const out = sendPush(service.subscribe("hang"), "{}", { ...(await options()), signal: abort.signal });
			await waitFor("the request to arrive", async () => service.hung() > before);
			abort.abort();
			await expect(out).resolves.toEqual({ outcome: "failed", permanent: false, error: "SEND_ABORTED" });
		});
	});

	describe("the PUSH channel", () => {
		let push: ChannelSender;
		let subscriptions: PushSubscriptions;

		beforeEach(() => {
			const store = openStore();
			subscriptions = new PushSubscriptions(store);
			push = createChannels(config, { store, pushAgent: agent }).get("PUSH")!;
		});

		it("should send to every subscription of the actor, succeed when one accepts, and delete the gone ones", async () => {
			const actorId = randomUUID();
			const ok = await subscriptions.add(actorId, service.subscribe("ok"), true);
			const gone = [await subscriptions.add(actorId, service.subscribe("gone404"), true), await subscriptions.add(actorId, service.subscribe("gone410"), true)];
			const other = await subscriptions.add(randomUUID(), service.subscribe("ok"), true);
			const id = randomUUID();

			const result = await push.send(id, actorId, { subject: "Sign-in from a new device", text: "Was it you?" }, undefined, { priority: "CRITICAL" });

			expect(result.messageId).toMatch(new RegExp(`^${service.origin}/messages/`));
			expect(result.subscriptions).toEqual(
				expect.arrayContaining([
					{ subscriptionId: ok.subscriptionId, outcome: "sent", status: 201 },
					{ subscriptionId: gone[0].subscriptionId, outcome: "gone", status: 404 },
					{ subscriptionId: gone[1].subscriptionId, outcome: "gone", status: 410 }
				])
			);
			const delivered = service.received.find(r => ok.endpoint.endsWith(r.path))!;
			expect(delivered.payload).toEqual({ notificationId: id, title: "Sign-in from a new device", body: "Was it you?" });
			expect(delivered.headers).toMatchObject({ ttl: "86400", urgency: "high", topic: id.replace(/-/g, "") });
			expect(service.received.some(r => other.endpoint.endsWith(r.path))).toBe(false);
			expect((await subscriptions.list(actorId)).map(s => s.subscriptionId)).toEqual([ok.subscriptionId]);
			await expect(vapidPublicKey(stores[0], config)).resolves.toBe(delivered.vapidKey);
		});

		it("should take TTL and Urgency from the priority", async () => {
			const actorId = randomUUID();
			const sub = await subscriptions.add(actorId, service.subscribe("ok"), true);
			await push.send(randomUUID(), actorId, { subject: "Sale", text: "20% off" }, undefined, { priority: "LOW" });
			expect(service.received.find(r => sub.endpoint.endsWith(r.path))!.headers).toMatchObject({ ttl: "14400", urgency: "low" });
		});

		it("should fail for good when the actor has no subscription or all are gone, and be retried when a push service is busy", async () => {
			const parts = { subject: "s", text: "t" };
			await expect(push.send(randomUUID(), randomUUID(), parts)).rejects.toMatchObject({ name: "SendError", code: "NO_PUSH_SUBSCRIPTION", permanent: true });

			const goneActor = randomUUID();
			await subscriptions.add(goneActor, service.subscribe("gone410"), true);
			await expect(push.send(randomUUID(), goneActor, parts)).rejects.toMatchObject({ code: "PUSH_SUBSCRIPTIONS_GONE", permanent: true });
			await expect(subscriptions.list(goneActor)).resolves.toEqual([]);

			const busyActor = randomUUID();
			await subscriptions.add(busyActor, service.subscribe("busy"), true);
			await subscriptions.add(busyActor, service.subscribe("big"), true);
			const err = await push.send(randomUUID(), busyActor, parts).catch(e => e);
			expect(err).toBeInstanceOf(SendError);
			expect(err).toMatchObject({ code: "PUSH_429", permanent: false });
			await expect(subscriptions.list(busyActor)).resolves.toHaveLength(2);
		});

		it("should retry, naming the variable, while the stored VAPID key does not open", async () => {
			const store = stores[0];
			await loadVapidKeys(store, configure({ IDP_KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64") }));
			const actorId = randomUUID();
			await subscriptions.add(actorId, service.subscribe("ok"), true);
			const before = service.received.length;
			const err = await push.send(randomUUID(), actorId, { subject: "s", text: "t" }).catch(e => e);
			expect(err).toBeInstanceOf(SendError);
			expect(err).toMatchObject({ code: "VAPID_KEY_UNAVAILABLE", permanent: false, message: expect.stringContaining("IDP_KEY_ENCRYPTION_KEY") });
			expect(service.received.length).toBe(before);
		});
	});

	describe("VAPID keys", () => {
		const kek = () => randomBytes(32).toString("base64");

		it("should create one pair however many nodes start at once, sealed under the key-encryption key", async () => {
			const key = kek();
			config = configure({ IDP_KEY_ENCRYPTION_KEY: key });
			const [a, b] = [openStore(), openStore()];
			const loaded = await Promise.all([loadVapidKeys(a, config), loadVapidKeys(b, config), vapidPublicKey(a, config), loadVapidKeys(b, config)]);
			const docs = await a.collection<StoredVapidKey>(VAPID_COLLECTION).find({});
			expect(docs).toHaveLength(1);
			expect(docs[0].privateJwk).toBeUndefined();
			expect(docs[0].sealedPrivateJwk).toMatch(/^v1\./);
			const publicKeys = loaded.map(l => (typeof l === "string" ? l : l.publicKey));
			expect(new Set(publicKeys)).toEqual(new Set([docs[0].publicKey]));
			// The pair works with web-push's own checks, and signs what the push service verifies.
			const vapid = await loadVapidKeys(a, config);
			expect(() => webpush.generateRequestDetails(service.subscribe("ok"), "{}", { vapidDetails: vapid })).not.toThrow();

			await expect(loadVapidKeys(b, configure({ IDP_KEY_ENCRYPTION_KEY: kek() }))).rejects.toMatchObject({ variable: "IDP_KEY_ENCRYPTION_KEY" });
			await expect(loadVapidKeys(b, configure())).rejects.toBeInstanceOf(ConfigError);
			// The public key needs no key-encryption key.
			await expect(vapidPublicKey(b, configure())).resolves.toBe(docs[0].publicKey);
		});

		it("should seal a pair stored in clear once a key-encryption key is set", async () => {
			const store = openStore();
			const clear = await loadVapidKeys(store, config);
			expect((await store.collection<StoredVapidKey>(VAPID_COLLECTION).get("vapid"))!.privateJwk).toBeDefined();
			const sealed = await loadVapidKeys(store, configure({ IDP_KEY_ENCRYPTION_KEY: kek() }));
			expect(sealed).toEqual(clear);
			expect((await store.collection<StoredVapidKey>(VAPID_COLLECTION).get("vapid"))!.privateJwk).toBeUndefined();
		});

		it("should use the configured pair and store none when the environment sets one", async () => {
			const pair = webpush.generateVAPIDKeys();
			const c = configure({ PUSH_VAPID_PUBLIC_KEY: pair.publicKey, PUSH_VAPID_PRIVATE_KEY: pair.privateKey, PUSH_VAPID_SUBJECT: "https://ops.example.com/contact" });
			const store = openStore();
			await expect(loadVapidKeys(store, c)).resolves.toEqual({ ...pair, subject: "https://ops.example.com/contact" });
			await expect(vapidPublicKey(store, c)).resolves.toBe(pair.publicKey);
			await expect(store.collection(VAPID_COLLECTION).count({})).resolves.toBe(0);
		});
	});

	describe("push subscriptions", () => {
		// Registration resolves the endpoint's name, and nothing resolves public names here: a public address literal stands in.
		const PUSH_SERVICE = "https://1.1.1.1";
		const valid = () => {
			const ecdh = createECDH("prime256v1");
			return { keys: { p256dh: ecdh.generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") } };
		};

		it.each([
			["a plain http endpoint", { endpoint: "http://push.example.com/x" }, "endpoint"],
			["a loopback endpoint", { endpoint: "https://127.0.0.1/x" }, "endpoint"],
			["a private endpoint", { endpoint: "https://10.1.2.3/x" }, "endpoint"],
			["localhost", { endpoint: "https://localhost/x" }, "endpoint"],
			["credentials in the endpoint", { endpoint: "https://u:p@push.example.com/x" }, "endpoint"],
			["a name under localhost", { endpoint: "https://localhost./x" }, "endpoint"],
			["the machine's own host name", { endpoint: `https://${os.hostname()}/x` }, "endpoint"],
			["a name that does not resolve", { endpoint: "https://push.invalid/x" }, "endpoint"],
			["no endpoint", { endpoint: undefined }, "endpoint"],
			["a short p256dh", { keys: { p256dh: Buffer.alloc(33, 4).toString("base64url"), auth: randomBytes(16).toString("base64url") } }, "keys.p256dh"],
			["a compressed p256dh", { keys: { p256dh: Buffer.alloc(65, 2).toString("base64url"), auth: randomBytes(16).toString("base64url") } }, "keys.p256dh"],
			["a long auth", { keys: { p256dh: valid().keys.p256dh, auth: randomBytes(32).toString("base64url") } }, "keys.auth"]
		])("should answer 400 naming the field for %s", async (_name, override, field) => {
			const subs = new PushSubscriptions(openStore());
			const input = { endpoint: `${PUSH_SERVICE}/x`, keys: valid().keys, ...override };
			await expect(subs.add(randomUUID(), input, false)).rejects.toMatchObject({ code: 400, type: "VALIDATION_ERROR", data: { errors: [expect.objectContaining({ field })] } });
		});

		it("should keep one record per endpoint: the same id for the same actor, moved to a new actor, at most the cap per actor", async () => {
			const store = openStore();
			let now = Date.parse("2030-01-01T00:00:00Z");
			const subs = new PushSubscriptions(store, () => (now += 1000));
			const [a, b] = [randomUUID(), randomUUID()];
			const browser = { endpoint: `${PUSH_SERVICE}/send/abc`, keys: valid().keys };
			const first = await subs.add(a, browser, false);
			const renewedKeys = valid().keys;
			const again = await subs.add(a, { ...browser, keys: renewedKeys }, false);
			expect(again.subscriptionId).toBe(first.subscriptionId);
			const stored = await store.collection<PushSubscriptionDoc>(SUBSCRIPTIONS_COLLECTION).find({});
			expect(stored).toHaveLength(1);
			expect(stored[0]).toMatchObject({ actorId: a, keys: renewedKeys });

			const moved = await subs.add(b, browser, false);
			expect(moved.subscriptionId).not.toBe(first.subscriptionId);
			await expect(subs.list(a)).resolves.toEqual([]);
			await expect(subs.delete(a, moved.subscriptionId)).resolves.toBe(false);
			await expect(subs.delete(b, moved.subscriptionId)).resolves.toBe(true);

			for (let i = 0; i <= MAX_SUBSCRIPTIONS_PER_ACTOR; i++) await subs.add(a, { endpoint: `${PUSH_SERVICE}/send/${i}`, keys: valid().keys }, false);
			const kept = await subs.list(a);
			expect(kept).toHaveLength(MAX_SUBSCRIPTIONS_PER_ACTOR);
			expect(kept.some(s => s.endpoint.endsWith("/send/0"))).toBe(false);
			await expect(subs.deleteByEndpoint(`${PUSH_SERVICE}/send/${MAX_SUBSCRIPTIONS_PER_ACTOR}`)).resolves.toBe(1);
		});
	});
});
