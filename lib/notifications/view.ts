/**
 * A notification as its readers see it: the record's public fields and its event
 * timeline in order.
 */
import type { Store } from "../store";
import type { Channel, Creator, EventDoc, NotificationDoc, Priority, Status } from "./model";

export interface NotificationView {
	notificationId: string;
	status: Status;
	channel: Channel;
	to: string;
	priority: Priority;
	templateId?: string;
	attempts: number;
	providerMessageId?: string;
	createdAt: string;
	updatedAt: string;
	events: { event: string; occurredAt: string; detail?: Record<string, unknown> }[];
}

function toView(doc: NotificationDoc, events: EventDoc[]): NotificationView {
	const view: NotificationView = {
		notificationId: doc.id,
		status: doc.status,
		channel: doc.channel,
		to: doc.to,
		priority: doc.priority,
		attempts: doc.attempts,
		createdAt: doc.createdAt,
		updatedAt: doc.updatedAt,
		events: events.map(e => (e.detail ? { event: e.event, occurredAt: e.occurredAt, detail: e.detail } : { event: e.event, occurredAt: e.occurredAt }))
	};
	if (doc.templateId) view.templateId = doc.templateId;
	if (doc.providerMessageId) view.providerMessageId = doc.providerMessageId;
	return view;
}

/** The view, or null when there is no such notification or `mayRead` refuses its creator. */
export async function readNotification(store: Store, id: string, mayRead: (owner: Creator) => boolean): Promise<NotificationView | null> {
	const doc = await store.collection<NotificationDoc>("notifications").get(id);
	if (!doc || !mayRead(doc.createdBy)) return null;
	const events = await store.collection<EventDoc>("notification_events").find({ notificationId: doc.id }, { sort: { seq: 1 } });
	return toView(doc, events);
}
