/**
 * Cancelling a notification nobody has started sending: QUEUED (scheduled or not)
 * moves to CANCELLED with its event, in one guarded write. A dispatcher's claim moves
 * QUEUED to PROCESSING the same way, so of a cancel and a claim that race exactly one
 * wins: either the notification ends CANCELLED and is never sent, or the cancel is
 * refused (409 NOT_CANCELLABLE) and it is sent.
 */
import { ClientError } from "../errors";
import type { Store } from "../store";
import { newEvent, statusEvent, type StatusPublisher } from "./events";
import { transition } from "./lifecycle";
import type { Creator, EventDoc, NotificationDoc } from "./model";
import { toView, type NotificationView } from "./view";

/** The cancelled notification's view; null when there is none this caller may see; 409 when it is past QUEUED. */
export async function cancelNotification(store: Store, events: StatusPublisher, id: string, mayCancel: (owner: Creator) => boolean, now = Date.now()): Promise<NotificationView | null> {
	const notifications = store.collection<NotificationDoc>("notifications");
	const doc = await notifications.get(id);
	if (!doc || !mayCancel(doc.createdBy)) return null;
	const at = new Date(now).toISOString();
	const event = newEvent(id, "CANCELLED", { now, status: "CANCELLED" });
	const [applied] = await store.batch([
		[
			{ op: "updateMany", collection: "notifications", filter: { id, ...transition("QUEUED", "CANCELLED") }, update: { $set: { status: "CANCELLED", updatedAt: at } } },
			{ op: "insert", collection: "notification_events", doc: event }
		]
	]);
	// Live streams and webhook endpoints hear of it like any other status change.
	if (applied) events.publish([statusEvent(doc.createdBy, event, "CANCELLED")]);
	if (!applied) {
		const current = await notifications.get(id);
		throw new ClientError(409, "NOT_CANCELLABLE", `Only a QUEUED notification can be cancelled; this one is ${current?.status ?? doc.status}.`);
	}
	const after = await notifications.get(id);
	const timeline = await store.collection<EventDoc>("notification_events").find({ notificationId: id }, { sort: { seq: 1 } });
	return toView(after ?? { ...doc, status: "CANCELLED", updatedAt: at }, timeline);
}
