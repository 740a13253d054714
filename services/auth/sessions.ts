/**
 * Sessions (GET /auth/me, GET /auth/sessions, DELETE /auth/sessions/{sessionId},
 * DELETE /admin/users/{actorId}/sessions) and the deny list a starting node loads
 * (auth.deniedSessions). Mixed into services/auth/auth.service.ts, so the actions are
 * auth.*; the logic is in lib/sessions.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { DirectoryEntry } from "../../lib/accounts/directory";
import type { AuditLog, RequestOrigin } from "../../lib/audit";
import { ClientError } from "../../lib/errors";
import type { HttpMeta } from "../../lib/http/meta";
import type { SecondFactors } from "../../lib/mfa";
import { ref } from "../../lib/openapi/schemas";
import { Sessions, cognitoSessionOf, cognitoSid, type Denial, type Me, type SessionView } from "../../lib/sessions";
import { principalOf } from "../../middlewares/auth.middleware";
import type { RuntimeMethods } from "../../mixins/runtime.mixin";
import type { TokenSet } from "../../lib/idp/types";

interface SessionsMethods extends RuntimeMethods {
	origin(ctx: Context): RequestOrigin;
	actorEntry(actorId: string): Promise<DirectoryEntry>;
	sessionCaller(ctx: Context): { sub: string; username: string; sid?: string; jti?: string };
	callerSid(caller: { sid?: string; jti?: string }): Promise<string | undefined>;
	sessionsLogic(): Sessions;
	sessionOpened(ctx: Context, tokens: TokenSet, opened: boolean): Promise<void>;
}

interface SessionsVars {
	audit: AuditLog;
	mfa: SecondFactors;
	sessionsRef?: Sessions;
}

export const SessionsMixin: ServiceSchema<ServiceSettingSchema, SessionsMethods, SessionsVars> = {
	name: "sessions",
	actions: {
		me: {
			visibility: "published",
			auth: ["user"],
			openapi: {
				summary: "The signed-in user's account",
				description: "`emailDeliverable` is false after a permanent bounce or a complaint on the address; `factors` are the active second factors, without secrets.",
				success: { status: 200, description: "The account.", schema: ref("Me") },
				problems: ["ACTOR_NOT_FOUND"]
			},
			params: { $$strict: true },
			async handler(ctx: Context): Promise<Me> {
				const caller = this.sessionCaller(ctx);
				const factors = await this.mfa.list(caller);
				return this.sessionsLogic().me(caller.sub, caller.username, factors.items);
			}
		},
		listSessions: {
			visibility: "published",
			auth: ["user"],
			openapi: {
				summary: "List the signed-in user's sessions",
				description: "Every open session (refresh-token family), newest first; `current` marks the one of the token that asked.",
				success: { status: 200, description: "The sessions.", schema: ref("SessionList") }
			},
			params: { $$strict: true },
			async handler(ctx: Context): Promise<{ items: SessionView[] }> {
				const caller = this.sessionCaller(ctx);
				return { items: await this.sessionsLogic().list(caller.sub, await this.callerSid(caller)) };
			}
		},
		revokeOtherSessions: {
			visibility: "published",
			auth: ["user"],
			openapi: {
				summary: "End every session of the signed-in user but this one",
				description:
					"Sign out the other devices: each other open session ends as DELETE /auth/sessions/{sessionId} ends one (its refresh token at once, its access tokens within a second on every node); the session of the token that asks keeps working. Audited as auth.session_revoked with scope `others`.",
				success: { status: 204, description: "Ended (also when there was no other session)." }
			},
			params: { $$strict: true },
			async handler(ctx: Context<Record<string, never>, HttpMeta>): Promise<null> {
				const caller = this.sessionCaller(ctx);
				await this.sessionsLogic().revokeOthers(caller.sub, await this.callerSid(caller), this.origin(ctx));
				ctx.meta.$statusCode = 204;
				return null;
			}
		},
		revokeSession: {
			visibility: "published",
			auth: ["user"],
			openapi: {
				summary: "End one of the signed-in user's sessions",
				description:
					"Its refresh token stops working at once and its access tokens within a second on every node (answered 401 like an invalid token). 404 for an id that is not an open session of the caller's, another user's included. Audited as auth.session_revoked.",
				success: { status: 204, description: "Ended." },
				problems: ["NOT_FOUND"]
			},
			params: { sessionId: { type: "string", min: 1, max: 64 }, $$strict: true },
			async handler(ctx: Context<{ sessionId: string }, HttpMeta>): Promise<null> {
				const caller = this.sessionCaller(ctx);
				await this.sessionsLogic().revoke(caller.sub, ctx.params.sessionId, this.origin(ctx));
				ctx.meta.$statusCode = 204;
				return null;
			}
		},
		adminEndSessions: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "End every session of a user account",
				description: "Every refresh token stops at once, every access token within a second on every node. Audited as auth.session_revoked.",
				success: { status: 204, description: "Ended." },
				problems: ["ACTOR_NOT_FOUND"]
			},
			params: { actorId: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ actorId: string }, HttpMeta>): Promise<null> {
				const entry = await this.actorEntry(ctx.params.actorId);
				const user = await (await this.runtime().idp()).findUserByEmail(entry.email);
				await this.sessionsLogic().revokeAll(user ?? { sub: entry.actorId, username: entry.email }, this.origin(ctx), principalOf(ctx)?.sub ?? "admin");
				ctx.meta.$statusCode = 204;
				return null;
			}
		},
		/** What a node that starts without a store must refuse (lib/runtime.ts loadDenials): sids are no secret. */
		deniedSessions: {
			visibility: "public",
			auth: "public",
			params: { $$strict: true },
			async handler(): Promise<{ denials: Denial[] }> {
				return { denials: await this.runtime().storedDenials() };
			}
		}
	},
	methods: {
		/** A sign-in opened a session (its device and address are recorded), or a refresh used one. */
		async sessionOpened(ctx: Context, tokens: TokenSet, opened: boolean): Promise<void> {
			const records = this.runtime().sessions();
			const sid = this.runtime().config.idp.kind === "cognito" ? await cognitoSid(this.runtime().store(), tokens) : undefined;
			await (opened ? records.opened(tokens, this.origin(ctx), sid) : records.used(tokens, sid)).catch((err: Error) =>
				this.logger.warn("The session's record could not be written", { error: err.message })
			);
		},
		sessionsLogic(): Sessions {
			return (this.sessionsRef ??= new Sessions({
				store: () => this.runtime().store(),
				idp: () => this.runtime().idp(),
				records: () => this.runtime().sessions(),
				audit: this.audit
			}));
		},
		/** The caller's session: its token's sid, or with Cognito (whose tokens carry none) the platform's record of its access token. */
		async callerSid(caller: { sid?: string; jti?: string }): Promise<string | undefined> {
			if (caller.sid !== undefined) return caller.sid;
			return caller.jti && this.runtime().config.idp.kind === "cognito" ? cognitoSessionOf(this.runtime().store(), caller.jti) : undefined;
		},
		sessionCaller(ctx: Context) {
			const p = principalOf(ctx);
			if (!p || p.kind !== "user" || p.enrolmentOnly) throw new ClientError(403, "FORBIDDEN", "Only users have sessions here.");
			return { sub: p.sub, username: p.username, sid: p.sid, jti: p.jti };
		}
	}
};
