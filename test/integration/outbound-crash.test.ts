/**
 * A webhook delivery survives a SIGKILL of the node sending it: the delivery is in
 * the store, its lease expires, and another node sends it again with the same
 * webhook-id. Real OS processes over real NATS, sharing one store.
 */
import fs from "node:fs";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import type { DeliveryDoc } from "../../lib/outbound/model";
import { SqliteStore } from "../../lib/store/sqlite";
import { http, newUser, tempDir, type HttpResult } from "../helpers/platform";
import { freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { Receiver } from "../helpers/receiver";
import { ADMIN_ENV, adminToken } from "../helpers/senders";
import { describeWith, NATS_URL, uniqueName } from "../helpers/services";

describeWith("NATS", "webhook deliveries across a crash", () => {
	it("should deliver with the same webhook-id from another node after the sending node is SIGKILLed mid-send", async () => {
		const dataDir = tempDir();
		const port = await freePort();
		const baseUrl = `http://127.0.0.1:${port}`;
		const env = { NATS_URL, NAMESPACE: uniqueName("hookcrash"), DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_TIMEOUT_MS: "1000", WEBHOOK_POLL_MS: "100" };
		const nodes: NodeProcess[] = [];
		const r = await Receiver.start();
		// The first request never gets an answer: the sender is killed while it waits.
		r.answer = (_got, index) => (index === 0 ? "hang" : { status: 200 });
		const store = new SqliteStore(path.join(dataDir, "store.sqlite"));
		try {
			nodes.push(startNode({ ...env, ...ADMIN_ENV, SERVICES: "api-gateway,auth,actors,notifications", PORT: String(port), NODE_ID: "hook-api" }));
			let reg!: HttpResult;
			await waitFor("the api node", async () => (reg = await http(baseUrl, "POST", "/auth/register", { json: newUser() })).status !== 503, 30000);
			expect(reg.status).toBe(201);
			// The administrator's endpoint gets the events of its notification, which goes to another address.
			const token = await adminToken(baseUrl);
			const first = startNode({ ...env, SERVICES: "outbound", NODE_ID: "hook-sender-1" });
			nodes.push(first);
			let ep!: HttpResult;
			await waitFor("the outbound node", async () => (ep = await http(baseUrl, "POST", "/webhook-endpoints", { token, json: { url: r.url, events: ["notification.queued"] } })).status === 201, 30000);

			const sent = await http(baseUrl, "POST", "/notifications", { token, json: { to: "crash@example.com", template: { subject: "s", text: "t" } } });
			expect(sent.status).toBe(201);
			await waitFor("the first node to send", async () => r.received.length === 1, 20000);
			expect(await first.stop("SIGKILL")).toBe(null);

			nodes.push(startNode({ ...env, SERVICES: "outbound", NODE_ID: "hook-sender-2" }));
			await waitFor("the second node to send it again", async () => r.received.length >= 2, 30000);
			const [a, b] = r.received;
			expect(b.headers["webhook-id"]).toBe(a.headers["webhook-id"]);
			expect(b.body).toBe(a.body);
			expect(new Webhook(ep.body.secret).verify(b.body, b.headers)).toMatchObject({ type: "notification.queued", data: { notificationId: sent.body.notificationId } });
			await waitFor("the delivery to be recorded", async () => (await store.collection<DeliveryDoc>("webhook_deliveries").findOne({ notificationId: sent.body.notificationId }))?.state === "DELIVERED");
		} finally {
			await Promise.all(nodes.map(n => n.stop()));
			await store.close();
			await r.close();
			fs.rmSync(dataDir, { recursive: true, force: true });
		}
	}, 90000);
});
