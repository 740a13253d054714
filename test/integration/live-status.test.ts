/**
 * Live delivery status over server-sent events, on one node: the stream shows the
 * timeline and follows it (the SENT the dispatcher records, the DELIVERED a signed SNS
 * message records), resumes after Last-Event-ID without gaps or repeats, applies the
 * GET's access rule and the stream limits, and ends when the node stops.
 */
import https from "node:https";
import { newEvent } from "../../lib/notifications/events";
import type { EventDoc, NotificationDoc } from "../../lib/notifications/model";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { serviceToken, verifiedUser } from "../helpers/senders";
import { makeCert, notification, sesEvent, sign, startHttpsHost, type HttpsHost, type TestCert } from "../helpers/sns";
import { SseClient } from "../helpers/sse";

const WEBHOOK = "/notifications/webhooks/email-provider";

describe("live delivery status (server-sent events)", () => {
	let tls: TestCert;
	let host: HttpsHost;
	let p: Platform;
	// A service's: the notifications go to fresh addresses (a complaint suppresses one).
	let token: string;
	let certUrl: string;
	const open: SseClient[] = [];

	async function watch(id: string, lastEventId?: string, as = token) {
		const c = await SseClient.open(p.baseUrl, `/notifications/${id}/events`, as, lastEventId);
		open.push(c);
		return c;
	}

	async function sendOne(): Promise<string> {
		const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: `live${Date.now()}${Math.random()}@example.com`, template: { subject: "s", text: "t" } } });
		expect(res.status).toBe(201);
		return res.body.notificationId;
	}

	async function sent(id: string): Promise<NotificationDoc> {
		const notifications = runtime(p).store().collection<NotificationDoc>("notifications");
		let doc: NotificationDoc | null = null;
		await waitFor("the notification to be SENT", async () => (doc = await notifications.get(id))?.status === "SENT");
		return doc!;
	}

	async function snsOutcome(type: "Delivery" | "Complaint", providerMessageId: string) {
		const message = sign(notification(sesEvent(type, providerMessageId), certUrl), tls.key);
		const res = await http(p.baseUrl, "POST", WEBHOOK, { body: JSON.stringify(message), headers: { "content-type": "text/plain; charset=UTF-8" } });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ outcome: "recorded" });
	}

	async function storedTimeline(id: string): Promise<string[]> {
		const events = await runtime(p).store().collection<EventDoc>("notification_events").find({ notificationId: id }, { sort: { seq: 1 } });
		return events.map(e => e.seq);
	}

	beforeAll(async () => {
		tls = makeCert();
		host = await startHttpsHost(tls, tls.cert);
		p = await startPlatform({ SNS_SIGNING_CERT_HOST_PATTERN: "^localhost:\\d+$", SSE_MAX_STREAMS_PER_PRINCIPAL: "3", SSE_HEARTBEAT_MS: "200" });
		runtime(p).useSnsAgent(new https.Agent({ ca: tls.cert }));
		token = await serviceToken(p);
		certUrl = `https://localhost:${host.port}/SimpleNotificationService-test.pem`;
	});
	afterEach(async () => {
		await Promise.all(open.splice(0).map(c => c.close()));
	});
	afterAll(async () => {
		await p.stop();
		await host.close();
	});

	it("should stream QUEUED, SENT and the DELIVERED of a signed SNS message, then resume after Last-Event-ID without gaps or repeats", async () => {
		const id = await sendOne();
		const first = await watch(id);
		expect(first.status).toBe(200);
		expect(first.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
		expect(first.headers.get("cache-control")).toBe("no-store");
		await first.until("SENT", c => c.events().includes("SENT"));
		expect(first.events()).toEqual(["QUEUED", "SENT"]);
		expect(first.messages.map(m => m.data.status)).toEqual(["QUEUED", "SENT"]);
		expect(first.messages[1].data).toMatchObject({ event: "SENT", status: "SENT", occurredAt: expect.any(String) });
		const lastSeen = first.messages[1].id!;
		await first.close();

		// While no one watches, the provider reports the delivery.
		const doc = await sent(id);
		await snsOutcome("Delivery", doc.providerMessageId!);

		const second = await watch(id, lastSeen);
		expect(second.status).toBe(200);
		await second.until("DELIVERED", c => c.events().includes("DELIVERED"));
		// And it keeps following: a complaint recorded now arrives live on the resumed stream.
		await snsOutcome("Complaint", doc.providerMessageId!);
		await second.until("COMPLAINT", c => c.events().includes("COMPLAINT"));
		expect(second.events()).toEqual(["DELIVERED", "COMPLAINT"]);
		expect(second.messages.map(m => m.data.status)).toEqual(["DELIVERED", "COMPLAINT"]);

		// Both connections together are the stored timeline, each event once, in order.
		const seen = [...first.messages, ...second.messages].map(m => m.id);
		expect(seen).toEqual(await storedTimeline(id));
		// The GET is as it was for clients that do not watch: no new fields in its events.
		const view = await http(p.baseUrl, "GET", `/notifications/${id}`, { token });
		expect(view.body.events.map((e: object) => Object.keys(e).sort())).toEqual([
			["event", "occurredAt"],
			["detail", "event", "occurredAt"],
			["detail", "event", "occurredAt"],
			["detail", "event", "occurredAt"]
		]);
	});

	it("should send heartbeat comments while nothing happens", async () => {
		const id = await sendOne();
		const c = await watch(id);
		await c.until("two heartbeats", x => x.comments.filter(t => t === "heartbeat").length >= 2, 5000);
	});

	it("should bring an event whose broker event never came with the next heartbeat's read", async () => {
		const id = await sendOne();
		const c = await watch(id);
		await c.until("SENT", x => x.events().includes("SENT"));
		// Written straight to the store: no broker event announces it.
		const silent = newEvent(id, "SILENT_PROBE", { status: "SENT" });
		await runtime(p).store().collection<EventDoc>("notification_events").insert(silent);
		await c.until("the silent event", x => x.events().includes("SILENT_PROBE"), 5000);
		expect(c.messages.map(m => m.id)).toEqual(await storedTimeline(id));
	});

	it("should answer the timeline as JSON, after `after`, when the client does not ask for an event stream", async () => {
		const id = await sendOne();
		await sent(id);
		const all = await http(p.baseUrl, "GET", `/notifications/${id}/events`, { token });
		expect(all.status).toBe(200);
		expect(all.body).toMatchObject({ notificationId: id, status: "SENT" });
		expect(all.body.items.map((i: { event: string }) => i.event)).toEqual(["QUEUED", "SENT"]);
		const later = await http(p.baseUrl, "GET", `/notifications/${id}/events?after=${all.body.items[0].id}`, { token });
		expect(later.body.items.map((i: { event: string }) => i.event)).toEqual(["SENT"]);
	});

	it("should refuse another user's notification as absent, a missing token, and a malformed Last-Event-ID", async () => {
		// A user's own notification, to its own verified address.
		const owner = await verifiedUser(p);
		const res = await http(p.baseUrl, "POST", "/notifications", { token: owner.token, json: { to: owner.email, template: { subject: "s", text: "t" } } });
		expect(res.status).toBe(201);
		const id = res.body.notificationId;
		const other = (await http(p.baseUrl, "POST", "/auth/register", { json: newUser() })).body.accessToken;
		const foreign = await watch(id, undefined, other);
		expect({ status: foreign.status, code: foreign.problem.code }).toEqual({ status: 404, code: "NOTIFICATION_NOT_FOUND" });
		const anonymous = await fetch(`${p.baseUrl}/notifications/${id}/events`, { headers: { accept: "text/event-stream" } });
		expect(anonymous.status).toBe(401);
		const malformed = await watch(id, "not-an-event-id", owner.token);
		expect({ status: malformed.status, code: malformed.problem.code }).toEqual({ status: 400, code: "VALIDATION_ERROR" });
		// None of them holds a stream open.
		expect(gatewayStreams()).toBe(0);
	});

	function gatewayStreams(): number {
		return (p.broker.getLocalService("api") as unknown as { live: { size: number } }).live.size;
	}

	it("should answer 429 beyond the streams one principal may hold, and admit again once one closes", async () => {
		const id = await sendOne();
		const held = [await watch(id), await watch(id), await watch(id)];
		for (const c of held) expect(c.status).toBe(200);
		const refused = await watch(id);
		expect({ status: refused.status, code: refused.problem.code }).toEqual({ status: 429, code: "RATE_LIMITED" });
		expect(refused.headers.get("retry-after")).toBe("30");
		await held[0].close();
		await waitFor("the closed stream to stop counting", async () => gatewayStreams() === 2);
		const again = await watch(id);
		expect(again.status).toBe(200);
	});
});

describe("live streams when the node stops", () => {
	it("should end every open stream cleanly when the node stops", async () => {
		const p = await startPlatform();
		const token = await serviceToken(p);
		const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: "stop@example.com", template: { subject: "s", text: "t" } } });
		const c = await SseClient.open(p.baseUrl, `/notifications/${res.body.notificationId}/events`, token);
		await c.until("QUEUED", x => x.events().includes("QUEUED"));
		const stopping = p.stop();
		// The server ends the stream (the reader sees its end), rather than the client aborting it.
		await c.finished();
		expect(c.endedByServer).toBe(true);
		await stopping;
	});
});
