/**
 * The auth service's social sign-in routes: the start, the provider's callback, and
 * the exchange of the temporary token for tokens (through the MFA gate: a user with a
 * second factor gets 403 MFA_REQUIRED here too). Mixed into
 * services/auth/auth.service.ts, so the actions are auth.*; the work is lib/social's.
 */
import type { SignInMethod } from "../../lib/audit/sign-ins";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AccountCreator, ActorDirectory } from "../../lib/accounts/create";
import type { AccountLifecycle } from "../../lib/accounts/lifecycle";
import type { HttpMeta, SocialCallbackMeta } from "../../lib/http/meta";
import type { TokenSet } from "../../lib/idp";
import type { SecondFactors } from "../../lib/mfa";
import { ref } from "../../lib/openapi/schemas";
import { redirectHeaders, type Redirect } from "../../lib/social/redirect";
import { SocialSignIn, type CallbackInput } from "../../lib/social/sign-in";
import { invalidTemporaryToken } from "../../lib/social/temp-tokens";
import type { RuntimeMethods } from "../../mixins/runtime.mixin";

export interface SocialLoginParams {
	returnTo?: string;
}

export interface ExchangeParams {
	token: string;
}

interface SocialMethods extends RuntimeMethods {
	social(): SocialSignIn;
	redirect(ctx: Context<unknown, HttpMeta>, redirect: Redirect): void;
	actorDirectory(ctx: Context | null): ActorDirectory;
	signedIn(ctx: Context, tokens: TokenSet, method?: SignInMethod): Promise<TokenSet>;
}

interface SocialVars {
	accounts: AccountCreator;
	lifecycle: AccountLifecycle;
	mfa: SecondFactors;
	socialSignIn?: SocialSignIn;
}

export const SocialMixin: ServiceSchema<ServiceSettingSchema, SocialMethods, SocialVars> = {
	name: "social",
	actions: {
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
				problems: ["INVALID_TEMPORARY_TOKEN", "MFA_REQUIRED", "MFA_ENROLLMENT_REQUIRED"],
				example: { token: "q4Vd8Xz1Lr6Nw3Tb9Ks2Hm7Pf5Yc0Ja4Ue8Gi1Ro6Zt" }
			},
			params: { token: { type: "string", min: 1, max: 8192 }, $$strict: true },
			async handler(ctx: Context<ExchangeParams>): Promise<TokenSet> {
				const idp = await this.runtime().idp();
				// A locked account's social sign-in ends here, as an unknown token would.
				const tokens = await this.social().exchange(ctx.params.token, async user => {
					await this.lifecycle.refuseLockedSubject(user.sub); // INVALID_CREDENTIALS: the exchange spends the token and answers INVALID_TEMPORARY_TOKEN
					return this.mfa.federatedSignIn(idp, user);
				});
				return this.signedIn(ctx, await this.lifecycle.refuseLocked(tokens, invalidTemporaryToken), "social");
			}
		}
	},
	methods: {
		social(): SocialSignIn {
			this.socialSignIn ??= new SocialSignIn(this.runtime(), this.logger, this.accounts);
			return this.socialSignIn;
		},
		redirect(ctx: Context<unknown, HttpMeta>, redirect: Redirect) {
			ctx.meta.$statusCode = 302;
			ctx.meta.$location = redirect.location;
			ctx.meta.$responseHeaders = redirectHeaders(redirect);
		}
	}
};
