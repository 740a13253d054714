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
 * stream, as does the expiry of the token it was opened with. The holding, heartbeat,
 * expiry, limits and stop are sse-streams.ts's, shared with the status streams.
 */
import { uuidv7Floor } from "../../lib/crypto";
import type { InboxChange, InboxCounts, InboxMessage } from "../../lib/inbox";
import { EventStream, EventStreams } from "./sse-streams";

/** What an inbox stream begins with, and what a heartbeat reads (services/notifications/inbox.ts). */
export interface InboxSnapshot {
	items: InboxMessage[];
	counts: InboxCounts;
}

/** How far back a heartbeat reads messages: longer than any clock difference between nodes should be. */
export const CATCH_UP_WINDOW_MS = 60_000;

export function messageEvent({ seq, ...item }: InboxMessage): string {
	return `id: ${seq}\nevent: message\ndata: ${JSON.stringify(item)}\n\n`;
}

export function countEvent(counts: InboxCounts): string {
	return `event: count\ndata: ${JSON.stringify({ unread: counts.unread, unseen: counts.unseen })}\n\n`;
}

/** An actor's stream: messages are told by their seq, counts by their text (only a change is sent). */
export class InboxStream extends EventStream<InboxChange, InboxSnapshot, string> {
	protected readonly kind = "Inbox";
	protected readonly keyField = "actorId";
	private readonly sent = new Set<string>();
	private lastCounts = "";
	/** The lowest seq a heartbeat reads after: the Last-Event-ID, else the moment the stream opened. */
	readonly floor: string;

	constructor(actorId: string, after: string | undefined, hub: InboxStreams, now = Date.now()) {
		super(actorId, after, hub);
		this.floor = after ?? uuidv7Floor(now);
	}

	/** Where a heartbeat reads from: the floor, or the start of the window once that is later. */
	catchUpFrom(now = Date.now()): string {
		const window = uuidv7Floor(now - CATCH_UP_WINDOW_MS);
		return window > this.floor ? window : this.floor;
	}

	protected override caughtUp(snapshot: InboxSnapshot, from: string): void {
		// Seqs below the window are never read again: their marks are not needed.
		for (const seq of this.sent) if (seq <= from) this.sent.delete(seq);
		this.sendSnapshot(snapshot);
	}

	protected sendSnapshot(snapshot: InboxSnapshot): void {
		this.apply(snapshot.items, snapshot.counts);
	}

	protected sendChange(change: InboxChange): void {
		this.apply(change.message ? [change.message] : [], change.counts);
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
}

/**
 * This node's inbox streams, by actor. Bounded per caller and per node like the status
 * streams (live.ts), counted apart. `read` answers the messages after a seq and the
 * counts (the notifications service, called as this node).
 */
export class InboxStreams extends EventStreams<InboxStream, InboxSnapshot, string> {
	protected create(actorId: string, after: string | undefined): InboxStream {
		return new InboxStream(actorId, after, this);
	}

	/** A change to an actor's inbox from any node: every stream of that actor on this node gets it. */
	deliver(change: InboxChange): void {
		for (const stream of this.streamsOf(change.actorId)) stream.offer(change);
	}
}
