/**
 * client.otp: passwordless sign-in with a one-time code or a magic link (embedded
 * identity provider only; 501 NOT_SUPPORTED_BY_PROVIDER with Cognito). `start` answers
 * the same for unknown addresses; `verify` keeps the session it signs in.
 */
import type { Request } from "./request.js";
import type { OtpStatus, TokenSet } from "./types.js";

export interface OtpApi {
	/**
	 * POST /auth/otp: mails a 6-digit code and a magic link (10 minutes), or texts the code
	 * to a verified phone (`{ phone }` in E.164, or `{ email, channel: "sms" }`); the same
	 * 202 for an unknown address or number.
	 */
	start(address: string | { email: string; channel?: "email" | "sms" } | { phone: string }): Promise<{ challengeId: string }>;
	/** POST /auth/otp/verify with the code, or with the magic link's `#token=` value; the session is kept. 401 INVALID_OTP (five tries per challenge). */
	verify(input: { challengeId: string; code: string } | { token: string }): Promise<TokenSet>;
	/** GET /auth/otp/{challengeId}: PENDING, SENT, DELIVERED, FAILED, VERIFIED or EXPIRED, from the code's notification; `fallbackChannel` once the code also went out on the other verified channel. */
	status(challengeId: string): Promise<OtpStatus>;
	/** POST /auth/otp/{challengeId}/resend: a new code replaces the old (on `channel` when the account has it verified); 429 after three in ten minutes. */
	resend(challengeId: string, channel?: "email" | "sms"): Promise<void>;
}

export function otpApi(request: Request, keep: (tokens: TokenSet) => Promise<TokenSet>): OtpApi {
	return {
		start: address => request("post", "/auth/otp", { body: typeof address === "string" ? { email: address } : address, auth: false }),
		verify: async input => keep(await request("post", "/auth/otp/verify", { body: input, auth: false })),
		status: challengeId => request("get", "/auth/otp/{challengeId}", { path: { challengeId }, auth: false }),
		resend: async (challengeId, channel) => {
			await request("post", "/auth/otp/{challengeId}/resend", { path: { challengeId }, body: channel ? { channel } : {}, auth: false });
		}
	};
}
