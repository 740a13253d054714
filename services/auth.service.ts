/**
 * Authentication: registration, password login and refresh, on top of the
 * configured identity provider. Registration is all or nothing: when the actor
 * profile or the first sign-in fails, what was created is removed again.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { ClientError } from "../lib/errors";
import type { TokenSet } from "../lib/idp";
import type { CreatedUser } from "../lib/idp/types";
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

interface HttpMeta {
	$statusCode?: number;
	$location?: string;
	$responseHeaders?: Record<string, string>;
}

const secret = { type: "string", min: 1, max: 1024 } as const;

const AuthService: ServiceSchema<ServiceSettingSchema, RuntimeMethods> = {
	name: "auth",
	mixins: [RuntimeMixin],
	actions: {
		register: {
			visibility: "published",
			auth: "public",
			params: {
				email: { type: "email", max: 254 },
				password: secret,
				firstName: { type: "string", trim: true, min: 1, max: 100 },
				lastName: { type: "string", trim: true, min: 1, max: 100 },
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
