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
import { randomToken, sha256 } from "../crypto";
import { ClientError, notFound } from "../errors";
import type { CreatedUser, IdentityProvider, TokenSet } from "../idp/types";
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

export type OtpStatus = "PENDING" | "SENT" | "DELIVERED" | "FAILED" | "VERIFIED" | "EXPIRED";
export type OtpChannel = "email" | "sms";

export interface OtpChallenge {
	id: string;
	/** Absent for an unknown address: nothing is sent, no code opens it. */
	userSub?: string;
	username?: string;
	channel: OtpChannel;
	notificationId?: string;
	fallbackChannel?: OtpChannel;
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
	now?: () => number;
}

export const invalidOtp = () => new ClientError(401, "INVALID_OTP", "The code is not valid, or the challenge is expired or out of tries.");
const notSupported = () =>
	new ClientError(501, "NOT_SUPPORTED_BY_PROVIDER", "One-time codes need the embedded identity provider (IDP_PROVIDER=embedded).");

const codeId = (challengeId: string, code: string) => sha256(`otp:${challengeId}:${code.trim()}`);
const tokenId = (token: string) => sha256(`otp-link:${token}`);

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

	private async embedded(): Promise<IdentityProvider> {
		const idp = await this.deps.idp();
		if (idp.kind !== "embedded") throw notSupported();
		return idp;
	}

	/** A challenge for the address: the code is mailed when an account has it. */
	async start(email: string): Promise<{ challengeId: string }> {
		const idp = await this.embedded();
		const profile = await idp.findProfileByEmail(email);
		const id = randomUUID();
		const now = this.iso();
		const challenge: OtpChallenge = { id, channel: "email", attempts: 0, sends: [now], sendCount: 1, expiresAt: this.iso(OTP_TTL_SEC), verifiedAt: null, createdAt: now };
		if (profile) {
			challenge.userSub = profile.sub;
			challenge.username = profile.username;
		}
		await this.challenges().insert(challenge);
		if (profile) await this.send(challenge, profile.email);
		return { challengeId: id };
	}

	private async send(challenge: OtpChallenge, email: string): Promise<void> {
		const lifecycle: SendTimeRef = { purpose: OTP_PURPOSE, sub: challenge.userSub ?? "", username: challenge.username ?? "", email, challengeId: challenge.id };
		const { notificationId } = await this.deps.intake().accept(
			{ channel: "EMAIL", to: email, priority: "CRITICAL", template: OTP_TEMPLATE, variables: { email }, metadata: { category: "security", purpose: OTP_PURPOSE }, lifecycle },
			{ kind: "service", id: "auth" }
		);
		await this.challenges().updateMany({ id: challenge.id }, { $set: { notificationId } });
	}

	/**
	 * At each send of a challenge's notification (the dispatcher asks): a fresh code and
	 * magic-link token, kept as hashes; none for a notification a resend replaced.
	 */
	async mintAtSendTime(challengeId: string, notificationId: string): Promise<{ code: string; token: string } | null> {
		const challenge = await this.challenges().get(challengeId);
		if (!challenge || challenge.notificationId !== notificationId || challenge.verifiedAt) return null;
		const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
		const token = randomToken();
		const base = { challengeId, notificationId, expiresAt: challenge.expiresAt };
		await this.codes().insert({ id: codeId(challengeId, code), ...base });
		await this.codes().insert({ id: tokenId(token), ...base });
		return { code, token };
	}

	async status(challengeId: string): Promise<OtpView> {
		const c = await this.challenges().get(challengeId);
		if (!c) throw notFound("NOT_FOUND", "No such challenge.");
		return this.view(c);
	}

	private async view(c: OtpChallenge): Promise<OtpView> {
		let status: OtpStatus;
		if (c.verifiedAt) status = "VERIFIED";
		else if (c.expiresAt <= this.iso() || c.attempts >= OTP_MAX_ATTEMPTS) status = "EXPIRED";
		else if (!c.notificationId) status = "SENT"; // an unknown address looks like a sent one
		else {
			const n = await this.deps.store().collection<{ id: string; status: string }>("notifications").get(c.notificationId);
			status = statusOf(n?.status);
		}
		return { status, channel: c.channel, ...(c.fallbackChannel ? { fallbackChannel: c.fallbackChannel } : {}), resendAvailableAt: this.resendAt(c) };
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

	/** A new code replaces the old: at most three resends in ten minutes (429 after). */
	async resend(challengeId: string): Promise<void> {
		await this.embedded();
		const c = await this.challenges().get(challengeId);
		if (!c || c.verifiedAt || c.expiresAt <= this.iso() || c.attempts >= OTP_MAX_ATTEMPTS) throw notFound("NOT_FOUND", "No such challenge, or it is over.");
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
		if (!c.userSub) return;
		const profile = await (await this.embedded()).getProfile(c.username ?? "");
		if (profile) await this.send({ ...c, sends }, profile.email);
	}

	/** A code or a magic link's token: the user, once, with the challenge's tries counted. */
	async verify(input: { challengeId?: string; code?: string; token?: string }): Promise<{ user: CreatedUser; channel: OtpChannel }> {
		await this.embedded();
		const now = this.iso();
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
		// Each guess takes a try first, so parallel guesses cannot pass five.
		const c = await this.challenges().findOneAndUpdate(
			{ id: challengeId, verifiedAt: null, expiresAt: { $gt: now }, attempts: { $lt: OTP_MAX_ATTEMPTS } },
			{ $inc: { attempts: 1 } }
		);
		if (!c || !c.userSub || !c.username) throw invalidOtp();
		const rec = await this.codes().get(hash);
		if (!rec || rec.challengeId !== c.id || rec.expiresAt <= now) throw invalidOtp();
		const won = await this.challenges().findOneAndUpdate({ id: c.id, verifiedAt: null }, { $set: { verifiedAt: now } });
		if (!won) throw invalidOtp();
		await this.codes().deleteMany({ challengeId: c.id });
		return { user: { sub: c.userSub, username: c.username }, channel: c.channel };
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
