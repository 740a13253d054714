/**
 * Live inbox streams (server-sent events) on this gateway node, the way live.ts
 * follows a notification's timeline: a stream is opened before the notifications
 * service is asked what it begins with (the messages after Last-Event-ID and the
 * counts), so changes announced meanwhile are held, not lost. It sends `message`
 * events (id: the message's seq) and `count` events (no id, so Last-Event-ID stays the
 * last message's) as "inbox.changed" broker events arrive from any node. A broker
 * event can miss a node (one that joined a moment ago, a NATS reconnect) and two
 * nodes' counts can arrive out of order, so every heartbeat reads the newest messages
 * and the counts again and sends what differs: a lost event is late by one heartbeat
 * at most. Messages are read back over a window of the last minute, so one stored
 * by a node whose clock is a little behind is still found. The node's stop ends every
 * stream, as does the expiry of the token it was opened with.
 */
import type { ServerResponse } from "node:http";
import { pipeline, Readable } from "node:stream";
import type { Logger } from "moleculer";
import type { LiveStreamConfig } from "../../lib/config";
import { uuidv7Floor } from "../../lib/crypto";
import type { InboxChange, InboxCounts, InboxMessage } from "../../lib/inbox";
import type { Drain } from "../../lib/process/shutdown";
import type { Admission } from "./live";

/** What an inbox stream begins with, and what a heartbeat reads (services/notifications/inbox.ts). */
export interface InboxSnapshot {
	items: InboxMessage[];
	counts: InboxCounts;
}

/** How far back a heartbeat reads messages: longer than any clock difference between nodes should be. */
export const CATCH_UP_WINDOW_MS = 60_000;

const MAX_TIMER_MS = 2 ** 31 - 1;

export function messageEvent({ seq, ...item }: InboxMessage): string {
	return `id: ${seq}\nevent: message\ndata: ${JSON.stringify(item)}\n\n`;
}

export function countEvent(counts: InboxCounts): string {
	return `event: count\ndata: ${JSON.stringify({ unread: counts.unread, unseen: counts.unseen })}\n\n`;
}

export class InboxStream extends Readable {
	private readonly sent = new Set<string>();
	private held: InboxChange[] | null = [];
	private lastCounts = "";
	private heartbeat: NodeJS.Timeout | null = null;
	private expiry: NodeJS.Timeout | null = null;
	/** The lowest seq a heartbeat reads after: the Last-Event-ID, else the moment the stream opened. */
	readonly floor: string;
	principal: string | null = null;

	constructor(readonly actorId: string, readonly after: string | undefined, private readonly hub: InboxStreams, now = Date.now()) {
		super();
		this.floor = after ?? uuidv7Floor(now);
	}

	override _read(): void {
		// Events are pushed as they happen.
	}

	/** Where a heartbeat reads from: the floor, or the start of the window once that is later. */
	catchUpFrom(now = Date.now()): string {
		const window = uuidv7Floor(now - CATCH_UP_WINDOW_MS);
		return window > this.floor ? window : this.floor;
	}

	begin(snapshot: InboxSnapshot, heartbeatMs: number): void {
		this.push(": open\n\n");
		this.apply(snapshot.items, snapshot.counts);
		const held = this.held ?? [];
		this.held = null;
		for (const change of held) this.offer(change);
		this.heartbeat = setInterval(() => {
			this.push(": heartbeat\n\n");
			const from = this.catchUpFrom();
			this.hub.catchUp(this, from).then(
				s => {
					if (!s) return;
					// Seqs below the window are never read again: their marks are not needed.
					for (const seq of this.sent) if (seq <= from) this.sent.delete(seq);
					this.apply(s.items, s.counts);
				},
				err => this.hub.onCatchUpError(err as Error, this.actorId)
			);
		}, heartbeatMs);
		this.heartbeat.unref();
	}

	endAt(ms: number): void {
		this.expiry = setTimeout(() => this.finish(), Math.min(Math.max(0, ms - Date.now()), MAX_TIMER_MS));
		this.expiry.unref();
	}

	offer(change: InboxChange): void {
		if (this.held) this.held.push(change);
		else this.apply(change.message ? [change.message] : [], change.counts);
	}

	private apply(messages: InboxMessage[], counts: InboxCounts | undefined): void {
		if (this.destroyed) return;
		for (const m of messages) {
			if (this.sent.has(m.seq) || (this.after !== undefined && m.seq <= this.after)) continue;
			this.sent.add(m.seq);
			this.push(messageEvent(m));
		}
		if (!counts) return;
		const text = countEvent(counts);
		if (text === this.lastCounts) return;
		this.lastCounts = text;
		this.push(text);
	}

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

/** As live.ts sendLiveStream: a client hanging up is how an event stream usually ends, logged at debug. */
export function sendInboxStream(res: ServerResponse, stream: InboxStream, logger: Logger): void {
	pipeline(stream, res, err => {
		if (!err) return;
		const fields = { actorId: stream.actorId };
		if ((err as NodeJS.ErrnoException).code === "ERR_STREAM_PREMATURE_CLOSE") logger.debug("Inbox stream closed before its end (the client went away or the node cut it)", fields);
		else logger.warn("Inbox stream failed", { ...fields, err });
	});
}

/** This node's inbox streams, by actor. Bounded per caller and per node like the status streams (live.ts), counted apart. */
export class InboxStreams implements Drain {
	private readonly byActor = new Map<string, Set<InboxStream>>();
	private readonly perPrincipal = new Map<string, number>();
	private readonly all = new Set<InboxStream>();
	private admitted = 0;
	private stopping = false;
	private waiting: (() => void)[] = [];

	/** `read` answers the messages after a seq and the counts (the notifications service, called as this node). */
	constructor(
		private readonly limits: LiveStreamConfig,
		private readonly read: (actorId: string, after: string) => Promise<InboxSnapshot>,
		readonly onCatchUpError: (err: Error, actorId: string) => void = () => undefined
	) {}

	get heartbeatMs(): number {
		return this.limits.heartbeatMs;
	}

	catchUp(stream: InboxStream, from: string): Promise<InboxSnapshot | null> {
		return stream.destroyed ? Promise.resolve(null) : this.read(stream.actorId, from);
	}

	watch(actorId: string, after: string | undefined): InboxStream {
		const stream = new InboxStream(actorId, after, this);
		let set = this.byActor.get(actorId);
		if (!set) this.byActor.set(actorId, (set = new Set()));
		set.add(stream);
		this.all.add(stream);
		return stream;
	}

	admit(stream: InboxStream, principal: string): Admission {
		if (this.stopping || this.admitted >= this.limits.maxPerNode) return "node-limit";
		const mine = this.perPrincipal.get(principal) ?? 0;
		if (mine >= this.limits.maxPerPrincipal) return "principal-limit";
		this.perPrincipal.set(principal, mine + 1);
		this.admitted += 1;
		stream.principal = principal;
		return "admitted";
	}

	/** A change to an actor's inbox from any node: every stream of that actor on this node gets it. */
	deliver(change: InboxChange): void {
		for (const stream of this.byActor.get(change.actorId) ?? []) stream.offer(change);
	}

	remove(stream: InboxStream): void {
		if (!this.all.delete(stream)) return;
		const set = this.byActor.get(stream.actorId);
		set?.delete(stream);
		if (set?.size === 0) this.byActor.delete(stream.actorId);
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
