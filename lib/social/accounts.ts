/**
 * Which platform user a provider's user is. Links live in `social_identities`, one per
 * (provider, provider subject), so a later sign-in finds the same user even when the
 * email at the provider has changed.
 *
 * A first sign-in needs the provider to vouch for the email (email_verified), and an
 * email no platform user has yet. Then an identity-provider user (no usable password),
 * an actor profile and the link are created, all or nothing (lib/accounts/create.ts).
 * An existing user with that email is linked only when the platform has verified the
 * account's email too (a mailed link was followed); otherwise the sign-in ends with
 * ACCOUNT_EXISTS. Registration alone does not prove ownership of an address, so an
 * account registered under someone's email before they first sign in socially would
 * otherwise become theirs with the registrant's password still working on it. An
 * unverified provider email creates nothing: the new account would claim an address
 * its holder could not register any more.
 *
 * The provider's refresh token is stored sealed (AES-256-GCM) with the provider,
 * the provider subject and the user as associated data.
 */
import { randomUUID } from "node:crypto";
import type { AccountCreator, ActorDirectory, CreatedAccount, StepRepair } from "../accounts/create";
import type { CreatedUser } from "../idp/types";
import { SecretBoxError, type SecretBox } from "../crypto/secretbox";
import { DuplicateKeyError, type Store } from "../store";
import { SocialFailure } from "./failure";
import type { ProviderSignIn } from "./provider";

export interface SocialIdentity {
	id: string;
	provider: string;
	subject: string;
	userSub: string;
	username: string;
	email: string;
	/** Sealed provider refresh token (lib/crypto/secretbox.ts), or null when the provider gave none. */
	refreshToken: string | null;
	createdAt: string;
	updatedAt: string;
	lastSignInAt: string;
}

export const SOCIAL_IDENTITIES = "social_identities";

/** What a sealed refresh token is bound to: it opens only in its own link. */
export function refreshTokenAad(link: Pick<SocialIdentity, "provider" | "subject" | "userSub">): string {
	return JSON.stringify(["social-refresh-token", link.provider, link.subject, link.userSub]);
}

/** The extra step of a social account's creation: the link (lib/accounts/create.ts). */
export const SOCIAL_LINK_STEP = "social-link";

/** A new federated user's links are the ones its own sign-in wrote; nobody can sign in as it without one. */
export function socialLinkRepair(store: () => Store): StepRepair {
	const links = () => store().collection<SocialIdentity>(SOCIAL_IDENTITIES);
	return {
		done: async user => (await links().count({ userSub: user.sub })) > 0,
		undo: async user => {
			await links().deleteMany({ userSub: user.sub });
		}
	};
}

export class SocialAccounts {
	constructor(
		private readonly store: () => Store,
		private readonly accounts: AccountCreator,
		private readonly box: SecretBox,
		private readonly provider: string,
		private readonly now: () => number = Date.now
	) {}

	private links() {
		return this.store().collection<SocialIdentity>(SOCIAL_IDENTITIES);
	}

	async signIn(signIn: ProviderSignIn, actors: ActorDirectory): Promise<CreatedAccount> {
		const { profile } = signIn;
		const existing = await this.links().findOne({ provider: this.provider, subject: profile.subject });
		if (existing) {
			await this.touch(existing, signIn.refreshToken);
			return { user: { sub: existing.userSub, username: existing.username }, undo: async () => undefined };
		}
		if (!profile.emailVerified) throw new SocialFailure("EMAIL_NOT_VERIFIED", "the provider does not vouch for the email");
		const holder = await (await this.accounts.idp()).findProfileByEmail(profile.email);
		if (holder) {
			if (!holder.emailVerified) throw new SocialFailure("ACCOUNT_EXISTS", "an account with this email exists and its email is not verified; it is not linked");
			return this.linkExisting({ sub: holder.sub, username: holder.username }, signIn);
		}
		const { email, firstName, lastName } = profile;
		return this.accounts.create({ email, firstName, lastName }, actors, {
			name: SOCIAL_LINK_STEP,
			run: user => this.link(user, signIn)
		});
	}

	/**
	 * Both the provider and the platform vouch that the email is this person's: the
	 * provider identity joins the existing account. A parallel sign-in of the same
	 * provider user may have linked it first; then that link is the one.
	 */
	private async linkExisting(user: CreatedUser, signIn: ProviderSignIn): Promise<CreatedAccount> {
		try {
			await this.link(user, signIn);
		} catch (err) {
			if (!(err instanceof DuplicateKeyError)) throw err;
			const winner = await this.links().findOne({ provider: this.provider, subject: signIn.profile.subject });
			if (!winner) throw err;
			return { user: { sub: winner.userSub, username: winner.username }, undo: async () => undefined };
		}
		return { user, undo: async () => undefined };
	}

	private seal(link: Pick<SocialIdentity, "provider" | "subject" | "userSub">, refreshToken: string): string {
		return this.box.seal(refreshToken, refreshTokenAad(link));
	}

	private async link(user: CreatedUser, signIn: ProviderSignIn): Promise<void> {
		const now = new Date(this.now()).toISOString();
		const key = { provider: this.provider, subject: signIn.profile.subject, userSub: user.sub };
		await this.links().insert({
			id: randomUUID(),
			...key,
			username: user.username,
			email: signIn.profile.email,
			refreshToken: signIn.refreshToken ? this.seal(key, signIn.refreshToken) : null,
			createdAt: now,
			updatedAt: now,
			lastSignInAt: now
		});
	}

	/**
	 * A new refresh token replaces the stored one; one sealed under an earlier key is
	 * sealed again under the current key, or dropped once no configured key opens it.
	 */
	private async touch(link: SocialIdentity, refreshToken?: string): Promise<void> {
		const now = new Date(this.now()).toISOString();
		let sealed = link.refreshToken;
		if (refreshToken) sealed = this.seal(link, refreshToken);
		else if (sealed && this.box.isStale(sealed)) sealed = this.reseal(link, sealed);
		await this.links().updateMany({ id: link.id }, { $set: { refreshToken: sealed, updatedAt: now, lastSignInAt: now } });
	}

	private reseal(link: SocialIdentity, sealed: string): string | null {
		try {
			return this.seal(link, this.box.open(sealed, refreshTokenAad(link)));
		} catch (err) {
			if (err instanceof SecretBoxError) return null;
			throw err;
		}
	}
}
