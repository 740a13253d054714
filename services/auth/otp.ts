/**
 * The auth service's one-time-code routes (POST /auth/otp, /auth/otp/verify, GET
 * /auth/otp/{challengeId}, POST /auth/otp/{challengeId}/resend): a passwordless first
 * factor of the embedded provider, the work lib/accounts/otp.ts's (the runtime's
 * `otp()`, which the dispatcher also asks for the codes it mails). A user with a
 * second factor still gets 403 MFA_REQUIRED (lib/mfa gate).
 */
import type { SignInMethod } from "../../lib/audit/sign-ins";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { OtpView } from "../../lib/accounts/otp";
import { emailParam, normalizeEmail } from "../../lib/email-address";
import { STATUS_EVENTS, type StatusEvents } from "../../lib/delivery";
import { ClientError } from "../../lib/errors";
import type { OriginMeta } from "../../lib/http/meta";
import type { TokenSet } from "../../lib/idp";
import type { CreatedUser } from "../../lib/idp/types";
import { userExists, type AccountCreator, type ActorDirectory } from "../../lib/accounts/create";
import type { SecondFactors } from "../../lib/mfa";
import { ref } from "../../lib/openapi/schemas";
import { parseE164 } from "../../lib/sms";
import type { RuntimeMethods } from "../../mixins/runtime.mixin";

interface OtpMethods extends RuntimeMethods {
	signedIn(ctx: Context, tokens: TokenSet, method?: SignInMethod): Promise<TokenSet>;
	otpSignUp(ctx: Context, email: string): Promise<CreatedUser>;
	actorDirectory(ctx: Context): ActorDirectory;
}

const FALLBACK_STATUSES = new Set(["FAILED", "BOUNCED", "SUPPRESSED"]);

interface OtpVars {
	otpFallbackTimer?: NodeJS.Timeout;
	mfa: SecondFactors;
	accounts: AccountCreator;
	lifecycle: { admit(tokens: TokenSet): Promise<TokenSet> };
}

export interface OtpStartParams {
	email?: string;
	phone?: string;
	channel?: "email" | "sms";
}

export interface OtpVerifyParams {
	challengeId?: string;
	code?: string;
	token?: string;
}

/** Malformed codes and tokens are one more invalid code (401), not a 400 that tells them apart. */
const secret = { type: "string", min: 1, max: 256, optional: true } as const;
const channel = { type: "enum", values: ["email", "sms"], optional: true } as const;
const badPhone = () =>
	new ClientError(400, "VALIDATION_ERROR", "The 'phone' field must be an international number in E.164 form, such as +14155550100.", {
		errors: [{ field: "phone", message: "is not a valid E.164 phone number" }]
	});

/** The number in E.164, or 400 VALIDATION_ERROR (libphonenumber's full metadata decides). */
export function e164OrBadRequest(phone: string): string {
	const number = parseE164(phone);
	if (!number) throw badPhone();
	return number;
}

