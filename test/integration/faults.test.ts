/**
 * Faults the platform must survive, with real processes and real servers: NATS
 * restarted, Redis stopped, a dispatcher stopped with SIGTERM and one killed with
 * SIGKILL under load. NATS and Redis here are private instances on their own ports.
 */
import fs from "node:fs";
import http_ from "node:http";
import net from "node:net";
import path from "node:path";
import type { NotificationDoc } from "../../lib/notifications/model";
import { SqliteStore } from "../../lib/store/sqlite";
import { newUser, startPlatform, tempDir } from "../helpers/platform";
import { freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { ADMIN_ENV, adminToken } from "../helpers/senders";
import { NATS_SERVER, REDIS_SERVER, startNatsServer, startRedisServer, type PrivateServer } from "../helpers/servers";
import { describeWithPrograms, uniqueName } from "../helpers/services";
import { startSesLocal, type SesLocal } from "../helpers/ses-local";

/** One request that must answer within `ms`, or the test fails instead of hanging. */
async function quick(baseUrl: string, method: string, url: string, opts: { token?: string; json?: unknown } = {}, ms = 5000) {
	const headers: Record<string, string> = {};
	if (opts.token) headers.authorization = `Bearer ${opts.token}`;
	if (opts.json !== undefined) headers["content-type"] = "application/json";
	const res = await fetch(baseUrl + url, { method, headers, body: opts.json === undefined ? undefined : JSON.stringify(opts.json), signal: AbortSignal.timeout(ms) });
	return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

function outboxCounts(dataDir: string): Map<string, number> {
	const dir = path.join(dataDir, "outbox");
	const counts = new Map<string, number>();
	if (!fs.existsSync(dir)) return counts;
	for (const f of fs.readdirSync(dir).filter(f => f.endsWith(".eml"))) counts.set(f.split(".")[0], (counts.get(f.split(".")[0]) ?? 0) + 1);
	return counts;
}

describeWithPrograms({ "nats-server": NATS_SERVER }, "NATS restarted", () => {
	it("should fail fast with 503 during the outage, lose nothing accepted, and recover without restarts", async () => {
		const nats = await startNatsServer();
		const dataDir = tempDir();
		const port = await freePort();
		const baseUrl = `http://127.0.0.1:${port}`;
		const env = { NATS_URL: nats.url, NAMESPACE: uniqueName("nats-fault"), DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, DISPATCHER_POLL_MS: "200", REQUEST_TIMEOUT_MS: "30000" };
		const nodes: NodeProcess[] = [
			startNode({ ...env, ...ADMIN_ENV, SERVICES: "api-gateway,auth,notifications", PORT: String(port), NODE_ID: "api" }),
			startNode({ ...env, SERVICES: "actors", NODE_ID: "actors" }),
			startNode({ ...env, SERVICES: "dispatcher", NODE_ID: "dispatcher" })
		];
		const store = new SqliteStore(path.join(dataDir, "store.sqlite"));
		try {
			// Registration needs the actor node over NATS: until it is discovered the
			// gateway answers 503 and nothing is kept, so try until it goes through.
			let reg!: Awaited<ReturnType<typeof quick>>;
			await waitFor("the actor node", async () => (reg = await quick(baseUrl, "POST", "/auth/register", { json: newUser() })).status !== 503, 30000);
			expect(reg.status).toBe(201);
			const { accessToken: token, actorId } = reg.body;
			// The notification goes to another address: the administrator's to send.
			const admin = await adminToken(baseUrl);

			await nats.stop();
			await waitFor("the gateway to notice the outage", async () => (await quick(baseUrl, "GET", `/actors/${actorId}`, { token })).status === 503, 15000);
			const during = await quick(baseUrl, "GET", `/actors/${actorId}`, { token });
			expect({ status: during.status, code: during.body.code }).toEqual({ status: 503, code: "UPSTREAM_UNAVAILABLE" });
			const ready = await quick(baseUrl, "GET", "/health/ready");
			expect(ready.status).toBe(503);
			expect(ready.body.checks.transporter).toBe("down");
			const accepted = await quick(baseUrl, "POST", "/notifications", { token: admin, json: { to: "outage@example.com", template: { subject: "s", text: "t" } } });
			expect(accepted.status).toBe(201);

			await nats.start();
			await waitFor("the actor to be readable again", async () => (await quick(baseUrl, "GET", `/actors/${actorId}`, { token })).status === 200, 30000);
			const notifications = store.collection<NotificationDoc>("notifications");
			await waitFor("the notification accepted during the outage to be SENT", async () => (await notifications.get(accepted.body.notificationId))?.status === "SENT", 30000);
			expect((await quick(baseUrl, "GET", "/health/ready")).status).toBe(200);
		} finally {
			await Promise.all(nodes.map(n => n.stop()));
			await store.close();
			await nats.stop();
			fs.rmSync(dataDir, { recursive: true, force: true });
		}
	}, 120000);
});

describeWithPrograms({ "redis-server": REDIS_SERVER }, "Redis stopped", () => {
	it("should keep the flows that do not need Redis working, rate limits included, report not ready, and recover", async () => {
		const redis: PrivateServer = await startRedisServer();
		const p = await startPlatform({ REDIS_URL: redis.url, NAMESPACE: uniqueName("redis-fault"), RATE_LIMIT_LOGIN_PER_USER: "2" });
		try {
			const user = newUser();
			const reg = await quick(p.baseUrl, "POST", "/auth/register", { json: user });
			expect(reg.status).toBe(201);
			await redis.stop();
			const login = await quick(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } });
			expect(login.status).toBe(200);
			// The login limit still holds, counted on this node until Redis is back.
			expect((await quick(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } })).status).toBe(200);
			const limited = await quick(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } });
			expect({ status: limited.status, code: limited.body.code }).toEqual({ status: 429, code: "RATE_LIMITED" });
			expect((await quick(p.baseUrl, "GET", `/actors/${reg.body.actorId}`, { token: login.body.accessToken })).status).toBe(200);
			const ready = await quick(p.baseUrl, "GET", "/health/ready");
			expect(ready.status).toBe(503);
			expect(ready.body.checks.redis).toBe("down");
			// Temporary tokens live in Redis: the exchange cannot answer 401 or 200 without it.
			const exchange = await quick(p.baseUrl, "POST", "/auth/tokens/exchange", { json: { token: "A".repeat(43) } });
			expect({ status: exchange.status, code: exchange.body.code }).toEqual({ status: 503, code: "UPSTREAM_UNAVAILABLE" });
			await redis.start();
			await waitFor("readiness to recover", async () => (await quick(p.baseUrl, "GET", "/health/ready")).status === 200, 20000);
			const after = await quick(p.baseUrl, "POST", "/auth/tokens/exchange", { json: { token: "A".repeat(43) } });
			expect({ status: after.status, code: after.body.code }).toEqual({ status: 401, code: "INVALID_TEMPORARY_TOKEN" });
		} finally {
			await p.stop();
			await redis.stop();
		}
	}, 60000);
});

