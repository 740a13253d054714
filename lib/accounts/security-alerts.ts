/**
 * Security alerts, raised from the audit log: when an alertable event is recorded
 * (ALERTS), a CRITICAL notification of category `security` is queued to the account's
 * address (an email change: to the old one), and a PUSH one when the user has push
 * subscriptions; the event then names the mail's notification id, so the timeline
 * shows the alert's delivery. CRITICAL is never held by an unsubscribe and `security`
 * cannot be opted out of (lib/unsubscribe/records.ts).
 *
 * The mail's "not me" link is minted when it is sent (lib/accounts/lifecycle-mail.ts,
 * purpose `not-me`, 7 days, stored hashed), so no token is ever stored in clear.
 */
import { ALERT_TEMPLATE_NAME } from "./lifecycle-mail";
import { NOT_ME_PURPOSE } from "./lifecycle-tokens";
import type { TemplateParts, Variables } from "../delivery";
import { newestTemplateNamed, type NotificationIntake } from "../notifications";
import type { Store } from "../store";
import type { AuditEvent, AuditEventType, AuditLog } from "../audit";

/** What each alertable event tells the user. */
export const ALERTS: Partial<Record<AuditEventType, { title: string; what: string }>> = {
	"auth.signed_in_new_device": { title: "New sign-in", what: "Your account was signed in to from a device or network it has not used in the last 90 days." },
	"auth.refresh_reuse_detected": {
		title: "Session ended",
		what: "A sign-in token of your account was used twice, which happens when someone else holds a copy of it. We ended that session."
	},
	"auth.password_changed": { title: "Password changed", what: "The password of your account was changed." },
	"auth.password_reset": { title: "Password reset", what: "The password of your account was reset with a link from a reset mail." },
	"auth.email_changed": { title: "Email address changed", what: "The email address of your account was changed; this address no longer signs in." },
	"auth.mfa_enrolled": { title: "Second factor added", what: "A second factor was added to your account." },
	"auth.mfa_removed": { title: "Second factor removed", what: "A second factor was removed from your account." },
	"auth.recovery_code_used": { title: "Recovery code used", what: "One of your recovery codes was used to sign in." },
	"auth.locked": { title: "Account locked", what: "Your account was locked." }
};

/** The unlock path of a lockout (the contract: the owner is told how to unlock). */
const LOCKOUT_HINT =
	"Password sign-in is locked for a while after too many wrong passwords. To unlock it now, reset your password with \"Forgot password\".";

/** The built-in alert mail; the text part carries the link verbatim. */
export const ALERT_TEMPLATE: TemplateParts = {
	subject: "Security alert: {{ title }}",
	text:
		"{{ what }}\n{% if hint != empty %}\n{{ hint }}\n{% endif %}\nWhen: {{ when }}\nAddress: {{ ip }}\nDevice: {{ device }}\n\n" +
		"If this was you, there is nothing to do.\n\n" +
		"If it was not you, open this link within 7 days: it signs out every session of your account and blocks password sign-in until you reset your password.\n\n{{ link }}\n",
	html:
		"<p>{{ what }}</p>{% if hint != empty %}<p>{{ hint }}</p>{% endif %}" +
		"<ul><li>When: {{ when }}</li><li>Address: {{ ip }}</li><li>Device: {{ device }}</li></ul>" +
		"<p>If this was you, there is nothing to do.</p>" +
		'<p>If it was not you, open this link within 7 days: it signs out every session of your account and blocks password sign-in until you reset your password.</p><p><a href="{{ link }}">This was not me</a></p>'
};

/** The push alert carries no link (it would be a second token): it points at the mail. */
const PUSH_TEMPLATE: TemplateParts = { subject: "Security alert: {{ title }}", text: "{{ what }} If this was not you, open the alert we emailed you." };

export interface SecurityAlertDeps {
	store: () => Store;
	intake: () => NotificationIntake;
	audit: AuditLog;
	warn(message: string, fields: Record<string, unknown>): void;
	/** Observes how long from the event to the queued alert (the benchmark). */
	observe?: (type: AuditEventType, ms: number) => void;
}

interface ActorRecord {
	id: string;
	email?: string;
	firstName?: string;
}

const creator = { kind: "service" as const, id: "auth" };

export class SecurityAlerts {
	constructor(private readonly deps: SecurityAlertDeps) {}

	/** Plugs the alerts into the audit log. */
	static attach(deps: SecurityAlertDeps): SecurityAlerts {
		const alerts = new SecurityAlerts(deps);
		deps.audit.listen(async event => {
			await alerts.raise(event);
		});
		return alerts;
	}

	/** Queues the event's alert, if it raises one; the event then names the mail. */
	async raise(event: AuditEvent): Promise<string | null> {
		const alert = ALERTS[event.type];
		if (!alert) return null;
		const store = this.deps.store();
		const actor = await store.collection<ActorRecord>("actors").get(event.actorId);
		const to = event.type === "auth.email_changed" ? event.detail?.oldEmail : actor?.email;
		if (!to) {
			this.deps.warn("A security alert has no address to go to", { type: event.type, actorId: event.actorId });
			return null;
		}
		const variables: Variables = {
			title: alert.title,
			what: alert.what,
			hint: event.type === "auth.locked" && event.detail?.reason === "lockout" ? LOCKOUT_HINT : "",
			when: event.occurredAt,
			ip: event.ip ?? "unknown",
			device: event.userAgent ?? "unknown",
			email: to,
			...(actor?.firstName ? { firstName: actor.firstName } : {})
		};
		const base = {
			channel: "EMAIL" as const,
			to,
			priority: "CRITICAL" as const,
			category: "security",
			variables,
			metadata: { category: "security", purpose: "security-alert", auditEventId: event.id, auditType: event.type },
			lifecycle: { purpose: NOT_ME_PURPOSE, sub: event.actorId, username: to, email: to }
		};
		const notificationId = await this.acceptMail(store, base);
		this.deps.observe?.(event.type, Date.now() - Date.parse(event.occurredAt));
		await this.deps.audit.attachNotification(event.id, notificationId);
		if ((await store.collection("push_subscriptions").count({ actorId: event.actorId })) > 0) {
			await this.deps
				.intake()
				.accept({ channel: "PUSH", to: event.actorId, priority: "CRITICAL", category: "security", variables: { title: alert.title, what: alert.what }, template: PUSH_TEMPLATE }, creator)
				.catch(err => this.deps.warn("The push part of a security alert could not be queued", { type: event.type, error: (err as Error).message }));
		}
		return notificationId;
	}

	/** An administrator's template under ALERT_TEMPLATE_NAME wins; one that cannot be used gives way to the built-in one. */
	private async acceptMail(store: Store, base: Parameters<NotificationIntake["accept"]>[0]): Promise<string> {
		const override = await newestTemplateNamed(store, ALERT_TEMPLATE_NAME);
		if (override) {
			try {
				return (await this.deps.intake().accept({ ...base, templateId: override.id }, creator)).notificationId;
			} catch (err) {
				this.deps.warn("The administrator's alert template cannot be used; the built-in one is sent", { code: (err as { type?: string }).type ?? (err as Error).message });
			}
		}
		return (await this.deps.intake().accept({ ...base, template: ALERT_TEMPLATE }, creator)).notificationId;
	}
}
