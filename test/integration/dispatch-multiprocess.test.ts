/**
 * Dispatcher nodes as separate OS processes over real NATS, sharing one store:
 * no notification is sent twice, and a dispatcher killed mid-lease loses nothing.
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { SqliteStore } from "../../lib/store/sqlite";
import type { NotificationDoc } from "../../lib/notifications/model";
import { http, newUser, tempDir, type HttpResult } from "../helpers/platform";
import { freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { ADMIN_ENV, adminToken } from "../helpers/senders";
import { describeWith, NATS_URL, uniqueName } from "../helpers/services";
import { Cluster } from "../../harness/cluster";
import { requireBuild } from "../../harness/processes";

interface Nodes {
	baseUrl: string;
	dataDir: string;
	env: Record<string, string>;
	nodes: NodeProcess[];
	store: SqliteStore;
	/** The administrator's: the notifications go to any address. */
	token: string;
}

async function startCluster(extraEnv: Record<string, string> = {}): Promise<Nodes> {
	const dataDir = tempDir();
	const port = await freePort();
	const env = { NATS_URL, NAMESPACE: uniqueName("disp"), DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, NOTIFICATION_LEASE_MS: "1500", DISPATCHER_POLL_MS: "200", ...extraEnv };
	const api = startNode({ ...env, ...ADMIN_ENV, SERVICES: "api-gateway,auth,actors,notifications", PORT: String(port), NODE_ID: "api" });
	const baseUrl = `http://127.0.0.1:${port}`;
	// The gateway answers (a 401) before the services behind it have started; until
	// they have, registration answers 503 and keeps nothing, so try until it goes through.
	let reg!: HttpResult;
	await waitFor("the api node", async () => (reg = await http(baseUrl, "POST", "/auth/register", { json: newUser() })).status !== 503, 30000);
	expect(reg.status).toBe(201);
	return { baseUrl, dataDir, env, nodes: [api], store: new SqliteStore(path.join(dataDir, "store.sqlite")), token: await adminToken(baseUrl) };
}

async function stopCluster(c: Nodes) {
	await Promise.all(c.nodes.map(n => n.stop()));
	await c.store.close();
	fs.rmSync(c.dataDir, { recursive: true, force: true });
}

async function post(c: Nodes, count: number, prefix: string): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i += 25) {
		const batch = await Promise.all(
			Array.from({ length: Math.min(25, count - i) }, (_, j) =>
				http(c.baseUrl, "POST", "/notifications", { token: c.token, json: { to: `${prefix}${i + j}@example.com`, template: { subject: "s", text: "t" } } })
			)
		);
		for (const r of batch) {
			expect(r.status).toBe(201);
			ids.push(r.body.notificationId);
		}
	}
	return ids;
}

/** What reached the outbox, as notification id → number of files. */
function outbox(dataDir: string): Map<string, number> {
	const dir = path.join(dataDir, "outbox");
	const counts = new Map<string, number>();
	if (!fs.existsSync(dir)) return counts;
	for (const f of fs.readdirSync(dir).filter(f => f.endsWith(".eml"))) {
		const id = f.split(".")[0];
		counts.set(id, (counts.get(id) ?? 0) + 1);
	}
	return counts;
}

describeWith("NATS", "dispatchers on separate processes", () => {
	it("should send each of 300 notifications exactly once when two dispatchers share the queue", async () => {
		// The same harness the benchmarks use: an api node and dispatcher nodes as OS processes.
		requireBuild();
		const cluster = await Cluster.start({ label: "once", startTimeoutMs: 30000, natsUrl: NATS_URL, env: { DISPATCHER_POLL_MS: "200" } });
		try {
			await cluster.startDispatchers(2);
			const ids: string[] = [];
			for (let i = 0; i < 300; i += 25) {
				const batch = await Promise.all(
					Array.from({ length: 25 }, (_, j) =>
						http(cluster.base, "POST", "/notifications", { token: cluster.admin, json: { to: `once${i + j}@example.com`, template: { subject: "s", text: "t" } } })
					)
				);
				for (const r of batch) {
					expect(r.status).toBe(201);
					ids.push(r.body.notificationId);
				}
			}
			const notifications = cluster.store.collection<NotificationDoc>("notifications");
			await waitFor("all 300 to be SENT", async () => (await notifications.count({ status: "SENT", id: { $in: ids } })) === 300, 60000);
			// Besides the registration's verification mail, exactly these 300.
			const sent = outbox(cluster.dataDir);
			expect([...sent.keys()].filter(id => ids.includes(id))).toHaveLength(300);
			expect(ids.every(id => sent.get(id) === 1)).toBe(true);
		} finally {
			await cluster.stop();
		}
	}, 90000);

	it("should send the work of a dispatcher killed mid-lease from the other one after the lease expires", async () => {
		// A "provider" that accepts connections and never answers: sends hang until the kill.
		const hang = net.createServer(() => undefined);
		await new Promise<void>(r => hang.listen(0, "127.0.0.1", r));
		const hangPort = (hang.address() as net.AddressInfo).port;
		const c = await startCluster();
		try {
			const stuck = startNode({
				...c.env,
				SERVICES: "dispatcher",
				NODE_ID: "stuck",
				EMAIL_PROVIDER: "ses",
				AWS_SES_ENDPOINT: `http://127.0.0.1:${hangPort}`,
				// Leases are renewed to cover a whole send (7 s here), so the rescue comes after that.
				EMAIL_SEND_TIMEOUT_MS: "5000"
			});
			c.nodes.push(stuck);
			const ids = await post(c, 10, "killed");
			const notifications = c.store.collection<NotificationDoc>("notifications");
			await waitFor("the stuck dispatcher to hold all 10", async () => (await notifications.count({ status: "PROCESSING", id: { $in: ids } })) === 10, 30000);
			await stuck.stop("SIGKILL");
			c.nodes.push(startNode({ ...c.env, SERVICES: "dispatcher", NODE_ID: "rescuer" }));
			await waitFor("all 10 to be SENT", async () => (await notifications.count({ status: "SENT", id: { $in: ids } })) === 10, 30000);
			const sent = outbox(c.dataDir);
			expect(ids.every(id => sent.get(id) === 1)).toBe(true);
			for (const id of ids) {
				const n = await notifications.get(id);
				expect(n).toMatchObject({ status: "SENT", attempts: 2 });
				const events = await c.store.collection<{ id: string; event: string }>("notification_events").find({ notificationId: id });
				expect(events.map(e => e.event)).toEqual(expect.arrayContaining(["QUEUED", "LEASE_EXPIRED", "SENT"]));
			}
		} finally {
			await stopCluster(c);
			hang.close();
		}
	}, 90000);
});
