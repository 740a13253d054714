/**
 * Authentication: registration, password login and refresh, on top of the
 * configured identity provider, with the second-factor gate (lib/mfa, slice ./mfa.ts)
 * and social sign-in (lib/social/, slice ./social.ts). Accounts are made
 * all or nothing by lib/accounts/create.ts; lib/accounts/repair.ts finishes or undoes
 * the ones a dying node cut off, at start, periodically, and at a sign-in of a user
 * who has no actor profile.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { AccountCreator, messageOf, type ActorDirectory } from "../../lib/accounts/create";
import { markActorDeliverable } from "../../lib/accounts/deliverability";
import { AccountLifecycle, invalidRefresh } from "../../lib/accounts/lifecycle";
import { AccountRepair } from "../../lib/accounts/repair";
import { AUTH_METRIC_HOOKS, countMfaChallenge, registerAuthMetrics } from "../../lib/auth/metrics";
import { AuditLog, type RequestOrigin } from "../../lib/audit";
import { SecurityAlerts } from "../../lib/accounts/security-alerts";
import { recordSignIn, type SignInMethod } from "../../lib/audit/sign-ins";
import { LoginGuard } from "../../lib/accounts/login-guard";
import { SecurityMixin } from "./security";
import { SecondFactors } from "../../lib/mfa";
import { RateLimiter } from "../../lib/rate-limit";
import { emailParam, normalizeEmail } from "../../lib/email-address";
import { ClientError } from "../../lib/errors";
import type { HttpMeta, OriginMeta } from "../../lib/http/meta";
import type { PasswordCheck, TokenSet } from "../../lib/idp/types";
import { SOCIAL_LINK_STEP, socialLinkRepair } from "../../lib/social/accounts";
import type { SocialSignIn } from "../../lib/social/sign-in";
import { AccountLifecycleMixin } from "./account-lifecycle";
import { RuntimeMixin, type RuntimeMethods } from "../../mixins/runtime.mixin";
import { ServiceAccountsMixin } from "./service-accounts";
import { MfaMixin } from "./mfa";
import { OtpMixin } from "./otp";
import { PhoneMixin } from "./phone";
import { AdminUsersMixin } from "./admin-users";
import { AccountDataMixin } from "./account-data";
import { SocialMixin } from "./social";
import { PasskeysMixin } from "./passkeys";
import { SessionsMixin } from "./sessions";
import { ref } from "../../lib/openapi/schemas";

import type { LoginParams, RefreshParams, RegisterParams, RegisterResult } from "./params";

interface AuthMethods extends RuntimeMethods {
	actorDirectory(ctx: Context | null): ActorDirectory;
	signedIn(ctx: Context, tokens: TokenSet, method?: SignInMethod): Promise<TokenSet>;
	sessionOpened(ctx: Context, tokens: TokenSet, opened: boolean): Promise<void>;
	origin(ctx: Context): RequestOrigin;
	signInFailed(ctx: Context, username: string, err: unknown): Promise<never>;
	refuseGuarded(ctx: Context, check: PasswordCheck): Promise<void>;
	sweep(): void;
}

interface AuthVars {
	accounts: AccountCreator;
	lifecycle: AccountLifecycle;
	audit: AuditLog;
	guard: LoginGuard;
	mfa: SecondFactors;
	limiter?: RateLimiter;
	repair: AccountRepair;
	socialSignIn?: SocialSignIn;
	/** Set while the service runs: no repair starts once it is cleared. */
	sweepTimer?: NodeJS.Timeout;
	/** Removes spent and expired mfaTokens (with any Cognito token set they held) and ended Cognito session records. */
	mfaSweepTimer?: NodeJS.Timeout;
	sweeping?: Promise<void>;
}

/** How often expired mfaTokens and Cognito session records are removed. */
const MFA_SWEEP_INTERVAL_MS = 60_000;
/** Repairs run at least this often, however long the grace period. */
const MAX_SWEEP_INTERVAL_MS = 60_000;

const secret = { type: "string", min: 1, max: 1024 } as const;

/** Names end up in emails and the UI: control characters (line breaks, NUL) have no place in them. */
const personName = {
	type: "string",
	trim: true,
	min: 1,
	max: 100,
	pattern: /^[^\u0000-\u001f\u007f]+$/,
	messages: { stringPattern: "The '{field}' field may not contain control characters." }
} as const;

