/**
 * The gateway's event streams (services/api-gateway/sse-streams.ts) through the two
 * kinds built on them, a notification's status (live.ts) and an actor's inbox
 * (inbox-live.ts): what a stream sends and in which order, what its heartbeat reads
 * and from where, the limits, the stop, and how a broken pipe is logged. The clock
 * is frozen and the heartbeat is driven by it. The notifications service's reads are
 * functions the test answers: the integration tests (live-status, inbox) stream from
 * the real service, and here the answers reach what it rarely gives on cue (a failed
 * read, a heartbeat past the catch-up window). The logger records what it is given.
 */
import type { ServerResponse } from "node:http";
import { PassThrough } from "node:stream";
import type { Logger } from "moleculer";
import type { LiveStreamConfig } from "../../lib/config";
import { uuidv7Floor } from "../../lib/crypto";
import type { StatusEvent } from "../../lib/delivery";
import type { InboxCounts, InboxMessage } from "../../lib/inbox";
import type { TimelineItem } from "../../lib/notifications";
import { CATCH_UP_WINDOW_MS, countEvent, InboxStreams, messageEvent, type InboxSnapshot, type InboxStream } from "../../services/api-gateway/inbox-live";
import { LiveStreams, sseMessage, type LiveStream } from "../../services/api-gateway/live";

const T0 = Date.parse("2030-01-01T00:00:00Z");
const HEARTBEAT_MS = 1000;
const limits = (maxPerPrincipal = 5, maxPerNode = 10): LiveStreamConfig => ({ maxPerPrincipal, maxPerNode, heartbeatMs: HEARTBEAT_MS });

/** A message stored `ms` after T0 (its seq sorts by time, as a UUIDv7 does). */
function message(ms: number): InboxMessage {
	return { seq: `${uuidv7Floor(T0 + ms)}-7000-8000-000000000000`, notificationId: `n-${ms}`, title: "t", body: "b", data: {}, createdAt: new Date(T0 + ms).toISOString() };
}
const counts = (unread: number, unseen = unread): InboxCounts => ({ unread, unseen });

function item(id: string): TimelineItem {
	return { id, event: "SENT", occurredAt: "2030-01-01T00:00:00.000Z", status: "SENT" };
}
function statusEvent(notificationId: string, seq: string): StatusEvent {
	return { notificationId, owner: { kind: "user", id: "u-1" }, seq, event: "SENT", occurredAt: "2030-01-01T00:00:00.000Z", status: "SENT" };
}

/** What the stream has sent and nobody has read yet. */
function sent(stream: LiveStream | InboxStream): string {
	let text = "";
	for (let chunk = stream.read(); chunk !== null; chunk = stream.read()) text += String(chunk);
	return text;
}

/** Lets the promises settle and the stream's own next ticks run. */
const settle = () => new Promise(resolve => setImmediate(resolve));

/** Answers each read with the next answer given, and notes where it read from. */
function reads<T>() {
	const from: (string | undefined)[] = [];
	const answers: (() => Promise<T>)[] = [];
	const read = (_key: string, after: string | undefined): Promise<T> => {
		from.push(after);
		const next = answers.shift();
		return next ? next() : Promise.reject(new Error("no answer"));
	};
	return { from, read, answer: (a: T) => answers.push(() => Promise.resolve(a)), fail: (err: Error) => answers.push(() => Promise.reject(err)) };
}

beforeEach(() => {
	// Node's own ticks and setImmediate run as usual: the streams lean on them.
	jest.useFakeTimers({ now: T0, doNotFake: ["nextTick", "queueMicrotask", "setImmediate"] });
});

afterEach(() => {
	jest.useRealTimers();
});

