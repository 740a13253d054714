/**
 * The account lifecycle on top of either identity provider: email verification,
 * password reset and change, sign-out. The platform issues and checks its own
 * single-use tokens (lifecycle-tokens.ts) and mails them through its own queue
 * (lifecycle-mail.ts); the provider only applies the outcome.
 */
import { decodeJwt } from "jose";
import type { AccountConfig } from "../config";
import { ClientError } from "../errors";
import type { CreatedUser, IdentityProvider, TokenSet, UserProfile } from "../idp/types";
import type { NotificationIntake } from "../notifications";
import type { RateLimiter } from "../rate-limit";
import type { Store } from "../store";
import type { AuditLog, RequestOrigin } from "../audit";
import { endEverySession, endSessionOf } from "./end-sessions";
import { queueLifecycleMail } from "./lifecycle-mail";
import { AccountLocks } from "./locks";
import type { LoginGuard } from "./login-guard";
import { LifecycleTokens, NOT_ME_PURPOSE, type LifecyclePurpose } from "./lifecycle-tokens";

export interface LifecycleDeps {
	store: () => Store;
	idp: () => Promise<IdentityProvider>;
	intake: () => NotificationIntake;
	limiter: () => RateLimiter;
	config: AccountConfig;
	audit: AuditLog;
	guard: LoginGuard;
	log: { warn(message: string, fields?: Record<string, unknown>): void };
	/** After an address is verified (a verification or reset link was used): the account's emailDeliverable clears (deliverability.ts). */
	verified?: (sub: string) => Promise<void>;
}

/** The caller of a user route, as the verified access token names it. */
export interface Caller {
	sub: string;
	username: string;
	/** The session (embedded provider's `sid` claim), when the token carries one. */
	sid?: string;
}

export const invalidVerificationToken = () =>
	new ClientError(401, "INVALID_VERIFICATION_TOKEN", "The verification link is invalid, expired or already used.");
export const invalidSecurityToken = () => new ClientError(401, "INVALID_SECURITY_TOKEN", "The link is invalid, expired or already used.");
export const invalidResetToken = () => new ClientError(401, "INVALID_RESET_TOKEN", "The reset link is invalid, expired or already used.");
const emailNotVerified = () => new ClientError(403, "EMAIL_NOT_VERIFIED", "Verify your email address before signing in.");
/** What a locked account's sign-in gets: the wrong password's answer, so a lock tells nobody the account exists. */
export const invalidCredentials = () => new ClientError(401, "INVALID_CREDENTIALS", "The username or password is incorrect.");
/** What a locked account's refresh gets: a revoked token's answer. */
export const invalidRefresh = () => new ClientError(401, "INVALID_REFRESH_TOKEN", "The refresh token is invalid or expired.");

/** How long after the answer a forgot request's work begins. */
const FORGOT_DEFER_MS = 20;

function subjectOf(idToken: string): string | undefined {
	try {
		const sub = decodeJwt(idToken).sub;
		return typeof sub === "string" ? sub : undefined;
	} catch {
		return undefined;
	}
}

function verifiedClaim(idToken: string): boolean {
	try {
		const v = decodeJwt(idToken).email_verified;
		return v === true || v === "true";
	} catch {
		return false;
	}
}

export class AccountLifecycle {
	private readonly background = new Set<Promise<void>>();

	constructor(private readonly deps: LifecycleDeps) {}

	private tokens(): LifecycleTokens {
		return new LifecycleTokens(this.deps.store());
	}

	private async mail(purpose: LifecyclePurpose, profile: UserProfile): Promise<void> {
		await queueLifecycleMail(
			{ store: this.deps.store(), intake: this.deps.intake(), warn: (m, f) => this.deps.log.warn(m, f) },
			{ purpose, sub: profile.sub, username: profile.username, email: profile.email },
			{ firstName: profile.firstName, lastName: profile.lastName }
		);
	}

