/**
 * The words every part of delivery shares: the notification's domain (lib/notifications),
 * the transports that carry it (lib/email, lib/sms, lib/push, lib/channels), the
 * outcomes their providers report (lib/sns, lib/email/ses-events.ts, lib/sms/events.ts),
 * unsubscribes and outbound webhooks. This folder imports nothing of theirs, so each
 * of them depends on it and none on another through it.
 */

export const PRIORITIES = ["CRITICAL", "HIGH", "NORMAL", "LOW"] as const;
export type Priority = (typeof PRIORITIES)[number];
export const CHANNELS = ["EMAIL", "SMS", "PUSH", "IN_APP"] as const;
export type Channel = (typeof CHANNELS)[number];

export const STATUSES = ["QUEUED", "PROCESSING", "SENT", "DELIVERED", "BOUNCED", "COMPLAINT", "FAILED", "SUPPRESSED", "UNSUBSCRIBED", "CANCELLED", "DIGESTED", "THROTTLED"] as const;
export type Status = (typeof STATUSES)[number];

/** The contract's default category: security for CRITICAL, marketing for LOW, general otherwise. */
export function defaultCategory(p: Priority): string {
	return p === "CRITICAL" ? "security" : p === "LOW" ? "marketing" : "general";
}

/** Who created a notification (and owns its webhook endpoints): a user or a service. */
export interface Creator {
	kind: "user" | "service";
	id: string;
}

/**
 * A message's parts before or after rendering. Each channel uses the parts it needs:
 * EMAIL the subject and html or text, PUSH the subject (the title) and text, SMS the
 * text alone, IN_APP the subject (the title, may be absent) and text (the body), so a
 * template for SMS or IN_APP may have no subject.
 */
export interface TemplateParts {
	subject?: string;
	html?: string;
	text?: string;
}

export type Variables = Record<string, unknown>;
