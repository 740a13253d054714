/**
 * A dispatcher claims in batches: with every slot taken by a send under way, it waits
 * until half of them are free before it claims again. A CRITICAL or HIGH notification
 * must not wait that long behind LOW sends: after an urgent wake the first slot that
 * frees up claims, and the claim takes the most urgent first (lib/notifications/dispatcher.ts).
 * Both cases run, so the test shows the difference the urgent wake makes.
 */
import type { ChannelSender } from "../../lib/channels";
import { createKeyValue } from "../../lib/kv";
import { newNotification } from "../../lib/notifications/accept";
import type { Dispatcher } from "../../lib/notifications/dispatcher";
import type { NotificationDoc, Priority } from "../../lib/notifications/model";
import { createStore } from "../../lib/store";
import { testDispatcher } from "../helpers/dispatcher";
import { testConfig } from "../helpers/platform";
import { waitFor } from "../helpers/processes";

const CONCURRENCY = 4;

interface Scene {
	dispatcher: Dispatcher;
	/** Notification ids in the order the provider was handed them. */
	started: string[];
	/** Lets the send of this notification finish. */
	finish(id: string): void;
	queue(priority: Priority): Promise<string>;
	close(): Promise<void>;
}

async function scene(): Promise<Scene> {
	const config = testConfig({ DISPATCHER_CONCURRENCY: String(CONCURRENCY), NOTIFICATION_LEASE_MS: "600000" });
	const store = createStore(config);
	const kv = createKeyValue(config);
	const notifications = store.collection<NotificationDoc>("notifications");
	let n = 0;
	const queue = async (priority: Priority) => {
		const doc = newNotification({ to: `urgent${n++}@example.com`, priority, template: { subject: "s", text: "t" } }, { kind: "service", id: "test" });
		await notifications.insert(doc);
		return doc.id;
	};
	const started: string[] = [];
	const finishers = new Map<string, () => void>();
	// A provider that holds every message until the test lets it go.
	const sender: ChannelSender = {
		channel: "EMAIL",
		async send(id) {
			started.push(id);
			await new Promise<void>(resolve => finishers.set(id, resolve));
			return { messageId: `m-${id}` };
		},
		close: async () => undefined
	};
	const dispatcher = testDispatcher(config, store, kv, sender);
	return {
		dispatcher,
		started,
		finish: id => finishers.get(id)!(),
		queue,
		async close() {
			for (const f of finishers.values()) f();
			await dispatcher.stop();
			await store.close();
			await kv.close();
		}
	};
}

/** Every slot busy with LOW, a CRITICAL queued and the dispatcher woken, then one LOW send finishes. */
async function criticalAfterOneSlot(urgent: boolean): Promise<{ critical: string; started: string[] }> {
	const s = await scene();
	try {
		for (let i = 0; i < 3 * CONCURRENCY; i++) await s.queue("LOW");
		s.dispatcher.start();
		await waitFor("every slot taken by a LOW send", async () => s.started.length === CONCURRENCY, 5000);
		const critical = await s.queue("CRITICAL");
		s.dispatcher.wake(urgent);
		s.finish(s.started[0]);
		// Long enough for a claim and a send to begin many times over.
		await new Promise(resolve => setTimeout(resolve, 500));
		return { critical, started: [...s.started] };
	} finally {
		await s.close();
	}
}

describe("an urgent wake of a dispatcher whose slots are busy", () => {
	it("should hand the CRITICAL notification to the provider as soon as one slot is free", async () => {
		const { critical, started } = await criticalAfterOneSlot(true);
		expect(started).toHaveLength(CONCURRENCY + 1);
		expect(started[CONCURRENCY]).toBe(critical);
	});

	it("should, without it, wait for half the slots before claiming (the batching the urgent wake skips)", async () => {
		const { critical, started } = await criticalAfterOneSlot(false);
		expect(started).toHaveLength(CONCURRENCY);
		expect(started).not.toContain(critical);
	});
});
