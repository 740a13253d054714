/**
 * Scheduling (`sendAt`), cancelling (DELETE while QUEUED) and listing
 * (GET /notifications with cursor pages), through the gateway and the real
 * dispatcher, and across a restart of a real platform process.
 */
import fs from "node:fs";
import path from "node:path";
import { newNotification } from "../../lib/notifications/accept";
import type { NotificationDoc } from "../../lib/notifications/model";
import { NotificationQueue } from "../../lib/notifications/queue";
import { StatusPublisher } from "../../lib/notifications";
import { SqliteStore } from "../../lib/store/sqlite";
import { http, newUser, startPlatform, tempDir, type Platform } from "../helpers/platform";
import { freePort, startNode, waitFor } from "../helpers/processes";
import { ADMIN_ENV, adminToken, serviceToken, verifiedUser, type VerifiedUser } from "../helpers/senders";

const inline = { template: { subject: "s", text: "t" } };

async function register(baseUrl: string) {
	const res = await http(baseUrl, "POST", "/auth/register", { json: newUser() });
	expect(res.status).toBe(201);
	return { token: res.body.accessToken as string, actorId: res.body.actorId as string };
}

function outboxFiles(dataDir: string, id: string): string[] {
	const dir = path.join(dataDir, "outbox");
	return fs.existsSync(dir) ? fs.readdirSync(dir).filter(f => f.startsWith(`${id}.`) && f.endsWith(".eml")) : [];
}

describe("scheduling and cancelling", () => {
	let p: Platform;
	// Schedules and cancels its own notifications: to its own verified address, as a user may.
	let user: VerifiedUser;

	beforeAll(async () => {
		p = await startPlatform({ DISPATCHER_POLL_MS: "50" });
		user = await verifiedUser(p);
	});
	afterAll(() => p.stop());

	const send = (json: Record<string, unknown>, token = user.token) => http(p.baseUrl, "POST", "/notifications", { token, json: { to: user.email, ...inline, ...json } });
	const view = (id: string, token = user.token) => http(p.baseUrl, "GET", `/notifications/${id}`, { token });

	it.each([
		["not a date", "tomorrow"],
		["no time zone", "2030-01-01T09:00:00"],
		["a date alone", "2030-01-01"],
		["more than 30 days ahead", new Date(Date.now() + 31 * 86_400_000).toISOString()],
		["not a string", 12345]
	])("should refuse a sendAt that is %s with 400", async (_what, sendAt) => {
		const res = await send({ sendAt });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe("VALIDATION_ERROR");
		expect(res.body.errors?.[0]?.field).toBe("sendAt");
	});

	it("should hold a scheduled notification until its time, then send it", async () => {
		const sendAt = new Date(Date.now() + 1500).toISOString();
		const res = await send({ sendAt });
		expect(res.status).toBe(201);
		const id = res.body.notificationId;
		const queued = await view(id);
		expect(queued.body).toMatchObject({ status: "QUEUED", sendAt });
		expect(queued.body.events[0]).toMatchObject({ event: "QUEUED", detail: { sendAt } });
		await waitFor("the scheduled notification to be sent", async () => (await view(id)).body.status === "SENT", 15000);
		const sent = (await view(id)).body;
		const claimed = sent.events.find((e: { event: string }) => e.event === "PROCESSING" || e.event === "SENT");
		expect(Date.parse(claimed.occurredAt)).toBeGreaterThanOrEqual(Date.parse(sendAt));
		expect(outboxFiles(p.dataDir, id)).toHaveLength(1);
	});

	it("should send at once a sendAt already past", async () => {
		const res = await send({ sendAt: new Date(Date.now() - 60_000).toISOString() });
		expect(res.status).toBe(201);
		await waitFor("the notification to be sent", async () => (await view(res.body.notificationId)).body.status === "SENT", 10000);
	});

	it("should cancel a QUEUED notification (never sent), refuse a second cancel with 409, and hide others' with 404", async () => {
		const res = await send({ sendAt: new Date(Date.now() + 1000).toISOString() });
		const id = res.body.notificationId;
		const stranger = await register(p.baseUrl);
		const hidden = await http(p.baseUrl, "DELETE", `/notifications/${id}`, { token: stranger.token });
		expect({ status: hidden.status, code: hidden.body.code }).toEqual({ status: 404, code: "NOTIFICATION_NOT_FOUND" });

		const cancelled = await http(p.baseUrl, "DELETE", `/notifications/${id}`, { token: user.token });
		expect(cancelled.status).toBe(200);
		expect(cancelled.body).toMatchObject({ notificationId: id, status: "CANCELLED" });
		expect(cancelled.body.events.map((e: { event: string }) => e.event)).toEqual(["QUEUED", "CANCELLED"]);

		const again = await http(p.baseUrl, "DELETE", `/notifications/${id}`, { token: user.token });
		expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: "NOT_CANCELLABLE" });
		expect(again.headers.get("content-type")).toMatch(/^application\/problem\+json/);
		expect((await http(p.baseUrl, "DELETE", "/notifications/not-a-uuid", { token: user.token })).status).toBe(400);

		// Past its time, it stays cancelled and unsent.
		await new Promise(r => setTimeout(r, 1500));
		expect((await view(id)).body.status).toBe("CANCELLED");
		expect(outboxFiles(p.dataDir, id)).toEqual([]);
	});

	it("should end every cancel racing a dispatcher claim either CANCELLED and unsent, or 409 and sent (20 tries)", async () => {
		const outcomes = { cancelled: 0, refused: 0 };
		for (let i = 0; i < 20; i++) {
			const res = await send({});
			expect(res.status).toBe(201);
			const id = res.body.notificationId;
			// Give the dispatcher, woken by the accept, a varying head start.
			await new Promise(r => setTimeout(r, i % 5));
			const cancel = await http(p.baseUrl, "DELETE", `/notifications/${id}`, { token: user.token });
			if (cancel.status === 200) {
				outcomes.cancelled++;
				await new Promise(r => setTimeout(r, 150));
				expect((await view(id)).body.status).toBe("CANCELLED");
				expect(outboxFiles(p.dataDir, id)).toEqual([]);
			} else {
				expect({ status: cancel.status, code: cancel.body.code }).toEqual({ status: 409, code: "NOT_CANCELLABLE" });
				outcomes.refused++;
				await waitFor(`notification ${id} to be sent`, async () => (await view(id)).body.status === "SENT", 10000);
				expect(outboxFiles(p.dataDir, id)).toHaveLength(1);
			}
		}
		expect(outcomes.cancelled + outcomes.refused).toBe(20);
		process.stdout.write(`cancel race: ${outcomes.cancelled} cancelled, ${outcomes.refused} refused and sent\n`);
	}, 60000);
});

