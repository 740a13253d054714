/**
 * What holds a notification back, over each store backend (SQLite always, MongoDB when
 * a server is reachable), with an injected clock: digests (lib/notifications/digest.ts)
 * closed by two dispatchers on one store and by a dispatcher that takes over one that
 * died half way, throttles (throttle.ts) and quiet hours (quiet-hours.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { NotificationIntake, type AcceptRequest } from "../../lib/notifications/accept";
import { DIGESTS, DigestCloser, type DigestDoc } from "../../lib/notifications/digest";
import { StatusPublisher, type StatusEvent } from "../../lib/notifications/events";
import type { EventDoc, NotificationDoc } from "../../lib/notifications/model";
import { NotificationQueue } from "../../lib/notifications/queue";
import { writeSchedule } from "../../lib/notifications/quiet-hours";
import { THROTTLE_SLOTS, type ThrottleSlot } from "../../lib/notifications/throttle";
import { SqliteStore } from "../../lib/store/sqlite";
import { SqliteWorkerStore } from "../../lib/store/sqlite-thread";
import { MongoStore } from "../../lib/store/mongo";
import type { Store } from "../../lib/store";
import { SCHEMA } from "../../lib/store/schema";
import { mongoSource, startMongo } from "../helpers/mongo";
import { tempDir } from "../helpers/platform";
import { uniqueName } from "../helpers/services";

const T0 = Date.parse("2026-03-02T10:00:00.000Z");
const CREATOR = { kind: "service" as const, id: "svc-holds" };
const TEMPLATE = { subject: "{{ count }} updates", text: "{{ title }}" };
const ACTOR = "0190a8e2-7c3b-7def-8abc-0123456789ab";

function holds(name: string, open: () => Promise<{ store: Store; cleanup: () => Promise<void> }>) {
	describe(`notification holds: ${name}`, () => {
		let store: Store;
		let cleanup: () => Promise<void>;
		let clock: number;
		let published: StatusEvent[];
		let intake: NotificationIntake;
		const now = () => clock;
		const closer = (leaseMs = 30_000) => {
			const events = new StatusPublisher();
			events.subscribe(e => published.push(...e));
			return new DigestCloser({ store, events, now, leaseMs });
		};
		const notifications = () => store.collection<NotificationDoc>("notifications");
		const timeline = async (id: string) => (await store.collection<EventDoc>("notification_events").find({ notificationId: id }, { sort: { seq: 1 } })).map(e => ({ event: e.event, detail: e.detail }));
		const accept = async (req: Partial<AcceptRequest>) => {
			const r = await intake.accept({ to: "ada@example.com", template: TEMPLATE, variables: { title: "t", count: 1 }, ...req }, CREATOR);
			clock += 1000;
			return r;
		};

		beforeAll(async () => {
			({ store, cleanup } = await open());
		});
		afterAll(async () => {
			await cleanup?.();
		});
		beforeEach(async () => {
			for (const c of Object.keys(SCHEMA)) await store.collection(c).deleteMany({});
			clock = T0;
			published = [];
			const events = new StatusPublisher();
			events.subscribe(e => published.push(...e));
			intake = new NotificationIntake(store, events, { now });
		});

		describe("digest", () => {
			const digest = { key: "comments", windowSeconds: 60 };

			it("should send one digest with the members' variables oldest first and end each member DIGESTED when two dispatchers close it at once", async () => {
				const members = [];
				for (const title of ["first", "second", "third"]) members.push((await accept({ digest, variables: { title, count: 1 } })).notificationId);
				// Another recipient, another key: other digests.
				await accept({ digest, to: "bob@example.com" });
				await accept({ digest: { key: "likes", windowSeconds: 60 } });
				await expect(store.collection<DigestDoc>(DIGESTS).count({ state: "OPEN" })).resolves.toBe(3);
				// The members wait: no claim takes them, however late.
				const queue = new NotificationQueue(store, new StatusPublisher(), () => T0 + 10 * 86_400_000);
				await expect(queue.claim(10, 30_000)).resolves.toEqual([]);

				const a = closer();
				const b = closer();
				await expect(a.closeDue()).resolves.toBe(0);
				// Each window ends 60 s after its first member (the accepts are a second apart).
				clock = T0 + 65_000;
				const [x, y] = await Promise.all([a.closeDue(), b.closeDue()]);
				expect(x + y).toBe(3);

				const digests = await notifications().find({ digestOf: { $exists: true }, to: "ada@example.com" });
				const comments = digests.find(d => d.digestOf!.length === 3)!;
				expect(comments).toMatchObject({ status: "QUEUED", channel: "EMAIL", to: "ada@example.com", template: TEMPLATE, digestOf: members });
				expect(comments.variables.events).toEqual([
					{ title: "first", count: 1 },
					{ title: "second", count: 1 },
					{ title: "third", count: 1 }
				]);
				for (const id of members) {
					await expect(notifications().get(id)).resolves.toMatchObject({ status: "DIGESTED", digestId: comments.id });
					expect((await timeline(id)).map(e => e.event)).toEqual(["QUEUED", "DIGESTED"]);
					expect((await timeline(id))[1]!.detail).toEqual({ digestId: comments.id });
				}
				expect(published.filter(e => e.event === "DIGESTED" && e.detail?.digestId === comments.id).map(e => e.notificationId)).toEqual(members);
				expect(published.filter(e => e.event === "DIGESTED")).toHaveLength(5);
				await expect(timeline(comments.id)).resolves.toEqual([{ event: "QUEUED", detail: { digest: { key: "comments", count: 3 } } }]);
				await expect(store.collection<DigestDoc>(DIGESTS).count({ state: "DONE" })).resolves.toBe(3);
				// The digest itself is sent like any notification; closing again finds nothing.
				const all = await notifications().find({ digestOf: { $exists: true } });
				expect(all).toHaveLength(3);
				expect((await queue.claim(10, 30_000)).map(n => n.id).sort()).toEqual(all.map(d => d.id).sort());
				await expect(Promise.all([a.closeDue(), b.closeDue()])).resolves.toEqual([0, 0]);
			});

			it("should lose no member and store the digest once when the dispatcher closing it dies half way", async () => {
				const members = [(await accept({ digest })).notificationId, (await accept({ digest })).notificationId];
				clock = T0 + 61_000;
				// The first dispatcher stores the digest and dies before the members are ended.
				let batches = 0;
				const dying = new Proxy(store, {
					get(target, prop) {
						if (prop === "batch") {
							return async (groups: Parameters<Store["batch"]>[0]) => {
								batches += 1;
								if (batches === 2) throw new Error("killed");
								return target.batch(groups);
							};
						}
						const v = Reflect.get(target, prop);
						return typeof v === "function" ? v.bind(target) : v;
					}
				});
				await expect(new DigestCloser({ store: dying, events: new StatusPublisher(), now, leaseMs: 5000 }).closeDue()).rejects.toThrow("killed");
				// A member accepted meanwhile opens the next digest.
				const late = (await accept({ digest })).notificationId;
				// Until its lease ends, no other dispatcher takes it over.
				await expect(closer().closeDue()).resolves.toBe(0);
				clock += 5000;
				await expect(closer().closeDue()).resolves.toBe(0);
				const [first] = await notifications().find({ digestOf: { $exists: true } });
				expect(first!.digestOf).toEqual(members);
				for (const id of members) await expect(notifications().get(id)).resolves.toMatchObject({ status: "DIGESTED", digestId: first!.id });
				for (const id of members) expect((await timeline(id)).filter(e => e.event === "DIGESTED")).toHaveLength(1);
				await expect(notifications().get(late)).resolves.toMatchObject({ status: "QUEUED" });
				// The late member has its own digest at its window's end.
				clock += 60_000;
				await expect(closer().closeDue()).resolves.toBe(1);
				await expect(notifications().get(late)).resolves.toMatchObject({ status: "DIGESTED" });
				await expect(notifications().count({ digestOf: { $exists: true } })).resolves.toBe(2);
			});

			it("should leave a cancelled member out and make no digest when none is left", async () => {
				const { notificationId } = await accept({ digest });
				await notifications().updateMany({ id: notificationId }, { $set: { status: "CANCELLED" } });
				clock = T0 + 61_000;
				await expect(closer().closeDue()).resolves.toBe(0);
				await expect(notifications().count({ digestOf: { $exists: true } })).resolves.toBe(0);
				await expect(store.collection<DigestDoc>(DIGESTS).count({ state: "DONE" })).resolves.toBe(1);
			});

			it.each([
				[{ key: "", windowSeconds: 60 }, "digest.key"],
				[{ key: "k", windowSeconds: 0 }, "digest.windowSeconds"],
				[{ key: "k", windowSeconds: 86_401 }, "digest.windowSeconds"],
				[{ key: "k", windowSeconds: 1.5 }, "digest.windowSeconds"]
			])("should refuse the digest %j naming %s", async (bad, field) => {
				await expect(accept({ digest: bad })).rejects.toMatchObject({ code: 400, type: "VALIDATION_ERROR", data: { errors: [{ field }] } });
				await expect(notifications().count({})).resolves.toBe(0);
			});
		});

		describe("throttle", () => {
			const throttle = { key: "otp", limit: 2, windowSeconds: 60 };

			it("should end THROTTLED what is over the limit in the window, per recipient and key, and let it through once the window moved", async () => {
				const answers = [];
				for (let i = 0; i < 4; i++) answers.push(await accept({ throttle }));
				expect(answers.map(a => a.status)).toEqual(["QUEUED", "QUEUED", "THROTTLED", "THROTTLED"]);
				await expect(notifications().get(answers[2]!.notificationId)).resolves.toMatchObject({ status: "THROTTLED" });
				await expect(timeline(answers[2]!.notificationId)).resolves.toEqual([{ event: "THROTTLED", detail: { throttle } }]);
				// Another recipient and another key have their own counts.
				await expect(accept({ throttle, to: "bob@example.com" })).resolves.toMatchObject({ status: "QUEUED" });
				await expect(accept({ throttle: { ...throttle, key: "news" } })).resolves.toMatchObject({ status: "QUEUED" });
				// The first left the window (accepted at T0): one place again; a second later the second left too.
				clock = T0 + 60_000;
				await expect(accept({ throttle })).resolves.toMatchObject({ status: "QUEUED" });
				await expect(accept({ throttle })).resolves.toMatchObject({ status: "QUEUED" });
				await expect(accept({ throttle })).resolves.toMatchObject({ status: "THROTTLED" });
			});

			it("should let exactly the limit through when requests with one recipient and key arrive at once on two nodes", async () => {
				// Two intakes on one store: two nodes, nothing shared but the store.
				const other = new NotificationIntake(store, new StatusPublisher(), { now });
				const request = (to: string, i: number) => (i % 2 ? other : intake).accept({ to, template: TEMPLATE, variables: { title: "t", count: 1 }, throttle }, CREATOR);
				const answers = await Promise.all([...Array.from({ length: 12 }, (_, i) => request("ada@example.com", i)), ...Array.from({ length: 4 }, (_, i) => request("bob@example.com", i))]);
				const statuses = (to: number[]) => to.map(i => answers[i]!.status).sort();
				expect(statuses([...Array(12).keys()])).toEqual([...Array(2).fill("QUEUED"), ...Array(10).fill("THROTTLED")]);
				expect(statuses([12, 13, 14, 15])).toEqual(["QUEUED", "QUEUED", "THROTTLED", "THROTTLED"]);
				await expect(notifications().count({ to: "ada@example.com", status: "QUEUED" })).resolves.toBe(2);
				// The places name no address.
				const places = await store.collection<ThrottleSlot>(THROTTLE_SLOTS).find({});
				expect(places).toHaveLength(4);
				expect(JSON.stringify(places)).not.toMatch(/example\.com/);
			});

			it.each([
				[{ key: "k", limit: 0, windowSeconds: 60 }, "throttle.limit"],
				[{ key: "k", limit: 1, windowSeconds: 0 }, "throttle.windowSeconds"],
				[{ key: "", limit: 1, windowSeconds: 60 }, "throttle.key"]
			])("should refuse the throttle %j naming %s", async (bad, field) => {
				await expect(accept({ throttle: bad })).rejects.toMatchObject({ code: 400, type: "VALIDATION_ERROR", data: { errors: [{ field }] } });
			});
		});

		describe("quiet hours", () => {
			beforeEach(async () => {
				// 22:00-07:00 in Vienna (UTC+1 in March before the change): 21:00-06:00 UTC.
				await writeSchedule(store, { id: ACTOR, email: "Ada@Example.com" }, { timeZone: "Europe/Vienna", quietHours: { start: "22:00", end: "07:00" } });
			});

			it("should hold a non-CRITICAL notification due inside them until they end, QUEUED with sendAt, on EMAIL and PUSH", async () => {
				clock = Date.parse("2026-03-02T23:30:00.000Z");
				const mail = await accept({});
				const push = await accept({ channel: "PUSH", to: ACTOR });
				for (const { notificationId } of [mail, push]) {
					await expect(notifications().get(notificationId)).resolves.toMatchObject({ status: "QUEUED", sendAt: "2026-03-03T06:00:00.000Z", availableAt: "2026-03-03T06:00:00.000Z" });
				}
				expect((await timeline(mail.notificationId))[0]).toEqual({ event: "QUEUED", detail: { quietHours: true, sendAt: "2026-03-03T06:00:00.000Z" } });
			});

			it("should never hold a CRITICAL notification, nor one due outside them", async () => {
				clock = Date.parse("2026-03-02T23:30:00.000Z");
				const critical = await accept({ priority: "CRITICAL" });
				await expect(notifications().get(critical.notificationId)).resolves.not.toHaveProperty("sendAt");
				clock = Date.parse("2026-03-02T12:00:00.000Z");
				const day = await accept({});
				await expect(notifications().get(day.notificationId)).resolves.not.toHaveProperty("sendAt");
				// Scheduled into them: it waits for their end, not for its own time.
				const scheduled = await accept({ sendAt: "2026-03-02T21:30:00Z" });
				await expect(notifications().get(scheduled.notificationId)).resolves.toMatchObject({ sendAt: "2026-03-03T06:00:00.000Z" });
			});

			it("should read the schedules of accepts made at once in one query per key, and hold exactly the notifications to an actor with quiet hours", async () => {
				const OTHER = "0190a8e2-7c3b-7def-8abc-0123456789ac";
				await writeSchedule(store, { id: OTHER, email: "bob@example.com" }, { timeZone: "UTC" });
				clock = Date.parse("2026-03-02T23:30:00.000Z");
				const spy = jest.spyOn(store, "collection");
				try {
					const reqs: Partial<AcceptRequest>[] = [
						{ to: "ada@example.com" },
						{ to: "bob@example.com" },
						{ to: "nobody@example.com" },
						{ to: "ADA@example.com" },
						{ channel: "PUSH", to: ACTOR },
						{ channel: "PUSH", to: OTHER },
						{ channel: "PUSH", to: "0190a8e2-7c3b-7def-8abc-0123456789ad" }
					];
					const accepted = await Promise.all(reqs.map(r => intake.accept({ to: "", template: TEMPLATE, variables: { title: "t", count: 1 }, ...r }, CREATOR)));
					expect(spy.mock.calls.filter(([name]) => name === "recipient_schedules")).toHaveLength(2);
					const held = await Promise.all(accepted.map(async a => (await notifications().get(a.notificationId))?.sendAt ?? null));
					const end = "2026-03-03T06:00:00.000Z";
					expect(held).toEqual([end, null, null, end, end, null, null]);
				} finally {
					spy.mockRestore();
				}
			});

			it("should stop holding once the actor removes them", async () => {
				await writeSchedule(store, { id: ACTOR }, { quietHours: null });
				clock = Date.parse("2026-03-02T23:30:00.000Z");
				const { notificationId } = await accept({ channel: "PUSH", to: ACTOR });
				await expect(notifications().get(notificationId)).resolves.not.toHaveProperty("sendAt");
			});
		});
	});
}

holds("sqlite", async () => {
	const dir = tempDir();
	const store = new SqliteStore(path.join(dir, "store.sqlite"));
	return { store, cleanup: async () => { await store.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
});

// The platform's SQLite: the store on its own thread (lib/store/sqlite-thread.ts).
holds("sqlite in a worker thread", async () => {
	const dir = tempDir();
	const store = new SqliteWorkerStore(path.join(dir, "store.sqlite"));
	return { store, cleanup: async () => { await store.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
});

const mongo = mongoSource();
if (mongo.reason) {
	console.warn(`Skipping the MongoDB notification holds: ${mongo.reason}`);
	describe.skip("notification holds: mongodb", () => it("needs a MongoDB server", () => undefined));
} else {
	holds("mongodb", async () => {
		const server = await startMongo(mongo);
		const store = new MongoStore(server.url, uniqueName("holds").replace(/[^a-z0-9]/gi, "_"));
		return { store, cleanup: async () => { await store.close(); await server.stop(); } };
	});
}
