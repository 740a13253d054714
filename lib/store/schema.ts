/**
 * Every collection and its indexes, declared once for all backends.
 */
export interface IndexSpec {
	fields: Record<string, 1 | -1>;
	unique?: boolean;
	/** Unique only among documents that have the fields (MongoDB: partial index). */
	sparse?: boolean;
	/**
	 * SQLite only: index only the documents that have every field (a partial index), for
	 * a field most documents lack when written, so an insert skips the index. Queries
	 * that compare the field (=, <, IN...) still use it. MongoDB keeps the full index it
	 * always had: changing an existing index's options there would need a migration.
	 */
	partial?: boolean;
}

export interface CollectionSpec {
	indexes: IndexSpec[];
}

export const SCHEMA: Record<string, CollectionSpec> = {
	/** Embedded identity provider: users and service accounts. */
	idp_users: { indexes: [{ fields: { pool: 1, username: 1 }, unique: true }] },
	/** Embedded identity provider: refresh tokens, stored under their SHA-256. */
	idp_refresh_tokens: { indexes: [{ fields: { familyId: 1 } }, { fields: { userId: 1 } }, { fields: { expiresAt: 1 } }] },
	/** Embedded identity provider: signing keys under their kid; one writer wins each generation. */
	idp_keys: { indexes: [{ fields: { generation: 1 }, unique: true }, { fields: { status: 1, generation: -1 } }] },
	actors: { indexes: [{ fields: { email: 1 }, unique: true }] },
	/** Email verification and password reset tokens, under their SHA-256 (lib/accounts/lifecycle-tokens.ts). */
	lifecycle_tokens: { indexes: [{ fields: { sub: 1, purpose: 1 } }, { fields: { expiresAt: 1 } }] },
	/** Cognito: when each user's sessions were last ended by the platform (sign-out everywhere, reset). */
	session_revocations: { indexes: [] },
	/** Accounts an administrator locked, under the actor id (lib/accounts/locks.ts). */
	account_locks: { indexes: [] },
	/** Account creations under way, keyed by email (lib/accounts/intents.ts); repairs read the oldest. */
	account_intents: { indexes: [{ fields: { touchedAt: 1 } }] },
	/** Account deletions under way, keyed by actor id (lib/accounts/deletion.ts); sweeps read the oldest. */
	account_deletions: { indexes: [{ fields: { touchedAt: 1 } }] },
	/** Deleted accounts: `{ id: actorId, deletedAt }` (lib/accounts/deletion.ts). */
	account_tombstones: { indexes: [] },
	/**
	 * The notification queue: claims read (status, priorityRank, availableAt, seq) in order;
	 * listings (lib/notifications/listing.ts) read newest first by id, per creator, recipient or status.
	 */
	notifications: {
		indexes: [
			{ fields: { status: 1, priorityRank: 1, availableAt: 1, seq: 1 } },
			{ fields: { "createdBy.id": 1, id: -1 } },
			{ fields: { to: 1, id: -1 } },
			{ fields: { status: 1, id: -1 } },
			// Set while a dispatcher holds the notification, and once it is sent.
			{ fields: { status: 1, leaseUntil: 1 }, partial: true },
			{ fields: { providerMessageId: 1 }, partial: true },
			{ fields: { idempotencyScope: 1 }, unique: true, sparse: true },
			// Digest members by group and by digest.
			{ fields: { digestGroup: 1, status: 1 }, partial: true },
			{ fields: { digestId: 1, status: 1 }, partial: true }
		]
	},
	/** Digests (lib/notifications/digest.ts): one open per group (openKey), claimed when due. */
	notification_digests: { indexes: [{ fields: { openKey: 1 }, unique: true, sparse: true }, { fields: { state: 1, dueAt: 1 } }] },
	/** A throttle's places (lib/notifications/throttle.ts): id `<hash>:<slot>`, the free ones found by when they were last used. */
	throttle_slots: { indexes: [{ fields: { throttle: 1, usedAt: 1 } }] },
	/** Actors' time zones and quiet hours (lib/notifications/quiet-hours.ts), id the actorId. */
	recipient_schedules: { indexes: [{ fields: { email: 1 } }] },
	/** One row per recorded step or outcome; dedupeKey makes webhook replays single. */
	notification_events: {
		indexes: [{ fields: { notificationId: 1, seq: 1 } }, { fields: { dedupeKey: 1 }, unique: true, sparse: true }]
	},
	templates: { indexes: [{ fields: { name: 1 } }] },
	/** Every version of every template, id `templateId:version` (one writer wins each number); listed newest first. */
	template_versions: { indexes: [{ fields: { templateId: 1, version: -1 } }] },
	/** Recipients that must not be mailed (permanent bounces, complaints); id = normalized address. */
	suppressions: { indexes: [] },
	/**
	 * Unsubscribes per (channel, address, category), id `CHANNEL:address:category` (lib/unsubscribe/records.ts);
	 * each start looks for preferences by source (settleLegacyPreferences) without reading every unsubscribe.
	 */
	unsubscribes: { indexes: [{ fields: { channel: 1, address: 1 } }, { fields: { source: 1, channel: 1 } }] },
	/** The HMAC keys of unsubscribe links under their kid; one writer wins each generation. */
	unsubscribe_keys: { indexes: [{ fields: { generation: 1 }, unique: true }] },
	/** Resume metadata; the bytes are in file storage (lib/files) under fileId. */
	documents: { indexes: [{ fields: { candidateId: 1, createdAt: -1 } }] },
	/** One document per flag, keyed by its name. */
	feature_flags: { indexes: [] },
	/** Web Push subscriptions; an endpoint (by its SHA-256) belongs to one actor. */
	push_subscriptions: { indexes: [{ fields: { endpointHash: 1 }, unique: true }, { fields: { actorId: 1, createdAt: -1 } }] },
	/**
	 * In-app messages, one per IN_APP notification (id = the notification's), per actor
	 * (lib/inbox): listed newest first by state or all, counted by state and seen.
	 */
	inbox: {
		indexes: [{ fields: { actorId: 1, state: 1, seq: -1 } }, { fields: { actorId: 1, seq: -1 } }, { fields: { actorId: 1, state: 1, seenAt: 1 } }]
	},
	/** The VAPID key pair when the environment sets none: one record under a fixed id. */
	push_vapid_keys: { indexes: [] },
	/** Outbound webhook endpoints, fanned out to by their owner (`kind:id`); one per owner and url. */
	webhook_endpoints: { indexes: [{ fields: { ownerKey: 1, createdAt: 1 } }, { fields: { urlKey: 1 }, unique: true, sparse: true }] },
	/** Webhook deliveries: claimed when due, in event order per notification and endpoint. */
	webhook_deliveries: {
		indexes: [
			{ fields: { state: 1, availableAt: 1, seq: 1 } },
			{ fields: { state: 1, leaseUntil: 1 } },
			{ fields: { endpointId: 1, notificationId: 1, seq: 1 } }
		]
	},
	/** The recovery sweep's cursor over the events (lib/outbound/recovery.ts): one record. */
	webhook_recovery: { indexes: [] },
	/** Every attempt of a webhook delivery, newest first per endpoint. */
	webhook_attempts: { indexes: [{ fields: { endpointId: 1, at: -1 } }] },
	/** Second factors (lib/mfa/records.ts): a user's factors; TOTP seeds sealed. */
	mfa_factors: { indexes: [{ fields: { userSub: 1, status: 1 } }, { fields: { credentialId: 1 }, unique: true, sparse: true }] },
	/** WebAuthn challenges (lib/mfa/passkeys.ts): single use, 5 minutes, only as a SHA-256 of the challenge. */
	webauthn_challenges: { indexes: [{ fields: { userSub: 1, purpose: 1 } }, { fields: { mfaTokenId: 1 } }, { fields: { expiresAt: 1 } }] },
	/** Recovery codes under a SHA-256 of user and code; one set per user. */
	mfa_recovery_codes: { indexes: [{ fields: { userSub: 1, usedAt: 1 } }] },
	/** Sign-ins waiting for a second factor (or an enrolment), under the mfaToken's SHA-256. */
	mfa_tokens: { indexes: [{ fields: { expiresAt: 1 } }] },
	/** Cognito: the platform's record of each session's auth_time and amr, which pool tokens cannot carry (lib/mfa/sessions.ts). */
	auth_sessions: { indexes: [{ fields: { refreshHash: 1 } }, { fields: { userSub: 1 } }, { fields: { expiresAt: 1 } }] },
	/** Cognito: which session each access token (by jti) belongs to, until it expires; an ended session's are denied (lib/mfa/sessions.ts denyKeys). */
	auth_session_tokens: { indexes: [{ fields: { sessionId: 1 } }, { fields: { expiresAt: 1 } }] },
	/** One-time-code challenges (lib/accounts/otp.ts). */
	otp_challenges: { indexes: [{ fields: { expiresAt: 1 } }] },
	/** Their codes and magic-link tokens, only as SHA-256. */
	otp_codes: { indexes: [{ fields: { challengeId: 1 } }, { fields: { expiresAt: 1 } }] },
	/** Security events per actor, newest first (lib/audit). */
	audit_events: { indexes: [{ fields: { actorId: 1, id: -1 } }, { fields: { type: 1, id: -1 } }, { fields: { occurredAt: 1 } }] },
	/** Failed password sign-ins per account and the lockout or not-me block they lead to (lib/accounts/login-guard.ts). */
	login_guards: { indexes: [] },
	/** Social sign-in: one link per provider user, with the provider's sealed refresh token. */
	social_identities: { indexes: [{ fields: { provider: 1, subject: 1 }, unique: true }, { fields: { userSub: 1 } }] },
	/** Sessions (refresh-token families) under their sid: device, address, times (lib/sessions/records.ts). */
	sessions: { indexes: [{ fields: { sub: 1, createdAt: -1 } }, { fields: { expiresAt: 1 } }] },
	/** Ended sessions whose access tokens may still be unexpired: every node refuses their sid (lib/sessions/deny-list.ts). */
	session_denials: { indexes: [{ fields: { expiresAt: 1 } }] }
};

export function specOf(name: string): CollectionSpec {
	const spec = SCHEMA[name];
	if (!spec) throw new Error(`Unknown collection "${name}": declare it in lib/store/schema.ts`);
	return spec;
}
