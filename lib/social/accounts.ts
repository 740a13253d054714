/**
 * Which platform user a provider's user is. Links live in `social_identities`, one per
 * (provider, provider subject), so a later sign-in finds the same user even when the
 * email at the provider has changed.
 *
 * A first sign-in needs the provider to vouch for the email (email_verified). Then:
 * - an existing user with that email (for example one who registered with a password)
 *   is linked, because the provider has proven the person controls that mailbox;
 * - otherwise an identity-provider user (no usable password) and an actor profile are
 *   created, all or nothing.
 * An unverified email neither creates nor links an account: a new account would claim
 * an address its holder could not register any more, and a link would hand an
 * existing account to whoever typed its address at the provider.
 *
 * The provider's refresh token is stored sealed (AES-256-GCM) with the provider,
 * the provider subject and the user as associated data.
 */
import { randomUUID } from "node:crypto";
import type { CreatedUser, IdentityProvider } from "../idp/types";
import { SecretBoxError, type SecretBox } from "../secretbox";
import type { Store } from "../store";
import { SocialFailure } from "./failure";
import type { ProviderSignIn } from "./provider";

export interface SocialIdentity {
	id: string;
	provider: string;
	subject: string;
	userSub: string;
	username: string;
	email: string;
	/** Sealed provider refresh token (lib/secretbox.ts), or null when the provider gave none. */
	refreshToken: string | null;
	createdAt: string;
	updatedAt: string;
	lastSignInAt: string;
}

export interface ActorProfile {
	actorId: string;
	email: string;
	firstName: string;
	lastName: string;
}

/** The actor service, as the auth service reaches it under its own service identity. */
export interface ActorDirectory {
	register(actor: ActorProfile): Promise<void>;
	remove(actorId: string): Promise<void>;
}

export interface LinkedAccount {
	user: CreatedUser;
	/** Removes what this sign-in created; a no-op for a user who already existed. */
	undo(): Promise<void>;
}

export const SOCIAL_IDENTITIES = "social_identities";

/** What a sealed refresh token is bound to: it opens only in its own link. */
export function refreshTokenAad(link: Pick<SocialIdentity, "provider" | "subject" | "userSub">): string {
	return JSON.stringify(["social-refresh-token", link.provider, link.subject, link.userSub]);
}

export class SocialAccounts {
	constructor(
		private readonly store: () => Store,
		private readonly idp: () => Promise<IdentityProvider>,
		private readonly box: SecretBox,
		private readonly provider: string,
		/** Told when a rollback fails, so the leftover user is in the log; the caller still gets the first error. */
		private readonly onUndoFailure: (err: unknown, user: CreatedUser) => void,
		private readonly now: () => number = Date.now
	) {}

	private links() {
		return this.store().collection<SocialIdentity>(SOCIAL_IDENTITIES);
	}

	async signIn(signIn: ProviderSignIn, actors: ActorDirectory): Promise<LinkedAccount> {
		const { profile } = signIn;
		const existing = await this.links().findOne({ provider: this.provider, subject: profile.subject });
		if (existing) {
			await this.touch(existing, signIn.refreshToken);
			return { user: { sub: existing.userSub, username: existing.username }, undo: async () => undefined };
		}
		if (!profile.emailVerified) throw new SocialFailure("EMAIL_NOT_VERIFIED", "the provider does not vouch for the email");
		const idp = await this.idp();
		// Never linked by email: registration does not prove ownership of an address, so an
		// account registered under someone's email before they first sign in socially would
		// otherwise become theirs with the registrant's password still working on it.
		if (await idp.findUserByEmail(profile.email)) {
			throw new SocialFailure("ACCOUNT_EXISTS", "an account with this email exists; it is not linked by email");
		}
		const { email, firstName, lastName } = profile;
		const user = await idp.createFederatedUser({ email, firstName, lastName });
		let actorCreated = false;
		const undo = async () => {
			if (actorCreated) await actors.remove(user.sub);
			await idp.deleteUser(user.username);
		};
		try {
			await actors.register({ actorId: user.sub, email, firstName, lastName });
			actorCreated = true;
			const link = await this.link(user, signIn);
			return {
				user,
				undo: async () => {
					await this.unlink(link);
					await undo();
				}
			};
		} catch (err) {
			await undo().catch(undoErr => this.onUndoFailure(undoErr, user));
			throw err;
		}
	}

	private seal(link: Pick<SocialIdentity, "provider" | "subject" | "userSub">, refreshToken: string): string {
		return this.box.seal(refreshToken, refreshTokenAad(link));
	}

	private async link(user: CreatedUser, signIn: ProviderSignIn): Promise<SocialIdentity> {
		const now = new Date(this.now()).toISOString();
		const key = { provider: this.provider, subject: signIn.profile.subject, userSub: user.sub };
		return this.links().insert({
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

	private async unlink(link: SocialIdentity): Promise<void> {
		await this.links().deleteMany({ id: link.id });
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