describeWithPrograms({ "nats-server": NATS_SERVER }, "dispatcher stops", () => {
	let nats: PrivateServer;
	let ses: SesLocal;
	beforeAll(async () => {
		nats = await startNatsServer();
		ses = await startSesLocal();
	});
	afterAll(async () => {
		await nats.stop();
		await ses.stop();
	});

	async function cluster(env: Record<string, string>) {
		const dataDir = tempDir();
		const port = await freePort();
		const baseUrl = `http://127.0.0.1:${port}`;
		const common = { NATS_URL: nats.url, NAMESPACE: uniqueName("stop"), DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, DISPATCHER_POLL_MS: "200", ...env };
		const api = startNode({ ...common, ...ADMIN_ENV, SERVICES: "api-gateway,auth,actors,notifications", PORT: String(port), NODE_ID: "api" });
		await waitFor("the api node", async () => (await quick(baseUrl, "GET", "/health/ready")).status === 200, 30000);
		// The notifications go to any address: the administrator sends them.
		const token = await adminToken(baseUrl);
		const store = new SqliteStore(path.join(dataDir, "store.sqlite"));
		return {
			baseUrl,
			dataDir,
			common,
			token,
			store,
			nodes: [api],
			async post(n: number, prefix: string) {
				const ids: string[] = [];
				for (let i = 0; i < n; i += 25) {
					const rs = await Promise.all(
						Array.from({ length: Math.min(25, n - i) }, (_, j) => quick(baseUrl, "POST", "/notifications", { token: this.token, json: { to: `${prefix}${i + j}@example.com`, template: { subject: "s", text: "t" } } }))
					);
					for (const r of rs) {
						expect(r.status).toBe(201);
						ids.push(r.body.notificationId);
					}
				}
				return ids;
			},
			async close() {
				await Promise.all(this.nodes.map(n => n.stop()));
				await store.close();
				fs.rmSync(dataDir, { recursive: true, force: true });
			}
		};
	}

	it("should finish its in-flight sends and exit cleanly on SIGTERM", async () => {
		// A slow link to the real SES emulator: every response takes a second.
		const target = new URL(ses.endpoint);
		let reachedProvider = 0;
		const slow = http_.createServer((req, res) => {
			reachedProvider += 1;
			const chunks: Buffer[] = [];
			req.on("data", c => chunks.push(c));
			req.on("end", () =>
				setTimeout(() => {
					const up = http_.request({ host: target.hostname, port: Number(target.port), path: req.url, method: req.method, headers: req.headers }, r => {
						res.writeHead(r.statusCode ?? 502, r.headers);
						r.pipe(res);
					});
					up.end(Buffer.concat(chunks));
				}, 1000)
			);
		});
		await new Promise<void>(r => slow.listen(0, "127.0.0.1", r));
		const c = await cluster({});
		try {
			const d = startNode({ ...c.common, SERVICES: "dispatcher", NODE_ID: "d", EMAIL_PROVIDER: "ses", AWS_SES_ENDPOINT: `http://127.0.0.1:${(slow.address() as net.AddressInfo).port}` });
			c.nodes.push(d);
			const ids = await c.post(5, "term");
			const notifications = c.store.collection<NotificationDoc>("notifications");
			// In flight means handed to the provider: a claimed notification that has not
			// reached it yet is given back to the queue by the stop instead.
			await waitFor("all 5 to be in flight", async () => (await notifications.count({ status: "PROCESSING", id: { $in: ids } })) === 5 && reachedProvider >= 5, 20000);
			await expect(d.stop("SIGTERM")).resolves.toBe(0);
			for (const id of ids) await expect(notifications.get(id)).resolves.toMatchObject({ status: "SENT", attempts: 1 });
			const delivered = new Set((await ses.emails()).map(e => e.destination.to[0]));
			expect(ids.map((_, i) => `term${i}@example.com`).every(a => delivered.has(a))).toBe(true);
		} finally {
			await c.close();
			slow.close();
		}
	}, 60000);

	it("should bring every notification to a final status when a dispatcher is killed under load, with duplicates only among its in-flight work", async () => {
		const concurrency = 8;
		const c = await cluster({ NOTIFICATION_LEASE_MS: "1500", DISPATCHER_CONCURRENCY: String(concurrency) });
		try {
			const victim = startNode({ ...c.common, SERVICES: "dispatcher", NODE_ID: "victim" });
			const survivor = startNode({ ...c.common, SERVICES: "dispatcher", NODE_ID: "survivor" });
			c.nodes.push(victim, survivor);
			const ids = await c.post(400, "load");
			const notifications = c.store.collection<NotificationDoc>("notifications");
			await waitFor("some progress before the kill", async () => (await notifications.count({ status: "SENT", id: { $in: ids } })) >= 50, 30000);
			await victim.stop("SIGKILL");
			await waitFor("every notification to reach SENT", async () => (await notifications.count({ status: "SENT", id: { $in: ids } })) === 400, 60000);
			const counts = outboxCounts(c.dataDir);
			expect(ids.every(id => (counts.get(id) ?? 0) >= 1)).toBe(true);
			const duplicates = ids.filter(id => counts.get(id)! > 1).length;
			console.log(`SIGKILL under load: 400 notifications, ${duplicates} sent twice (at most ${concurrency} were in flight on the killed node)`);
			expect(duplicates).toBeLessThanOrEqual(concurrency);
		} finally {
			await c.close();
		}
	}, 120000);
});
