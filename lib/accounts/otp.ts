/**
 * One-time codes and magic links (POST /auth/otp…): a passwordless first factor of the
 * embedded provider. A challenge is kept under a random id with its tries and resends;
 * the code goes out as a CRITICAL notification of the platform's own queue, whose
 * record names only the challenge (lifecycle ref, purpose `otp`): the code and the
 * magic link's token are minted by the dispatcher at each send (registerAccountMail
 * asks mintAtSendTime), so neither the record, its variables nor a log line holds
 * them. Codes and tokens are kept only as SHA-256 (otp_codes); a resend deletes the
 * old ones. The challenge's status is read from its notification's.
 *
 * Unknown addresses get a challenge too (202 with a challengeId) that nothing is sent
 * for and no code opens, so the answer does not tell whether an account exists.
 */
import { randomInt, randomUUID } from "node:crypto";
import type { AuditLog, RequestOrigin } from "../audit";
import { randomToken, sha256 } from "../crypto";
import { ClientError, notFound } from "../errors";
import type { CreatedUser, IdentityProvider, TokenSet, UserProfile } from "../idp/types";
import type { NotificationIntake, SendTimeRef } from "../notifications";
import type { Collection, Store } from "../store";

export const OTP_TTL_SEC = 600;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_MAX_RESENDS = 3;
export const OTP_RESEND_WINDOW_SEC = 600;
export const OTP_PURPOSE = "otp";

export const OTP_TEMPLATE_NAME = "auth.one-time-code";
export const OTP_TEMPLATE = {
	subject: "Your sign-in code: {{code}}",
	text:
		"Your sign-in code is {{code}}. It is valid for 10 minutes.\n\nOr open this link to sign in:\n\n{{link}}\n\n" +
		"If you did not ask for it, you can ignore this message.\n",
	html:
		"<p>Your sign-in code is <strong>{{code}}</strong>. It is valid for 10 minutes.</p>" +
		'<p><a href="{{link}}">Sign in</a></p><p>If you did not ask for it, you can ignore this message.</p>'
};
/** By SMS: the code alone (a magic link would cost a second segment and invite phishing look-alikes). */
export const OTP_SMS_TEMPLATE = { text: "Your sign-in code is {{code}}. It is valid for 10 minutes. Do not share it." };
/** A second factor's code, by SMS or (as the fallback) by mail: no magic link, it is not a first factor. */
export const MFA_CODE_TEMPLATE = {
	subject: "Your verification code: {{code}}",
	text: "Your verification code is {{code}}. It is valid for 10 minutes. Do not share it.\n"
};
export const PHONE_TEMPLATE = { text: "Your code to confirm this phone number is {{code}}. It is valid for 10 minutes." };

export type OtpStatus = "PENDING" | "SENT" | "DELIVERED" | "FAILED" | "VERIFIED" | "EXPIRED";
export type OtpChannel = "email" | "sms";
/** What a challenge's code proves: a sign-in (default), a phone number being set, or a second factor. */
export type OtpPurpose = "signin" | "phone" | "mfa";

export interface OtpChallenge {
	id: string;
	purpose?: OtpPurpose;
	/** Absent for an unknown address: nothing is sent, no code opens it (unless OTP_SIGNUP). */
	userSub?: string;
	username?: string;
	channel: OtpChannel;
	/** Where the code went: the phone number being set (purpose phone), else the account's address. */
	to?: string;
	/** OTP_SIGNUP: the unknown address whose verified code creates the account. */
	signupEmail?: string;
	/** purpose mfa: the mfaToken record the code belongs to. */
	mfaTokenId?: string;
	notificationId?: string;
	fallbackChannel?: OtpChannel | null;
	fallbackNotificationId?: string;
	/** When the code, unless SENT by then, goes out on the other channel too (null: no fallback due). */
	fallbackDueAt?: string | null;
	attempts: number;
	/** Send times (ISO) within the resend window, the first one included. */
	sends: string[];
	/** Sends so far; a resend claims the challenge by it. */
	sendCount: number;
	expiresAt: string;
	verifiedAt: string | null;
	createdAt: string;
}

interface OtpCode {
	/** SHA-256 of the challenge and the code, or of the magic-link token. */
	id: string;
	challengeId: string;
	notificationId: string;
	expiresAt: string;
}

