/**
 * The one place an event of a notification's timeline is made, whoever records it:
 * the accept path, the dispatcher, the lease reaper, the provider webhook, the bench.
 * Whoever writes one tells `committed` once the write is durable, and the store's
 * listener (lib/runtime.ts) passes it on: a broker event for live streams, webhook
 * deliveries for the owner's endpoints.
 */
import { uuidv7 } from "../crypto";
import type { Store } from "../store";
import { nextSeq, STATUSES, type Creator, type EventDoc, type Status } from "./model";

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

/** A recorded event as it leaves the process: what live streams and outbound webhooks are told. */
export interface StatusEvent {
	notificationId: string;
	/** Who created the notification: its webhook endpoints receive the event. */
	owner: Creator;
	/** The event's place in the timeline (its `seq`): the SSE id a client resumes after. */
	seq: string;
	event: string;
	occurredAt: string;
	status: Status;
	detail?: Record<string, unknown>;
}

/**
 * The broker event that carries recorded events to every gateway node, whose live
 * streams follow them: all the events one node recorded in the same moment at once.
 */
export const STATUS_EVENTS = "notifications.statuses";

export interface StatusEvents {
	events: StatusEvent[];
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

export type CommitListener = (events: StatusEvent[]) => void;

const listeners = new WeakMap<Store, CommitListener>();

/** Who hears of the events written to this store by this process (one listener per store). */
export function onCommitted(store: Store, listener: CommitListener): void {
	listeners.set(store, listener);
}

/** Called once the events are durable in the store; never throws into the writer. */
export function committed(store: Store, events: StatusEvent[]): void {
	if (events.length === 0) return;
	const listener = listeners.get(store);
	if (!listener) return;
	try {
		listener(events);
	} catch {
		// A listener reports its own failures; the write has happened either way.
	}
}
