/**
 * Live status streams (server-sent events) on this gateway node. A stream is opened
 * before the notifications service is asked for the timeline, so the events recorded
 * while that answer travels are held, not lost; the timeline is sent first, then
 * what was held and what arrives (as "notifications.status" broker events from any
 * node), each event once, whatever order the two come in. A broker event reaches
 * only the nodes its sender knew of (a gateway that joined a moment ago, a NATS
 * reconnect), so every heartbeat also reads the timeline again and sends what is
 * missing: a lost broker event delays an event by one heartbeat at most, it never
 * leaves a gap. The node's orderly stop ends every stream, so the stop does not wait
 * for clients that never hang up; so does the expiry of the token a stream was opened
 * with.
 */
import type { ServerResponse } from "node:http";
import { pipeline, Readable } from "node:stream";
import type { Logger } from "moleculer";
import type { LiveStreamConfig } from "../../lib/config";
import type { StatusEvent } from "../../lib/delivery";
import type { TimelineItem } from "../../lib/notifications";
import type { Drain } from "../../lib/process/shutdown";

/** One SSE message: `id` the event's place in the timeline, `event` its name, `data` the event. */
export function sseMessage(item: TimelineItem): string {
	const data = item.detail
		? { event: item.event, occurredAt: item.occurredAt, status: item.status, detail: item.detail }
		: { event: item.event, occurredAt: item.occurredAt, status: item.status };
	// Event names are the store's own (SCREAMING_SNAKE); JSON never holds a raw newline.
	return `id: ${item.id}\nevent: ${item.event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function itemOf(e: StatusEvent): TimelineItem {
	const item: TimelineItem = { id: e.seq, event: e.event, occurredAt: e.occurredAt, status: e.status };
	if (e.detail) item.detail = e.detail;
	return item;
}

/** setTimeout's longest wait; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class LiveStream extends Readable {
	private readonly sent = new Set<string>();
	private held: TimelineItem[] | null = [];
	private heartbeat: NodeJS.Timeout | null = null;
	private expiry: NodeJS.Timeout | null = null;
	/** Set once the stream is admitted: the principal it counts against. */
	principal: string | null = null;

	constructor(readonly notificationId: string, readonly after: string | undefined, private readonly hub: LiveStreams) {
		super();
	}

	override _read(): void {
		// Events are pushed as they happen; nothing is produced on demand.
	}

	/** Sends the timeline the service answered, then what arrived meanwhile, then follows. */
	begin(items: TimelineItem[], heartbeatMs: number): void {
		// Tells the client (and proxies) the stream is open before the first event.
		this.push(": open\n\n");
		for (const item of items) this.send(item);
		const held = this.held ?? [];
		this.held = null;
		for (const item of held) this.send(item);
		this.heartbeat = setInterval(() => {
			this.push(": heartbeat\n\n");
			this.hub.catchUp(this).then(
				missed => missed.forEach(item => this.send(item)),
				err => this.hub.onCatchUpError(err as Error, this.notificationId)
			);
		}, heartbeatMs);
		this.heartbeat.unref();
	}

	/**
	 * Ends the stream as the node's stop does once the caller's token expires (`ms`, its
	 * exp): access was checked when it opened, and a session that ends or is revoked must
	 * not go on watching. The client opens it again with a fresh token and Last-Event-ID.
	 */
	endAt(ms: number): void {
		this.expiry = setTimeout(() => this.finish(), Math.min(Math.max(0, ms - Date.now()), MAX_TIMER_MS));
		this.expiry.unref();
	}

	offer(e: StatusEvent): void {
		const item = itemOf(e);
		if (this.held) this.held.push(item);
		else this.send(item);
	}

	private send(item: TimelineItem): void {
		if (this.destroyed || this.sent.has(item.id) || (this.after !== undefined && item.id <= this.after)) return;
		this.sent.add(item.id);
		this.push(sseMessage(item));
	}

	/** Ends the stream as a whole: the client reads what was sent, then the end. */
	finish(): void {
		this.stopTimers();
		if (!this.readableEnded) this.push(null);
	}

	private stopTimers(): void {
		if (this.heartbeat) clearInterval(this.heartbeat);
		if (this.expiry) clearTimeout(this.expiry);
	}

	override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
		this.stopTimers();
		this.hub.remove(this);
		callback(err);
	}
}

/**
 * Sends a live stream as the answer; its headers are set (hooks.ts). moleculer-web's
 * sendResponse pipes a stream too, but logs any end other than the stream's own as a
 * warning with a stack, and a client that hangs up is how an event stream usually
 * ends (so is the node cutting it at a stop): that is logged at debug. Anything else
 * that breaks the pipe stays a warning.
 */
export function sendLiveStream(res: ServerResponse, stream: LiveStream, logger: Logger): void {
	pipeline(stream, res, err => {
		if (!err) return;
		const fields = { notificationId: stream.notificationId };
		if ((err as NodeJS.ErrnoException).code === "ERR_STREAM_PREMATURE_CLOSE") logger.debug("Live stream closed before its end (the client went away or the node cut it)", fields);
		else logger.warn("Live stream failed", { ...fields, err });
	});
}

export type Admission = "admitted" | "principal-limit" | "node-limit";

export class LiveStreams implements Drain {
	private readonly byNotification = new Map<string, Set<LiveStream>>();
	private readonly perPrincipal = new Map<string, number>();
	private readonly all = new Set<LiveStream>();
	private admitted = 0;
	private stopping = false;
	private waiting: (() => void)[] = [];

	/** `read` answers a notification's timeline after `after` (the notifications service, called as this node). */
	constructor(
		private readonly limits: LiveStreamConfig,
		private readonly read: (notificationId: string, after: string | undefined) => Promise<TimelineItem[]>,
		/** A failed read is tried again with the next heartbeat; the stream stays open. */
		readonly onCatchUpError: (err: Error, notificationId: string) => void = () => undefined
	) {}

	/** The timeline as the store has it now; the stream sends only what it has not sent. */
	catchUp(stream: LiveStream): Promise<TimelineItem[]> {
		return stream.destroyed ? Promise.resolve([]) : this.read(stream.notificationId, stream.after);
	}

	get heartbeatMs(): number {
		return this.limits.heartbeatMs;
	}

	/** A stream that holds the events of this notification from now on, until it is admitted or dropped. */
	watch(notificationId: string, after: string | undefined): LiveStream {
		const stream = new LiveStream(notificationId, after, this);
		let set = this.byNotification.get(notificationId);
		if (!set) this.byNotification.set(notificationId, (set = new Set()));
		set.add(stream);
		this.all.add(stream);
		return stream;
	}

	/** Counts the stream against the principal's and the node's limits, or says which one it exceeds. */
	admit(stream: LiveStream, principal: string): Admission {
		if (this.stopping) return "node-limit";
		if (this.admitted >= this.limits.maxPerNode) return "node-limit";
		const mine = this.perPrincipal.get(principal) ?? 0;
		if (mine >= this.limits.maxPerPrincipal) return "principal-limit";
		this.perPrincipal.set(principal, mine + 1);
		this.admitted += 1;
		stream.principal = principal;
		return "admitted";
	}

	/** A status event from any node: every stream of its notification on this node gets it. */
	deliver(e: StatusEvent): void {
		for (const stream of this.byNotification.get(e.notificationId) ?? []) stream.offer(e);
	}

	/** Called by a stream as it is destroyed (the client went away, the response ended, or it was never admitted). */
	remove(stream: LiveStream): void {
		if (!this.all.delete(stream)) return;
		const set = this.byNotification.get(stream.notificationId);
		set?.delete(stream);
		if (set?.size === 0) this.byNotification.delete(stream.notificationId);
		if (stream.principal) {
			this.admitted -= 1;
			const left = (this.perPrincipal.get(stream.principal) ?? 1) - 1;
			if (left > 0) this.perPrincipal.set(stream.principal, left);
			else this.perPrincipal.delete(stream.principal);
		}
		if (this.all.size === 0) {
			const waiting = this.waiting;
			this.waiting = [];
			for (const resolve of waiting) resolve();
		}
	}

	get size(): number {
		return this.all.size;
	}

	/** The stop: no stream is admitted any more, and every open one ends now (clients reconnect elsewhere with Last-Event-ID). */
	begin(): Promise<void> {
		this.stopping = true;
		for (const stream of [...this.all]) {
			if (stream.principal) stream.finish();
			else stream.destroy();
		}
		return this.all.size === 0 ? Promise.resolve() : new Promise(resolve => this.waiting.push(resolve));
	}

	abort(): Promise<void> {
		for (const stream of [...this.all]) stream.destroy();
		return Promise.resolve();
	}
}
