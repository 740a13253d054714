/**
 * Webhook deliveries that the node recording an event did not live to store. The
 * crash state is made as a crash leaves it: the real accept path commits the
 * notification and its QUEUED event on a store whose commit listener never runs (the
 * node died right after the commit), so the events are durable and no delivery is.
 * The recovery sweep (lib/outbound/recovery.ts) must then store each missing delivery
 * once, leave alone the ones that exist, and skip other owners, unwanted types and
 * endpoints created after the event: on SQLite always, on MongoDB when a server is
 * reachable. End to end, an outbound node delivers the lost event signed, exactly once.
 */
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { Webhook } from "standardwebhooks";
import { NotificationIntake, StatusPublisher, statusEventsBetween } from "../../lib/notifications";
import { statusEvent } from "../../lib/notifications/events";
import type { Creator, EventDoc } from "../../lib/notifications/model";
import { enqueueDeliveries, webhookIdOf } from "../../lib/outbound/deliveries";
import { createEndpoint } from "../../lib/outbound/endpoints";
import type { DeliveryDoc } from "../../lib/outbound/model";
import { DeliveryRecovery } from "../../lib/outbound/recovery";
import type { Store } from "../../lib/store";
import { MongoStore } from "../../lib/store/mongo";
import { SCHEMA } from "../../lib/store/schema";
import { SqliteStore } from "../../lib/store/sqlite";
import { mongoSource, startMongo } from "../helpers/mongo";
import { http, startPlatform, tempDir } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { verifiedUser } from "../helpers/senders";
import { Receiver } from "../helpers/receiver";
import { uniqueName } from "../helpers/services";

const MARGIN_MS = 1000;
const quiet = { warn: () => undefined, error: () => undefined };
/** Loopback endpoints, as in every test here; the cap is never reached. */
const OPEN = { allowPrivate: true, maxPerOwner: 10 };

/** A notification accepted by a node that died right after the commit: its event is stored, nothing else happened. */
async function acceptedThenCrashed(store: Store, owner: Creator): Promise<EventDoc> {
	const { notificationId } = await new NotificationIntake(store, new StatusPublisher()).accept({ to: `lost${randomUUID()}@example.com`, template: { subject: "s", text: "t" } }, owner);
	const [queued] = await store.collection<EventDoc>("notification_events").find({ notificationId });
	return queued;
}

function user(): Creator {
	return { kind: "user", id: randomUUID() };
}

function sweepContract(name: string, open: () => Promise<{ store: Store; cleanup: () => Promise<void> }>) {
	describe(`webhook recovery sweep: ${name}`, () => {
		let store: Store;
		let cleanup: () => Promise<void>;
		let clock: number;

		function recovery(pageSize = 2) {
			return new DeliveryRecovery({ store, feed: (after, until, limit, owners) => statusEventsBetween(store, after, until, limit, owners), marginMs: MARGIN_MS, log: quiet, now: () => clock, pageSize });
		}

		function deliveriesTo(endpointId: string) {
			return store.collection<DeliveryDoc>("webhook_deliveries").find({ endpointId }, { sort: { seq: 1 } });
		}

		beforeAll(async () => {
			({ store, cleanup } = await open());
		});
		afterAll(async () => {
			await cleanup?.();
		});
		beforeEach(async () => {
			for (const c of Object.keys(SCHEMA)) await store.collection(c).deleteMany({});
			clock = Date.now();
		});

		it("should store each missing delivery once when its event is past the margin, and none that exists, for others or not wanted", async () => {
			const owner = user();
			const all = await createEndpoint(store, owner, "http://127.0.0.1:9/all", [], OPEN);
			const sentOnly = await createEndpoint(store, owner, "http://127.0.0.1:9/sent", ["notification.sent"], OPEN);
			const someoneElse = await createEndpoint(store, user(), "http://127.0.0.1:9/other", [], OPEN);
			// The first pass starts the cursor; what happens from here on is swept.
			await expect(recovery().sweep()).resolves.toBe(0);

			const lost = [];
			for (let i = 0; i < 5; i++) lost.push(await acceptedThenCrashed(store, owner));
			await acceptedThenCrashed(store, user());
			// This one's node lived: the usual path stored its delivery just after the commit.
			const delivered = await acceptedThenCrashed(store, owner);
			expect(await enqueueDeliveries(store, [statusEvent(owner, delivered, "QUEUED")])).toBe(1);
			const [before] = await store.collection<DeliveryDoc>("webhook_deliveries").find({ notificationId: delivered.notificationId });
			// Created after the events occurred: it never wanted them.
			await waitFor("the clock to pass the events", async () => Date.now() > Date.parse(delivered.occurredAt));
			const late = await createEndpoint(store, owner, "http://127.0.0.1:9/late", [], OPEN);

			// Within the margin the sweep leaves them: their writes may still be on the way.
			clock = Date.parse(lost[0].occurredAt) + MARGIN_MS - 1;
			await expect(recovery().sweep()).resolves.toBe(0);
			expect(await deliveriesTo(all.endpointId)).toHaveLength(1);

			clock = Date.now() + MARGIN_MS + 1;
			await expect(recovery().sweep()).resolves.toBe(5);
			const stored = await deliveriesTo(all.endpointId);
			expect(stored.map(d => d.id).sort()).toEqual([...lost, delivered].map(e => `${all.endpointId}:${e.seq}`).sort());
			for (const e of lost) {
				const d = stored.find(s => s.seq === e.seq)!;
				expect(d).toMatchObject({ notificationId: e.notificationId, state: "PENDING", attempts: 0, type: "notification.queued", webhookId: webhookIdOf(all.endpointId, e.seq) });
				expect(JSON.parse(d.body)).toEqual({ type: "notification.queued", timestamp: e.occurredAt, data: { notificationId: e.notificationId, status: "QUEUED", event: "QUEUED", occurredAt: e.occurredAt } });
			}
			expect(stored.find(d => d.seq === delivered.seq)).toEqual(before);
			expect(await deliveriesTo(sentOnly.endpointId)).toEqual([]);
			expect(await deliveriesTo(someoneElse.endpointId)).toEqual([]);
			expect(await deliveriesTo(late.endpointId)).toEqual([]);

			// The cursor has passed them: later passes store nothing again.
			clock += 10 * MARGIN_MS;
			await expect(recovery().sweep()).resolves.toBe(0);
			await expect(store.collection("webhook_deliveries").count({})).resolves.toBe(6);
		});

		it("should let one pass at a time take the cursor when two nodes sweep at once", async () => {
			const owner = user();
			const ep = await createEndpoint(store, owner, "http://127.0.0.1:9/all", [], OPEN);
			await recovery().sweep();
			for (let i = 0; i < 4; i++) await acceptedThenCrashed(store, owner);
			clock = Date.now() + MARGIN_MS + 1;
			const added = await Promise.all([recovery(1).sweep(), recovery(1).sweep()]);
			expect(added.sort()).toEqual([0, 4]);
			expect(await deliveriesTo(ep.endpointId)).toHaveLength(4);
		});

		it("should read no events and move the cursor on while there are no endpoints", async () => {
			const owner = user();
			await recovery().sweep();
			const event = await acceptedThenCrashed(store, owner);
			clock = Date.now() + MARGIN_MS + 1;
			await expect(recovery().sweep()).resolves.toBe(0);
			const cursor = await store.collection<{ id: string; after: string }>("webhook_recovery").get("events");
			expect(cursor!.after > event.id).toBe(true);
			// An endpoint made now does not get the event it was created after.
			await createEndpoint(store, owner, "http://127.0.0.1:9/all", [], OPEN);
			clock += MARGIN_MS;
			await expect(recovery().sweep()).resolves.toBe(0);
		});
	});
}

