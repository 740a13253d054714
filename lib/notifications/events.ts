/**
 * The one place an event of a notification's timeline is made, whoever records it:
 * the accept path, the dispatcher, the lease reaper, the provider webhook, the bench.
 * Whoever writes one publishes it (StatusPublisher) once the write is durable, and the
 * subscribers pass it on: a broker event for live streams, webhook deliveries for the
 * owner's endpoints.
 */
import { uuidv7 } from "../crypto";
import { STATUSES, type Creator, type Status, type StatusEvent } from "../delivery";
import type { Store } from "../store";
import { nextSeq, type EventDoc, type NotificationDoc } from "./model";

export { STATUS_EVENTS, type StatusEvent, type StatusEvents } from "../delivery";

export interface EventOptions {
	detail?: Record<string, unknown>;
	/** Makes the event single: a second insert with the same key is a DuplicateKeyError. */
	dedupeKey?: string;
	/** The clock reading it happened at; the record written with it uses the same one. */
	now?: number;
	/** The notification's status once this event is recorded. */
	status?: Status;
}

export function newEvent(notificationId: string, event: string, { detail, dedupeKey, now = Date.now(), status }: EventOptions = {}): EventDoc {
	// Fields left out rather than undefined: dedupeKey's unique index is sparse.
	return {
		id: uuidv7(now),
		notificationId,
		event,
		occurredAt: new Date(now).toISOString(),
		seq: nextSeq(now),
		...(status ? { status } : {}),
		...(detail ? { detail } : {}),
		...(dedupeKey ? { dedupeKey } : {})
	};
}

/** The status an event stands for: the one it recorded, else its own name when that is a status, else `current`. */
export function statusOf(e: EventDoc, current: Status): Status {
	if (e.status) return e.status;
	return (STATUSES as readonly string[]).includes(e.event) ? (e.event as Status) : current;
}

export function statusEvent(owner: Creator, e: EventDoc, status: Status): StatusEvent {
	const out: StatusEvent = { notificationId: e.notificationId, owner, seq: e.seq, event: e.event, occurredAt: e.occurredAt, status };
	if (e.detail) out.detail = e.detail;
	return out;
}

export type StatusListener = (events: StatusEvent[]) => void;

/**
 * Where the notification domain publishes the events it has made durable. Every path
 * that records one (accept, the queue's outcomes and lease reaper, provider outcomes,
 * cancel) is handed the process's publisher and publishes once its write has
 * committed; whoever must hear of them (the live streams' broadcast, the outbound
 * webhook fan-out) subscribes when the process starts (lib/runtime.ts).
 */
export class StatusPublisher {
	private readonly listeners: StatusListener[] = [];

	subscribe(listener: StatusListener): void {
		this.listeners.push(listener);
	}

	/** Tells every subscriber; never throws into the writer, whose write has happened either way. */
	publish(events: StatusEvent[]): void {
		if (events.length === 0) return;
		for (const listener of this.listeners) {
			try {
				listener(events);
			} catch {
				// A subscriber reports its own failures.
			}
		}
	}
}

/** A page of the status events recorded in an id range (ids are UUIDv7: time order). */
export interface StatusPage {
	/** How many events the page read, whoever owns them; fewer than the limit means the range is done. */
	read: number;
	/** The id of the last event read: where the next page starts. */
	lastId: string | null;
	/** The page's events of notifications created by one of the owners asked for, in id order. */
	events: StatusEvent[];
}

/**
 * Status events with ids after `after` and before `until`, for a sweep that must see each
 * once (the outbound recovery, lib/outbound/recovery.ts, is handed this): only what
 * both backends do alike, a range read by id and a lookup of the notifications' owners.
 */
export async function statusEventsBetween(store: Store, after: string, until: string, limit: number, ownerIds: string[]): Promise<StatusPage> {
	const page = await store
		.collection<EventDoc>("notification_events")
		.find({ id: { $gt: after, $lt: until }, event: { $in: [...STATUSES] } }, { sort: { id: 1 }, limit });
	if (page.length === 0) return { read: 0, lastId: null, events: [] };
	const notifications = await store
		.collection<NotificationDoc>("notifications")
		.find({ id: { $in: [...new Set(page.map(e => e.notificationId))] }, "createdBy.id": { $in: ownerIds } });
	const byId = new Map(notifications.map(n => [n.id, n]));
	const events: StatusEvent[] = [];
	for (const e of page) {
		const n = byId.get(e.notificationId);
		if (n) events.push(statusEvent(n.createdBy, e, statusOf(e, n.status)));
	}
	return { read: page.length, lastId: page[page.length - 1]!.id, events };
}
