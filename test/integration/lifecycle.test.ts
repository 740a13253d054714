/**
 * The lifecycle's guards on a real SQLite store: a transition the table refuses, and
 * a write whose record has meanwhile left the states it names, change nothing stored.
 */
import fs from "node:fs";
import path from "node:path";
import { NotificationIntake, StatusPublisher } from "../../lib/notifications";
import { TransitionRefused } from "../../lib/notifications/lifecycle";
import type { EventDoc, NotificationDoc, Status } from "../../lib/notifications/model";
import { recordDelivery } from "../../lib/notifications/outcomes";
import { NotificationQueue } from "../../lib/notifications/queue";
import { SqliteStore } from "../../lib/store/sqlite";
import { tempDir } from "../helpers/platform";

describe("notification lifecycle on SQLite", () => {
	let dir: string;
	let store: SqliteStore;
	let intake: NotificationIntake;
	let queue: NotificationQueue;

	beforeEach(() => {
		dir = tempDir();
		store = new SqliteStore(path.join(dir, "store.sqlite"));
		intake = new NotificationIntake(store, new StatusPublisher());
		queue = new NotificationQueue(store, new StatusPublisher());
	});
	afterEach(async () => {
		await store.close();
		fs.rmSync(dir, { recursive: true, force: true });
	});

	async function stored(id: string) {
		return {
			record: await store.collection<NotificationDoc>("notifications").get(id),
			events: (await store.collection<EventDoc>("notification_events").find({ notificationId: id }, { sort: { seq: 1 } })).map(e => e.event)
		};
	}

	async function leased(): Promise<NotificationDoc> {
		const { notificationId } = await intake.accept({ to: "life@example.com", template: { subject: "s", text: "t" } }, { kind: "service", id: "test" });
		const [n] = await queue.claim(1, 60000);
		expect(n).toMatchObject({ id: notificationId, status: "PROCESSING" });
		return n;
	}

	it.each<Status>(["PROCESSING", "CANCELLED"])("should refuse PROCESSING -> %s and leave the record and its timeline as they were", async status => {
		const n = await leased();
		const before = await stored(n.id);
		const attempt = queue.settle({ notification: n, status, event: status, set: { lastError: "X" } });
		await expect(attempt).rejects.toBeInstanceOf(TransitionRefused);
		await expect(attempt).rejects.toMatchObject({ from: "PROCESSING", to: status });
		await expect(stored(n.id)).resolves.toEqual(before);
		expect(before.record).toMatchObject({ status: "PROCESSING", leaseToken: n.leaseToken });
		// The lease is still good: the allowed transition goes through afterwards.
		await expect(queue.settle({ notification: n, status: "SENT", event: "SENT" })).resolves.toBe(true);
		await expect(stored(n.id)).resolves.toMatchObject({ record: { status: "SENT" }, events: ["QUEUED", "SENT"] });
	});

	it("should leave a SENT record unchanged when the former lease holder tries to end it again", async () => {
		const n = await leased();
		await expect(queue.settle({ notification: n, status: "SENT", event: "SENT", set: { providerMessageId: "m-1" } })).resolves.toBe(true);
		const before = await stored(n.id);
		await expect(queue.settle({ notification: n, status: "FAILED", event: "FAILED", set: { lastError: "LATE" } })).resolves.toBe(false);
		await expect(stored(n.id)).resolves.toEqual(before);
	});

	it("should keep BOUNCED when a delivery arrives after the bounce, recording the event alone", async () => {
		const n = await leased();
		await queue.settle({ notification: n, status: "SENT", event: "SENT", set: { providerMessageId: "m-2" } });
		await expect(recordDelivery(store, new StatusPublisher(), { channel: "EMAIL", event: "BOUNCED", providerMessageId: "m-2", detail: {} })).resolves.toBe("recorded");
		const bounced = await stored(n.id);
		expect(bounced.record?.status).toBe("BOUNCED");
		await expect(recordDelivery(store, new StatusPublisher(), { channel: "EMAIL", event: "DELIVERED", providerMessageId: "m-2", detail: {} })).resolves.toBe("recorded");
		const after = await stored(n.id);
		expect(after.record).toEqual(bounced.record);
		expect(after.events).toEqual(["QUEUED", "SENT", "BOUNCED", "DELIVERED"]);
	});
});
