/**
 * The auth service's security routes: the user's audit timeline (GET /auth/audit),
 * the administrators' audit search and NDJSON stream (GET /admin/audit), and the
 * security alerts' "not me" link (POST /auth/security/not-me). Also the password
 * sign-in's guard (lockout, "not me" block, administrator's lock) and the periodic
 * audit retention sweep. Mixed into services/auth/auth.service.ts, so the actions are
 * auth.*; the work is lib/audit's and lib/accounts/login-guard.ts's.
 */
import { Readable } from "node:stream";
import { sessionEnded } from "../../lib/accounts/end-sessions";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AccountLifecycle } from "../../lib/accounts/lifecycle";
import { invalidCredentials } from "../../lib/accounts/lifecycle";
import type { LoginGuard } from "../../lib/accounts/login-guard";
import { AUDIT_EVENT_TYPES, validCursor, type AuditEvent, type AuditLog, type AuditQuery, type RequestOrigin } from "../../lib/audit";
import { badRequest, ClientError } from "../../lib/errors";
import type { HttpMeta, OriginMeta } from "../../lib/http/meta";
import type { PasswordCheck } from "../../lib/idp/types";
import { ref } from "../../lib/openapi/schemas";
import { principalOf } from "../../middlewares/auth.middleware";
import type { RuntimeMethods } from "../../mixins/runtime.mixin";


/** One event as its user reads it (contract: GET /auth/audit). */
export interface AuditItem {
	eventId: string;
	type: AuditEvent["type"];
	occurredAt: string;
	ip: string | null;
	userAgent: string | null;
	sessionId?: string;
	notificationId?: string;
	deliveryStatus?: string;
	actorId?: string;
	detail?: Record<string, string>;
}

export interface AdminAuditParams {
	actorId?: string;
	type?: AuditEvent["type"];
	from?: string;
	to?: string;
	cursor?: string;
}

interface SecurityMethods extends RuntimeMethods {
	origin(ctx: Context): RequestOrigin;
	auditItems(events: AuditEvent[], admin: boolean): Promise<AuditItem[]>;
	ndjson(query: AuditQuery): AsyncGenerator<string>;
	signInFailed(ctx: Context, username: string, err: unknown): Promise<never>;
	refuseGuarded(ctx: Context, check: PasswordCheck): Promise<void>;
}

interface SecurityVars {
	audit: AuditLog;
	guard: LoginGuard;
	lifecycle: AccountLifecycle;
	auditSweepTimer?: NodeJS.Timeout;
}

/** How often audit events past their retention are removed. */
const AUDIT_SWEEP_INTERVAL_MS = 3_600_000;

const cursorParam = { type: "string", min: 1, max: 64, optional: true } as const;
const instant = { type: "string", max: 40, optional: true, pattern: /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/ } as const;

function checkCursor(cursor: string | undefined): void {
	if (!validCursor(cursor)) throw badRequest("The cursor is not one this list answered.", [{ field: "cursor", message: "Use the nextCursor of the previous page." }]);
}

function isoOf(value: string | undefined, field: string): string | undefined {
	if (value === undefined) return undefined;
	const ms = Date.parse(value);
	if (Number.isNaN(ms)) throw badRequest(`'${field}' is not a date.`, [{ field, message: "must be an ISO 8601 date or instant" }]);
	return new Date(ms).toISOString();
}