export interface OtpView {
	status: OtpStatus;
	channel: OtpChannel;
	fallbackChannel?: OtpChannel;
	resendAvailableAt: string;
}

export interface OtpDeps {
	store: () => Store;
	idp: () => Promise<IdentityProvider>;
	intake: () => NotificationIntake;
	audit?: AuditLog;
	/** OTP_FALLBACK_AFTER_SECONDS (default 20). */
	fallbackAfterSec?: number;
	/** OTP_SIGNUP: an unknown email address gets a code, and its verification creates the account. */
	signup?: boolean;
	now?: () => number;
}

/** What a verified sign-in code stands for: a user, or (OTP_SIGNUP) an address to create the account of. */
export type VerifiedOtp = { user: CreatedUser; channel: OtpChannel } | { signupEmail: string; channel: OtpChannel };

export const invalidOtp = () => new ClientError(401, "INVALID_OTP", "The code is not valid, or the challenge is expired or out of tries.");
const notSupported = () =>
	new ClientError(501, "NOT_SUPPORTED_BY_PROVIDER", "One-time codes need the embedded identity provider (IDP_PROVIDER=embedded).");
const noPendingPhone = () => invalidOtp();

const codeId = (challengeId: string, code: string) => sha256(`otp:${challengeId}:${code.trim()}`);
const tokenId = (token: string) => sha256(`otp-link:${token}`);

/** Notification statuses after which the code cannot arrive: the fallback goes out at once. */
const UNDELIVERABLE = new Set(["FAILED", "BOUNCED", "SUPPRESSED", "COMPLAINT", "UNSUBSCRIBED", "CANCELLED"]);
/** Statuses by which the code has left: no fallback for slowness then. */
const ON_ITS_WAY = new Set(["SENT", "DELIVERED"]);

/** The status a challenge shows for its notification's. */
export function statusOf(n: string | undefined): OtpStatus {
	switch (n) {
		case "SENT":
			return "SENT";
		case "DELIVERED":
			return "DELIVERED";
		case "FAILED":
		case "BOUNCED":
		case "SUPPRESSED":
		case "COMPLAINT":
		case "UNSUBSCRIBED":
		case "CANCELLED":
			return "FAILED";
		default:
			return "PENDING";
	}
}

/** The address of a verified channel of the account, or null. */
function addressOn(profile: UserProfile, channel: OtpChannel): string | null {
	if (channel === "sms") return profile.phone && profile.phoneVerified ? profile.phone : null;
	return profile.emailVerified ? profile.email : null;
}

export class OneTimeCodes {
	private readonly now: () => number;

	constructor(private readonly deps: OtpDeps) {
		this.now = deps.now ?? Date.now;
	}

	private challenges(): Collection<OtpChallenge> {
		return this.deps.store().collection<OtpChallenge>("otp_challenges");
	}

	private codes(): Collection<OtpCode> {
		return this.deps.store().collection<OtpCode>("otp_codes");
	}

	private iso(offsetSec = 0): string {
		return new Date(this.now() + offsetSec * 1000).toISOString();
	}

	private get fallbackAfterSec(): number {
		return this.deps.fallbackAfterSec ?? 20;
	}

	private async embedded(): Promise<IdentityProvider> {
		const idp = await this.deps.idp();
		if (idp.kind !== "embedded") throw notSupported();
		return idp;
	}

	private newChallenge(purpose: OtpPurpose, channel: OtpChannel): OtpChallenge {
		const now = this.iso();
		return {
			id: randomUUID(),
			purpose,
			channel,
			fallbackChannel: null,
			fallbackDueAt: null,
			attempts: 0,
			sends: [now],
			sendCount: 1,
			expiresAt: this.iso(OTP_TTL_SEC),
			verifiedAt: null,
			createdAt: now
		};
	}