const AuthService: ServiceSchema<ServiceSettingSchema, AuthMethods, AuthVars> = {
	name: "auth",
	mixins: [
		RuntimeMixin,
		AccountLifecycleMixin as Partial<ServiceSchema>,
		ServiceAccountsMixin as Partial<ServiceSchema>,
		MfaMixin as Partial<ServiceSchema>,
		PasskeysMixin as Partial<ServiceSchema>,
		OtpMixin as Partial<ServiceSchema>,
		PhoneMixin as Partial<ServiceSchema>,
		SocialMixin as Partial<ServiceSchema>,
		AdminUsersMixin as Partial<ServiceSchema>,
		SecurityMixin as Partial<ServiceSchema>,
		AccountDataMixin as Partial<ServiceSchema>,
		SessionsMixin as Partial<ServiceSchema>
	],
	// Sign-in and refresh counters for Prometheus (lib/auth/metrics.ts).
	hooks: AUTH_METRIC_HOOKS,
	actions: {
		register: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Create an account and sign in",
				success: { status: 201, description: "Signed in as the new account.", schema: ref("RegisterResult"), headers: { Location: "/actors/{actorId}" } },
				problems: ["USER_EXISTS", "INVALID_PASSWORD", "ACTOR_EXISTS"],
				example: { email: "ada@example.com", password: "Correct-Horse-9", firstName: "Ada", lastName: "Lovelace" }
			},
			params: {
				email: emailParam,
				password: secret,
				firstName: personName,
				lastName: personName,
				$$strict: true
			},
			async handler(ctx: Context<RegisterParams, HttpMeta & OriginMeta>): Promise<RegisterResult> {
				const { password, firstName, lastName } = ctx.params;
				const email = normalizeEmail(ctx.params.email);
				const account = await this.accounts.create({ email, password, firstName, lastName }, this.actorDirectory(ctx));
				const idp = await this.runtime().idp();
				let tokens: TokenSet;
				try {
					tokens = await idp.login(email, password);
				} catch (err) {
					await account.undo();
					throw err;
				}
				// Cognito: the platform's record of the session (its tokens carry no sid), as for every other sign-in.
				if (idp.kind === "cognito") await this.mfa.sessions().open(account.user.sub, tokens, { authTime: Math.floor(Date.now() / 1000), amr: ["pwd"] });
				await this.audit.record("auth.registered", account.user.sub, this.origin(ctx));
				await this.sessionOpened(ctx, tokens, true);
				await this.lifecycle.afterRegistration(account.user);
				ctx.meta.$statusCode = 201;
				ctx.meta.$location = `/actors/${account.user.sub}`;
				return { ...tokens, actorId: account.user.sub };
			}
		},
		login: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Sign in with a password",
				success: { status: 200, description: "Signed in.", schema: ref("TokenSet") },
				description:
					"A user with a second factor gets 403 MFA_REQUIRED with an `mfaToken` (single use, 5 minutes) and the `factors` to answer with at POST /auth/mfa/verify; one who must enrol one (MFA_ENFORCE) gets 403 MFA_ENROLLMENT_REQUIRED with an `mfaToken` for the enrolment routes.",
				problems: ["INVALID_CREDENTIALS", "USER_NOT_CONFIRMED", "EMAIL_NOT_VERIFIED", "MFA_REQUIRED", "MFA_ENROLLMENT_REQUIRED"],
				example: { username: "ada@example.com", password: "Correct-Horse-9" }
			},
			params: { username: { type: "string", min: 1, max: 254 }, password: secret, $$strict: true },
			async handler(ctx: Context<LoginParams, OriginMeta>): Promise<TokenSet> {
				const idp = await this.runtime().idp();
				const check = await idp.authenticate(ctx.params.username, ctx.params.password).catch(err => this.signInFailed(ctx, ctx.params.username, err));
				// A locked account (an administrator's lock, a lockout, a "not me") gets a wrong password's answer before any second factor is asked for.
				await this.refuseGuarded(ctx, check);
				const tokens = await this.mfa.passwordSignIn(idp, check);
				return this.signedIn(ctx, await this.lifecycle.admit(tokens), "password");
			}
		},
		refresh: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Exchange a refresh token for new tokens",
				description: "The refresh token rotates: keep only the one answered. Presenting an old one twice outside the reuse grace signs the session out.",
				success: { status: 200, description: "New tokens.", schema: ref("TokenSet") },
				problems: ["INVALID_REFRESH_TOKEN", "EMAIL_NOT_VERIFIED"],
				example: { refreshToken: "rt_0190a0a0b1c2d3e4.k3Jx9Qm2Vb7Tz4Lw8Ns1Pd6Hf0Ya5Ce" }
			},
			params: { refreshToken: { type: "string", min: 1, max: 8192 }, $$strict: true },
			async handler(ctx: Context<RefreshParams>): Promise<TokenSet> {
				const idp = await this.runtime().idp();
				// Cognito: the provider refuses an ended session's token and links the new access token to its session's record.
				const tokens = await idp.refresh(ctx.params.refreshToken);
				return this.signedIn(ctx, await this.lifecycle.admit(tokens, invalidRefresh));
			}
		}
	},
	events: {
		// A repair needs the actor service: look again whenever the services around change.
		"$services.changed"() {
			this.sweep();
		}
	},
	methods: {
		/** The actor service under the auth service's own identity (actors.register admits only it). */
		actorDirectory(ctx: Context | null): ActorDirectory {
			return {
				register: async actor => {
					await this.callAsService(ctx, "actors.register", actor);
				},
				remove: async actorId => {
					await this.callAsService(ctx, "actors.remove", { actorId });
				},
				exists: actorId =>
					this.callAsService(ctx, "actors.get", { id: actorId }).then(
						() => true,
						err => {
							if ((err as ClientError).type === "ACTOR_NOT_FOUND") return false;
							throw err;
						}
					)
			};
		},
		/** The sign-in stands whatever the completion does: it only adds a missing profile. */
		async signedIn(ctx: Context, tokens: TokenSet, method?: SignInMethod): Promise<TokenSet> {
			if (method) await recordSignIn(this.audit, tokens, this.origin(ctx), method);
			await this.sessionOpened(ctx, tokens, method !== undefined);
			await this.repair.completeSignedIn(tokens, this.actorDirectory(ctx)).catch(err =>
				this.logger.warn("Could not complete the actor profile of a signed-in user", { error: messageOf(err) })
			);
			return tokens;
		},
		sweep() {
			if (!this.sweepTimer || this.sweeping || !this.broker.registry.actions.isAvailable("actors.register")) return;
			this.sweeping = this.repair
				.sweep(this.actorDirectory(null), this.runtime().config.accountRepairGraceMs)
				.then(
					() => undefined,
					err => this.logger.warn("An account repair sweep failed; the next one tries again", { error: messageOf(err) })
				)
				.finally(() => {
					this.sweeping = undefined;
				});
		}
	},
	created() {
		this.accounts = new AccountCreator({
			store: () => this.runtime().store(),
			idp: () => this.runtime().idp(),
			logger: this.logger,
			steps: { [SOCIAL_LINK_STEP]: socialLinkRepair(() => this.runtime().store()) },
			owner: { nodeId: this.broker.nodeID, instanceId: this.broker.instanceID }
		});
		this.repair = new AccountRepair(this.accounts);
		this.audit = new AuditLog(() => this.runtime().store(), (m, f) => this.logger.warn(m, f));
		SecurityAlerts.attach({ store: () => this.runtime().store(), intake: () => this.runtime().notificationIntake(), audit: this.audit, warn: (m, f) => this.logger.warn(m, f) });
		this.guard = new LoginGuard(() => this.runtime().store(), this.runtime().config.accounts.lockout);
		this.lifecycle = new AccountLifecycle({
			store: () => this.runtime().store(),
			idp: () => this.runtime().idp(),
			intake: () => this.runtime().notificationIntake(),
			limiter: () => (this.limiter ??= new RateLimiter(this.runtime().kv(), this.runtime().config.gateway.rateLimits, this.logger)),
			config: this.runtime().config.accounts,
			audit: this.audit,
			guard: this.guard,
			log: this.logger,
			verified: async sub => {
				if (await markActorDeliverable(this.runtime().store(), sub)) this.broker.broadcast("actors.changed", { actorId: sub });
			}
		});
		this.mfa = new SecondFactors({
			store: () => this.runtime().store(),
			idp: () => this.runtime().idp(),
			limiter: () => (this.limiter ??= new RateLimiter(this.runtime().kv(), this.runtime().config.gateway.rateLimits, this.logger)),
			audit: this.audit,
			config: this.runtime().config.accounts.mfa,
			keyEncryptionKey: this.runtime().config.idp.keyEncryptionKey,
			count: (factor, result) => countMfaChallenge(this.broker, factor, result),
			otp: () => this.runtime().otp()
		});
	},
	async started() {
		registerAuthMetrics(this.broker);
		await (await this.runtime().idp()).bootstrap();
		// Seeds stored in clear before IDP_KEY_ENCRYPTION_KEY was set are sealed now.
		await this.mfa.records().sealStoredSeeds();
		this.sweepTimer = setInterval(() => this.sweep(), Math.min(this.runtime().config.accountRepairGraceMs, MAX_SWEEP_INTERVAL_MS));
		this.mfaSweepTimer = setInterval(() => {
			this.mfa.sweep().catch(err => this.logger.warn("Expired MFA records could not be removed; the next sweep tries again", { error: messageOf(err) }));
			this.runtime().otp().sweep().catch(err => this.logger.warn("Expired one-time codes could not be removed; the next sweep tries again", { error: messageOf(err) }));
		}, MFA_SWEEP_INTERVAL_MS);
		this.mfaSweepTimer.unref();
		this.sweep();
	},
	async stopped() {
		clearInterval(this.sweepTimer);
		clearInterval(this.mfaSweepTimer);
		this.sweepTimer = undefined;
		await this.sweeping;
		await this.lifecycle.settle();
	}
};

export default AuthService;
