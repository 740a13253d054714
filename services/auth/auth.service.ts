/**
 * Authentication: registration, password login and refresh, on top of the
 * configured identity provider, and social sign-in (lib/social/). Accounts are made
 * all or nothing by lib/accounts/create.ts; lib/accounts/repair.ts finishes or undoes
 * the ones a dying node cut off, at start, periodically, and at a sign-in of a user
 * who has no actor profile.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { AccountCreator, messageOf, type ActorDirectory } from "../../lib/accounts/create";
import { AccountLifecycle, invalidRefresh } from "../../lib/accounts/lifecycle";
import { AccountRepair } from "../../lib/accounts/repair";
import { AUTH_METRIC_HOOKS, registerAuthMetrics } from "../../lib/auth/metrics";
import { RateLimiter } from "../../lib/rate-limit";
import { emailParam, normalizeEmail } from "../../lib/email-address";
import { ClientError } from "../../lib/errors";
import type { HttpMeta, SocialCallbackMeta } from "../../lib/http/meta";
import type { TokenSet } from "../../lib/idp";
import { SOCIAL_LINK_STEP, socialLinkRepair } from "../../lib/social/accounts";
import { redirectHeaders, type Redirect } from "../../lib/social/redirect";
import { SocialSignIn, type CallbackInput } from "../../lib/social/sign-in";
import { invalidTemporaryToken } from "../../lib/social/temp-tokens";
import { AccountLifecycleMixin } from "./account-lifecycle";
import { RuntimeMixin, type RuntimeMethods } from "../../mixins/runtime.mixin";
import { ServiceAccountsMixin } from "./service-accounts";
import { AdminUsersMixin } from "./admin-users";
import { ref } from "../../lib/openapi/schemas";

export interface RegisterParams {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export interface LoginParams {
	username: string;
	password: string;
}

export interface RefreshParams {
	refreshToken: string;
}

export type RegisterResult = TokenSet & { actorId: string };

export interface SocialLoginParams {
	returnTo?: string;
}

export interface ExchangeParams {
	token: string;
}

interface AuthMethods extends RuntimeMethods {
	social(): SocialSignIn;
	actorDirectory(ctx: Context | null): ActorDirectory;
	redirect(ctx: Context<unknown, HttpMeta>, redirect: Redirect): void;
	signedIn(ctx: Context, tokens: TokenSet): Promise<TokenSet>;
	sweep(): void;
}

interface AuthVars {
	accounts: AccountCreator;
	lifecycle: AccountLifecycle;
	limiter?: RateLimiter;
	repair: AccountRepair;
	socialSignIn?: SocialSignIn;
	/** Set while the service runs: no repair starts once it is cleared. */
	sweepTimer?: NodeJS.Timeout;
	sweeping?: Promise<void>;
}

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
	mixins: [RuntimeMixin, AccountLifecycleMixin as Partial<ServiceSchema>, ServiceAccountsMixin as Partial<ServiceSchema>, AdminUsersMixin as Partial<ServiceSchema>],
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
			async handler(ctx: Context<RegisterParams, HttpMeta>): Promise<RegisterResult> {
				const { password, firstName, lastName } = ctx.params;
				const email = normalizeEmail(ctx.params.email);
				const account = await this.accounts.create({ email, password, firstName, lastName }, this.actorDirectory(ctx));
				let tokens: TokenSet;
				try {
					tokens = await (await this.runtime().idp()).login(email, password);
				} catch (err) {
					await account.undo();
					throw err;
				}
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
				problems: ["INVALID_CREDENTIALS", "USER_NOT_CONFIRMED", "EMAIL_NOT_VERIFIED"],
				example: { username: "ada@example.com", password: "Correct-Horse-9" }
			},
			params: { username: { type: "string", min: 1, max: 254 }, password: secret, $$strict: true },
			async handler(ctx: Context<LoginParams>): Promise<TokenSet> {
				return this.signedIn(ctx, await this.lifecycle.admit(await (await this.runtime().idp()).login(ctx.params.username, ctx.params.password)));
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
				return this.signedIn(ctx, await this.lifecycle.admit(await (await this.runtime().idp()).refresh(ctx.params.refreshToken), invalidRefresh));
			}
		},
		socialLogin: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Start social sign-in",
				description: "A browser navigation: redirects to the identity provider and sets the binding cookie the callback checks.",
				success: { status: 302, description: "To the provider's authorization endpoint.", headers: { Location: "The provider's authorization URL.", "Set-Cookie": "The sign-in binding cookie (HttpOnly)." } },
				storage: false
			},
			params: { returnTo: { type: "string", optional: true, max: 2048 }, $$strict: true },
			async handler(ctx: Context<SocialLoginParams, HttpMeta>): Promise<null> {
				this.redirect(ctx, await this.social().start(ctx.params.returnTo));
				return null;
			}
		},
		socialCallback: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Finish social sign-in (the provider's redirect)",
				description: "Always redirects to the UI: with a one-time `token` to exchange at POST /auth/tokens/exchange, or with only an `error` code.",
				success: { status: 302, description: "To the UI, with ?token= or ?error=.", headers: { Location: "The UI address." } }
			},
			// Not strict: providers add parameters of their own (iss, scope, session_state, authuser).
			params: {
				code: { type: "string", optional: true, max: 4096 },
				state: { type: "string", optional: true, max: 256 },
				error: { type: "string", optional: true, max: 256 },
				$$strict: false
			},
			async handler(ctx: Context<CallbackInput, SocialCallbackMeta>): Promise<null> {
				const { code, state, error } = ctx.params;
				this.redirect(ctx, await this.social().finish({ code, state, error }, ctx.meta.socialBinding, this.actorDirectory(ctx)));
				return null;
			}
		},
		exchange: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Exchange the social sign-in token for tokens",
				success: { status: 200, description: "Signed in.", schema: ref("TokenSet") },
				problems: ["INVALID_TEMPORARY_TOKEN"],
				example: { token: "q4Vd8Xz1Lr6Nw3Tb9Ks2Hm7Pf5Yc0Ja4Ue8Gi1Ro6Zt" }
			},
			params: { token: { type: "string", min: 1, max: 8192 }, $$strict: true },
			async handler(ctx: Context<ExchangeParams>): Promise<TokenSet> {
				// A locked account's social sign-in ends here, as an unknown token would.
				return this.signedIn(ctx, await this.lifecycle.refuseLocked(await this.social().exchange(ctx.params.token), invalidTemporaryToken));
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
		social(): SocialSignIn {
			this.socialSignIn ??= new SocialSignIn(this.runtime(), this.logger, this.accounts);
			return this.socialSignIn;
		},
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
		redirect(ctx: Context<unknown, HttpMeta>, redirect: Redirect) {
			ctx.meta.$statusCode = 302;
			ctx.meta.$location = redirect.location;
			ctx.meta.$responseHeaders = redirectHeaders(redirect);
		},
		/** The sign-in stands whatever the completion does: it only adds a missing profile. */
		async signedIn(ctx: Context, tokens: TokenSet): Promise<TokenSet> {
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
		this.lifecycle = new AccountLifecycle({
			store: () => this.runtime().store(),
			idp: () => this.runtime().idp(),
			intake: () => this.runtime().notificationIntake(),
			limiter: () => (this.limiter ??= new RateLimiter(this.runtime().kv(), this.runtime().config.gateway.rateLimits, this.logger)),
			config: this.runtime().config.accounts,
			log: this.logger
		});
	},
	async started() {
		registerAuthMetrics(this.broker);
		await (await this.runtime().idp()).bootstrap();
		this.sweepTimer = setInterval(() => this.sweep(), Math.min(this.runtime().config.accountRepairGraceMs, MAX_SWEEP_INTERVAL_MS));
		this.sweep();
	},
	async stopped() {
		clearInterval(this.sweepTimer);
		this.sweepTimer = undefined;
		await this.sweeping;
		await this.lifecycle.settle();
	}
};

export default AuthService;