	/**
	 * A sign-in challenge for an email address or a phone number: the code goes out when
	 * an account has it (a phone number only once verified). `channel: "sms"` with an
	 * email sends to the account's verified phone, else by mail.
	 */
	async start(input: { email?: string; phone?: string; channel?: OtpChannel }): Promise<{ challengeId: string }> {
		const idp = await this.embedded();
		const byPhone = input.phone !== undefined;
		let profile = byPhone ? await idp.findProfileByPhone(input.phone!) : await idp.findProfileByEmail(input.email ?? "");
		if (profile && byPhone && !profile.phoneVerified) profile = null;
		const wanted: OtpChannel = byPhone || input.channel === "sms" ? "sms" : "email";
		const channel: OtpChannel = profile && wanted === "sms" && !addressOn(profile, "sms") ? "email" : wanted;
		const challenge = this.newChallenge("signin", channel);
		if (profile) {
			challenge.userSub = profile.sub;
			challenge.username = profile.username;
			challenge.to = channel === "sms" ? profile.phone : profile.email;
		} else if (this.deps.signup && !byPhone && input.email) {
			challenge.signupEmail = input.email;
			challenge.to = input.email;
		}
		await this.challenges().insert(challenge);
		if (challenge.to) await this.send(challenge, channel, challenge.to);
		return { challengeId: challenge.id };
	}

	/** PUT /auth/phone: a code by SMS to the new number; the number is the account's once the code comes back. */
	async startPhone(user: CreatedUser, phone: string): Promise<{ challengeId: string }> {
		// One pending number at a time: a new one replaces it.
		await this.challenges().deleteMany({ purpose: "phone", userSub: user.sub, verifiedAt: null });
		const challenge = { ...this.newChallenge("phone", "sms"), userSub: user.sub, username: user.username, to: phone };
		await this.challenges().insert(challenge);
		await this.send(challenge, "sms", phone);
		return { challengeId: challenge.id };
	}

	/** POST /auth/phone/verify: the pending number becomes the account's, verified. */
	async verifyPhone(user: CreatedUser, code: string, origin: RequestOrigin): Promise<{ phoneVerified: true }> {
		const [pending] = await this.challenges().find({ purpose: "phone", userSub: user.sub, verifiedAt: null }, { sort: { createdAt: -1 }, limit: 1 });
		if (!pending || !pending.to) throw noPendingPhone();
		const c = await this.spend(pending.id, codeId(pending.id, code));
		const idp = await this.deps.idp();
		await idp.setVerifiedPhone(user.username, c.to!);
		await this.deps.audit?.record("auth.phone_verified", user.sub, origin);
		return { phoneVerified: true };
	}

	/** POST /auth/mfa/challenge type sms: a code to the account's verified phone, for this mfaToken. */
	async startMfa(user: CreatedUser, mfaTokenId: string): Promise<boolean> {
		const profile = await (await this.deps.idp()).getProfile(user.username);
		const phone = profile ? addressOn(profile, "sms") : null;
		if (!phone) return false;
		await this.challenges().deleteMany({ purpose: "mfa", mfaTokenId });
		const challenge = { ...this.newChallenge("mfa", "sms"), userSub: user.sub, username: user.username, to: phone, mfaTokenId };
		await this.challenges().insert(challenge);
		await this.send(challenge, "sms", phone);
		return true;
	}

	/** POST /auth/mfa/verify type sms: whether the code is the one sent for this mfaToken (spent if so). */
	async verifyMfa(mfaTokenId: string, code: string): Promise<boolean> {
		const [c] = await this.challenges().find({ purpose: "mfa", mfaTokenId, verifiedAt: null }, { limit: 1 });
		if (!c) return false;
		try {
			await this.spend(c.id, codeId(c.id, code));
			return true;
		} catch (err) {
			if ((err as ClientError).type === "INVALID_OTP") return false;
			throw err;
		}
	}

	private template(purpose: OtpPurpose, channel: OtpChannel) {
		if (purpose === "phone") return PHONE_TEMPLATE;
		if (purpose === "mfa") return MFA_CODE_TEMPLATE;
		return channel === "sms" ? OTP_SMS_TEMPLATE : OTP_TEMPLATE;
	}

	/** Queues the code's notification (CRITICAL, category security); the code itself is minted at send time. */
	private async queue(challenge: OtpChallenge, channel: OtpChannel, to: string, fallback = false): Promise<string> {
		const lifecycle: SendTimeRef = {
			purpose: OTP_PURPOSE,
			sub: challenge.userSub ?? "",
			username: challenge.username ?? "",
			email: to,
			challengeId: challenge.id,
			send: challenge.sendCount,
			...(fallback ? { fallback: true as const } : {})
		};
		const { notificationId } = await this.deps.intake().accept(
			{
				channel: channel === "sms" ? "SMS" : "EMAIL",
				to,
				priority: "CRITICAL",
				template: this.template(challenge.purpose ?? "signin", channel),
				variables: {},
				metadata: { category: "security", purpose: OTP_PURPOSE },
				lifecycle
			},
			{ kind: "service", id: "auth" }
		);
		return notificationId;
	}