export const OtpMixin: ServiceSchema<ServiceSettingSchema, OtpMethods, OtpVars> = {
	name: "otp",
	actions: {
		otpStart: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Send a one-time sign-in code (and magic link)",
				description:
					"Embedded provider only (501 NOT_SUPPORTED_BY_PROVIDER with Cognito). The same 202 for an unknown address, which nothing is sent to. The code (6 digits, 10 minutes) goes out as a CRITICAL notification; its mail also carries a magic link `UI_BASE_URL` + `UI_MAGIC_LINK_PATH` `#token=…`.",
				success: { status: 202, description: "A challenge: follow it with GET /auth/otp/{challengeId}.", schema: ref("OtpChallenge") },
				problems: ["NOT_SUPPORTED_BY_PROVIDER"],
				example: { email: "ada@example.com" }
			},
			params: { email: { ...emailParam, optional: true }, phone: { type: "string", max: 32, optional: true }, channel, $$strict: true },
			async handler(ctx: Context<OtpStartParams, OriginMeta>): Promise<{ challengeId: string }> {
				const { email, phone, channel: via } = ctx.params;
				if (phone !== undefined && email !== undefined) {
					throw new ClientError(400, "VALIDATION_ERROR", "Send { email } or { phone }, not both.", { errors: [{ field: "phone", message: "cannot come with email" }] });
				}
				if (phone === undefined && email === undefined) {
					throw new ClientError(400, "VALIDATION_ERROR", "The 'email' or 'phone' field is required.", { errors: [{ field: "email", message: "is required" }] });
				}
				if (phone !== undefined && via === "email") {
					throw new ClientError(400, "VALIDATION_ERROR", "A code for a phone number goes by SMS.", { errors: [{ field: "channel", message: "must be sms with phone" }] });
				}
				const started = await this.runtime().otp().start(phone !== undefined ? { phone: e164OrBadRequest(phone) } : { email: normalizeEmail(email!), channel: via });
				ctx.meta.$statusCode = 202;
				return started;
			}
		},
		otpVerify: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Sign in with a one-time code or a magic link's token",
				description: "Five wrong codes end the challenge; a code or token works once. The tokens' amr is `[\"otp\", \"email\"]`.",
				success: { status: 200, description: "Signed in.", schema: ref("TokenSet") },
				problems: ["VALIDATION_ERROR", "INVALID_OTP", "MFA_REQUIRED", "NOT_SUPPORTED_BY_PROVIDER"],
				example: { challengeId: "0b9c3a52-8a53-4c55-9d0e-2b8f7f1e4c11", code: "123456" }
			},
			params: { challengeId: { type: "uuid", optional: true }, code: secret, token: secret, $$strict: true },
			async handler(ctx: Context<OtpVerifyParams, OriginMeta>): Promise<TokenSet> {
				const { challengeId, code, token } = ctx.params;
				if (token === undefined && (challengeId === undefined || code === undefined)) {
					const field = challengeId === undefined ? "challengeId" : "code";
					throw new ClientError(400, "VALIDATION_ERROR", `Send { challengeId, code } or the magic link's { token }: '${field}' is missing.`, { errors: [{ field, message: "is required" }] });
				}
				const otp = this.runtime().otp();
				const verified = await otp.verify(ctx.params);
				const user = "user" in verified ? verified.user : await this.otpSignUp(ctx, verified.signupEmail);
				const tokens = await this.mfa.federatedSignIn(await this.runtime().idp(), user, ["otp", verified.channel]);
				return this.signedIn(ctx, await this.lifecycle.admit(tokens), token === undefined ? "otp" : "magic-link");
			}
		},
		otpStatus: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Follow a one-time code's delivery",
				success: { status: 200, description: "The challenge's status follows its notification's.", schema: ref("OtpStatus") },
				problems: ["NOT_FOUND"]
			},
			params: { challengeId: { type: "uuid" }, $$strict: true },
			handler(ctx: Context<{ challengeId: string }>): Promise<OtpView> {
				return this.runtime().otp().status(ctx.params.challengeId);
			}
		},
		otpResend: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Send a new one-time code",
				description: "The new code replaces the old one; at most 3 resends in 10 minutes (429 with Retry-After).",
				success: { status: 202, description: "A new code is on its way." },
				problems: ["NOT_FOUND", "NOT_SUPPORTED_BY_PROVIDER"],
				example: {}
			},
			params: { challengeId: { type: "uuid" }, channel, $$strict: true },
			async handler(ctx: Context<{ challengeId: string; channel?: "email" | "sms" }, OriginMeta>): Promise<null> {
				await this.runtime().otp().resend(ctx.params.challengeId, ctx.params.channel);
				ctx.meta.$statusCode = 202;
				return null;
			}
		}
	},
	events: {
		/**
		 * Every node hears every notification's status: a code that failed, bounced or was
		 * suppressed falls back to the account's other verified channel at once (the claim
		 * in the store makes it happen once, whichever auth node hears it first).
		 */
		[STATUS_EVENTS](ctx: Context<StatusEvents>) {
			for (const e of ctx.params.events ?? []) {
				if (e.owner?.kind !== "service" || e.owner.id !== "auth" || !FALLBACK_STATUSES.has(e.status)) continue;
				this.runtime()
					.otp()
					.onNotificationStatus(e.notificationId, e.status)
					.catch(err => this.logger.warn("A one-time code's fallback could not be sent; the next scan tries again", { error: (err as Error).message }));
			}
		}
	},
	/**
	 * The fallback for codes not SENT in time: every auth node scans the store (the due
	 * time is there, not in a timer of the node that sent the code), so a node that dies
	 * after sending leaves nothing behind. Status reads check too.
	 */
	started() {
		const every = Math.max(1000, Math.min(5000, (this.runtime().config.accounts.otpFallbackAfterSec * 1000) / 2));
		this.otpFallbackTimer = setInterval(() => {
			this.runtime()
				.otp()
				.fallBackDue()
				.catch(err => this.logger.warn("Due one-time code fallbacks could not be checked; the next scan tries again", { error: (err as Error).message }));
		}, every);
		this.otpFallbackTimer.unref();
	},
	stopped() {
		clearInterval(this.otpFallbackTimer);
	},
	methods: {
		/**
		 * OTP_SIGNUP: the verified address becomes an account without a password (the code
		 * proved the address, so it is verified). Actor profiles need names: the address's
		 * local part and "-" until the user sets theirs (PATCH /actors/{id}). Two
		 * verifications at once: the second finds the account the first made.
		 */
		async otpSignUp(ctx: Context, email: string): Promise<CreatedUser> {
			const firstName = email.slice(0, email.lastIndexOf("@")).slice(0, 100) || "-";
			try {
				return (await this.accounts.create({ email, firstName, lastName: "-" }, this.actorDirectory(ctx))).user;
			} catch (err) {
				if ((err as ClientError).type !== userExists().type) throw err;
				const user = await (await this.runtime().idp()).findUserByEmail(email);
				if (!user) throw err;
				return user;
			}
		}
	}
};
