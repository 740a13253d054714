/**
 * Security events of accounts, kept in the `audit_events` collection, newest first per
 * actor. Small on purpose: the sessions issue builds the user's timeline, alerts and
 * retention on it. An event that cannot be written is logged, never fails the request
 * that caused it.
 */
import { uuidv7 } from "../crypto";
import type { Store } from "../store";

/** Every event type of the contract ("Sessions, security events and account data"). */
export const AUDIT_EVENT_TYPES = [
	"auth.registered",
	"auth.signed_in",
	"auth.sign_in_failed",
	"auth.signed_in_new_device",
	"auth.mfa_challenge_failed",
	"auth.refresh_reuse_detected",
	"auth.signed_out",
	"auth.session_revoked",
	"auth.password_changed",
	"auth.password_reset",
	"auth.email_verified",
	"auth.email_changed",
	"auth.phone_verified",
	"auth.mfa_enrolled",
	"auth.mfa_removed",
	"auth.recovery_code_used",
	"auth.locked",
	"auth.unlocked",
	"auth.not_me",
	"auth.account_exported",
	"auth.account_deleted",
	"auth.address_undeliverable"
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** Where a request came from, as the gateway saw it. */
export interface RequestOrigin {
	ip?: string;
	userAgent?: string;
	sessionId?: string;
}

export interface AuditEvent {
	/** A UUIDv7: events of one actor sort by it as by time. */
	id: string;
	type: AuditEventType;
	actorId: string;
	occurredAt: string;
	ip: string | null;
	userAgent: string | null;
	sessionId: string | null;
	/** What else the event names (a factorId, who acted when an administrator did). */
	detail?: Record<string, string>;
}

export class AuditLog {
	constructor(
		private readonly store: () => Store,
		private readonly warn: (message: string, fields?: Record<string, unknown>) => void,
		private readonly now: () => number = Date.now
	) {}

	async record(type: AuditEventType, actorId: string, origin: RequestOrigin, detail?: Record<string, string>): Promise<void> {
		const at = this.now();
		const event: AuditEvent = {
			id: uuidv7(at),
			type,
			actorId,
			occurredAt: new Date(at).toISOString(),
			ip: origin.ip ?? null,
			userAgent: origin.userAgent?.slice(0, 512) ?? null,
			sessionId: origin.sessionId ?? null,
			...(detail ? { detail } : {})
		};
		try {
			await this.store().collection<AuditEvent>("audit_events").insert(event);
		} catch (err) {
			this.warn("An audit event could not be recorded", { type, actorId, error: (err as Error).message });
		}
	}

	/** The actor's events, newest first. */
	list(actorId: string, limit = 100): Promise<AuditEvent[]> {
		return this.store().collection<AuditEvent>("audit_events").find({ actorId }, { sort: { id: -1 }, limit });
	}
}