describe("inbox streams", () => {
	it("should send what the service answered, then the changes held before the start, each message once and a count only when it changes", () => {
		const hub = new InboxStreams(limits(), reads<InboxSnapshot>().read);
		const stream = hub.watch("actor-1", undefined);
		hub.deliver({ actorId: "actor-1", message: message(2), counts: counts(2) });
		hub.deliver({ actorId: "actor-2", message: message(9), counts: counts(9) });
		hub.deliver({ actorId: "actor-1", message: message(1), counts: counts(2) });
		expect(sent(stream)).toBe("");

		stream.begin({ items: [message(1)], counts: counts(1) }, HEARTBEAT_MS);
		expect(sent(stream)).toBe(": open\n\n" + messageEvent(message(1)) + countEvent(counts(1)) + messageEvent(message(2)) + countEvent(counts(2)));

		hub.deliver({ actorId: "actor-1", message: message(2), counts: counts(2) });
		hub.deliver({ actorId: "actor-1", counts: counts(1, 0) });
		expect(sent(stream)).toBe(countEvent(counts(1, 0)));
		stream.destroy();
	});

	it("should read from the stream's opening on a heartbeat, later from the start of the catch-up window, and send only what it missed", async () => {
		const r = reads<InboxSnapshot>();
		const hub = new InboxStreams(limits(), r.read);
		const stream = hub.watch("actor-1", undefined);
		stream.begin({ items: [], counts: counts(0) }, HEARTBEAT_MS);
		expect(sent(stream)).toBe(": open\n\n" + countEvent(counts(0)));

		r.answer({ items: [message(10)], counts: counts(1) });
		jest.advanceTimersByTime(HEARTBEAT_MS);
		await settle();
		expect(r.from).toEqual([uuidv7Floor(T0)]);
		expect(sent(stream)).toBe(": heartbeat\n\n" + messageEvent(message(10)) + countEvent(counts(1)));

		// The clock jumps past the window without a heartbeat in between; the next one reads from the window's start.
		jest.setSystemTime(T0 + CATCH_UP_WINDOW_MS + 5 * HEARTBEAT_MS);
		r.answer({ items: [message(CATCH_UP_WINDOW_MS)], counts: counts(2) });
		jest.advanceTimersByTime(HEARTBEAT_MS);
		await settle();
		expect(r.from).toEqual([uuidv7Floor(T0), uuidv7Floor(Date.now() - CATCH_UP_WINDOW_MS)]);
		expect(r.from[1]! > uuidv7Floor(T0)).toBe(true);
		expect(sent(stream)).toBe(": heartbeat\n\n" + messageEvent(message(CATCH_UP_WINDOW_MS)) + countEvent(counts(2)));
		stream.destroy();
	});

	it("should read from Last-Event-ID while it is inside the catch-up window", () => {
		const hub = new InboxStreams(limits(), reads<InboxSnapshot>().read);
		const after = message(-5).seq;
		const stream = hub.watch("actor-1", after);
		expect(stream.catchUpFrom()).toBe(after);
		expect(stream.catchUpFrom(T0 + CATCH_UP_WINDOW_MS)).toBe(uuidv7Floor(T0));
		stream.destroy();
	});
});

describe("status streams", () => {
	it("should send each timeline event once and none at or before Last-Event-ID, whichever way it came", () => {
		const hub = new LiveStreams(limits(), reads<TimelineItem[]>().read);
		const stream = hub.watch("n-1", "0002");
		hub.deliver(statusEvent("n-1", "0003"));
		hub.deliver(statusEvent("n-2", "0004"));
		stream.begin([item("0001"), item("0002"), item("0003")], HEARTBEAT_MS);
		expect(sent(stream)).toBe(": open\n\n" + sseMessage(item("0003")));

		hub.deliver(statusEvent("n-1", "0003"));
		hub.deliver(statusEvent("n-1", "0004"));
		expect(sent(stream)).toBe(sseMessage(item("0004")));
		stream.destroy();
	});

	it("should keep the stream open when a heartbeat's read fails, report it with the notification, and send what the next read finds", async () => {
		const r = reads<TimelineItem[]>();
		const failures: [string, string][] = [];
		const hub = new LiveStreams(limits(), r.read, (err, key) => failures.push([err.message, key]));
		const stream = hub.watch("n-1", undefined);
		stream.begin([item("0001")], HEARTBEAT_MS);
		sent(stream);

		r.fail(new Error("notifications is away"));
		jest.advanceTimersByTime(HEARTBEAT_MS);
		await settle();
		expect(failures).toEqual([["notifications is away", "n-1"]]);
		expect(stream.destroyed).toBe(false);

		r.answer([item("0001"), item("0002")]);
		jest.advanceTimersByTime(HEARTBEAT_MS);
		await settle();
		expect(r.from).toEqual([undefined, undefined]);
		expect(sent(stream)).toBe(": heartbeat\n\n: heartbeat\n\n" + sseMessage(item("0002")));
		stream.destroy();
	});

	it("should end the stream when the caller's token expires", async () => {
		const hub = new LiveStreams(limits(), reads<TimelineItem[]>().read);
		const stream = hub.watch("n-1", undefined);
		expect(hub.admit(stream, "user:a")).toBe("admitted");
		stream.begin([], HEARTBEAT_MS);
		stream.endAt(T0 + 5000);
		const ended = new Promise(resolve => stream.once("end", resolve));
		stream.resume();
		jest.advanceTimersByTime(4999);
		await settle();
		expect(stream.readableEnded).toBe(false);
		jest.advanceTimersByTime(1);
		await ended;
		await settle();
		expect(hub.size).toBe(0);
	});
});

