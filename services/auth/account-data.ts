/**
 * The auth service's account-data routes: changing the email address, the export of
 * everything the platform holds about a user, and deleting an account (by its user or
 * an administrator). Mixed into services/auth/auth.service.ts, so the actions are auth.*;
 * the work is lib/accounts' (email-change.ts, export.ts, deletion.ts). Deletions a
 * dying node cut off are finished by a sweep here, at start and periodically.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { ActorDirectory } from "../../lib/accounts/create";
import { AccountDeletion } from "../../lib/accounts/deletion";
import { EmailChange } from "../../lib/accounts/email-change";
import { endEverySession } from "../../lib/accounts/end-sessions";
import { exportAccount } from "../../lib/accounts/export";
import type { Caller } from "../../lib/accounts/lifecycle";
import { AuditLog, type RequestOrigin } from "../../lib/audit";
import { emailParam } from "../../lib/email-address";
import { notFound } from "../../lib/errors";
import type { HttpMeta } from "../../lib/http/meta";
import { ref } from "../../lib/openapi/schemas";
import { principalOf } from "../../middlewares/auth.middleware";
import type { RuntimeMethods } from "../../mixins/runtime.mixin";

interface AccountDataMethods extends RuntimeMethods {
	caller(ctx: Context): Caller;
	origin(ctx: Context): RequestOrigin;
	actorDirectory(ctx: Context | null): ActorDirectory;
	/** Ends every session of the user: the one place account data revokes sessions. */
	revokeAccountSessions(user: { sub: string; username: string }): Promise<void>;
	sweepDeletions(): void;
}

interface AccountDataVars {
	audit: AuditLog;
	emailChange: EmailChange;
	deletion: AccountDeletion;
	deletionTimer?: NodeJS.Timeout;
	deletionSweep?: Promise<void>;
}

/** Deletion sweeps run at least this often, however long the grace period. */
const MAX_SWEEP_INTERVAL_MS = 60_000;

const actorIdParam = { type: "uuid" } as const;