	private async send(challenge: OtpChallenge, channel: OtpChannel, to: string): Promise<void> {
		const notificationId = await this.queue(challenge, channel, to);
		// A fallback is due only where another verified channel may exist (a known account, not a phone being set).
		const fallbackDueAt = challenge.userSub && challenge.purpose !== "phone" ? this.iso(this.fallbackAfterSec) : null;
		await this.challenges().updateMany({ id: challenge.id }, { $set: { notificationId, fallbackDueAt, fallbackChannel: null }, $unset: ["fallbackNotificationId"] });
	}

	/**
	 * At each send of a challenge's notification (the dispatcher asks): a fresh code and
	 * magic-link token, kept as hashes; none for a notification a resend replaced. The
	 * fallback's notification gets its own code: both open the challenge, within its tries.
	 */
	async mintAtSendTime(challengeId: string, notificationId: string, channel?: string, ref?: Pick<SendTimeRef, "send" | "fallback">): Promise<{ code: string; token: string } | null> {
		const challenge = await this.challenges().get(challengeId);
		if (!challenge || challenge.verifiedAt || !this.isCurrent(challenge, notificationId, channel, ref)) return null;
		const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
		const token = randomToken();
		const base = { challengeId, notificationId, expiresAt: challenge.expiresAt };
		await this.codes().insert({ id: codeId(challengeId, code), ...base });
		// Only a sign-in's mail carries a magic link.
		if ((challenge.purpose ?? "signin") === "signin") await this.codes().insert({ id: tokenId(token), ...base });
		return { code, token };
	}

	/**
	 * Whether the notification carries the challenge's current code. The dispatcher may
	 * send it before queue()'s caller has recorded its id (a CRITICAL notification is
	 * claimed at once), so the send number it was queued with decides: the challenge's
	 * sendCount, which a resend raises, and for a fallback the channel it went to.
	 * Notifications queued without one (before the field existed) are judged by their id.
	 */
	private isCurrent(c: OtpChallenge, notificationId: string, channel?: string, ref?: Pick<SendTimeRef, "send" | "fallback">): boolean {
		const fallbackChannel = c.fallbackChannel === "sms" ? "SMS" : c.fallbackChannel === "email" ? "EMAIL" : null;
		if (ref?.send !== undefined) return ref.send === c.sendCount && (!ref.fallback || channel === fallbackChannel);
		const fallbackPending = !c.fallbackNotificationId && fallbackChannel !== null && channel === fallbackChannel;
		return c.notificationId === notificationId || c.fallbackNotificationId === notificationId || fallbackPending;
	}

	async status(challengeId: string): Promise<OtpView> {
		let c = await this.challenges().get(challengeId);
		if (!c || (c.purpose ?? "signin") !== "signin") throw notFound("NOT_FOUND", "No such challenge.");
		c = (await this.fallBackIfDue(c)) ?? c;
		return this.view(c);
	}

	private notificationStatus(id: string | undefined): Promise<string | undefined> {
		if (!id) return Promise.resolve(undefined);
		return this.deps
			.store()
			.collection<{ id: string; status: string }>("notifications")
			.get(id)
			.then(n => n?.status);
	}

	private async view(c: OtpChallenge): Promise<OtpView> {
		let status: OtpStatus;
		if (c.verifiedAt) status = "VERIFIED";
		else if (c.expiresAt <= this.iso() || c.attempts >= OTP_MAX_ATTEMPTS) status = "EXPIRED";
		else if (!c.notificationId) status = "SENT"; // an unknown address looks like a sent one
		else {
			status = statusOf(await this.notificationStatus(c.notificationId));
			// With a fallback, the challenge shows the better of its two notifications.
			if (c.fallbackNotificationId) {
				const other = statusOf(await this.notificationStatus(c.fallbackNotificationId));
				const rank: OtpStatus[] = ["FAILED", "PENDING", "SENT", "DELIVERED"];
				if (rank.indexOf(other) > rank.indexOf(status)) status = other;
			}
		}
		return { status, channel: c.channel, ...(c.fallbackChannel ? { fallbackChannel: c.fallbackChannel } : {}), resendAvailableAt: this.resendAt(c) };
	}

