/**
 * Delivery outcomes a provider reports after the send (delivered, bounced, complaint).
 * Each is recorded once per notification and outcome however often and however
 * concurrently it arrives, and moves the status only where the lifecycle allows it,
 * so a bounce or complaint outranks a delivery whatever order they come in.
 */
import { UpstreamError } from "../errors";
import { DuplicateKeyError, type Store } from "../store";
import { normalizeAddress, suppress } from "./directory";
import { newEvent } from "./events";
import { sourcesOf, transition } from "./lifecycle";
import type { EventDoc, NotificationDoc } from "./model";

export type DeliveryEvent = "DELIVERED" | "BOUNCED" | "COMPLAINT";

export interface DeliveryReport {
	event: DeliveryEvent;
	providerMessageId: string;
	/** The notification id the provider echoes back with the message, when it does. */
	notificationId?: string;
	/** A few facts worth keeping from the provider's event; never its whole payload. */
	detail: Record<string, unknown>;
	/**
	 * For an outcome that must stop further mail (a permanent bounce, a complaint): the
	 * addresses it names, or an empty list when it names none. Absent otherwise.
	 */
	suppress?: string[];
}

export type DeliveryResult = "recorded" | "duplicate" | "unknown-message";

/**
 * An event can arrive before the dispatcher has recorded the message id (it is
 * written with SENT, a few milliseconds after the provider answers). When the
 * notification the provider names is still being sent, a 503 makes the provider
 * deliver the event again once SENT is recorded. A notification that already has
 * another message id is not this message's.
 */
async function byEchoedId(store: Store, report: DeliveryReport): Promise<NotificationDoc | null> {
	if (!report.notificationId) return null;
	const n = await store.collection<NotificationDoc>("notifications").get(report.notificationId);
	if (!n || (n.providerMessageId !== undefined && n.providerMessageId !== report.providerMessageId)) return null;
	if (n.status === "PROCESSING" || n.status === "QUEUED") {
		throw new UpstreamError("The notification's send is not recorded yet; try again.", 5);
	}
	return n;
}

export async function recordDelivery(store: Store, report: DeliveryReport, now = Date.now()): Promise<DeliveryResult> {
	const notifications = store.collection<NotificationDoc>("notifications");
	const n = (await notifications.findOne({ providerMessageId: report.providerMessageId })) ?? (await byEchoedId(store, report));
	if (!n) return "unknown-message";

	let duplicate = false;
	try {
		await store.collection<EventDoc>("notification_events").insert(newEvent(n.id, report.event, { detail: report.detail, dedupeKey: `${n.id}:${report.event}`, now }));
	} catch (err) {
		if (!(err instanceof DuplicateKeyError)) throw err;
		duplicate = true;
	}
	// Also on a duplicate: an earlier delivery of this event may have stopped between
	// the event and the status. Both writes are idempotent.
	await notifications.updateMany(
		{ id: n.id, ...transition(sourcesOf(report.event), report.event) },
		{ $set: { status: report.event, updatedAt: new Date(now).toISOString() } }
	);
	if (report.suppress) {
		// Only the notification's own recipient: an event naming other addresses (a
		// forged topic, say) must not block mail to people it never concerned.
		const recipient = normalizeAddress(n.to);
		if (report.suppress.length === 0 || report.suppress.includes(recipient)) await suppress(store, recipient, report.event, n.id, now);
	}
	return duplicate ? "duplicate" : "recorded";
}
