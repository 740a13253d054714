/**
 * AWS End User Messaging SMS events (as an SNS topic of the configuration set
 * carries them) read into SMS receipts. TEXT_DELIVERED and TEXT_SUCCESSFUL (AWS uses
 * them interchangeably, by destination country) are DELIVERED; the failure types are
 * FAILED with the event type in the detail. Events still on the way (queued,
 * pending), events AWS marks `isFinal: false`, and anything malformed read as null:
 * the webhook answers 200 and changes nothing. TEXT_INVALID (the number does not
 * exist) and TEXT_BLOCKED (the recipient's device or carrier blocks messages to it)
 * are about the number, not the message: those numbers are suppressed for SMS.
 */
import type { SmsReceipt } from "./types";

const DELIVERED = new Set(["TEXT_DELIVERED", "TEXT_SUCCESSFUL"]);
const FAILED = new Set([
	"TEXT_BLOCKED",
	"TEXT_TTL_EXPIRED",
	"TEXT_CARRIER_UNREACHABLE",
	"TEXT_INVALID",
	"TEXT_INVALID_MESSAGE",
	"TEXT_CARRIER_BLOCKED",
	"TEXT_UNREACHABLE",
	"TEXT_SPAM",
	"TEXT_UNKNOWN",
	"TEXT_PROTECT_BLOCKED"
]);
const NUMBER_UNUSABLE = new Set(["TEXT_INVALID", "TEXT_BLOCKED"]);

interface SmsEvent {
	eventType?: unknown;
	isFinal?: unknown;
	messageId?: unknown;
	messageStatus?: unknown;
	context?: Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parse(message: string): SmsEvent | null {
	try {
		const e: unknown = JSON.parse(message);
		return e && typeof e === "object" ? (e as SmsEvent) : null;
	} catch {
		return null;
	}
}

export function parseSmsEvent(message: string): SmsReceipt | null {
	const e = parse(message);
	if (!e || typeof e.eventType !== "string" || e.isFinal === false) return null;
	const status = DELIVERED.has(e.eventType) ? "DELIVERED" : FAILED.has(e.eventType) ? "FAILED" : null;
	if (!status || typeof e.messageId !== "string" || !e.messageId || e.messageId.length > 200) return null;
	const echoed = e.context && typeof e.context === "object" ? e.context.notificationId : undefined;
	const detail: Record<string, unknown> = { eventType: e.eventType };
	if (typeof e.messageStatus === "string") detail.messageStatus = e.messageStatus.slice(0, 64);
	return {
		providerMessageId: e.messageId,
		status,
		notificationId: typeof echoed === "string" && UUID.test(echoed) ? echoed : undefined,
		detail,
		...(NUMBER_UNUSABLE.has(e.eventType) ? { numberUnusable: true as const } : {})
	};
}
