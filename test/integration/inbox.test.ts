/**
 * The IN_APP channel and the inbox routes through the gateway: a notification to an
 * actor's id ends DELIVERED once stored, with its title, body and data; the listing
 * pages newest first with a cursor and filters by state; counts, marks and mark-all-
 * read change what they should; only the actor itself or a service may touch an inbox
 * (another user and an administrator are refused on every route); an actor's IN_APP
 * preferences keep a category out; the live stream sends message and count events and
 * resumes after Last-Event-ID.
 */
import { randomUUID } from "node:crypto";
import type { NotificationDoc } from "../../lib/notifications/model";
import { INBOX, type InboxDoc } from "../../lib/inbox";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { ADMIN_ENV, adminToken, serviceToken } from "../helpers/senders";
import { SseClient } from "../helpers/sse";

interface Actor {
	token: string;
	actorId: string;
}

describe("the in-app inbox", () => {
	let p: Platform;
	let ann: Actor;
	let bob: Actor;
	let admin: string;
	let service: string;

	const inbox = (a: Actor | string, rest = "") => `/actors/${typeof a === "string" ? a : a.actorId}/inbox${rest}`;

	async function register(): Promise<Actor> {
		const res = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		expect(res.status).toBe(201);
		return { token: res.body.accessToken, actorId: res.body.actorId };
	}

	async function status(id: string): Promise<string> {
		return (await runtime(p).store().collection<NotificationDoc>("notifications").get(id))!.status;
	}

	/** Sends as the service and waits until the dispatcher has settled it. */
	async function send(to: Actor, body: Record<string, unknown> = {}, until = "DELIVERED"): Promise<string> {
		const res = await http(p.baseUrl, "POST", "/notifications", {
			token: service,
			json: { channel: "IN_APP", to: to.actorId, template: { subject: "Hello {{name}}", text: "Order {{order}} shipped" }, variables: { name: "Ann", order: "A-1" }, ...body }
		});
		expect(res.status).toBe(201);
		const id = res.body.notificationId as string;
		await waitFor(`notification ${id} ${until}`, async () => (await status(id)) === until, 10000, 25);
		return id;
	}

	beforeAll(async () => {
		p = await startPlatform({ ...ADMIN_ENV, DISPATCHER_POLL_MS: "50", SSE_HEARTBEAT_MS: "60000" });
		[ann, bob] = [await register(), await register()];
		admin = await adminToken(p.baseUrl);
		service = await serviceToken(p, "documents");
	});
	afterAll(async () => {
		await p?.stop();
	});

	it("should store an IN_APP notification in the actor's inbox, DELIVERED, with its title, body and data", async () => {
		const id = await send(ann, { data: { url: "/orders/A-1", n: 1 } });
		const list = await http(p.baseUrl, "GET", inbox(ann), { token: ann.token });
		expect(list.status).toBe(200);
		expect(list.body.items[0]).toEqual({ notificationId: id, title: "Hello Ann", body: "Order A-1 shipped", data: { url: "/orders/A-1", n: 1 }, createdAt: expect.any(String) });
		const view = await http(p.baseUrl, "GET", `/notifications/${id}`, { token: service });
		expect(view.body.status).toBe("DELIVERED");
		expect(view.body.events.map((e: { event: string }) => e.event)).toEqual(["QUEUED", "DELIVERED"]);
	});

	it("should take a template without a subject (an empty title) and refuse what IN_APP cannot carry", async () => {
		const id = await send(ann, { template: { text: "Just a body" }, variables: {} });
		const doc = await runtime(p).store().collection<InboxDoc>(INBOX).get(id);
		expect(doc).toMatchObject({ title: "", body: "Just a body", data: {}, state: "unread" });

		const noText = await http(p.baseUrl, "POST", "/notifications", { token: service, json: { channel: "IN_APP", to: ann.actorId, template: { subject: "s", html: "<p>h</p>" } } });
		expect(noText.status).toBe(400);
		expect(noText.body.errors).toEqual([{ field: "template.text", message: "is required for IN_APP" }]);
		const badTo = await http(p.baseUrl, "POST", "/notifications", { token: service, json: { channel: "IN_APP", to: "ann@example.com", template: { text: "t" } } });
		expect(badTo.status).toBe(400);
		const dataOnEmail = await http(p.baseUrl, "POST", "/notifications", { token: service, json: { to: "ann@example.com", template: { subject: "s", text: "t" }, data: { a: 1 } } });
		expect(dataOnEmail.status).toBe(400);
		expect(dataOnEmail.body.errors[0].field).toBe("data");
		const huge = await http(p.baseUrl, "POST", "/notifications", { token: service, json: { channel: "IN_APP", to: ann.actorId, template: { text: "t" }, data: { blob: "x".repeat(17 * 1024) } } });
		expect(huge.status).toBe(400);
	});

	it("should let a user send IN_APP to itself only", async () => {
		const own = await http(p.baseUrl, "POST", "/notifications", { token: bob.token, json: { channel: "IN_APP", to: bob.actorId, template: { text: "note to self" } } });
		expect(own.status).toBe(201);
		const other = await http(p.baseUrl, "POST", "/notifications", { token: bob.token, json: { channel: "IN_APP", to: ann.actorId, template: { text: "hi" } } });
		expect(other.status).toBe(403);
		expect(other.body.code).toBe("RECIPIENT_NOT_ALLOWED");
	});

	it("should refuse another user and an administrator on every inbox route, and let a service in", async () => {
		const id = await send(ann);
		for (const token of [bob.token, admin]) {
			const answers = [
				await http(p.baseUrl, "GET", inbox(ann), { token }),
				await http(p.baseUrl, "GET", inbox(ann, "/count"), { token }),
				await http(p.baseUrl, "PATCH", inbox(ann, `/${id}`), { token, json: { read: true } }),
				await http(p.baseUrl, "POST", inbox(ann, "/read-all"), { token }),
				await http(p.baseUrl, "GET", inbox(ann, "/stream"), { token, headers: { accept: "text/event-stream" } })
			];
			expect(answers.map(a => [a.status, a.body?.code])).toEqual(Array(5).fill([403, "FORBIDDEN"]));
		}
		expect((await runtime(p).store().collection<InboxDoc>(INBOX).get(id))!.state).toBe("unread");
		expect((await http(p.baseUrl, "GET", inbox(ann), { token: service })).status).toBe(200);
		expect((await http(p.baseUrl, "GET", inbox(ann), { token: undefined })).status).toBe(401);
		// Bob's own message is not ann's to mark either: 404 through ann's inbox.
		const bobs = await send(bob);
		expect((await http(p.baseUrl, "PATCH", inbox(ann, `/${bobs}`), { token: ann.token, json: { read: true } })).status).toBe(404);
		expect((await http(p.baseUrl, "PATCH", inbox(ann, `/${randomUUID()}`), { token: ann.token, json: { read: true } })).body.code).toBe("NOT_FOUND");
	});

	it("should page newest first with a cursor, filter by state, count, mark and read all", async () => {
		const carl = await register();
		const ids: string[] = [];
		for (let i = 0; i < 5; i++) ids.push(await send(carl, { variables: { name: `n${i}`, order: `o${i}` } }));
		const newestFirst = [...ids].reverse();

		const seen: string[] = [];
		let cursor: string | undefined;
		for (let page = 0; page < 3; page++) {
			const res = await http(p.baseUrl, "GET", inbox(carl, `?limit=2${cursor ? `&cursor=${cursor}` : ""}`), { token: carl.token });
			expect(res.status).toBe(200);
			seen.push(...res.body.items.map((i: { notificationId: string }) => i.notificationId));
			cursor = res.body.nextCursor;
			if (page < 2) expect(cursor).toEqual(expect.any(String));
		}
		expect(cursor).toBeUndefined();
		expect(seen).toEqual(newestFirst);
		expect((await http(p.baseUrl, "GET", inbox(carl, "?cursor=nope"), { token: carl.token })).status).toBe(400);
		expect((await http(p.baseUrl, "GET", inbox(carl, "?state=new"), { token: carl.token })).status).toBe(400);

		const count = async () => (await http(p.baseUrl, "GET", inbox(carl, "/count"), { token: carl.token })).body;
		await expect(count()).resolves.toEqual({ unread: 5, unseen: 5 });

		const seenOne = await http(p.baseUrl, "PATCH", inbox(carl, `/${ids[0]}`), { token: carl.token, json: { seen: true } });
		expect(seenOne.status).toBe(200);
		expect(seenOne.body).toMatchObject({ notificationId: ids[0], seenAt: expect.any(String) });
		expect(seenOne.body.readAt).toBeUndefined();
		const read = await http(p.baseUrl, "PATCH", inbox(carl, `/${ids[1]}`), { token: carl.token, json: { read: true } });
		expect(read.body).toMatchObject({ seenAt: expect.any(String), readAt: expect.any(String) });
		const archived = await http(p.baseUrl, "PATCH", inbox(carl, `/${ids[2]}`), { token: carl.token, json: { archived: true } });
		expect(archived.body).toMatchObject({ archivedAt: expect.any(String) });
		await expect(count()).resolves.toEqual({ unread: 3, unseen: 2 });

		const state = async (s: string) => (await http(p.baseUrl, "GET", inbox(carl, `?state=${s}`), { token: carl.token })).body.items.map((i: { notificationId: string }) => i.notificationId);
		await expect(state("unread")).resolves.toEqual([ids[4], ids[3], ids[0]]);
		await expect(state("read")).resolves.toEqual([ids[1]]);
		await expect(state("archived")).resolves.toEqual([ids[2]]);
		await expect(state("all")).resolves.toEqual(newestFirst);

		// Unarchived, it is unread again; unread again, it keeps its seenAt.
		await http(p.baseUrl, "PATCH", inbox(carl, `/${ids[2]}`), { token: carl.token, json: { archived: false } });
		const unread = await http(p.baseUrl, "PATCH", inbox(carl, `/${ids[1]}`), { token: carl.token, json: { read: false } });
		expect(unread.body.readAt).toBeUndefined();
		expect(unread.body.seenAt).toEqual(expect.any(String));
		await expect(count()).resolves.toEqual({ unread: 5, unseen: 3 });
		expect((await http(p.baseUrl, "PATCH", inbox(carl, `/${ids[1]}`), { token: carl.token, json: { read: "yes" } })).status).toBe(400);

		await http(p.baseUrl, "PATCH", inbox(carl, `/${ids[3]}`), { token: carl.token, json: { archived: true } });
		const all = await http(p.baseUrl, "POST", inbox(carl, "/read-all"), { token: carl.token });
		expect(all.status).toBe(204);
		await expect(count()).resolves.toEqual({ unread: 0, unseen: 0 });
		await expect(state("read")).resolves.toEqual([ids[4], ids[2], ids[1], ids[0]]);
		await expect(state("archived")).resolves.toEqual([ids[3]]);
		const docs = await runtime(p).store().collection<InboxDoc>(INBOX).find({ actorId: carl.actorId, state: "read" });
		expect(docs.every(d => d.readAt && d.seenAt)).toBe(true);
	});

	it("should keep a category the actor turned off for IN_APP out of its inbox", async () => {
		const dana = await register();
		const prefs = await http(p.baseUrl, "PUT", `/actors/${dana.actorId}/preferences`, { token: dana.token, json: { items: [{ channel: "IN_APP", category: "marketing", enabled: false }] } });
		expect(prefs.status).toBe(200);
		expect(prefs.body.items).toEqual([{ channel: "IN_APP", category: "marketing", enabled: false }]);
		await send(dana, { category: "marketing" }, "UNSUBSCRIBED");
		await send(dana, { category: "orders" });
		const list = await http(p.baseUrl, "GET", inbox(dana), { token: dana.token });
		expect(list.body.items).toHaveLength(1);
	});

	it("should stream message and count events live, and resume after Last-Event-ID", async () => {
		const erin = await register();
		const first = await SseClient.open(p.baseUrl, inbox(erin, "/stream"), erin.token);
		let lastId: string;
		try {
			expect(first.status).toBe(200);
			expect(first.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
			await first.until("the first count", c => c.events().includes("count"), 5000);
			expect(first.messages).toEqual([{ event: "count", data: { unread: 0, unseen: 0 } }]);

			const id = await send(erin, { data: { k: "v" } });
			await first.until("the message and its count", c => c.events().length >= 3, 5000);
			expect(first.messages.slice(1)).toEqual([
				{ id: expect.any(String), event: "message", data: { notificationId: id, title: "Hello Ann", body: "Order A-1 shipped", data: { k: "v" }, createdAt: expect.any(String) } },
				{ event: "count", data: { unread: 1, unseen: 1 } }
			]);
			lastId = first.messages[1].id!;

			await http(p.baseUrl, "PATCH", inbox(erin, `/${id}`), { token: erin.token, json: { seen: true } });
			await first.until("the count after marking seen", c => c.events().length >= 4, 5000);
			expect(first.messages[3]).toEqual({ event: "count", data: { unread: 1, unseen: 0 } });
		} finally {
			await first.close();
		}

		// Stored while no stream was open: a stream resuming after the last message it had sends it first.
		const missed = await send(erin);
		const second = await SseClient.open(p.baseUrl, inbox(erin, "/stream"), erin.token, lastId);
		try {
			await second.until("the missed message", c => c.events().includes("count"), 5000);
			expect(second.messages).toEqual([
				{ id: expect.any(String), event: "message", data: expect.objectContaining({ notificationId: missed }) },
				{ event: "count", data: { unread: 2, unseen: 1 } }
			]);
		} finally {
			await second.close();
		}
		const bad = await SseClient.open(p.baseUrl, inbox(erin, "/stream"), erin.token, "not-a-seq");
		expect(bad.status).toBe(400);

		// Without Accept: text/event-stream, what the stream would begin with.
		const json = await http(p.baseUrl, "GET", inbox(erin, `/stream`), { token: erin.token });
		expect(json.body).toEqual({ items: [], counts: { unread: 2, unseen: 1 } });
	});
});
