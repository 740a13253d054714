/**
 * What the platform holds about a user, as one JSON document (GET /auth/account/export):
 * profile, sessions, second factors (names, types and times: no seed, key or code),
 * the audit timeline, notifications addressed to the user (their addresses: the email
 * and the actor id for PUSH and IN_APP) without their variables (a lifecycle mail's
 * link is never stored, other senders' variables may name other people), the inbox,
 * preferences and quiet hours, push subscriptions (endpoints, no keys) and documents'
 * metadata. Each list is capped at EXPORT_MAX_ITEMS, newest first, and says when it was cut.
 */
import type { AuditEvent } from "../audit";
import type { IdentityProvider } from "../idp/types";
import type { FactorRecord } from "../mfa/records";
import type { AuthSessionRecord } from "../mfa/sessions";
import type { SessionRecord } from "../sessions/records";
import { readSchedule, type NotificationDoc } from "../notifications";
import { PushSubscriptions } from "../push/subscriptions";
import type { Store } from "../store";
import { preferencesOf } from "../unsubscribe/records";

export const EXPORT_MAX_ITEMS = 10_000;

interface ActorDoc {
	id: string;
	email: string;
	firstName: string;
	lastName: string;
	locale?: string;
	emailDeliverable?: boolean;
	createdAt: string;
	updatedAt: string;
}

interface RefreshDoc {
	familyId: string;
	userId: string;
	createdAt: string;
	expiresAt: string;
	revokedAt: string | null;
	authTime?: number;
	amr?: string[];
}

export interface ExportedSession {
	sessionId: string;
	createdAt: string;
	lastUsedAt: string;
	expiresAt: string;
	amr: string[];
	/** The device and address the session was last used from, as GET /auth/sessions shows them (null when the platform did not see it). */
	userAgent: string | null;
	ip: string | null;
}

interface Capped<T> {
	items: T[];
	truncated: boolean;
}

async function capped<T>(read: (limit: number) => Promise<T[]>): Promise<Capped<T>> {
	const docs = await read(EXPORT_MAX_ITEMS + 1);
	return { items: docs.slice(0, EXPORT_MAX_ITEMS), truncated: docs.length > EXPORT_MAX_ITEMS };
}

/** Live sessions, with the device and address the session list shows for each. */
async function sessionsOf(store: Store, kind: IdentityProvider["kind"], sub: string, now: string): Promise<ExportedSession[]> {
	const live = await liveSessionsOf(store, kind, sub, now);
	if (live.length === 0) return [];
	const seen = await store.collection<SessionRecord>("sessions").find({ id: { $in: live.map(s => s.sessionId) }, sub });
	const byId = new Map(seen.map(r => [r.id, r]));
	return live.map(s => {
		const r = byId.get(s.sessionId);
		return { ...s, lastUsedAt: r && r.lastUsedAt > s.lastUsedAt ? r.lastUsedAt : s.lastUsedAt, userAgent: r?.userAgent ?? null, ip: r?.ip ?? null };
	});
}

/** Refresh-token families of the embedded provider; the platform's open session records with Cognito. */
async function liveSessionsOf(store: Store, kind: IdentityProvider["kind"], sub: string, now: string): Promise<Omit<ExportedSession, "userAgent" | "ip">[]> {
	if (kind === "cognito") {
		const docs = await store
			.collection<AuthSessionRecord>("auth_sessions")
			.find({ userSub: sub, endedAt: null, expiresAt: { $gt: now } }, { sort: { createdAt: -1 }, limit: EXPORT_MAX_ITEMS });
		return docs.map(d => ({ sessionId: d.id, createdAt: d.createdAt, lastUsedAt: d.createdAt, expiresAt: d.expiresAt, amr: d.amr }));
	}
	const tokens = await store.collection<RefreshDoc & { id: string }>("idp_refresh_tokens").find({ userId: sub, revokedAt: null, expiresAt: { $gt: now } });
	const families = new Map<string, Omit<ExportedSession, "userAgent" | "ip">>();
	for (const t of tokens) {
		const s = families.get(t.familyId);
		if (!s) {
			families.set(t.familyId, { sessionId: t.familyId, createdAt: t.createdAt, lastUsedAt: t.createdAt, expiresAt: t.expiresAt, amr: t.amr ?? ["pwd"] });
			continue;
		}
		if (t.createdAt < s.createdAt) s.createdAt = t.createdAt;
		if (t.createdAt > s.lastUsedAt) s.lastUsedAt = t.createdAt;
		if (t.expiresAt > s.expiresAt) s.expiresAt = t.expiresAt;
	}
	return [...families.values()].sort((a, b) => (a.lastUsedAt < b.lastUsedAt ? 1 : -1));
}

