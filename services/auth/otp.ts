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
import { ClientError } from "../../lib/errors";
import type { OriginMeta } from "../../lib/http/meta";
import type { TokenSet } from "../../lib/idp";
import type { SecondFactors } from "../../lib/mfa";
import { ref } from "../../lib/openapi/schemas";
import type { RuntimeMethods } from "../../mixins/runtime.mixin";

interface OtpMethods extends RuntimeMethods {
	signedIn(ctx: Context, tokens: TokenSet, method?: SignInMethod): Promise<TokenSet>;
}

interface OtpVars {
	mfa: SecondFactors;
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
const smsNotYet = () =>
	new ClientError(400, "VALIDATION_ERROR", "Codes by SMS need a verified phone number, which accounts cannot have yet: use `email`.", {
		errors: [{ field: "phone", message: "is not supported yet" }]
	});

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
				const { email, phone } = ctx.params;
				if (phone !== undefined || ctx.params.channel === "sms") throw smsNotYet();
				if (email === undefined) throw new ClientError(400, "VALIDATION_ERROR", "The 'email' field is required.", { errors: [{ field: "email", message: "is required" }] });
				const started = await this.runtime().otp().start(normalizeEmail(email));
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
				const { user, channel: via } = await otp.verify(ctx.params);
				const tokens = await this.mfa.federatedSignIn(await this.runtime().idp(), user, ["otp", via]);
				return this.signedIn(ctx, await this.lifecycle.admit(tokens), "otp");
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
				if (ctx.params.channel === "sms") throw smsNotYet();
				await this.runtime().otp().resend(ctx.params.challengeId);
				ctx.meta.$statusCode = 202;
				return null;
			}
		}
	}
};