export const AccountDataMixin: ServiceSchema<ServiceSettingSchema, AccountDataMethods, AccountDataVars> = {
	name: "account-data",
	actions: {
		changeEmail: {
			visibility: "published",
			auth: ["user"],
			stepUp: true,
			openapi: {
				summary: "Change the signed-in user's email address",
				description:
					"Step-up. A link is mailed to the new address; the address changes only when it is used (POST /auth/email/verify, the verification page), and until then the old address still signs in. Using it ends every session (sign in with the new address) and records auth.email_changed, which alerts the old address.",
				success: { status: 202, description: "The confirmation mail to the new address is queued." },
				problems: ["USER_EXISTS", "VALIDATION_ERROR", "STEP_UP_REQUIRED"],
				example: { newEmail: "ada.lovelace@example.com" }
			},
			params: { newEmail: emailParam, $$strict: true },
			async handler(ctx: Context<{ newEmail: string }, HttpMeta>): Promise<null> {
				await this.emailChange.request(this.caller(ctx), ctx.params.newEmail);
				ctx.meta.$statusCode = 202;
				return null;
			}
		},
		exportAccount: {
			visibility: "published",
			auth: ["user"],
			stepUp: true,
			openapi: {
				summary: "Export everything the platform holds about the signed-in user",
				description:
					"Step-up. Profile, sessions, second factors (no secrets), audit timeline, notifications addressed to the user (without their variables), inbox, preferences, push subscriptions (no keys) and documents' metadata. Never cached.",
				success: { status: 200, description: "The export.", schema: ref("AccountExport") },
				problems: ["STEP_UP_REQUIRED", "ACTOR_NOT_FOUND"]
			},
			params: { $$strict: true },
			async handler(ctx: Context<Record<string, never>>): Promise<Record<string, unknown>> {
				const caller = this.caller(ctx);
				const data = await exportAccount(this.runtime().store(), await this.runtime().idp(), caller);
				if (!data) throw notFound("ACTOR_NOT_FOUND", "This user has no account data here.");
				await this.audit.record("auth.account_exported", caller.sub, this.origin(ctx));
				return data;
			}
		},
		deleteAccount: {
			visibility: "published",
			auth: ["user"],
			stepUp: true,
			openapi: {
				summary: "Delete the signed-in user's account",
				description:
					"Step-up. Sessions end, queued notifications are cancelled, preferences, push subscriptions, inbox, documents and factors are removed, the identity-provider user is deleted, and a tombstone `{ actorId, deletedAt }` is kept. Crash-safe: a deletion a node could not finish is finished by another. Deleting again answers 410 ACCOUNT_DELETED.",
				success: { status: 202, description: "The deletion is under way (usually done when this answers)." },
				problems: ["STEP_UP_REQUIRED", "ACTOR_NOT_FOUND", "ACCOUNT_DELETED"]
			},
			params: { $$strict: true },
			async handler(ctx: Context<Record<string, never>, HttpMeta>): Promise<null> {
				await this.deletion.request(this.caller(ctx).sub, "self", this.origin(ctx), this.actorDirectory(ctx));
				ctx.meta.$statusCode = 202;
				return null;
			}
		},
		adminDeleteUser: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Delete a user account",
				description: "As DELETE /auth/account, by an administrator. Deleting again answers 410 ACCOUNT_DELETED.",
				success: { status: 202, description: "The deletion is under way (usually done when this answers)." },
				problems: ["ACTOR_NOT_FOUND", "ACCOUNT_DELETED"]
			},
			params: { actorId: actorIdParam, $$strict: true },
			async handler(ctx: Context<{ actorId: string }, HttpMeta>): Promise<null> {
				const admin = principalOf(ctx);
				await this.deletion.request(ctx.params.actorId, admin?.kind === "user" ? admin.sub : "admin", this.origin(ctx), this.actorDirectory(ctx));
				this.logger.info("An administrator deleted an account", { actorId: ctx.params.actorId });
				ctx.meta.$statusCode = 202;
				return null;
			}
		}
	},
	events: {
		// A deletion's last steps need the actor service: look again whenever the services around change.
		"$services.changed"() {
			this.sweepDeletions();
		}
	},
	methods: {
		async revokeAccountSessions(user: { sub: string; username: string }): Promise<void> {
			await endEverySession(await this.runtime().idp(), user);
		},
		sweepDeletions() {
			if (!this.deletionTimer || this.deletionSweep || !this.broker.registry.actions.isAvailable("actors.remove")) return;
			this.deletionSweep = this.deletion
				.sweep(this.actorDirectory(null), this.runtime().config.accountRepairGraceMs)
				.then(
					() => undefined,
					err => this.logger.warn("An account deletion sweep failed; the next one tries again", { error: (err as Error).message })
				)
				.finally(() => {
					this.deletionSweep = undefined;
				});
		}
	},
	created() {
		const audit = (this.audit = new AuditLog(() => this.runtime().store(), (m, f) => this.logger.warn(m, f)));
		const revokeSessions = (user: { sub: string; username: string }) => this.revokeAccountSessions(user);
		this.emailChange = new EmailChange({
			store: () => this.runtime().store(),
			idp: () => this.runtime().idp(),
			intake: () => this.runtime().notificationIntake(),
			audit,
			revokeSessions,
			actorChanged: actorId => void this.broker.broadcast("actors.changed", { actorId }),
			warn: (m, f) => this.logger.warn(m, f)
		});
		this.deletion = new AccountDeletion({
			store: () => this.runtime().store(),
			idp: () => this.runtime().idp(),
			files: () => this.runtime().files(),
			statusEvents: this.runtime().statusEvents,
			audit,
			revokeSessions,
			owner: { nodeId: this.broker.nodeID, instanceId: this.broker.instanceID },
			logger: this.logger
		});
	},
	started() {
		this.deletionTimer = setInterval(() => this.sweepDeletions(), Math.min(this.runtime().config.accountRepairGraceMs, MAX_SWEEP_INTERVAL_MS));
		this.sweepDeletions();
	},
	async stopped() {
		clearInterval(this.deletionTimer);
		this.deletionTimer = undefined;
		await this.deletionSweep;
	}
};
