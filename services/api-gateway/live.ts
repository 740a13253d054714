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
 * with. The holding, heartbeat, expiry, limits and stop are sse-streams.ts's, shared
 * with the inbox streams (inbox-live.ts); what is here is what a status event is and
 * how each is sent once.
 */
import type { StatusEvent } from "../../lib/delivery";
import type { TimelineItem } from "../../lib/notifications";
import { EventStream, EventStreams } from "./sse-streams";

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

/**
 * A notification's stream. An event is told by its place in the timeline; a heartbeat
 * reads the timeline after Last-Event-ID again (the store keeps it whole) and sends what
 * is missing.
 */
export class LiveStream extends EventStream<TimelineItem, TimelineItem[], string | undefined> {
	protected readonly kind = "Live";
	protected readonly keyField = "notificationId";
	private readonly sent = new Set<string>();

	protected catchUpFrom(): string | undefined {
		return this.after;
	}

	protected sendSnapshot(items: TimelineItem[]): void {
		for (const item of items) this.sendChange(item);
	}

	protected sendChange(item: TimelineItem): void {
		if (this.destroyed || this.sent.has(item.id) || (this.after !== undefined && item.id <= this.after)) return;
		this.sent.add(item.id);
		this.push(sseMessage(item));
	}
}

/**
 * This node's status streams, by notification. `read` answers a notification's timeline
 * after `after` (the notifications service, called as this node).
 */
export class LiveStreams extends EventStreams<LiveStream, TimelineItem[], string | undefined> {
	protected create(notificationId: string, after: string | undefined): LiveStream {
		return new LiveStream(notificationId, after, this);
	}

	/** A status event from any node: every stream of its notification on this node gets it. */
	deliver(e: StatusEvent): void {
		for (const stream of this.streamsOf(e.notificationId)) stream.offer(itemOf(e));
	}
}