	/**
	 * A token set of a locked account (lib/accounts/locks.ts) is withdrawn and refused
	 * with `refused` (the answer a wrong password or a revoked token gets); with
	 * REQUIRE_VERIFIED_EMAIL, so is one of an unverified user.
	 */
	async admit(tokens: TokenSet, refused: () => ClientError = invalidCredentials): Promise<TokenSet> {
		await this.refuseLocked(tokens, refused);
		if (!this.deps.config.requireVerifiedEmail || verifiedClaim(tokens.idToken)) return tokens;
		await (await this.deps.idp()).revokeSession(tokens.refreshToken).catch(() => undefined);
		throw emailNotVerified();
	}

	/** A token set of a locked account (lib/accounts/locks.ts) is withdrawn and refused with `refused`. */
	async refuseLocked(tokens: TokenSet, refused: () => ClientError): Promise<TokenSet> {
		const sub = subjectOf(tokens.idToken);
		if (sub === undefined || !(await new AccountLocks(this.deps.store).get(sub))) return tokens;
		await (await this.deps.idp()).revokeSession(tokens.refreshToken).catch(() => undefined);
		throw refused();
	}

	/**
	 * Before a second factor is asked for: a locked account is refused as a wrong
	 * password would be, so an attacker holding the password learns nothing from MFA_REQUIRED.
	 */
	async refuseLockedSubject(sub: string, refused: () => ClientError = invalidCredentials): Promise<void> {
		if (await new AccountLocks(this.deps.store).get(sub)) throw refused();
	}

	/** After registration: a failure is logged, the account stands (the user can ask again). */
	async afterRegistration(user: CreatedUser): Promise<void> {
		try {
			const profile = await (await this.deps.idp()).getProfile(user.username);
			if (profile && !profile.emailVerified) await this.mail("verify-email", profile);
		} catch (err) {
			this.deps.log.warn("The verification mail of a new account could not be queued", { error: (err as Error).message });
		}
	}

	async requestVerification(caller: Caller): Promise<void> {
		const profile = await (await this.deps.idp()).getProfile(caller.username);
		if (!profile) throw new ClientError(401, "UNAUTHORIZED", "The user no longer exists.");
		if (profile.emailVerified) throw new ClientError(409, "EMAIL_ALREADY_VERIFIED", "The email address is verified already.");
		await this.deps.limiter().hitUser("verification", profile.email);
		await this.mail("verify-email", profile);
	}

	async verifyEmail(token: string, origin: RequestOrigin = {}): Promise<{ emailVerified: true }> {
		const rec = await this.tokens().redeem("verify-email", token);
		if (!rec) throw invalidVerificationToken();
		const idp = await this.deps.idp();
		const profile = await idp.getProfile(rec.username);
		// The link proves the address it was mailed to, and only for the user it was for.
		if (!profile || profile.sub !== rec.sub || profile.email !== rec.email) throw invalidVerificationToken();
		await idp.markEmailVerified(rec.username);
		await this.deps.audit.record("auth.email_verified", rec.sub, origin);
		await this.deps.verified?.(rec.sub);
		return { emailVerified: true };
	}

	/**
	 * Answers at once, the same for every address: the lookup and the mail happen
	 * after the answer, so neither the answer nor its timing says whether the account
	 * exists. The rate limits were counted by the gateway before this.
	 */
	forgot(email: string): void {
		// Started once the answer is on its way: run at once, its first steps would share
		// the event loop with the answer's, and only for known addresses would more follow.
		const job = new Promise(resolve => setTimeout(resolve, FORGOT_DEFER_MS))
			.then(async () => {
				const profile = await (await this.deps.idp()).findProfileByEmail(email);
				if (profile) await this.mail("reset-password", profile);
			})
			.catch(err => this.deps.log.warn("A password reset mail could not be queued", { error: (err as Error).message }))
			.finally(() => this.background.delete(job));
		this.background.add(job);
	}