/** The export of one user; null when the user has no actor profile. */
export async function exportAccount(store: Store, idp: IdentityProvider, user: { sub: string; username: string }, now = Date.now()): Promise<Record<string, unknown> | null> {
	const actor = await store.collection<ActorDoc>("actors").get(user.sub);
	if (!actor) return null;
	const at = new Date(now).toISOString();
	const profile = await idp.getProfile(user.username);
	const emailVerified = profile?.sub === user.sub && profile.emailVerified;
	const addresses = [actor.email, actor.id];
	const [sessions, factors, audit, notifications, inbox, preferences, schedule, push, documents] = await Promise.all([
		sessionsOf(store, idp.kind, user.sub, at),
		store.collection<FactorRecord>("mfa_factors").find({ userSub: user.sub }, { sort: { createdAt: 1 } }),
		capped(limit => store.collection<AuditEvent>("audit_events").find({ actorId: user.sub }, { sort: { id: -1 }, limit })),
		capped(limit => store.collection<NotificationDoc>("notifications").find({ to: { $in: addresses } }, { sort: { id: -1 }, limit })),
		capped(limit => store.collection<Record<string, unknown> & { id: string }>("inbox").find({ actorId: user.sub }, { sort: { seq: -1 }, limit })),
		preferencesOf(store, { id: actor.id, email: actor.email, emailVerified }),
		readSchedule(store, actor.id),
		new PushSubscriptions(store).list(actor.id),
		store.collection<{ id: string; filename: string; contentType: string; size: number; createdAt: string }>("documents").find({ candidateId: actor.id }, { sort: { createdAt: -1 } })
	]);
	return {
		exportedAt: at,
		profile: {
			actorId: actor.id,
			email: actor.email,
			emailVerified,
			emailDeliverable: actor.emailDeliverable !== false,
			firstName: actor.firstName,
			lastName: actor.lastName,
			...(actor.locale ? { locale: actor.locale } : {}),
			createdAt: actor.createdAt,
			updatedAt: actor.updatedAt
		},
		sessions,
		factors: factors.map(f => ({ factorId: f.id, type: f.type, name: f.name, status: f.status, createdAt: f.createdAt, ...(f.confirmedAt ? { confirmedAt: f.confirmedAt } : {}) })),
		audit: {
			items: audit.items.map(e => ({ eventId: e.id, type: e.type, occurredAt: e.occurredAt, ip: e.ip, userAgent: e.userAgent, sessionId: e.sessionId, ...(e.detail ? { detail: e.detail } : {}) })),
			truncated: audit.truncated
		},
		notifications: {
			items: notifications.items.map(n => ({
				notificationId: n.id,
				channel: n.channel,
				to: n.to,
				status: n.status,
				priority: n.priority,
				...(n.category ? { category: n.category } : {}),
				createdAt: n.createdAt,
				updatedAt: n.updatedAt,
				...(n.sendAt ? { sendAt: n.sendAt } : {})
			})),
			truncated: notifications.truncated
		},
		inbox: {
			items: inbox.items.map(({ id, actorId: _actor, seq: _seq, state, ...rest }) => ({ notificationId: id, state, ...rest })),
			truncated: inbox.truncated
		},
		preferences: { items: preferences, ...schedule },
		pushSubscriptions: push,
		documents: documents.map(d => ({ documentId: d.id, filename: d.filename, contentType: d.contentType, size: d.size, createdAt: d.createdAt }))
	};
}
