/**
 * SMS (the file provider) and PUSH (a push service on loopback that checks the VAPID
 * JWT and decrypts every payload) with two dispatcher nodes as separate OS processes
 * over real NATS, sharing one store: each notification is sent exactly once, and the
 * two together take the backlog in priority order.
 *
 * The backlog is accepted through the gateway and held back (its due time moved
 * ahead in the store) until both dispatchers are up, then released at once, so the
 * order of claims is the claim order of the whole backlog. Each dispatcher runs one
 * send at a time under a send rate, so both take part.
 *
 * What the processes record is enough to check the order without any timing
 * assumption. An event's seq names the process that wrote it and counts that
 * process's events, so each dispatcher's own sends are in order; and a dispatcher
 * claims its next notification only after writing the previous one's SENT, so when
 * a notification y should have been claimed before x (by another dispatcher), that
 * dispatcher's SENT before y cannot be later than x's SENT.
 */
import fs from "node:fs";
import path from "node:path";
import { Cluster } from "../../harness/cluster";
import { requireBuild } from "../../harness/processes";
import type { EventDoc, NotificationDoc, Priority } from "../../lib/notifications/model";
import { CLAIM_ORDER } from "../../lib/notifications/queue";
import { http } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { startPushService } from "../helpers/push-service";
import { describeWith, NATS_URL } from "../helpers/services";

const PER_PRIORITY = 8;
const PRIORITY_MIX: Priority[] = ["LOW", "NORMAL", "CRITICAL", "HIGH"];

interface Sent {
	notification: NotificationDoc;
	/** Position in the claim order of the whole backlog. */
	position: number;
	pid: string;
	/** The writing process's own event count: its order of sends. */
	counter: number;
	at: number;
}

/** Priority, then due time, then acceptance order: the queue's claim order. */
function claimOrder(ns: NotificationDoc[]): NotificationDoc[] {
	expect(Object.keys(CLAIM_ORDER)).toEqual(["priorityRank", "availableAt", "seq"]);
	return [...ns].sort((a, b) => a.priorityRank - b.priorityRank || a.availableAt.localeCompare(b.availableAt) || a.seq.localeCompare(b.seq));
}

async function sentRecords(cluster: Cluster, ids: string[]): Promise<Sent[]> {
	const docs = await cluster.store.collection<NotificationDoc>("notifications").find({ id: { $in: ids } });
	const order = claimOrder(docs);
	const events = await cluster.store.collection<EventDoc>("notification_events").find({ notificationId: { $in: ids }, event: "SENT" });
	expect(events).toHaveLength(ids.length);
	return events.map(e => {
		const [, pid, counter] = e.seq.split(".");
		const position = order.findIndex(n => n.id === e.notificationId);
		return { notification: order[position], position, pid, counter: Number(counter), at: Date.parse(e.occurredAt) };
	});
}

/** See the file comment: each dispatcher in order, and no one claimed ahead of what another still had to take. */
function expectPriorityOrder(sent: Sent[]): void {
	const byProcess = new Map<string, Sent[]>();
	for (const s of sent) byProcess.set(s.pid, [...(byProcess.get(s.pid) ?? []), s]);
	expect(byProcess.size).toBe(2);
	for (const own of byProcess.values()) {
		own.sort((a, b) => a.counter - b.counter);
		const positions = own.map(s => s.position);
		expect(positions).toEqual([...positions].sort((a, b) => a - b));
	}
	const previousSent = new Map<Sent, number>();
	for (const own of byProcess.values()) own.forEach((s, i) => i > 0 && previousSent.set(s, own[i - 1].at));
	const violations = sent.flatMap(x =>
		sent
			.filter(y => y.pid !== x.pid && y.position < x.position && (previousSent.get(y) ?? -Infinity) > x.at)
			.map(y => `${y.notification.priority} #${y.position} was claimed after ${x.notification.priority} #${x.position}`)
	);
	expect(violations).toEqual([]);
}