describe("the limits and the stop", () => {
	it("should admit per principal and per node, and count a stream no more once it is gone", () => {
		const hub = new LiveStreams(limits(1, 2), reads<TimelineItem[]>().read);
		const [a, b, c, d] = ["n-1", "n-1", "n-2", "n-3"].map(id => hub.watch(id, undefined));
		expect(hub.admit(a, "user:a")).toBe("admitted");
		expect(hub.admit(b, "user:a")).toBe("principal-limit");
		expect(hub.admit(c, "user:c")).toBe("admitted");
		expect(hub.admit(d, "user:d")).toBe("node-limit");
		a.destroy();
		expect(hub.admit(b, "user:a")).toBe("admitted");
		expect(hub.size).toBe(3);
		for (const s of [b, c, d]) s.destroy();
		expect(hub.size).toBe(0);
	});

	it("should end admitted streams, drop the others and admit none at the stop, resolving once every stream is gone", async () => {
		const hub = new InboxStreams(limits(), reads<InboxSnapshot>().read);
		const open = hub.watch("actor-1", undefined);
		const waiting = hub.watch("actor-2", undefined);
		expect(hub.admit(open, "user:a")).toBe("admitted");
		open.begin({ items: [message(1)], counts: counts(1) }, HEARTBEAT_MS);

		let stopped = false;
		const stop = hub.begin().then(() => (stopped = true));
		expect(waiting.destroyed).toBe(true);
		const refused = hub.watch("actor-3", undefined);
		expect(hub.admit(refused, "user:b")).toBe("node-limit");
		refused.destroy();
		await settle();
		expect(stopped).toBe(false);

		// The client reads what was sent, then the end.
		expect(sent(open)).toBe(": open\n\n" + messageEvent(message(1)) + countEvent(counts(1)));
		open.resume();
		await stop;
		expect(hub.size).toBe(0);
	});

	it("should destroy every stream left when the stop's grace runs out", async () => {
		const hub = new LiveStreams(limits(), reads<TimelineItem[]>().read);
		const open = hub.watch("n-1", undefined);
		expect(hub.admit(open, "user:a")).toBe("admitted");
		open.begin([item("0001")], HEARTBEAT_MS);
		const waiting = hub.watch("n-2", undefined);
		const stop = hub.begin();
		await hub.abort();
		expect([open.destroyed, waiting.destroyed]).toEqual([true, true]);
		await stop;
		expect(hub.size).toBe(0);
	});
});

describe("sending a stream", () => {
	function logger() {
		const lines: [string, string, Record<string, unknown>][] = [];
		const log = (level: string) => (msg: string, fields: Record<string, unknown>) => lines.push([level, msg, fields]);
		return { lines, logger: { debug: log("debug"), warn: log("warn") } as unknown as Logger };
	}

	it("should log a client that went away at debug and any other break as a warning, with the stream's key", async () => {
		const live = new LiveStreams(limits(), reads<TimelineItem[]>().read).watch("n-1", undefined);
		const gone = new PassThrough();
		const l = logger();
		live.sendTo(gone as unknown as ServerResponse, l.logger);
		gone.destroy();
		await settle();
		expect(l.lines).toEqual([["debug", "Live stream closed before its end (the client went away or the node cut it)", { notificationId: "n-1" }]]);

		const inbox = new InboxStreams(limits(), reads<InboxSnapshot>().read).watch("actor-1", undefined);
		const broken = new PassThrough();
		inbox.sendTo(broken as unknown as ServerResponse, l.logger);
		const err = new Error("socket broke");
		broken.destroy(err);
		await settle();
		expect(l.lines.slice(1)).toEqual([["warn", "Inbox stream failed", { actorId: "actor-1", err }]]);
	});
});
