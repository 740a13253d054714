/**
 * The inbox stream across processes over real NATS: the stream is open on one
 * gateway process; the message is stored by the dispatcher on another process, and a
 * mark is made through that other process's gateway. Both reach the stream as
 * "inbox.changed" broker events, well before a heartbeat (15 s) could have read them:
 * a `message` event with its `count`, then the `count` after the mark. A second stream
 * resuming with Last-Event-ID gets what was stored on the other process meanwhile.
 */
import { http, newUser, tempDir, type HttpResult } from "../helpers/platform";
import { freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { ADMIN_ENV, adminToken } from "../helpers/senders";
import { describeWith, NATS_URL, uniqueName } from "../helpers/services";
import { SseClient } from "../helpers/sse";
import fs from "node:fs";

describeWith("NATS", "the inbox stream with the store, the mark and the stream on separate processes", () => {
	let dataDir: string;
	let baseA: string;
	let baseB: string;
	let nodes: NodeProcess[] = [];
	let admin: string;
	let user: { token: string; actorId: string };

	beforeAll(async () => {
		dataDir = tempDir();
		const [portA, portB] = [await freePort(), await freePort()];
		baseA = `http://127.0.0.1:${portA}`;
		baseB = `http://127.0.0.1:${portB}`;
		const env = { NATS_URL, NAMESPACE: uniqueName("inbox"), DATA_DIR: dataDir, PUBLIC_URL: baseA, DISPATCHER_POLL_MS: "200" };
		nodes.push(startNode({ ...env, ...ADMIN_ENV, SERVICES: "api-gateway,auth,actors,notifications", PORT: String(portA), NODE_ID: "inbox-a" }));
		nodes.push(startNode({ ...env, SERVICES: "api-gateway,notifications,dispatcher", PORT: String(portB), NODE_ID: "inbox-b", LOG_LEVEL: "info" }));
		let reg!: HttpResult;
		await waitFor("node a", async () => (reg = await http(baseA, "POST", "/auth/register", { json: newUser() })).status !== 503, 30000);
		expect(reg.status).toBe(201);
		user = { token: reg.body.accessToken, actorId: reg.body.actorId };
		admin = await adminToken(baseA);
		await waitFor("node b", async () => (await http(baseB, "GET", `/actors/${user.actorId}/inbox/count`, { token: user.token })).status === 200, 30000);
		// A broker event goes to the nodes its sender knows: wait until b knows a.
		await waitFor("node b to know node a", async () => nodes[1].output().includes("Node 'inbox-a' connected"), 30000);
	}, 60000);

	afterAll(async () => {
		await Promise.all(nodes.map(n => n.stop()));
		nodes = [];
		fs.rmSync(dataDir, { recursive: true, force: true });
	});

	it("should stream the message stored and the mark made on the other process, and resume after Last-Event-ID", async () => {
		const inbox = `/actors/${user.actorId}/inbox`;
		const stream = await SseClient.open(baseA, `${inbox}/stream`, user.token);
		let lastId: string;
		try {
			expect(stream.status).toBe(200);
			await stream.until("the first count", c => c.events().includes("count"), 10000);
			// Sent through a, stored by the dispatcher on b: only b's broker event brings it within 10 s.
			const sent = await http(baseA, "POST", "/notifications", { token: admin, json: { channel: "IN_APP", to: user.actorId, template: { subject: "Across", text: "nodes" }, data: { via: "nats" } } });
			expect(sent.status).toBe(201);
			await stream.until("the message and its count", c => c.events().length >= 3, 10000);
			expect(stream.messages).toEqual([
				{ event: "count", data: { unread: 0, unseen: 0 } },
				{ id: expect.any(String), event: "message", data: { notificationId: sent.body.notificationId, title: "Across", body: "nodes", data: { via: "nats" }, createdAt: expect.any(String) } },
				{ event: "count", data: { unread: 1, unseen: 1 } }
			]);
			lastId = stream.messages[1].id!;

			const marked = await http(baseB, "PATCH", `${inbox}/${sent.body.notificationId}`, { token: user.token, json: { read: true } });
			expect(marked.status).toBe(200);
			await stream.until("the count after the mark on b", c => c.events().length >= 4, 10000);
			expect(stream.messages[3]).toEqual({ event: "count", data: { unread: 0, unseen: 0 } });
		} finally {
			await stream.close();
		}

		const missed = await http(baseB, "POST", "/notifications", { token: admin, json: { channel: "IN_APP", to: user.actorId, template: { text: "while away" } } });
		expect(missed.status).toBe(201);
		await waitFor("the missed message", async () => (await http(baseB, "GET", `${inbox}/count`, { token: user.token })).body.unread === 1, 10000);
		const resumed = await SseClient.open(baseA, `${inbox}/stream`, user.token, lastId);
		try {
			await resumed.until("the missed message", c => c.events().includes("count"), 10000);
			expect(resumed.messages).toEqual([
				{ id: expect.any(String), event: "message", data: expect.objectContaining({ notificationId: missed.body.notificationId, title: "", body: "while away" }) },
				{ event: "count", data: { unread: 1, unseen: 1 } }
			]);
		} finally {
			await resumed.close();
		}
	}, 60000);
});