describeWith("NATS", "SMS and PUSH with two dispatcher processes", () => {
	let cluster: Cluster;
	let push: Awaited<ReturnType<typeof startPushService>>;

	beforeAll(async () => {
		requireBuild();
		push = await startPushService();
		cluster = await Cluster.start({
			label: "channels",
			startTimeoutMs: 30000,
			natsUrl: NATS_URL,
			env: {
				DISPATCHER_POLL_MS: "100",
				DISPATCHER_CONCURRENCY: "1",
				SMS_SEND_RATE_PER_SECOND: "10",
				PUSH_SEND_RATE_PER_SECOND: "10",
				PUSH_ALLOW_INSECURE_ENDPOINTS: "true"
			}
		});
	}, 60000);
	afterAll(async () => {
		await cluster?.stop();
		await push?.close();
	});

	/**
	 * Accepts the backlog with no dispatcher running and holds it until both are up; returns the ids.
	 * The administrator sends it, on both channels: a user may send no SMS.
	 */
	async function backlog(channel: "SMS" | "PUSH", to: (i: number) => string): Promise<string[]> {
		const ids: string[] = [];
		for (let i = 0; i < PER_PRIORITY * PRIORITY_MIX.length; i++) {
			const priority = PRIORITY_MIX[i % PRIORITY_MIX.length];
			const res = await http(cluster.base, "POST", "/notifications", {
				token: cluster.admin,
				json: { channel, to: to(i), priority, template: { subject: `${priority} ${i}`, text: `Message ${i}` } }
			});
			expect(res.status).toBe(201);
			ids.push(res.body.notificationId);
		}
		const notifications = cluster.store.collection<NotificationDoc>("notifications");
		await notifications.updateMany({ id: { $in: ids } }, { $set: { availableAt: new Date(Date.now() + 3600_000).toISOString() } });
		await cluster.startDispatchers(2);
		await notifications.updateMany({ id: { $in: ids } }, { $set: { availableAt: new Date().toISOString() } });
		await waitFor(`all ${ids.length} to be SENT`, async () => (await notifications.count({ id: { $in: ids }, status: "SENT" })) === ids.length, 60000);
		await cluster.stopDispatchers();
		return ids;
	}

	it("should write each SMS to the outbox exactly once, in priority order across both dispatchers", async () => {
		const ids = await backlog("SMS", i => `+1415555${String(1000 + i).padStart(4, "0")}`);
		const dir = path.join(cluster.dataDir, "outbox", "sms");
		const files = fs.readdirSync(dir).filter(f => f.endsWith(".json"));
		const perNotification = new Map<string, number>();
		for (const f of files) perNotification.set(f.split(".")[0], (perNotification.get(f.split(".")[0]) ?? 0) + 1);
		expect(ids.map(id => perNotification.get(id))).toEqual(ids.map(() => 1));
		expect(files).toHaveLength(ids.length);
		expectPriorityOrder(await sentRecords(cluster, ids));
	}, 120000);

	it("should push each notification exactly once, decrypted by the subscriber, in priority order across both dispatchers", async () => {
		const actorId = cluster.user.actorId;
		const subscribed = await http(cluster.base, "POST", `/actors/${actorId}/push-subscriptions`, { token: cluster.user.accessToken, json: push.subscribe("ok") });
		expect(subscribed.status).toBe(201);
		const ids = await backlog("PUSH", () => actorId);
		expect(push.refused).toEqual([]);
		const received = push.received.map(r => r.payload.notificationId as string);
		expect([...received].sort()).toEqual([...ids].sort());
		const docs = await cluster.store.collection<NotificationDoc>("notifications").find({ id: { $in: ids } });
		for (const n of docs) {
			const got = push.received.find(r => r.payload.notificationId === n.id)!;
			expect(got.payload).toEqual({ notificationId: n.id, title: `${n.priority} ${ids.indexOf(n.id)}`, body: `Message ${ids.indexOf(n.id)}` });
			expect(got.headers.urgency).toBe(n.priority === "CRITICAL" ? "high" : n.priority === "LOW" ? "low" : "normal");
		}
		expectPriorityOrder(await sentRecords(cluster, ids));
	}, 120000);
});
