/**
 * A notification as its readers see it: the record's public fields and its event
 * timeline in order.
 */
import type { Filter, Store } from "../store";
import { statusOf } from "./events";
import { render } from "./render";
import { defaultCategory, type Channel, type Creator, type EventDoc, type NotificationDoc, type Priority, type Status } from "./model";

export interface NotificationView {
	notificationId: string;
	status: Status;
	channel: Channel;
	to: string;
	/** The subject with its variables filled in, when the notification carries its template (not by templateId). */
	subject?: string;
	priority: Priority;
	category: string;
	templateId?: string;
	/** The stored template's version it is rendered with. */
	templateVersion?: number;
	/** The locale asked for, when one was. */
	locale?: string;
	attempts: number;
	providerMessageId?: string;
	/** When scheduled: the time it was asked to be sent at. */
	sendAt?: string;
	createdAt: string;
	updatedAt: string;
	events: { event: string; occurredAt: string; detail?: Record<string, unknown> }[];
}

/** The record's public fields, without the timeline (what a listing shows). */
export type NotificationSummary = Omit<NotificationView, "events">;

export function toSummary(doc: NotificationDoc): NotificationSummary {
	const { events: _events, ...summary } = toView(doc, []);
	return summary;
}

export function toView(doc: NotificationDoc, events: EventDoc[]): NotificationView {
	const view: NotificationView = {
		notificationId: doc.id,
		status: doc.status,
		channel: doc.channel,
		to: doc.to,
		priority: doc.priority,
		category: doc.category ?? defaultCategory(doc.priority),
		attempts: doc.attempts,
		createdAt: doc.createdAt,
		updatedAt: doc.updatedAt,
		events: events.map(e => (e.detail ? { event: e.event, occurredAt: e.occurredAt, detail: e.detail } : { event: e.event, occurredAt: e.occurredAt }))
	};
	// Filling a one-line subject is a few string replacements: cheap enough for every listed row.
	if (doc.template?.subject != null) view.subject = render({ subject: doc.template.subject }, doc.variables).subject;
	if (doc.templateId) view.templateId = doc.templateId;
	if (doc.templateVersion != null) view.templateVersion = doc.templateVersion;
	if (doc.locale) view.locale = doc.locale;
	if (doc.providerMessageId) view.providerMessageId = doc.providerMessageId;
	if (doc.sendAt) view.sendAt = doc.sendAt;
	return view;
}

/** The view, or null when there is no such notification or `mayRead` refuses its creator. */
export async function readNotification(store: Store, id: string, mayRead: (owner: Creator) => boolean): Promise<NotificationView | null> {
	const doc = await store.collection<NotificationDoc>("notifications").get(id);
	if (!doc || !mayRead(doc.createdBy)) return null;
	const events = await store.collection<EventDoc>("notification_events").find({ notificationId: doc.id }, { sort: { seq: 1 } });
	return toView(doc, events);
}

/** One event of a timeline as live streams send it: `id` is its place in the timeline (its seq). */
export interface TimelineItem {
	id: string;
	event: string;
	occurredAt: string;
	status: Status;
	detail?: Record<string, unknown>;
}

export interface Timeline {
	notificationId: string;
	status: Status;
	items: TimelineItem[];
}

/** Event sequences as nextSeq writes them; anything else cannot name a place in a timeline. */
export const EVENT_SEQ = /^\d{15}\.\d{7}\.\d{6}$/;

/**
 * The events after `after` (all of them without it), in order, or null as for
 * readNotification. The status of an event written before events kept theirs is
 * the event's own name when it is a status, else the status the notification has.
 */
export async function readTimeline(store: Store, id: string, after: string | undefined, mayRead: (owner: Creator) => boolean): Promise<Timeline | null> {
	const doc = await store.collection<NotificationDoc>("notifications").get(id);
	if (!doc || !mayRead(doc.createdBy)) return null;
	const filter: Filter = { notificationId: doc.id };
	if (after) filter.seq = { $gt: after };
	const events = await store.collection<EventDoc>("notification_events").find(filter, { sort: { seq: 1 } });
	return {
		notificationId: doc.id,
		status: doc.status,
		items: events.map(e => {
			const item: TimelineItem = { id: e.seq, event: e.event, occurredAt: e.occurredAt, status: statusOf(e, doc.status) };
			if (e.detail) item.detail = e.detail;
			return item;
		})
	};
}