	/**
	 * The fallback (OTP_FALLBACK_AFTER_SECONDS): when the code's notification failed, or
	 * is not SENT by `fallbackDueAt`, and the account has another verified channel, the
	 * code also goes out there. Kept in the store, so any node decides it: on a status
	 * read, on a notification's status event, and on the auth service's periodic scan
	 * (fallBackDue). The challenge is claimed by clearing `fallbackDueAt`, so it happens
	 * once. Answers the challenge as updated, or null when nothing was done.
	 */
	async fallBackIfDue(c: OtpChallenge): Promise<OtpChallenge | null> {
		if (!c.fallbackDueAt || c.verifiedAt || !c.userSub || !c.username || c.expiresAt <= this.iso() || c.attempts >= OTP_MAX_ATTEMPTS) return null;
		const n = await this.notificationStatus(c.notificationId);
		const failed = n !== undefined && UNDELIVERABLE.has(n);
		const late = c.fallbackDueAt <= this.iso() && !(n !== undefined && ON_ITS_WAY.has(n));
		if (!failed && !late) return null;
		const claimed = await this.challenges().findOneAndUpdate({ id: c.id, fallbackDueAt: c.fallbackDueAt, sendCount: c.sendCount }, { $set: { fallbackDueAt: null } });
		if (!claimed) return null;
		const profile = await (await this.deps.idp()).getProfile(c.username);
		const other: OtpChannel = c.channel === "sms" ? "email" : "sms";
		const to = profile ? addressOn(profile, other) : null;
		if (!to) {
			// Nothing to fall back to now; a late success still counts, a late failure shows FAILED.
			if (!failed) await this.challenges().updateMany({ id: c.id, sendCount: c.sendCount }, { $set: { fallbackDueAt: this.iso(OTP_TTL_SEC) } });
			return null;
		}
		// The channel is set before the queueing, so the dispatcher's mint finds it.
		const fallbackNotificationId = await this.queueFallback(claimed, other, to);
		return { ...claimed, fallbackChannel: other, fallbackNotificationId, fallbackDueAt: null };
	}

	private async queueFallback(c: OtpChallenge, channel: OtpChannel, to: string): Promise<string> {
		await this.challenges().updateMany({ id: c.id }, { $set: { fallbackChannel: channel } });
		const notificationId = await this.queue(c, channel, to, true);
		await this.challenges().updateMany({ id: c.id, fallbackChannel: channel }, { $set: { fallbackNotificationId: notificationId } });
		return notificationId;
	}

	/** A notification's status event (any node hears it): a code that cannot arrive falls back at once. */
	async onNotificationStatus(notificationId: string, status: string): Promise<void> {
		if (!UNDELIVERABLE.has(status)) return;
		const [c] = await this.challenges().find({ notificationId }, { limit: 1 });
		if (c) await this.fallBackIfDue(c);
	}

	/** The periodic scan: challenges whose fallback time has come (or whose code failed) on any node. */
	async fallBackDue(): Promise<number> {
		const due = await this.challenges().find({ fallbackDueAt: { $lte: this.iso() }, verifiedAt: null }, { limit: 100 });
		let done = 0;
		for (const c of due) if (await this.fallBackIfDue(c)) done++;
		return done;
	}

	private recentSends(c: OtpChallenge): string[] {
		const since = this.iso(-OTP_RESEND_WINDOW_SEC);
		return c.sends.filter(s => s > since);
	}

	private resendAt(c: OtpChallenge): string {
		const recent = this.recentSends(c);
		// The first send counts: three resends after it within the window.
		const windowed = recent.length > OTP_MAX_RESENDS ? new Date(recent[0]).getTime() + OTP_RESEND_WINDOW_SEC * 1000 : 0;
		return new Date(Math.max(windowed, this.now())).toISOString();
	}

