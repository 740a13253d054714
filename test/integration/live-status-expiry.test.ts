/**
 * A live status stream lasts as long as the access token it was opened with: at the
 * token's exp (a 5 s IDP_ACCESS_TOKEN_TTL_SECONDS here) it ends as cleanly as at the
 * node's stop, and the client resumes with a fresh token and Last-Event-ID, without
 * gaps or repeats.
 */
import { decodeJwt } from "jose";
import { recordDelivery } from "../../lib/notifications/outcomes";
import type { EventDoc, NotificationDoc } from "../../lib/notifications/model";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { markVerified } from "../helpers/senders";
import { SseClient } from "../helpers/sse";

describe("live status streams and token expiry", () => {
	let p: Platform;
	const open: SseClient[] = [];

	async function watch(id: string, token: string, lastEventId?: string) {
		const c = await SseClient.open(p.baseUrl, `/notifications/${id}/events`, token, lastEventId);
		open.push(c);
		expect(c.status).toBe(200);
		return c;
	}

	beforeAll(async () => {
		p = await startPlatform({ IDP_ACCESS_TOKEN_TTL_SECONDS: "5", SSE_HEARTBEAT_MS: "200" });
	});
	afterAll(async () => {
		await Promise.all(open.map(c => c.close()));
		await p.stop();
	});

	it("should end the stream when its token expires and resume after Last-Event-ID with a refreshed token", async () => {
		const user = newUser();
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: user });
		expect(reg.status).toBe(201);
		// Users send to their own verified address only.
		await markVerified(p, user.email);
		const exp = decodeJwt(reg.body.accessToken).exp! * 1000;
		const sent = await http(p.baseUrl, "POST", "/notifications", { token: reg.body.accessToken, json: { to: user.email, template: { subject: "s", text: "t" } } });
		expect(sent.status).toBe(201);
		const id = sent.body.notificationId as string;

		const first = await watch(id, reg.body.accessToken);
		await first.until("SENT", c => c.events().includes("SENT"));
		await first.finished();
		const endedAt = Date.now();
		expect(first.endedByServer).toBe(true);
		expect(endedAt).toBeGreaterThanOrEqual(exp);
		// It stayed open until then: heartbeats came while nothing else happened.
		expect(first.comments.filter(t => t === "heartbeat").length).toBeGreaterThan(0);
		expect(first.events()).toEqual(["QUEUED", "SENT"]);

		const refreshed = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: reg.body.refreshToken } });
		expect(refreshed.status).toBe(200);
		const second = await watch(id, refreshed.body.accessToken, first.messages.at(-1)!.id);
		await second.until("the stream to open", c => c.comments.includes("open"));
		const doc = await runtime(p).store().collection<NotificationDoc>("notifications").get(id);
		await recordDelivery(runtime(p).store(), runtime(p).statusEvents, { channel: "EMAIL", event: "DELIVERED", providerMessageId: doc!.providerMessageId!, detail: {} });
		await second.until("DELIVERED", c => c.events().includes("DELIVERED"));
		expect(second.events()).toEqual(["DELIVERED"]);
		const stored = await runtime(p).store().collection<EventDoc>("notification_events").find({ notificationId: id }, { sort: { seq: 1 } });
		expect([...first.messages, ...second.messages].map(m => m.id)).toEqual(stored.map(e => e.seq));
	}, 30000);
});