sweepContract("sqlite", async () => {
	const dir = tempDir();
	const store = new SqliteStore(path.join(dir, "store.sqlite"));
	return {
		store,
		cleanup: async () => {
			await store.close();
			fs.rmSync(dir, { recursive: true, force: true });
		}
	};
});

const mongo = mongoSource();
if (mongo.reason) {
	console.warn(`Skipping the webhook recovery sweep on MongoDB: ${mongo.reason}`);
	describe.skip("webhook recovery sweep: mongodb", () => it("needs a MongoDB server", () => undefined));
} else {
	sweepContract("mongodb", async () => {
		const server = await startMongo(mongo);
		const url = new URL(server.url);
		url.pathname = `/${uniqueName("recovery")}`;
		const store = new MongoStore(url.toString());
		return {
			store,
			cleanup: async () => {
				await store.close();
				await server.stop();
			}
		};
	});
}

describe("webhook deliveries a crashed node did not store, end to end", () => {
	it("should deliver an event committed without its deliveries exactly once, signed, and one whose delivery exists once", async () => {
		const r = await Receiver.start();
		const p = await startPlatform({ WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_RECOVERY_MARGIN_MS: "1500", WEBHOOK_POLL_MS: "50" });
		// A second handle on the platform's own store file: the node that "crashed" wrote through it.
		const crashed = new SqliteStore(path.join(p.dataDir, "store.sqlite"));
		try {
			// A user with endpoints of its own, sending to itself as users may.
			const { token, email } = await verifiedUser(p);
			const owner: Creator = { kind: "user", id: decodeJwt(token).sub! };
			const ep = await http(p.baseUrl, "POST", "/webhook-endpoints", { token, json: { url: r.url, events: ["notification.queued"] } });
			expect(ep.status).toBe(201);

			const lost = await acceptedThenCrashed(crashed, owner);
			const deliveries = crashed.collection<DeliveryDoc>("webhook_deliveries");
			expect(await deliveries.count({ notificationId: lost.notificationId })).toBe(0);
			// The same owner's next notification takes the usual path: its delivery is stored at once.
			const kept = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: email, template: { subject: "s", text: "t" } } });
			expect(kept.status).toBe(201);
			const [keptEvent] = await crashed.collection<EventDoc>("notification_events").find({ notificationId: kept.body.notificationId, event: "QUEUED" });

			const ids = [lost.notificationId, kept.body.notificationId];
			const last = [lost.id, keptEvent.id].sort()[1];
			await waitFor("the sweep to pass both events and both deliveries to be made", async () => {
				const cursor = await crashed.collection<{ id: string; after: string }>("webhook_recovery").get("events");
				const done = await deliveries.find({ notificationId: { $in: ids } });
				return (cursor?.after ?? "") > last && done.length >= 2 && done.every(d => d.state === "DELIVERED");
			}, 20000);
			expect(await deliveries.count({ notificationId: { $in: ids } })).toBe(2);

			const verifier = new Webhook(ep.body.secret);
			const got = r.received.map(m => ({ id: m.headers["webhook-id"], payload: verifier.verify(m.body, m.headers) as { type: string; data: { notificationId: string } } }));
			expect(got.map(g => g.payload.data.notificationId).sort()).toEqual([...ids].sort());
			expect(got.every(g => g.payload.type === "notification.queued")).toBe(true);
			expect(got.find(g => g.payload.data.notificationId === lost.notificationId)!.id).toBe(webhookIdOf(ep.body.endpointId, lost.seq));
		} finally {
			await crashed.close();
			await p.stop();
			await r.close();
		}
	}, 60000);
});
