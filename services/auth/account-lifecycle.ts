/**
 * The auth service's account lifecycle routes: email verification, password reset and
 * change, sign-out (one session or all), and the own-address lookup that decides whom
 * a user may email. Mixed into services/auth/auth.service.ts, so the actions are auth.*; the
 * work itself is lib/accounts/lifecycle.ts's, through the service's `lifecycle`.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { decodeJwt } from "jose";
import type { EmailChange } from "../../lib/accounts/email-change";
import type { AccountLifecycle, Caller } from "../../lib/accounts/lifecycle";
import type { RequestOrigin } from "../../lib/audit";
import { emailParam, normalizeEmail } from "../../lib/email-address";
import { ClientError } from "../../lib/errors";
import { principalOf } from "../../middlewares/auth.middleware";
import type { HttpMeta } from "../../lib/http/meta";
import { ref } from "../../lib/openapi/schemas";
import type { RuntimeMethods } from "../../mixins/runtime.mixin";

export interface TokenParams {
	token: string;
}

export interface ForgotParams {
	email: string;
}

export interface ResetParams {
	token: string;
	password: string;
}

export interface ChangeParams {
	currentPassword: string;
	newPassword: string;
}

export interface LogoutParams {
	refreshToken: string;
}

interface LifecycleMethods extends RuntimeMethods {
	caller(ctx: Context): Caller;
	origin(ctx: Context): RequestOrigin;
}

/** What the auth service gives the mixin: the lifecycle it made. */
interface LifecycleVars {
	lifecycle: AccountLifecycle;
	/** The account-data slice's (./account-data.ts): a new address's link is redeemed at POST /auth/email/verify too. */
	emailChange: EmailChange;
}

const secret = { type: "string", min: 1, max: 1024 } as const;
/** A lifecycle token's shape is checked where it is redeemed: any other string is one more invalid token (401). */
const lifecycleToken = { type: "string", min: 1, max: 256 } as const;