	/**
	 * The token is spent first, so of parallel resets exactly one sets a password; a
	 * password the policy refuses gives the token back (only to the request that spent it).
	 */
	async reset(token: string, password: string, origin: RequestOrigin = {}): Promise<void> {
		const tokens = this.tokens();
		const rec = await tokens.redeem("reset-password", token);
		if (!rec) throw invalidResetToken();
		const idp = await this.deps.idp();
		const profile = await idp.getProfile(rec.username);
		if (!profile || profile.sub !== rec.sub) throw invalidResetToken();
		try {
			await idp.setPassword(rec.username, password);
		} catch (err) {
			if ((err as ClientError).type === "INVALID_PASSWORD" || (err as ClientError).type === "VALIDATION_ERROR") await tokens.giveBack(rec);
			throw err;
		}
		await endEverySession(idp, { sub: rec.sub, username: rec.username });
		await tokens.spendAll("reset-password", rec.sub);
		// The unlock path of a lockout and of a "not me" block.
		await this.deps.guard.reset(rec.sub);
		// The reset link reached the mailbox: the address is the user's.
		if (!profile.emailVerified && profile.email === rec.email) {
			await idp.markEmailVerified(rec.username);
			await this.deps.audit.record("auth.email_verified", rec.sub, origin, { by: "password-reset" });
		}
		await this.deps.audit.record("auth.password_reset", rec.sub, origin);
	}

	/**
	 * A security alert's "not me" link: every session ends, password sign-in is refused
	 * until a reset. The token is spent first, so it works once.
	 */
	async notMe(token: string, origin: RequestOrigin = {}): Promise<void> {
		const rec = await this.tokens().redeem(NOT_ME_PURPOSE, token);
		if (!rec) throw invalidSecurityToken();
		const idp = await this.deps.idp();
		await this.deps.guard.blockUntilReset(rec.sub);
		// The token names the alert's address (an email change: the old one); the provider's user is found by the current one.
		const actor = await this.deps.store().collection<{ id: string; email: string }>("actors").get(rec.sub);
		const user = actor ? await idp.findUserByEmail(actor.email) : null;
		await endEverySession(idp, user && user.sub === rec.sub ? user : { sub: rec.sub, username: rec.username });
		await this.deps.audit.record("auth.not_me", rec.sub, origin, { notificationId: rec.notificationId ?? "" });
	}

	async change(caller: Caller, currentPassword: string, newPassword: string, origin: RequestOrigin = {}): Promise<void> {
		const idp = await this.deps.idp();
		const profile = await idp.getProfile(caller.username);
		if (!profile) throw new ClientError(401, "UNAUTHORIZED", "The user no longer exists.");
		// Counted as a sign-in: the current password must not be guessable here either.
		await this.deps.limiter().hitUser("login", profile.email);
		await idp.verifyPassword(profile.email, currentPassword);
		await idp.setPassword(caller.username, newPassword);
		await endEverySession(idp, { sub: caller.sub, username: caller.username }, caller.sid);
		await this.deps.audit.record("auth.password_changed", caller.sub, { ...origin, sessionId: caller.sid });
	}

	async logout(refreshToken: string, origin: RequestOrigin = {}): Promise<void> {
		const idp = await this.deps.idp();
		const owner = await endSessionOf(idp, refreshToken);
		if (owner) await this.deps.audit.record("auth.signed_out", owner.sub, { ...origin, sessionId: owner.sid });
	}

	async logoutAll(caller: Caller, origin: RequestOrigin = {}): Promise<void> {
		await endEverySession(await this.deps.idp(), { sub: caller.sub, username: caller.username });
		await this.deps.audit.record("auth.signed_out", caller.sub, { ...origin, sessionId: caller.sid }, { scope: "all" });
	}

	/** For the orderly stop: the mails of answered forgot requests are queued before the store closes. */
	async settle(): Promise<void> {
		await Promise.allSettled([...this.background]);
	}
}