describe("a scheduled CRITICAL in the queue", () => {
	it("is not claimed before it is due, and is claimed first, ahead of a LOW backlog, once it is", async () => {
		const dir = tempDir();
		const store = new SqliteStore(path.join(dir, "store.sqlite"));
		let now = Date.parse("2030-01-01T00:00:00Z");
		const queue = new NotificationQueue(store, new StatusPublisher(), () => now);
		const creator = { kind: "service" as const, id: "test" };
		try {
			const notifications = store.collection<NotificationDoc>("notifications");
			for (let i = 0; i < 50; i++) await notifications.insert(newNotification({ to: `low-${i}@example.com`, priority: "LOW", ...inline }, creator, now - 1000 + i));
			const critical = newNotification({ to: "critical@example.com", priority: "CRITICAL", sendAt: new Date(now + 60_000).toISOString(), ...inline }, creator, now);
			await notifications.insert(critical);

			const early = await queue.claim(5, 30_000);
			expect(early.map(n => n.priority)).toEqual(["LOW", "LOW", "LOW", "LOW", "LOW"]);
			now += 60_000;
			const due = await queue.claim(1, 30_000);
			expect(due.map(n => n.id)).toEqual([critical.id]);
		} finally {
			await store.close();
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe("a scheduled notification across a restart", () => {
	it("is neither sent early nor lost when the platform stops before it is due", async () => {
		const dataDir = tempDir();
		const port = await freePort();
		const baseUrl = `http://127.0.0.1:${port}`;
		const env = { ...ADMIN_ENV, DATA_DIR: dataDir, PORT: String(port), DISPATCHER_POLL_MS: "50" };
		let node = startNode(env);
		try {
			await waitFor("the platform to be ready", async () => (await http(baseUrl, "GET", "/health/ready")).status === 200, 30000);
			const admin = await adminToken(baseUrl);
			const sendAt = new Date(Date.now() + 2500).toISOString();
			const res = await http(baseUrl, "POST", "/notifications", { token: admin, json: { to: "restart@example.com", sendAt, ...inline } });
			expect(res.status).toBe(201);
			const id = res.body.notificationId;
			await node.stop("SIGTERM");
			expect(outboxFiles(dataDir, id)).toEqual([]);

			node = startNode(env);
			await waitFor("the platform to be ready again", async () => (await http(baseUrl, "GET", "/health/ready")).status === 200, 30000);
			await waitFor("the scheduled notification to be sent", async () => (await http(baseUrl, "GET", `/notifications/${id}`, { token: admin })).body.status === "SENT", 20000);
			const events = (await http(baseUrl, "GET", `/notifications/${id}`, { token: admin })).body.events as { event: string; occurredAt: string }[];
			const sent = events.find(e => e.event === "SENT")!;
			expect(Date.parse(sent.occurredAt)).toBeGreaterThanOrEqual(Date.parse(sendAt));
			expect(outboxFiles(dataDir, id)).toHaveLength(1);
		} finally {
			await node.stop("SIGKILL");
			fs.rmSync(dataDir, { recursive: true, force: true });
		}
	}, 90000);
});

describe("listing", () => {
	let p: Platform;
	let admin: string;
	let service: string;
	// Users list what they sent themselves: to their own verified addresses, or push to themselves.
	let ada: VerifiedUser;
	let bob: VerifiedUser;

	beforeAll(async () => {
		// No dispatcher: statuses stay QUEUED, so the pages are about order alone.
		p = await startPlatform({ ...ADMIN_ENV, SERVICES: "api-gateway,auth,actors,notifications" });
		admin = await adminToken(p.baseUrl);
		service = await serviceToken(p);
		ada = await verifiedUser(p);
		bob = await verifiedUser(p);
	});
	afterAll(() => p.stop());

	const list = (token: string, query = "") => http(p.baseUrl, "GET", `/notifications${query}`, { token });

	it("should page newest first with no gap or repeat while new notifications arrive", async () => {
		const original: string[] = [];
		for (let i = 0; i < 30; i++) {
			const r = await http(p.baseUrl, "POST", "/notifications", { token: ada.token, json: { to: ada.email, ...inline } });
			original.push(r.body.notificationId);
		}
		const seen: string[] = [];
		let cursor: string | undefined;
		let pages = 0;
		do {
			const page = await list(ada.token, `?limit=7${cursor ? `&cursor=${cursor}` : ""}`);
			expect(page.status).toBe(200);
			expect(page.body.items.length).toBeLessThanOrEqual(7);
			for (const item of page.body.items) expect(item.events).toBeUndefined();
			seen.push(...page.body.items.map((n: { notificationId: string }) => n.notificationId));
			cursor = page.body.nextCursor;
			pages++;
			// New ones arrive between pages.
			await http(p.baseUrl, "POST", "/notifications", { token: ada.token, json: { to: ada.email, ...inline } });
		} while (cursor);
		expect(new Set(seen).size).toBe(seen.length);
		// Everything that existed before the first page is on exactly one page, newest first.
		expect(seen.filter(id => original.includes(id))).toEqual([...original].reverse());
		expect(pages).toBe(5);
	});

	it("should show users their own only, and services and administrators everyone's", async () => {
		// A push to himself: nothing else was sent to that recipient (his address also got the verification mail).
		const mine = await http(p.baseUrl, "POST", "/notifications", { token: bob.token, json: { channel: "PUSH", to: bob.actorId, ...inline } });
		expect(mine.status).toBe(201);
		const bobs = await list(bob.token, "?limit=100");
		expect(bobs.body.items.map((n: { notificationId: string }) => n.notificationId)).toEqual([mine.body.notificationId]);
		for (const token of [admin, service]) {
			const all = await list(token, `?to=${bob.actorId}`);
			expect(all.status).toBe(200);
			expect(all.body.items).toEqual([expect.objectContaining({ notificationId: mine.body.notificationId, to: bob.actorId, status: "QUEUED", channel: "PUSH" })]);
		}
		const adas = await list(ada.token, `?to=${bob.actorId}`);
		expect(adas.body.items).toEqual([]);
	});

	it("should filter by status and channel", async () => {
		const push = await http(p.baseUrl, "POST", "/notifications", { token: ada.token, json: { channel: "PUSH", to: ada.actorId, ...inline } });
		expect(push.status).toBe(201);
		const cancelled = await http(p.baseUrl, "POST", "/notifications", { token: ada.token, json: { to: ada.email, ...inline } });
		expect((await http(p.baseUrl, "DELETE", `/notifications/${cancelled.body.notificationId}`, { token: ada.token })).status).toBe(200);

		const byPush = await list(ada.token, "?channel=PUSH");
		expect(byPush.body.items.map((n: { notificationId: string }) => n.notificationId)).toEqual([push.body.notificationId]);
		const byStatus = await list(ada.token, "?status=CANCELLED");
		expect(byStatus.body.items.map((n: { notificationId: string }) => n.notificationId)).toEqual([cancelled.body.notificationId]);
	});

	it.each([
		["a cursor that is not one", "?cursor=bm90LWEtY3Vyc29y"],
		["a limit of 0", "?limit=0"],
		["a limit over 100", "?limit=101"],
		["an unknown status", "?status=LOST"],
		["an unknown parameter", "?owner=someone"]
	])("should answer 400 to %s", async (_what, query) => {
		const res = await list(ada.token, query);
		expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: "VALIDATION_ERROR" });
	});

	it("should need a token", async () => {
		expect((await http(p.baseUrl, "GET", "/notifications")).status).toBe(401);
	});
});
