/**
 * Live status across processes over real NATS: the gateway on one OS process, the
 * dispatcher and the provider webhook on another. What they record there (SENT, and
 * the DELIVERED of a signed SNS message, posted while the stream is open) reaches the
 * stream here as broker events; the stream resumes after a disconnect without gaps
 * or repeats.
 */
import fs from "node:fs";
import path from "node:path";
import { SqliteStore } from "../../lib/store/sqlite";
import type { EventDoc, NotificationDoc } from "../../lib/notifications/model";
import { http, newUser, tempDir, type HttpResult } from "../helpers/platform";
import { freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { ADMIN_ENV, adminToken } from "../helpers/senders";
import { describeWith, NATS_URL, uniqueName } from "../helpers/services";
import { makeCert, notification, sesEvent, sign, startHttpsHost, type HttpsHost, type TestCert } from "../helpers/sns";
import { SseClient } from "../helpers/sse";

describeWith("NATS", "live status with the gateway and the dispatcher on separate processes", () => {
	let tls: TestCert;
	let host: HttpsHost;
	let dataDir: string;
	let baseUrl: string;
	let nodes: NodeProcess[] = [];
	let store: SqliteStore;
	// The administrator's: it sends to any address.
	let token: string;

	beforeAll(async () => {
		tls = makeCert();
		host = await startHttpsHost(tls, tls.cert);
		dataDir = tempDir();
		const caFile = path.join(dataDir, "test-ca.pem");
		fs.writeFileSync(caFile, tls.cert);
		const port = await freePort();
		baseUrl = `http://127.0.0.1:${port}`;
		const env = { NATS_URL, NAMESPACE: uniqueName("live"), DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, DISPATCHER_POLL_MS: "200", SNS_SIGNING_CERT_HOST_PATTERN: "^localhost:\\d+$", NODE_EXTRA_CA_CERTS: caFile };
		nodes.push(startNode({ ...env, ...ADMIN_ENV, SERVICES: "api-gateway,auth,actors,notifications", PORT: String(port), NODE_ID: "live-api" }));
		nodes.push(startNode({ ...env, SERVICES: "dispatcher,webhooks", NODE_ID: "live-dispatcher", LOG_LEVEL: "info" }));
		let reg!: HttpResult;
		await waitFor("the api node", async () => (reg = await http(baseUrl, "POST", "/auth/register", { json: newUser() })).status !== 503, 30000);
		expect(reg.status).toBe(201);
		token = await adminToken(baseUrl);
		// A broker event goes to the nodes its sender knows: wait until the dispatcher's node knows the gateway's.
		await waitFor("the dispatcher's node to know the gateway's", async () => nodes[1].output().includes("Node 'live-api' connected"), 30000);
		store = new SqliteStore(path.join(dataDir, "store.sqlite"));
	}, 60000);

	afterAll(async () => {
		await Promise.all(nodes.map(n => n.stop()));
		nodes = [];
		await store?.close();
		await host?.close();
		fs.rmSync(dataDir, { recursive: true, force: true });
	});

	it("should stream QUEUED, the SENT recorded on the dispatcher's process and a signed DELIVERED, and resume without gaps or repeats", async () => {
		const res = await http(baseUrl, "POST", "/notifications", { token, json: { to: "live-nats@example.com", template: { subject: "s", text: "t" } } });
		expect(res.status).toBe(201);
		const id = res.body.notificationId as string;
		const first = await SseClient.open(baseUrl, `/notifications/${id}/events`, token);
		try {
			expect(first.status).toBe(200);
			// Within 10 s: the stream's catch-up read (every 15 s) cannot have brought it, only the broker event or the first read.
			await first.until("SENT", c => c.events().includes("SENT"), 10000);
			expect(first.events()).toEqual(["QUEUED", "SENT"]);
		} finally {
			await first.close();
		}

		const doc = (await store.collection<NotificationDoc>("notifications").get(id))!;
		expect(doc.status).toBe("SENT");
		const certUrl = `https://localhost:${host.port}/SimpleNotificationService-test.pem`;
		const message = sign(notification(sesEvent("Delivery", doc.providerMessageId!), certUrl), tls.key);

		const second = await SseClient.open(baseUrl, `/notifications/${id}/events`, token, first.messages[1].id);
		try {
			expect(second.status).toBe(200);
			const hook = await http(baseUrl, "POST", "/notifications/webhooks/email-provider", { body: JSON.stringify(message), headers: { "content-type": "text/plain" } });
			expect(hook.status).toBe(200);
			// Posted while the stream is open, recorded on the other process: only its broker event brings it within 10 s.
			await second.until("DELIVERED", c => c.events().includes("DELIVERED"), 10000);
			expect(second.events()).toEqual(["DELIVERED"]);
		} finally {
			await second.close();
		}
		const stored = await store.collection<EventDoc>("notification_events").find({ notificationId: id }, { sort: { seq: 1 } });
		expect([...first.messages, ...second.messages].map(m => m.id)).toEqual(stored.map(e => e.seq));
	}, 60000);
});
