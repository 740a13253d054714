/**
 * Delivery outcomes a provider reports after the send (delivered, bounced, complaint,
 * and for SMS a late failure). Each is recorded once per notification and outcome
 * however often and however concurrently it arrives, and moves the status only where
 * the lifecycle allows it, so a bounce or complaint outranks a delivery and a
 * delivery a late failure, whatever order they come in. An outcome names its channel
 * and applies to a notification of that channel only: provider message ids are unique
 * within one provider, not across channels, so an SMS event never touches an email (nor
 * suppresses its address) and an SES event never an SMS.
 */
import { UpstreamError } from "../errors";
import { DuplicateKeyError, type Store } from "../store";
import type { DeliveryEvent, DeliveryReport } from "../delivery";
import type { SmsReceipt } from "../sms";

export type { DeliveryEvent, DeliveryReport } from "../delivery";
import { normalizeAddress, suppress } from "./suppressions";
import { newEvent, statusEvent, type StatusPublisher } from "./events";
import { canMove, sourcesOf, transition } from "./lifecycle";
import type { EventDoc, NotificationDoc, Status } from "./model";

/** An SMS receipt (an SMPP delivery receipt, an AWS SMS event) as a delivery outcome. */
export function smsDeliveryReport(r: SmsReceipt): DeliveryReport {
	const report: DeliveryReport = { channel: "SMS", event: r.status, providerMessageId: r.providerMessageId, detail: r.detail };
	if (r.notificationId) report.notificationId = r.notificationId;
	if (r.numberUnusable) {
		report.suppress = [];
		report.suppressReason = typeof r.detail.eventType === "string" ? r.detail.eventType : "FAILED";
	}
	return report;
}

/**
 * The states an outcome may move a record from. A late failure applies to a SENT
 * record only: PROCESSING → FAILED is the dispatcher's own decision, under its lease.
 */
function outcomeSources(event: DeliveryEvent): Status[] {
	return event === "FAILED" ? ["SENT"] : sourcesOf(event);
}

export type DeliveryResult = "recorded" | "duplicate" | "unknown-message";

/**
 * An event can arrive before the dispatcher has recorded the message id (it is
 * written with SENT, a few milliseconds after the provider answers). When the
 * notification the provider names is still being sent, a 503 makes the provider
 * deliver the event again once SENT is recorded. A notification of another channel,
 * or that already has another message id, is not this message's.
 */
async function byEchoedId(store: Store, report: DeliveryReport): Promise<NotificationDoc | null> {
	if (!report.notificationId) return null;
	const n = await store.collection<NotificationDoc>("notifications").get(report.notificationId);
	if (!n || n.channel !== report.channel || (n.providerMessageId !== undefined && n.providerMessageId !== report.providerMessageId)) return null;
	if (n.status === "PROCESSING" || n.status === "QUEUED") {
		throw new UpstreamError("The notification's send is not recorded yet; try again.", 5);
	}
	return n;
}

export async function recordDelivery(store: Store, events: StatusPublisher, report: DeliveryReport, now = Date.now()): Promise<DeliveryResult> {
	const notifications = store.collection<NotificationDoc>("notifications");
	const n = (await notifications.findOne({ providerMessageId: report.providerMessageId, channel: report.channel })) ?? (await byEchoedId(store, report));
	if (!n) return "unknown-message";

	let duplicate = false;
	// A delivery that comes after a bounce is recorded but leaves the bounce standing.
	const status = canMove(n.status, report.event) ? report.event : n.status;
	const event = newEvent(n.id, report.event, { detail: report.detail, dedupeKey: `${n.id}:${report.event}`, now, status });
	try {
		await store.collection<EventDoc>("notification_events").insert(event);
	} catch (err) {
		if (!(err instanceof DuplicateKeyError)) throw err;
		duplicate = true;
	}
	// Also on a duplicate: an earlier delivery of this event may have stopped between
	// the event and the status. Both writes are idempotent.
	await notifications.updateMany(
		{ id: n.id, ...transition(outcomeSources(report.event), report.event) },
		{ $set: { status: report.event, updatedAt: new Date(now).toISOString() } }
	);
	if (report.suppress) {
		// Only the notification's own recipient, on its own channel: an event naming other
		// addresses (a forged topic, say) must not block mail to people it never concerned.
		const named = report.suppress.length === 0 || (n.channel === "EMAIL" && report.suppress.includes(normalizeAddress(n.to)));
		if (named) await suppress(store, n.channel, n.to, report.suppressReason ?? report.event, n.id, now);
	}
	if (!duplicate) events.publish([statusEvent(n.createdBy, event, status)]);
	return duplicate ? "duplicate" : "recorded";
}

/**
 * An SMSC reports delivery over the bind, often within milliseconds of answering
 * submit_sm, so its receipt can overtake the SENT write that records the message id;
 * and a receipt is never sent again once answered. One whose message is not known
 * yet is therefore looked up again a few times, with backoff (about 8 s in all, past
 * a send's own batching and retries of the write), before it is given up.
 */
export async function recordSmsReceipt(store: Store, events: StatusPublisher, receipt: SmsReceipt, delaysMs: readonly number[] = [100, 250, 500, 1000, 2000, 4000]): Promise<DeliveryResult> {
	const report = smsDeliveryReport(receipt);
	for (let i = 0; ; i++) {
		const result = await recordDelivery(store, events, report);
		if (result !== "unknown-message" || i >= delaysMs.length) return result;
		await new Promise(r => setTimeout(r, delaysMs[i]).unref());
	}
}