	/** A new code replaces the old: at most three resends in ten minutes (429 after). `channel` picks another verified channel. */
	async resend(challengeId: string, channel?: OtpChannel): Promise<void> {
		const idp = await this.embedded();
		const c = await this.challenges().get(challengeId);
		if (!c || (c.purpose ?? "signin") !== "signin" || c.verifiedAt || c.expiresAt <= this.iso() || c.attempts >= OTP_MAX_ATTEMPTS) throw notFound("NOT_FOUND", "No such challenge, or it is over.");
		const at = this.resendAt(c);
		if (at > this.iso()) {
			const retryAfter = Math.max(1, Math.ceil((new Date(at).getTime() - this.now()) / 1000));
			throw new ClientError(429, "RATE_LIMITED", "Too many codes for this challenge: wait before asking again.", { retryAfter });
		}
		const sends = [...this.recentSends(c), this.iso()];
		// Two resends at once: only the one that finds the send list unchanged goes on.
		const claimed = await this.challenges().findOneAndUpdate({ id: c.id, sendCount: c.sendCount }, { $set: { sends, expiresAt: this.iso(OTP_TTL_SEC) }, $inc: { sendCount: 1 } });
		if (!claimed) throw new ClientError(429, "RATE_LIMITED", "Another code for this challenge is on its way.", { retryAfter: 1 });
		await this.codes().deleteMany({ challengeId: c.id });
		if (c.signupEmail) return this.send(claimed, "email", c.signupEmail);
		if (!c.userSub) return;
		const profile = await idp.getProfile(c.username ?? "");
		if (!profile) return;
		// The channel asked for when the account has it verified, else the challenge's own.
		const via = channel && addressOn(profile, channel) ? channel : c.channel;
		const to = via === "sms" ? addressOn(profile, "sms") : profile.email;
		if (!to) return;
		if (via !== c.channel) await this.challenges().updateMany({ id: c.id }, { $set: { channel: via } });
		await this.send({ ...claimed, channel: via }, via, to);
	}

	/**
	 * Takes a try of the challenge and spends the code's hash: the challenge as verified,
	 * or INVALID_OTP. Each guess takes a try first, so parallel guesses cannot pass five.
	 */
	private async spend(challengeId: string, hash: string): Promise<OtpChallenge> {
		const now = this.iso();
		const c = await this.challenges().findOneAndUpdate(
			{ id: challengeId, verifiedAt: null, expiresAt: { $gt: now }, attempts: { $lt: OTP_MAX_ATTEMPTS } },
			{ $inc: { attempts: 1 } }
		);
		if (!c || (!c.userSub && !c.signupEmail)) throw invalidOtp();
		const rec = await this.codes().get(hash);
		if (!rec || rec.challengeId !== c.id || rec.expiresAt <= now) throw invalidOtp();
		const won = await this.challenges().findOneAndUpdate({ id: c.id, verifiedAt: null }, { $set: { verifiedAt: now, fallbackDueAt: null } });
		if (!won) throw invalidOtp();
		await this.codes().deleteMany({ challengeId: c.id });
		return won;
	}

	/** A code or a magic link's token: the user (or, OTP_SIGNUP, the address to create), once, with the challenge's tries counted. */
	async verify(input: { challengeId?: string; code?: string; token?: string }): Promise<VerifiedOtp> {
		await this.embedded();
		let challengeId = input.challengeId;
		let hash: string;
		if (input.token !== undefined) {
			hash = tokenId(input.token);
			const rec = await this.codes().get(hash);
			if (!rec) throw invalidOtp();
			challengeId = rec.challengeId;
		} else {
			if (!challengeId || input.code === undefined) throw invalidOtp();
			hash = codeId(challengeId, input.code);
		}
		const pre = await this.challenges().get(challengeId!);
		if (!pre || (pre.purpose ?? "signin") !== "signin") throw invalidOtp();
		const c = await this.spend(challengeId!, hash);
		const via = c.channel;
		if (c.userSub && c.username) return { user: { sub: c.userSub, username: c.username }, channel: via };
		if (c.signupEmail && this.deps.signup) return { signupEmail: c.signupEmail, channel: "email" };
		throw invalidOtp();
	}

	/** Tokens with amr ["otp", channel]. */
	async signIn(user: CreatedUser, channel: OtpChannel): Promise<TokenSet> {
		const idp = await this.embedded();
		return idp.issueForUser(user, { authTime: Math.floor(this.now() / 1000), amr: ["otp", channel] });
	}

	/** Expired challenges and their codes go. */
	async sweep(): Promise<void> {
		const cutoff = this.iso(-OTP_TTL_SEC);
		await this.codes().deleteMany({ expiresAt: { $lt: cutoff } });
		await this.challenges().deleteMany({ expiresAt: { $lt: cutoff } });
	}
}
