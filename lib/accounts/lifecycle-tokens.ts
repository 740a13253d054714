/**
 * The platform's own single-use tokens for the account lifecycle (email verification,
 * password reset), with either identity provider. A token is 32 random bytes,
 * base64url; only its SHA-256 is stored. Redeeming claims the record in one atomic
 * update (`usedAt: null` → now), so of any number of parallel redemptions exactly one
 * wins; the expiry is checked after the claim, so an expired token is spent too.
 *
 * Tokens are minted when the mail is sent, not when it is requested (see
 * lifecycle-mail.ts): the raw token exists only in the dispatcher's memory and in the
 * mail, never in the notification's stored variables.
 */
import { randomToken, sha256 } from "../crypto";
import type { Store } from "../store";

/** `change-email`: the link mailed to a new address (lib/accounts/email-change.ts); the address changes when it is used. */
export const LIFECYCLE_PURPOSES = ["verify-email", "reset-password", "change-email"] as const;
export type LifecyclePurpose = (typeof LIFECYCLE_PURPOSES)[number];
/** The security alerts' "not me" links (lib/accounts/security-alerts.ts) are tokens of the same kind, 7 days. */
export const NOT_ME_PURPOSE = "not-me";
export type TokenPurpose = LifecyclePurpose | typeof NOT_ME_PURPOSE;

/** Who a token is for: enough to act on the identity provider without another lookup. */
export interface LifecycleSubject {
	sub: string;
	/** The provider's username (Cognito: the internal one). */
	username: string;
	email: string;
}

export interface LifecycleTokenDoc extends LifecycleSubject {
	/** SHA-256 of the token, base64url. */
	id: string;
	purpose: TokenPurpose;
	notificationId?: string;
	createdAt: string;
	expiresAt: string;
	usedAt: string | null;
}

/** 32 bytes in base64url, unpadded: anything else is refused before the store is asked. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export class LifecycleTokens {
	private readonly coll;

	constructor(store: Store, private readonly now: () => number = Date.now) {
		this.coll = store.collection<LifecycleTokenDoc>("lifecycle_tokens");
	}

	/** A new token for `subject`, valid for `ttlSec`; only its hash is kept. */
	async mint(purpose: TokenPurpose, subject: LifecycleSubject, ttlSec: number, notificationId?: string): Promise<string> {
		const token = randomToken(32);
		const now = this.now();
		await this.coll.insert({
			id: sha256(token),
			purpose,
			sub: subject.sub,
			username: subject.username,
			email: subject.email,
			...(notificationId ? { notificationId } : {}),
			createdAt: new Date(now).toISOString(),
			expiresAt: new Date(now + ttlSec * 1000).toISOString(),
			usedAt: null
		});
		return token;
	}

	/**
	 * Spends the token: its record when this call won the claim and it had not
	 * expired; null for an unknown, used, expired or other-purpose token (one answer
	 * for all, so a caller learns nothing about which).
	 */
	async redeem(purpose: TokenPurpose, token: string): Promise<LifecycleTokenDoc | null> {
		if (typeof token !== "string" || !TOKEN_SHAPE.test(token)) return null;
		const at = new Date(this.now()).toISOString();
		const claimed = await this.coll.findOneAndUpdate({ id: sha256(token), purpose, usedAt: null }, { $set: { usedAt: at } });
		if (!claimed || claimed.expiresAt <= at) return null;
		return claimed;
	}

	/** Makes a token spent by `redeem` usable again (the action it was spent on was refused); only that spend is undone. */
	async giveBack(rec: LifecycleTokenDoc): Promise<void> {
		if (rec.usedAt) await this.coll.updateMany({ id: rec.id, usedAt: rec.usedAt }, { $set: { usedAt: null } });
	}

	/** Spends every outstanding token of this purpose for the user (a reset makes the other reset links worthless). */
	async spendAll(purpose: TokenPurpose, sub: string): Promise<void> {
		await this.coll.updateMany({ sub, purpose, usedAt: null }, { $set: { usedAt: new Date(this.now()).toISOString() } });
	}
}