export const SecurityMixin: ServiceSchema<ServiceSettingSchema, SecurityMethods, SecurityVars> = {
	name: "security",
	actions: {
		auditList: {
			visibility: "published",
			auth: ["user"],
			openapi: {
				summary: "The signed-in user's security events",
				description:
					"Newest first, 50 a page. An event that raised a security alert names the alert's `notificationId` and its current `deliveryStatus` (SENT, DELIVERED, BOUNCED…).",
				success: { status: 200, description: "A page of events.", schema: ref("AuditPage") }
			},
			params: { cursor: cursorParam, $$strict: true },
			async handler(ctx: Context<{ cursor?: string }>): Promise<{ items: AuditItem[]; nextCursor?: string }> {
				const p = principalOf(ctx);
				if (!p || p.kind !== "user") throw new ClientError(403, "FORBIDDEN", "Only users have an audit timeline.");
				checkCursor(ctx.params.cursor);
				const page = await this.audit.page({ actorId: p.sub }, ctx.params.cursor);
				const items = await this.auditItems(page.items, false);
				return page.nextCursor ? { items, nextCursor: page.nextCursor } : { items };
			}
		},
		adminAudit: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Search the audit log",
				description:
					"Filters combine: `actorId`, `type`, `from` (inclusive) and `to` (exclusive) ISO 8601 instants. Newest first, 50 a page. With `Accept: application/x-ndjson`, every match streams as one JSON object a line (no cursor).",
				success: { status: 200, description: "A page of events (or the NDJSON stream).", schema: ref("AuditPage") },
				problems: ["VALIDATION_ERROR"]
			},
			params: {
				actorId: { type: "uuid", optional: true },
				type: { type: "enum", values: [...AUDIT_EVENT_TYPES], optional: true },
				from: instant,
				to: instant,
				cursor: cursorParam,
				$$strict: true
			},
			async handler(ctx: Context<AdminAuditParams, HttpMeta & { wantsNdjson?: boolean }>): Promise<{ items: AuditItem[]; nextCursor?: string } | Readable> {
				checkCursor(ctx.params.cursor);
				const query: AuditQuery = { actorId: ctx.params.actorId, type: ctx.params.type, from: isoOf(ctx.params.from, "from"), to: isoOf(ctx.params.to, "to") };
				if (ctx.meta.wantsNdjson) {
					ctx.meta.$responseType = "application/x-ndjson";
					return Readable.from(this.ndjson(query));
				}
				const page = await this.audit.page(query, ctx.params.cursor);
				const items = await this.auditItems(page.items, true);
				return page.nextCursor ? { items, nextCursor: page.nextCursor } : { items };
			}
		},
		notMe: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "\"This was not me\": secure the account from a security alert's link",
				description:
					"The token is the one in the alert's link fragment (valid 7 days, single use). Every session of the account ends, and password sign-in is refused until the password is reset (POST /auth/password/forgot).",
				success: { status: 200, description: "Secured.", schema: ref("NotMeResult") },
				problems: ["INVALID_SECURITY_TOKEN"],
				example: { token: "Zt6Ro1Gi8Ue4Ja0Yc5Pf7Hm2Ks9Tb3Nw6Lr1Xz8Vd4q" }
			},
			params: { token: { type: "string", min: 1, max: 256 }, $$strict: true },
			async handler(ctx: Context<{ token: string }, OriginMeta>): Promise<{ sessionsRevoked: true; passwordSignInBlocked: true }> {
				await this.lifecycle.notMe(ctx.params.token, this.origin(ctx));
				return { sessionsRevoked: true, passwordSignInBlocked: true };
			}
		}
	},
	methods: {
		/** The events as the API shows them, each alert's delivery status read from its notification. */
		async auditItems(events: AuditEvent[], admin: boolean): Promise<AuditItem[]> {
			const ids = events.flatMap(e => (e.notificationId ? [e.notificationId] : []));
			const statuses = new Map<string, string>();
			if (ids.length > 0) {
				const docs = await this.runtime().store().collection<{ id: string; status: string }>("notifications").find({ id: { $in: ids } });
				for (const d of docs) statuses.set(d.id, d.status);
			}
			return events.map(e => ({
				eventId: e.id,
				type: e.type,
				occurredAt: e.occurredAt,
				ip: e.ip,
				userAgent: e.userAgent,
				...(e.sessionId ? { sessionId: e.sessionId } : {}),
				...(e.notificationId ? { notificationId: e.notificationId } : {}),
				...(e.notificationId && statuses.has(e.notificationId) ? { deliveryStatus: statuses.get(e.notificationId) } : {}),
				...(admin ? { actorId: e.actorId, ...(e.detail ? { detail: e.detail } : {}) } : {})
			}));
		},
		/** Every match, a line each, read a page at a time. */
		async *ndjson(query: AuditQuery): AsyncGenerator<string> {
			let cursor: string | undefined;
			do {
				const page = await this.audit.page(query, cursor, 500);
				const lines = (await this.auditItems(page.items, true)).map(item => `${JSON.stringify(item)}\n`);
				if (lines.length > 0) yield lines.join("");
				cursor = page.nextCursor;
			} while (cursor);
		},
		/**
		 * A wrong password of a known account is audited and counted toward the lockout;
		 * the answer is the provider's error, the same whether or not the account exists.
		 */
		async signInFailed(ctx: Context, username: string, err: unknown): Promise<never> {
			if ((err as ClientError).type === "INVALID_CREDENTIALS") {
				const user = await (await this.runtime().idp()).findUserByEmail(username).catch(() => null);
				if (user) {
					const origin = this.origin(ctx);
					await this.audit.record("auth.sign_in_failed", user.sub, origin, { reason: "password" });
					if (await this.guard.failed(user.sub)) await this.audit.record("auth.locked", user.sub, origin, { reason: "lockout" });
				}
			}
			throw err;
		},
		/** An administrator's lock, a lockout or a "not me" block refuses the right password with the wrong password's answer. */
		async refuseGuarded(ctx: Context, check: PasswordCheck): Promise<void> {
			const sub = check.user.sub;
			const locked = await this.lifecycle.refuseLockedSubject(sub).then(
				() => null,
				() => "admin"
			);
			const refusal = locked ?? (await this.guard.refusal(sub));
			if (refusal) {
				if (check.tokens) await (await this.runtime().idp()).revokeSession(check.tokens.refreshToken).catch(() => undefined);
				await this.audit.record("auth.sign_in_failed", sub, this.origin(ctx), { reason: refusal });
				throw invalidCredentials();
			}
			await this.guard.succeeded(sub);
		}
	},
	started() {
		const sweep = () =>
			this.audit
				.sweep(this.runtime().config.accounts.auditRetentionDays)
				.catch(err => this.logger.warn("Old audit events could not be removed; the next sweep tries again", { error: (err as Error).message }));
		this.auditSweepTimer = setInterval(sweep, AUDIT_SWEEP_INTERVAL_MS);
		this.auditSweepTimer.unref();
		void sweep();
		// A rotated refresh token that comes back: its session ends (the provider's doing), audited and alerted.
		return this.runtime()
			.idp()
			.then(idp =>
				idp.onRefreshReuse?.(async (sub, sid) => {
					// Its access tokens stop too (the sid deny list).
					await sessionEnded(idp, sub, sid);
					await this.audit.record("auth.refresh_reuse_detected", sub, { sessionId: sid });
				})
			);
	},
	stopped() {
		clearInterval(this.auditSweepTimer);
	}
};
