/**
 * The one place an event of a notification's timeline is made, whoever records it:
 * the accept path, the dispatcher, the lease reaper, the provider webhook, the bench.
 */
import { uuidv7 } from "../crypto";
import { nextSeq, type EventDoc } from "./model";

export interface EventOptions {
	detail?: Record<string, unknown>;
	/** Makes the event single: a second insert with the same key is a DuplicateKeyError. */
	dedupeKey?: string;
	/** The clock reading it happened at; the record written with it uses the same one. */
	now?: number;
}

export function newEvent(notificationId: string, event: string, { detail, dedupeKey, now = Date.now() }: EventOptions = {}): EventDoc {
	// Fields left out rather than undefined: dedupeKey's unique index is sparse.
	return {
		id: uuidv7(now),
		notificationId,
		event,
		occurredAt: new Date(now).toISOString(),
		seq: nextSeq(now),
		...(detail ? { detail } : {}),
		...(dedupeKey ? { dedupeKey } : {})
	};
}
