/**
 * SES event notifications (Delivery, Bounce, Complaint, as SNS carries them) read
 * into the provider-neutral delivery report the notification record takes. Anything
 * else, or anything malformed, reads as null: the webhook answers 200 and changes nothing.
 */
import { normalizeEmail } from "../email-address";
import type { DeliveryEvent, DeliveryReport } from "../delivery";

interface SesEvent {
	notificationType?: unknown;
	eventType?: unknown;
	mail?: { messageId?: unknown; tags?: Record<string, unknown> };
	bounce?: { bounceType?: unknown; bouncedRecipients?: { emailAddress?: unknown }[] };
	complaint?: { complainedRecipients?: { emailAddress?: unknown }[] };
	delivery?: { timestamp?: unknown; smtpResponse?: unknown };
}

const EVENT_OF: Record<string, DeliveryEvent> = { Delivery: "DELIVERED", Bounce: "BOUNCED", Complaint: "COMPLAINT" };

function addresses(list: { emailAddress?: unknown }[] | undefined): string[] {
	return (Array.isArray(list) ? list : [])
		.map(r => (typeof r?.emailAddress === "string" ? normalizeEmail(r.emailAddress) : ""))
		.filter(a => a.length > 0 && a.length <= 254);
}

function detailOf(type: string, e: SesEvent): Record<string, unknown> {
	if (type === "Bounce") return { bounceType: typeof e.bounce?.bounceType === "string" ? e.bounce.bounceType : "Undetermined" };
	if (type === "Delivery" && typeof e.delivery?.smtpResponse === "string") return { smtpResponse: e.delivery.smtpResponse.slice(0, 200) };
	return {};
}

/** SES sends the notification id back as the message tag the SES provider set. */
function taggedId(e: SesEvent): string | undefined {
	const tag = e.mail?.tags?.notificationId;
	const id = Array.isArray(tag) && typeof tag[0] === "string" ? tag[0] : undefined;
	return id && /^[0-9a-f-]{36}$/i.test(id) ? id : undefined;
}

export function parseSesEvent(message: string): DeliveryReport | null {
	let e: SesEvent;
	try {
		e = JSON.parse(message) as SesEvent;
	} catch {
		return null;
	}
	if (!e || typeof e !== "object") return null;
	const type = typeof e.notificationType === "string" ? e.notificationType : typeof e.eventType === "string" ? e.eventType : "";
	// Own keys only: "constructor" must not read as an outcome.
	const event = Object.hasOwn(EVENT_OF, type) ? EVENT_OF[type] : undefined;
	const providerMessageId = e.mail?.messageId;
	if (!event || typeof providerMessageId !== "string" || !providerMessageId) return null;
	const report: DeliveryReport = { channel: "EMAIL", event, providerMessageId, notificationId: taggedId(e), detail: detailOf(type, e) };
	if (type === "Bounce" && e.bounce?.bounceType === "Permanent") report.suppress = addresses(e.bounce?.bouncedRecipients);
	if (type === "Complaint") report.suppress = addresses(e.complaint?.complainedRecipients);
	return report;
}
