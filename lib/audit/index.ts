/**
 * Security events of accounts, kept in the `audit_events` collection, newest first per
 * actor: the user's timeline (GET /auth/audit), the administrators' search (GET
 * /admin/audit) and the source of security alerts (lib/accounts/security-alerts.ts: a listener told of
 * every recorded event raises them). Events older than AUDIT_RETENTION_DAYS are removed
 * by a periodic sweep. An event that cannot be written is logged, never fails the
 * request that caused it.
 */
import { uuidv7 } from "../crypto";
import type { Filter, Store } from "../store";

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
	/** The security alert this event raised (lib/accounts/security-alerts.ts): its notification's id. */
	notificationId?: string;
}

/** Told of every event once it is stored (the security alerts); a failure is logged, never the caller's. */
export type AuditListener = (event: AuditEvent) => Promise<void>;

export const AUDIT_COLLECTION = "audit_events";
/** The most events a page holds. */
export const AUDIT_PAGE_SIZE = 50;

/** What the administrators' search filters on; from and to are ISO instants (to exclusive). */
export interface AuditQuery {
	actorId?: string;
	type?: AuditEventType;
	from?: string;
	to?: string;
}

/** A page cursor is the last event's id (UUIDv7, so the page after it is the older events). */
const CURSOR = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function validCursor(cursor: string | undefined): boolean {
	return cursor === undefined || CURSOR.test(cursor);
}

export class AuditLog {
	private readonly listeners: AuditListener[] = [];

	constructor(
		private readonly store: () => Store,
		private readonly warn: (message: string, fields?: Record<string, unknown>) => void,
		private readonly now: () => number = Date.now
	) {}

	private events() {
		return this.store().collection<AuditEvent>(AUDIT_COLLECTION);
	}

	/** Adds a listener told of every event recorded from now on (awaited before record answers). */
	listen(listener: AuditListener): void {
		this.listeners.push(listener);
	}

	/** Records the event; answers it as stored, or null when the store refused it (logged). */
	async record(type: AuditEventType, actorId: string, origin: RequestOrigin, detail?: Record<string, string>): Promise<AuditEvent | null> {
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
			await this.events().insert(event);
		} catch (err) {
			this.warn("An audit event could not be recorded", { type, actorId, error: (err as Error).message });
			return null;
		}
		for (const listener of this.listeners) {
			await listener(event).catch(err => this.warn("A listener of the audit log failed", { type, actorId, error: (err as Error).message }));
		}
		return event;
	}

	/** The actor's events, newest first. */
	list(actorId: string, limit = 100): Promise<AuditEvent[]> {
		return this.events().find({ actorId }, { sort: { id: -1 }, limit });
	}

	/** The actor's events since `sinceMs`, newest first, of these types (the new-device check reads earlier sign-ins). */
	since(actorId: string, types: AuditEventType[], sinceMs: number, limit = 500): Promise<AuditEvent[]> {
		return this.events().find({ actorId, type: { $in: types }, occurredAt: { $gte: new Date(sinceMs).toISOString() } }, { sort: { id: -1 }, limit });
	}

	/** One page of matching events, newest first; nextCursor names the page after it. */
	async page(query: AuditQuery, cursor?: string, limit = AUDIT_PAGE_SIZE): Promise<{ items: AuditEvent[]; nextCursor?: string }> {
		const items = await this.events().find(filterOf(query, cursor), { sort: { id: -1 }, limit: limit + 1 });
		if (items.length <= limit) return { items };
		const page = items.slice(0, limit);
		return { items: page, nextCursor: page[page.length - 1]!.id };
	}

	async get(eventId: string): Promise<AuditEvent | null> {
		return this.events().get(eventId);
	}

	/** Names the alert an event raised. */
	async attachNotification(eventId: string, notificationId: string): Promise<void> {
		await this.events().updateMany({ id: eventId }, { $set: { notificationId } });
	}

	/** Removes the events older than `retentionDays`; answers how many. */
	sweep(retentionDays: number): Promise<number> {
		return this.events().deleteMany({ occurredAt: { $lt: new Date(this.now() - retentionDays * 86_400_000).toISOString() } });
	}
}

function filterOf(query: AuditQuery, cursor: string | undefined): Filter {
	const filter: Filter = {};
	if (query.actorId) filter.actorId = query.actorId;
	if (query.type) filter.type = query.type;
	if (query.from || query.to) filter.occurredAt = { ...(query.from ? { $gte: query.from } : {}), ...(query.to ? { $lt: query.to } : {}) };
	if (cursor) filter.id = { $lt: cursor };
	return filter;
}
