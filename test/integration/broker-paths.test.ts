/**
 * The broker paths between nodes, with three nodes in this process on Moleculer's Fake
 * transporter (test/helpers/fake-nodes.ts: every packet serialized as over NATS), one
 * store shared as in production: the gateway with auth, actors and notifications on
 * one node, a dispatcher on each of two others. What is tested is the platform's use of
 * the broker, not NATS (dispatch-multiprocess and live-status-nats run real NATS):
 *
 * - an accept on the gateway's node wakes one dispatcher on another node at once, by
 *   "notifications.queued" (the dispatchers poll only every minute here, so nothing
 *   else sends it), urgent for a CRITICAL notification, and the wakes take turns;
 * - the SENT a dispatcher node records reaches a live stream on the gateway's node as a
 *   status-events broadcast;
 * - a dispatcher node reads the feature flag that holds LOW notifications from the
 *   features service on the gateway's node.
 */
import fs from "node:fs";
import { Dispatcher } from "../../lib/notifications/dispatcher";
import type { NotificationDoc } from "../../lib/notifications/model";
import { startFakeNode, knowsService } from "../helpers/fake-nodes";
import { http, runtime, tempDir, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { ADMIN_ENV, adminToken } from "../helpers/senders";
import { uniqueName } from "../helpers/services";
import { SseClient } from "../helpers/sse";

/** The longest poll interval there is: a send sooner than this came from a wake. */
const POLL_MS = "60000";

describe("broker paths between nodes (Fake transporter)", () => {
	const dataDir = tempDir();
	let api: Platform;
	let dispatchers: Platform[] = [];
	let token: string;
	const wakes: Array<{ dispatcher: Dispatcher; urgent: boolean }> = [];
	const streams: SseClient[] = [];

	beforeAll(async () => {
		const env = { NAMESPACE: uniqueName("fake"), DATA_DIR: dataDir, DISPATCHER_POLL_MS: POLL_MS };
		api = await startFakeNode({ ...env, ...ADMIN_ENV, SERVICES: "api-gateway,auth,actors,notifications", NODE_ID: "fake-api" });
		dispatchers = [await startFakeNode({ ...env, SERVICES: "dispatcher", NODE_ID: "fake-d1" }), await startFakeNode({ ...env, SERVICES: "dispatcher", NODE_ID: "fake-d2" })];
		await waitFor("the gateway's node to know both dispatchers", async () => knowsService(api.broker, "dispatcher", 2), 10000, 20);
		await waitFor("the dispatchers' nodes to know the gateway", async () => dispatchers.every(d => knowsService(d.broker, "api")), 10000, 20);
		token = await adminToken(api.baseUrl);
		// Each dispatcher has claimed once at its start and now idles for the poll interval.
		const wake = Dispatcher.prototype.wake;
		jest.spyOn(Dispatcher.prototype, "wake").mockImplementation(function (this: Dispatcher, urgent = false) {
			wakes.push({ dispatcher: this, urgent });
			wake.call(this, urgent);
		});
	}, 30000);

	afterAll(async () => {
		jest.restoreAllMocks();
		await Promise.all(streams.map(s => s.close()));
		for (const node of [...dispatchers, api]) await node?.stop();
		fs.rmSync(dataDir, { recursive: true, force: true });
	});

	const notifications = () => runtime(api).store().collection<NotificationDoc>("notifications");

	async function accept(priority: string): Promise<string> {
		const res = await http(api.baseUrl, "POST", "/notifications", { token, json: { to: `fake-${priority.toLowerCase()}@example.com`, priority, template: { subject: "s", text: "t" } } });
		expect(res.status).toBe(201);
		return res.body.notificationId as string;
	}

	const sent = (id: string) => async () => (await notifications().get(id))?.status === "SENT";

	it("should wake one dispatcher on another node when a notification is accepted, urgent for a CRITICAL one, the wakes taking turns", async () => {
		wakes.length = 0;
		const normal = await accept("NORMAL");
		await waitFor("the NORMAL notification SENT, long before a poll", sent(normal), 10000, 20);
		expect(wakes.map(w => w.urgent)).toEqual([false]);

		const critical = await accept("CRITICAL");
		await waitFor("the CRITICAL notification SENT, long before a poll", sent(critical), 10000, 20);
		expect(wakes.map(w => w.urgent)).toEqual([false, true]);
		// Emitted, not broadcast: one dispatcher is woken each time, and not the same one twice in a row.
		const instances = dispatchers.map(d => (d.broker.getLocalService("dispatcher") as unknown as { dispatcher: Dispatcher }).dispatcher);
		expect(instances).toContain(wakes[0].dispatcher);
		expect(instances).toContain(wakes[1].dispatcher);
		expect(wakes[1].dispatcher).not.toBe(wakes[0].dispatcher);
	});

	it("should stream to the gateway's node the SENT a dispatcher's node recorded", async () => {
		const id = await accept("HIGH");
		const stream = await SseClient.open(api.baseUrl, `/notifications/${id}/events`, token);
		streams.push(stream);
		expect(stream.status).toBe(200);
		await stream.until("SENT", c => c.events().includes("SENT"));
		expect(stream.events()).toEqual(["QUEUED", "SENT"]);
		const stored = await notifications().get(id);
		// Recorded on a dispatcher's node: the gateway's node has no dispatcher.
		expect(api.broker.getLocalService("dispatcher")).toBeFalsy();
		expect(stored).toMatchObject({ status: "SENT", providerMessageId: expect.any(String) });
	});

	it("should hold LOW notifications on the dispatchers' nodes while the flag on the gateway's node says paused, and send them once it does not", async () => {
		const set = (paused: boolean) => http(api.baseUrl, "PUT", "/admin/features/notifications.low-priority", { token, json: { paused } });
		const holding = () => Promise.all(dispatchers.map(d => (d.broker.getLocalService("dispatcher") as unknown as { holdLow(): Promise<boolean> }).holdLow()));
		expect((await set(true)).status).toBe(200);
		// Read through the features service on the gateway's node; a copy held from before is dropped by features.changed.
		await waitFor("both dispatchers to read the flag as paused", async () => (await holding()).every(Boolean), 10000, 20);
		const low = await accept("LOW");
		const normal = await accept("NORMAL");
		await waitFor("the NORMAL one SENT", sent(normal), 10000, 20);
		// Accepted after the LOW one and claimed before it: the LOW one was held, not slow.
		expect((await notifications().get(low))?.status).toBe("QUEUED");

		expect((await set(false)).status).toBe(200);
		await waitFor("both dispatchers to read the flag as not paused", async () => (await holding()).every(h => !h), 10000, 20);
		// The flag's change queues nothing: the next accept's wake claims the LOW one too.
		await accept("NORMAL");
		await waitFor("the LOW one SENT", sent(low), 10000, 20);
	});
});
