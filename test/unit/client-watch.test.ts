/**
 * notifications.watch of the client SDK (client/src) against the real platform in this
 * process: the stream's events arrive once each, in the timeline's order, across a
 * connection cut mid-stream or a stream the server ended (both made by the test's
 * fetch, the only stand-in: the gateway and its stream are real); the token travels in
 * the header only; an expired token is refreshed first; stop() and the signal end it;
 * a notification the caller may not see ends it with the platform's code.
 */
import { createClient, type ClientOptions, type TimelineEvent } from "../../client/src/index";
import { http, newUser, startPlatform, type Platform } from "../helpers/platform";
import { markVerified } from "../helpers/senders";

let p: Platform;

interface Seen {
	url: string;
	headers: Headers;
}

/**
 * Records the stream requests and, while `cut.next` is set, takes the next stream away
 * right after its first event: as a lost connection ("error") or as the server's end of
 * the stream, what a gateway node's orderly stop does ("end").
 */
function recordingFetch(seen: Seen[], counts: { refresh: number }, cut: { next: boolean; as?: "error" | "end" }): typeof fetch {
	return async (input, init) => {
		const url = String(input);
		if (url.endsWith("/auth/tokens/refresh")) counts.refresh += 1;
		const res = await fetch(input, init);
		if (!url.endsWith("/events")) return res;
		seen.push({ url, headers: new Headers(init?.headers) });
		if (!cut.next) return res;
		cut.next = false;
		const reader = res.body!.getReader();
		const decoder = new TextDecoder();
		let text = "";
		const body = new ReadableStream<Uint8Array>({
			async pull(controller) {
				const { value, done } = await reader.read();
				if (done) return controller.close();
				controller.enqueue(value);
				text += decoder.decode(value, { stream: true });
				if (/\ndata: /.test(text)) {
					await reader.cancel();
					if (cut.as === "end") controller.close();
					else controller.error(new TypeError("network connection lost"));
				}
			}
		});
		return new Response(body, { status: res.status, headers: res.headers });
	};
}

async function until(what: string, check: () => boolean, ms = 15000): Promise<void> {
	const deadline = Date.now() + ms;
	while (!check()) {
		if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
		await new Promise(resolve => setTimeout(resolve, 20));
	}
}

async function timeline(token: string, notificationId: string): Promise<{ id: string; event: string; status: string }[]> {
	const res = await http(p.baseUrl, "GET", `/notifications/${notificationId}/events`, { token });
	expect(res.status).toBe(200);
	return res.body.items;
}

beforeAll(async () => {
	p = await startPlatform();
});
afterAll(() => p.stop());

describe("@auth-notify/client notifications.watch", () => {
	it.each(["error", "end"] as const)("should deliver every status event once, in order, after a stream's %s by resuming with Last-Event-ID", async as => {
		const seen: Seen[] = [];
		const counts = { refresh: 0 };
		const cut = { next: true, as };
		const errors: unknown[] = [];
		const c = createClient({ baseUrl: p.baseUrl, fetch: recordingFetch(seen, counts, cut), locks: null });
		const user = newUser();
		await c.register(user);
		await markVerified(p, user.email);
		const { notificationId } = await c.notifications.send({ to: user.email, template: { subject: "Hi", text: "Hello" } });
		const events: TimelineEvent[] = [];
		let deliveredBeforeCut: string | undefined;
		const onError = (err: unknown) => errors.push(err);
		const onEvent = (e: TimelineEvent) => {
			events.push(e);
			// What the first stream delivered is what the second must resume after.
			if (seen.length === 1) deliveredBeforeCut = e.id;
		};
		const handle = c.notifications.watch(notificationId, onEvent, { retryMs: 50, onError });
		await until("SENT after a reconnect", () => seen.length >= 2 && events.some(e => e.status === "SENT"));
		handle.stop();
		await expect(handle.done).resolves.toBeUndefined();

		// A lost connection is reported; a stream the server ended is simply resumed.
		expect(errors).toEqual(as === "error" ? [expect.objectContaining({ message: "network connection lost" })] : []);
		expect(deliveredBeforeCut).toBeDefined();
		const token = (await c.accessToken())!;
		for (const s of seen) {
			expect(s.url).toBe(`${p.baseUrl}/notifications/${notificationId}/events`);
			expect(s.headers.get("accept")).toBe("text/event-stream");
			expect(s.headers.get("authorization")).toBe(`Bearer ${token}`);
		}
		expect(seen[0].headers.get("last-event-id")).toBeNull();
		expect(seen[1].headers.get("last-event-id")).toBe(deliveredBeforeCut);
		const stored = await timeline(token, notificationId);
		expect(events.map(e => ({ id: e.id, event: e.event, status: e.status }))).toEqual(stored.map(i => ({ id: i.id, event: i.event, status: i.status })));
		expect(handle.lastEventId).toBe(stored[stored.length - 1].id);
	});

	it("should refresh an expired access token once before opening the stream", async () => {
		const seen: Seen[] = [];
		const counts = { refresh: 0 };
		let clock = Date.now() / 1000;
		const options: ClientOptions = { baseUrl: p.baseUrl, fetch: recordingFetch(seen, counts, { next: false }), locks: null, now: () => clock };
		const c = createClient(options);
		const user = newUser();
		const reg = await c.register(user);
		await markVerified(p, user.email);
		const { notificationId } = await c.notifications.send({ to: user.email, template: { subject: "Hi", text: "Hello" } });
		clock = reg.expiresAt + 60;
		const events: TimelineEvent[] = [];
		const abort = new AbortController();
		const handle = c.notifications.watch(notificationId, e => events.push(e), { signal: abort.signal });
		await until("SENT", () => events.some(e => e.status === "SENT"));
		abort.abort();
		await expect(handle.done).resolves.toBeUndefined();
		expect(counts.refresh).toBe(1);
		expect(seen).toHaveLength(1);
		expect(seen[0].headers.get("authorization")).not.toBe(`Bearer ${reg.accessToken}`);
		expect(events.map(e => e.status)).toContain("QUEUED");
	});

	it("should end with NOTIFICATION_NOT_FOUND for another user's notification, without retrying", async () => {
		const seen: Seen[] = [];
		const owner = createClient({ baseUrl: p.baseUrl, locks: null });
		const ownerUser = newUser();
		await owner.register(ownerUser);
		await markVerified(p, ownerUser.email);
		const { notificationId } = await owner.notifications.send({ to: ownerUser.email, template: { subject: "Hi", text: "Hello" } });
		const other = createClient({ baseUrl: p.baseUrl, fetch: recordingFetch(seen, { refresh: 0 }, { next: false }), locks: null });
		await other.register(newUser());
		const events: TimelineEvent[] = [];
		const handle = other.notifications.watch(notificationId, e => events.push(e), { retryMs: 10 });
		await expect(handle.done).rejects.toMatchObject({ name: "ApiError", status: 404, code: "NOTIFICATION_NOT_FOUND" });
		expect(seen).toHaveLength(1);
		expect(events).toEqual([]);
	});

	it("should not open a stream when stopped by an already aborted signal", async () => {
		const seen: Seen[] = [];
		const c = createClient({ baseUrl: p.baseUrl, fetch: recordingFetch(seen, { refresh: 0 }, { next: false }), locks: null });
		await c.register(newUser());
		const handle = c.notifications.watch("0190a000-0000-7000-8000-000000000000", () => undefined, { signal: AbortSignal.abort() });
		await expect(handle.done).resolves.toBeUndefined();
		expect(seen).toEqual([]);
	});
});
