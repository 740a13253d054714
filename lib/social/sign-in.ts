/**
 * Social sign-in from end to end:
 * - start: a pending sign-in (state, PKCE verifier, nonce, browser binding) and the
 *   redirect to the provider;
 * - finish, the callback: the state, the provider's answer, the account, then a
 *   temporary token and the redirect to the UI. It never throws: every failure ends
 *   in a redirect to the UI with `?error=<code>` and leaves nothing created behind;
 * - exchange: the temporary token, once, for the platform's token set.
 */
import type { AccountCreator, ActorDirectory } from "../accounts/create";
import type { Config } from "../config";
import { notConfigured, type ClientError } from "../errors";
import type { CreatedUser, IdentityProvider, TokenSet } from "../idp/types";
import type { KeyValue } from "../kv";
import { SecretBox } from "../crypto/secretbox";
import type { Store } from "../store";
import { SocialAccounts } from "./accounts";
import { SocialFailure } from "./failure";
import { SocialProvider, safeErrorCode } from "./provider";
import { failureRedirect, uiRedirect, type Redirect, type SocialLogger } from "./redirect";
import { SignInStates, bindingCookie, checkReturnTo } from "./state";
import { TemporaryTokens, invalidTemporaryToken } from "./temp-tokens";

/** What the sign-in needs from the process runtime (lib/runtime.ts). */
export interface SocialDeps {
	readonly config: Config;
	kv(): KeyValue;
	store(): Store;
	idp(): Promise<IdentityProvider>;
}

export interface CallbackInput {
	code?: string;
	state?: string;
	error?: string;
}

export class SocialSignIn {
	private readonly states: SignInStates;
	private readonly tokens: TemporaryTokens;
	/** Both unset when social sign-in is not configured. */
	private readonly provider?: SocialProvider;
	private readonly accounts?: SocialAccounts;

	constructor(private readonly deps: SocialDeps, private readonly logger: SocialLogger, accounts: AccountCreator) {
		const { social } = deps.config;
		this.states = new SignInStates(deps.kv());
		this.tokens = new TemporaryTokens(deps.kv(), social.temporaryTokenTtl);
		if (social.enabled && social.refreshTokenEncryptionKey) {
			this.provider = new SocialProvider(social);
			const box = new SecretBox(social.refreshTokenEncryptionKey, social.previousEncryptionKeys);
			this.accounts = new SocialAccounts(() => deps.store(), accounts, box, this.provider.name);
		}
	}

	/** 503 when not configured; 400 when returnTo is not a path on the UI. */
	async start(returnTo?: string): Promise<Redirect> {
		if (!this.provider) throw notConfigured("Social sign-in is not configured on this platform.");
		const checked = returnTo === undefined ? undefined : checkReturnTo(returnTo);
		// Discovery first: a provider that cannot be reached leaves no pending sign-in behind.
		await this.provider.endpoints();
		const { state, binding, pending } = await this.states.create(checked);
		return {
			location: await this.provider.authorizationUrl(state, pending),
			cookie: bindingCookie(this.deps.config.social.redirectUri, binding)
		};
	}

	async finish(input: CallbackInput, binding: string | undefined, actors: ActorDirectory): Promise<Redirect> {
		const { config } = this.deps;
		try {
			if (!this.provider || !this.accounts) throw new SocialFailure("SOCIAL_LOGIN_UNAVAILABLE", "social sign-in is not configured");
			const pending = await this.states.consume(input.state, binding);
			if (!pending) throw new SocialFailure("INVALID_STATE", "the state is unknown, expired, used, or not this browser's");
			if (input.error !== undefined) {
				const code = input.error === "access_denied" ? "ACCESS_DENIED" : "PROVIDER_ERROR";
				throw new SocialFailure(code, `the provider answered ${safeErrorCode(input.error)}`);
			}
			if (!input.code) throw new SocialFailure("INVALID_REQUEST", "the callback carries no authorization code");
			const signIn = await this.provider.signIn(input.code, pending);
			const account = await this.accounts.signIn(signIn, actors);
			let token: string;
			try {
				token = await this.tokens.issue({
					sub: account.user.sub,
					username: account.user.username,
					provider: this.provider.name,
					providerSubject: signIn.profile.subject,
					authenticatedAt: new Date().toISOString()
				});
			} catch (err) {
				await account.undo();
				throw err;
			}
			const query: Record<string, string> = { token };
			if (pending.returnTo) query.returnTo = pending.returnTo;
			return uiRedirect(config, query);
		} catch (err) {
			return failureRedirect(config, err, this.logger);
		}
	}

	/**
	 * 401 INVALID_TEMPORARY_TOKEN when the token is unknown, expired, already used, or its
	 * user is gone. `complete` issues the tokens (the MFA gate: a user with a second
	 * factor gets 403 MFA_REQUIRED, and the temporary token is spent all the same).
	 */
	async exchange(token: string, complete?: (user: CreatedUser) => Promise<TokenSet>): Promise<TokenSet> {
		const identity = await this.tokens.consume(token);
		const user = { sub: identity.sub, username: identity.username };
		try {
			return await (complete ? complete(user) : (await this.deps.idp()).issueForUser(user));
		} catch (err) {
			const type = (err as ClientError).type;
			if (type === "INVALID_CREDENTIALS") throw invalidTemporaryToken();
			if (type === "MFA_REQUIRED" || type === "MFA_ENROLLMENT_REQUIRED") throw err;
			// The user did nothing wrong: keep the token usable for a retry.
			await this.tokens.restore(token, identity).catch(() => undefined);
			throw err;
		}
	}
}
