/**
 * The administrators' user routes: find accounts, read one, lock and unlock it
 * (GET /admin/users, GET /admin/users/{actorId}, POST /admin/users/{actorId}/lock and
 * /unlock). Mixed into services/auth/auth.service.ts, so the actions are auth.*. A
 * lock is a record (lib/accounts/locks.ts) that password sign-in and refresh honour
 * (lib/accounts/lifecycle.ts admit); locking also ends every session of the account.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { findUsers, toEntry, type DirectoryEntry } from "../../lib/accounts/directory";
import { endEverySession } from "../../lib/accounts/end-sessions";
import { AccountLocks } from "../../lib/accounts/locks";
import type { AuditLog, RequestOrigin } from "../../lib/audit";
import { notFound } from "../../lib/errors";
import type { HttpMeta } from "../../lib/http/meta";
import type { FactorView, SecondFactors } from "../../lib/mfa";
import { ref } from "../../lib/openapi/schemas";
import type { Sessions, SessionView } from "../../lib/sessions";
import { principalOf } from "../../middlewares/auth.middleware";
import type { RuntimeMethods } from "../../mixins/runtime.mixin";

export interface AdminUser extends DirectoryEntry {
	locked: boolean;
	lockedAt?: string;
}

export interface AdminUserDetail extends AdminUser {
	emailVerified: boolean;
	/** The actor profile's emailDeliverable (lib/accounts/deliverability.ts); absent there means true. */
	emailDeliverable: boolean;
	/** The open sessions (services/auth/sessions.ts; `current` is false: no session of the account asked). */
	sessions: SessionView[];
	/** The active second factors, without secrets. */
	factors: FactorView[];
}

interface AdminUsersMethods extends RuntimeMethods {
	origin(ctx: Context): RequestOrigin;
	locks(): AccountLocks;
	actorEntry(actorId: string): Promise<DirectoryEntry>;
	sessionsLogic(): Sessions;
}

const actorIdParam = { type: "uuid" } as const;

const actorNotFound = () => notFound("ACTOR_NOT_FOUND", "No actor has this id.");

/** What the auth service gives the mixin: its audit log. */
interface AdminUsersVars {
	audit: AuditLog;
	mfa: SecondFactors;
}

export const AdminUsersMixin: ServiceSchema<ServiceSettingSchema, AdminUsersMethods, AdminUsersVars> = {
	name: "admin-users",
	actions: {
		listUsers: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Find user accounts",
				description: "`query` is the start of an email address (any case) or an exact actor id; without it, every account. In email order, 50 a page.",
				success: { status: 200, description: "A page of accounts.", schema: ref("AdminUserList") }
			},
			params: {
				query: { type: "string", max: 254, optional: true },
				cursor: { type: "string", min: 1, max: 1024, optional: true },
				$$strict: true
			},
			async handler(ctx: Context<{ query?: string; cursor?: string }>): Promise<{ items: AdminUser[]; nextCursor?: string }> {
				const page = await findUsers(this.runtime().store(), ctx.params);
				const locks = await this.locks().among(page.items.map(u => u.actorId));
				const items = page.items.map(u => {
					const lock = locks.get(u.actorId);
					return lock ? { ...u, locked: true, lockedAt: lock.lockedAt } : { ...u, locked: false };
				});
				return page.nextCursor ? { items, nextCursor: page.nextCursor } : { items };
			}
		},
		getUser: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Read a user account",
				description: "The account view plus its open sessions and its active second factors (without secrets).",
				success: { status: 200, description: "The account.", schema: ref("AdminUser") },
				problems: ["ACTOR_NOT_FOUND"]
			},
			params: { actorId: actorIdParam, $$strict: true },
			async handler(ctx: Context<{ actorId: string }>): Promise<AdminUserDetail> {
				const entry = await this.actorEntry(ctx.params.actorId);
				const [profile, lock, actor] = await Promise.all([
					(await this.runtime().idp()).findProfileByEmail(entry.email),
					this.locks().get(entry.actorId),
					this.runtime().store().collection<{ id: string; emailDeliverable?: boolean }>("actors").get(entry.actorId)
				]);
				const [sessions, factors] = await Promise.all([
					this.sessionsLogic().list(entry.actorId),
					this.mfa.list({ sub: entry.actorId, username: profile?.username ?? entry.email })
				]);
				const view = { ...entry, emailVerified: profile?.emailVerified ?? false, emailDeliverable: actor?.emailDeliverable !== false, sessions, factors: factors.items };
				return lock ? { ...view, locked: true, lockedAt: lock.lockedAt } : { ...view, locked: false };
			}
		},
		lockUser: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Lock a user account",
				description:
					"Every session ends; password sign-in answers 401 INVALID_CREDENTIALS (as a wrong password does) and refresh 401 INVALID_REFRESH_TOKEN until the account is unlocked. Locking a locked account changes nothing.",
				success: { status: 204, description: "Locked." },
				problems: ["ACTOR_NOT_FOUND"]
			},
			params: { actorId: actorIdParam, $$strict: true },
			async handler(ctx: Context<{ actorId: string }, HttpMeta>): Promise<null> {
				const entry = await this.actorEntry(ctx.params.actorId);
				const by = principalOf(ctx)?.sub ?? "admin";
				await this.locks().lock(entry.actorId, by);
				const idp = await this.runtime().idp();
				const user = await idp.findUserByEmail(entry.email);
				if (user) await endEverySession(idp, user);
				await this.audit.record("auth.locked", entry.actorId, this.origin(ctx), { reason: "admin", by });
				this.logger.info("An administrator locked an account", { actorId: entry.actorId });
				ctx.meta.$statusCode = 204;
				return null;
			}
		},
		unlockUser: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Unlock a user account",
				description: "Password sign-in works again. Unlocking an account that is not locked changes nothing.",
				success: { status: 204, description: "Unlocked." },
				problems: ["ACTOR_NOT_FOUND"]
			},
			params: { actorId: actorIdParam, $$strict: true },
			async handler(ctx: Context<{ actorId: string }, HttpMeta>): Promise<null> {
				const entry = await this.actorEntry(ctx.params.actorId);
				if (await this.locks().unlock(entry.actorId)) {
					await this.audit.record("auth.unlocked", entry.actorId, this.origin(ctx), { by: principalOf(ctx)?.sub ?? "admin" });
					this.logger.info("An administrator unlocked an account", { actorId: entry.actorId });
				}
				ctx.meta.$statusCode = 204;
				return null;
			}
		}
	},
	methods: {
		locks(): AccountLocks {
			return new AccountLocks(() => this.runtime().store());
		},
		async actorEntry(actorId: string): Promise<DirectoryEntry> {
			const doc = await this.runtime().store().collection<{ id: string; email: string; firstName: string; lastName: string; createdAt: string }>("actors").get(actorId);
			if (!doc) throw actorNotFound();
			return toEntry(doc);
		}
	}
};
