/**
 * Authentication: registration, password login and refresh, on top of the
 * configured identity provider, and social sign-in (lib/social/). Registration is
 * all or nothing: when the actor profile or the first sign-in fails, what was
 * created is removed again.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { emailParam } from "../lib/email-address";
import { ClientError } from "../lib/errors";
import type { HttpMeta, SocialCallbackMeta } from "../lib/http-meta";
import type { TokenSet } from "../lib/idp";
import type { CreatedUser } from "../lib/idp/types";
import type { ActorDirectory } from "../lib/social/accounts";
import { redirectHeaders, type Redirect } from "../lib/social/redirect";
import { SocialSignIn, type CallbackInput } from "../lib/social/sign-in";
import { RuntimeMixin, type RuntimeMethods } from "../mixins/runtime.mixin";

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

interface AuthThis {
	socialSignIn?: SocialSignIn;
}

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

const AuthService: ServiceSchema<ServiceSettingSchema, RuntimeMethods> = {
	name: "auth",
	mixins: [RuntimeMixin],
	actions: {
		register: {
			visibility: "published",
			auth: "public",
			params: {
				email: emailParam,
				password: secret,
				firstName: personName,
				lastName: personName,
				$$strict: true
			},
			async handler(ctx: Context<RegisterParams, HttpMeta>): Promise<RegisterResult> {
				const idp = await this.runtime().idp();
				const email = ctx.params.email.trim().toLowerCase();
				const user: CreatedUser = await idp.createUser({ ...ctx.params, email });
				let actorCreated = false;
				try {
					await this.callAsService(ctx, "actors.register", {
						actorId: user.sub,
						email,
						firstName: ctx.params.firstName,
						lastName: ctx.params.lastName
					});
					actorCreated = true;
					const tokens = await idp.login(email, ctx.params.password);
					ctx.meta.$statusCode = 201;
					ctx.meta.$location = `/actors/${user.sub}`;
					return { ...tokens, actorId: user.sub };
				} catch (err) {
					await this.rollback(ctx, user, actorCreated);
					if ((err as ClientError).type === "ACTOR_EXISTS") {
						throw new ClientError(409, "USER_EXISTS", "A user with this email already exists.");
					}
					throw err;
				}
			}
		},
		login: {
			visibility: "published",
			auth: "public",
			params: { username: { type: "string", min: 1, max: 254 }, password: secret, $$strict: true },
			async handler(ctx: Context<LoginParams>): Promise<TokenSet> {
				return (await this.runtime().idp()).login(ctx.params.username, ctx.params.password);
			}
		},
		refresh: {
			visibility: "published",
			auth: "public",
			params: { refreshToken: { type: "string", min: 1, max: 8192 }, $$strict: true },
			async handler(ctx: Context<RefreshParams>): Promise<TokenSet> {
				return (await this.runtime().idp()).refresh(ctx.params.refreshToken);
			}
		},
		socialLogin: {
			visibility: "published",
			auth: "public",
			params: { returnTo: { type: "string", optional: true, max: 2048 }, $$strict: true },
			async handler(ctx: Context<SocialLoginParams, HttpMeta>): Promise<null> {
				this.redirect(ctx, await this.social().start(ctx.params.returnTo));
				return null;
			}
		},
		socialCallback: {
			visibility: "published",
			auth: "public",
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
			params: { token: { type: "string", min: 1, max: 8192 }, $$strict: true },
			async handler(ctx: Context<ExchangeParams>): Promise<TokenSet> {
				return this.social().exchange(ctx.params.token);
			}
		},
		jwks: {
			visibility: "published",
			auth: "public",
			async handler(ctx: Context<unknown, HttpMeta>): Promise<object> {
				const jwks = await (await this.runtime().idp()).jwks();
				if (!jwks) throw new ClientError(404, "NOT_FOUND", "The identity provider publishes its own keys.");
				ctx.meta.$responseHeaders = { "Cache-Control": "public, max-age=300" };
				return jwks;
			}
		}
	},
	methods: {
		social(): SocialSignIn {
			const self = this as unknown as AuthThis;
			self.socialSignIn ??= new SocialSignIn(this.runtime(), this.logger);
			return self.socialSignIn;
		},
		/** The actor service under the auth service's own identity (actors.register admits only it). */
		actorDirectory(ctx: Context): ActorDirectory {
			return {
				register: async actor => {
					await this.callAsService(ctx, "actors.register", actor);
				},
				remove: async actorId => {
					await this.callAsService(ctx, "actors.remove", { actorId });
				}
			};
		},
		redirect(ctx: Context<unknown, HttpMeta>, redirect: Redirect) {
			ctx.meta.$statusCode = 302;
			ctx.meta.$location = redirect.location;
			ctx.meta.$responseHeaders = redirectHeaders(redirect);
		},
		/** Best effort, and logged when it fails: the caller still gets the original error. */
		async rollback(ctx: Context, user: CreatedUser, actorCreated: boolean) {
			try {
				if (actorCreated) await this.callAsService(ctx, "actors.remove", { actorId: user.sub });
				await (await this.runtime().idp()).deleteUser(user.username);
			} catch (err) {
				this.logger.error("Registration rollback failed; an identity-provider user may remain", {
					sub: user.sub,
					error: (err as Error).message
				});
			}
		}
	},
	async started() {
		await (await this.runtime().idp()).bootstrap();
	}
};

export default AuthService;