export const AccountLifecycleMixin: ServiceSchema<ServiceSettingSchema, LifecycleMethods, LifecycleVars> = {
	name: "account-lifecycle",
	actions: {
		requestVerification: {
			visibility: "published",
			auth: ["user"],
			openapi: {
				summary: "Send the signed-in user a verification mail",
				description: "Also sent on registration. The link carries the token in its fragment.",
				success: { status: 202, description: "A verification mail is queued." },
				problems: ["EMAIL_ALREADY_VERIFIED"]
			},
			params: { $$strict: true },
			async handler(ctx: Context<Record<string, never>, HttpMeta>): Promise<null> {
				await this.lifecycle.requestVerification(this.caller(ctx));
				ctx.meta.$statusCode = 202;
				return null;
			}
		},
		verifyEmail: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Verify an email address with the token from the mail",
				description: "Also takes the token mailed by POST /auth/email/change: the account's address then changes to the new one, verified, and every session ends.",
				success: { status: 200, description: "Verified; ID tokens issued from now on carry email_verified: true.", schema: ref("EmailVerified") },
				problems: ["INVALID_VERIFICATION_TOKEN", "USER_EXISTS"],
				example: { token: "Zt6Ro1Gi8Ue4Ja0Yc5Pf7Hm2Ks9Tb3Nw6Lr1Xz8Vd4q" }
			},
			params: { token: lifecycleToken, $$strict: true },
			async handler(ctx: Context<TokenParams>): Promise<{ emailVerified: true }> {
				// A new address's link (lib/accounts/email-change.ts) first; any other token is an ordinary verification's.
				return (await this.emailChange.confirm(ctx.params.token, this.origin(ctx))) ?? this.lifecycle.verifyEmail(ctx.params.token, this.origin(ctx));
			}
		},
		forgotPassword: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Ask for a password reset mail",
				description: "The same answer, in the same time, whether or not the account exists.",
				success: { status: 202, description: "A reset mail is queued when the account exists." },
				example: { email: "ada@example.com" }
			},
			params: { email: emailParam, $$strict: true },
			async handler(ctx: Context<ForgotParams, HttpMeta>): Promise<null> {
				this.lifecycle.forgot(normalizeEmail(ctx.params.email));
				ctx.meta.$statusCode = 202;
				return null;
			}
		},
		resetPassword: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Set a new password with the token from the reset mail",
				description: "Every refresh token of the user is revoked.",
				success: { status: 204, description: "The password is set." },
				problems: ["INVALID_RESET_TOKEN", "INVALID_PASSWORD"],
				example: { token: "Hm2Ks9Tb3Nw6Lr1Xz8Vd4qZt6Ro1Gi8Ue4Ja0Yc5Pf7", password: "Battery-Staple-7" }
			},
			params: { token: lifecycleToken, password: secret, $$strict: true },
			async handler(ctx: Context<ResetParams, HttpMeta>): Promise<null> {
				await this.lifecycle.reset(ctx.params.token, ctx.params.password, this.origin(ctx));
				ctx.meta.$statusCode = 204;
				return null;
			}
		},
		changePassword: {
			visibility: "published",
			auth: ["user"],
			stepUp: true,
			openapi: {
				summary: "Change the signed-in user's password",
				description: "Step-up: the sign-in must be at most STEP_UP_MAX_AGE_SECONDS old. Every other refresh token of the user is revoked.",
				success: { status: 204, description: "The password is changed." },
				problems: ["INVALID_CREDENTIALS", "INVALID_PASSWORD", "STEP_UP_REQUIRED"],
				example: { currentPassword: "Correct-Horse-9", newPassword: "Battery-Staple-7" }
			},
			params: { currentPassword: secret, newPassword: secret, $$strict: true },
			async handler(ctx: Context<ChangeParams, HttpMeta>): Promise<null> {
				await this.lifecycle.change(this.caller(ctx), ctx.params.currentPassword, ctx.params.newPassword, this.origin(ctx));
				ctx.meta.$statusCode = 204;
				return null;
			}
		},
		logout: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Sign out: revoke a refresh token's family",
				description: "Also 204 for an unknown or already revoked token.",
				success: { status: 204, description: "Signed out." },
				example: { refreshToken: "rt_0190a0a0b1c2d3e4.k3Jx9Qm2Vb7Tz4Lw8Ns1Pd6Hf0Ya5Ce" }
			},
			params: { refreshToken: { type: "string", min: 1, max: 8192 }, $$strict: true },
			async handler(ctx: Context<LogoutParams, HttpMeta>): Promise<null> {
				await this.lifecycle.logout(ctx.params.refreshToken, this.origin(ctx));
				ctx.meta.$statusCode = 204;
				return null;
			}
		},
		logoutAll: {
			visibility: "published",
			auth: ["user"],
			openapi: {
				summary: "Sign out everywhere: revoke every refresh token of the signed-in user",
				success: { status: 204, description: "Signed out everywhere." }
			},
			params: { $$strict: true },
			async handler(ctx: Context<Record<string, never>, HttpMeta>): Promise<null> {
				await this.lifecycle.logoutAll(this.caller(ctx), this.origin(ctx));
				ctx.meta.$statusCode = 204;
				return null;
			}
		},
		/** A user's own address and whether it is verified: what decides whom the user may email (lib/notifications/senders.ts). */
		ownAddress: {
			visibility: "public",
			auth: ["service:notifications"],
			params: { username: { type: "string", min: 1, max: 254 }, $$strict: true },
			async handler(ctx: Context<{ username: string }>): Promise<{ email: string; emailVerified: boolean }> {
				const profile = await (await this.runtime().idp()).getProfile(ctx.params.username);
				if (!profile) throw new ClientError(404, "ACTOR_NOT_FOUND", "No user has this username.");
				return { email: profile.email, emailVerified: profile.emailVerified };
			}
		},
		/** Whether this actor is the user who holds this address, verified: what lets its EMAIL preferences speak for the address (services/preferences.service.ts). */
		verifiedHolder: {
			visibility: "public",
			auth: ["service:notifications"],
			params: { actorId: { type: "uuid" }, email: { type: "string", min: 1, max: 254 }, $$strict: true },
			async handler(ctx: Context<{ actorId: string; email: string }>): Promise<{ verified: boolean }> {
				const profile = await (await this.runtime().idp()).findProfileByEmail(ctx.params.email);
				return { verified: profile !== null && profile.sub === ctx.params.actorId && profile.emailVerified };
			}
		}
	},
	methods: {
		/** The verified caller (the middleware put it in locals); the session id is read from the same, verified token. */
		caller(ctx: Context): Caller {
			const p = principalOf(ctx);
			if (!p || p.kind !== "user") throw new ClientError(403, "FORBIDDEN", "Only users have an account here.");
			const token = (ctx.meta as { authToken?: string }).authToken;
			let sid: string | undefined;
			try {
				const claim = token ? decodeJwt(token).sid : undefined;
				sid = typeof claim === "string" ? claim : undefined;
			} catch {
				sid = undefined;
			}
			return { sub: p.sub, username: p.username, sid };
		}
	}
};
