/**
 * The bounce and complaint rates behind the Prometheus gauges: the share of email
 * sent in the last 24 hours that bounced or was reported as spam, counted through the
 * (status, id) index with the id range of the window.
 */
import fs from "node:fs";
import path from "node:path";
import { uuidv7 } from "../../lib/crypto";
import { emailRates, firstIdAt, RATE_WINDOW_MS } from "../../lib/notifications/readings";
import { newNotification } from "../../lib/notifications/accept";
import type { Channel, NotificationDoc, Status } from "../../lib/notifications/model";
import { SqliteStore } from "../../lib/store/sqlite";
import { tempDir } from "../helpers/platform";

test("firstIdAt is the lowest UUIDv7 of its millisecond", () => {
	const now = Date.parse("2026-11-24T10:00:00Z");
	const first = firstIdAt(now);
	for (let i = 0; i < 100; i++) {
		expect(uuidv7(now) >= first).toBe(true);
		expect(uuidv7(now - 1) < first).toBe(true);
	}
});

test("the rates count email of the last 24 hours that reached the provider", async () => {
	const dir = tempDir();
	const store = new SqliteStore(path.join(dir, "store.sqlite"));
	const now = Date.parse("2026-11-24T10:00:00Z");
	const creator = { kind: "service" as const, id: "test" };
	const add = async (status: Status, at: number, channel: Channel = "EMAIL") => {
		const doc: NotificationDoc = { ...newNotification({ to: channel === "SMS" ? "+14155550100" : "r@example.com", channel, template: { subject: "s", text: "t" } }, creator, at), status };
		await store.collection<NotificationDoc>("notifications").insert(doc);
	};
	try {
		await expect(emailRates(store, now)).resolves.toEqual({ sent: 0, bounceRate: 0, complaintRate: 0 });
		for (let i = 0; i < 15; i++) await add("SENT", now - 3600_000);
		for (let i = 0; i < 3; i++) await add("DELIVERED", now - 60_000);
		await add("BOUNCED", now - 1000);
		await add("COMPLAINT", now - 1000);
		// Outside the window, not email, or not sent: not counted.
		await add("BOUNCED", now - RATE_WINDOW_MS - 1000);
		await add("FAILED", now - 1000, "SMS");
		await add("QUEUED", now - 1000);
		await add("SUPPRESSED", now - 1000);
		await expect(emailRates(store, now)).resolves.toEqual({ sent: 20, bounceRate: 0.05, complaintRate: 0.05 });
	} finally {
		await store.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
});
