/**
 * client.mfa: second factors. Enrolment of an authenticator app (TOTP), the factor
 * list, removal, recovery codes, and the second step of a sign-in: `login` throws
 * ApiError MFA_REQUIRED carrying `mfaToken` and `factors`, and `mfa.verify` finishes it
 * (the session is kept). A user who must enrol first (MFA_ENFORCE) gets
 * MFA_ENROLLMENT_REQUIRED: pass its `mfaToken` to enrolTotp and confirmTotp, then sign
 * in again. Routes marked step-up answer 401 STEP_UP_REQUIRED when the sign-in is too old.
 * The account's phone number (setPhone, verifyPhone) lives here too: a verified phone
 * adds the `sms` factor (sendSmsCode, then verify with type "sms").
 */
import { assertion } from "./passkeys.js";
import type { Request } from "./request.js";
import type { MfaFactors, RecoveryCodes, TokenSet, TotpConfirmed, TotpEnrolment } from "./types.js";

/** For the holder of an enrolment mfaToken (MFA_ENROLLMENT_REQUIRED), who has no session yet. */
export interface EnrolmentOptions {
	mfaToken?: string;
}

export interface MfaApi {
	/** POST /auth/mfa/totp (step-up): a pending factor, its seed and otpauthUri (show it as a QR code). */
	enrolTotp(name?: string, options?: EnrolmentOptions): Promise<TotpEnrolment>;
	/** POST /auth/mfa/totp/{factorId}/confirm with the app's first code; the first factor brings 10 recovery codes, shown once. 401 INVALID_MFA_CODE. */
	confirmTotp(factorId: string, code: string, options?: EnrolmentOptions): Promise<TotpConfirmed>;
	/** GET /auth/mfa/factors: active factors and the recovery codes left. */
	factors(): Promise<MfaFactors>;
	/** DELETE /auth/mfa/factors/{factorId} (step-up). 404 for a factor that is not the user's. */
	removeFactor(factorId: string): Promise<void>;
	/** POST /auth/mfa/recovery-codes (step-up): ten new codes; the old ones stop working. */
	regenerateRecoveryCodes(): Promise<RecoveryCodes>;
	/**
	 * POST /auth/mfa/verify: the second step of a sign-in, with the mfaToken of the
	 * MFA_REQUIRED error; the session is kept. 401 INVALID_MFA_CODE (five per mfaToken),
	 * 401 INVALID_MFA_TOKEN (sign in again). With `webauthn` (no code) in a browser: asks
	 * POST /auth/mfa/challenge for the options, lets the user confirm with a passkey, and
	 * sends the assertion.
	 */
	verify(mfaToken: string, type: "totp" | "recovery" | "sms", code: string): Promise<TokenSet>;
	verify(mfaToken: string, type: "webauthn"): Promise<TokenSet>;
	/** POST /auth/mfa/challenge type sms: texts a code to the verified phone (when `factors` names `sms`); then verify(mfaToken, "sms", code). */
	sendSmsCode(mfaToken: string): Promise<void>;
	/** PUT /auth/phone (step-up): texts a code to the number (E.164); 400 VALIDATION_ERROR for a number that is not one. */
	setPhone(phone: string): Promise<void>;
	/** POST /auth/phone/verify: the number becomes the account's, verified. 401 INVALID_OTP. */
	verifyPhone(code: string): Promise<{ phoneVerified: true }>;
}

export function mfaApi(request: Request, keep: (tokens: TokenSet) => Promise<TokenSet>): MfaApi {
	/** The enrolment mfaToken goes as the Bearer token in place of a session's. */
	const as = (options?: EnrolmentOptions) => (options?.mfaToken ? { auth: false, headers: { authorization: `Bearer ${options.mfaToken}` } } : {});
	return {
		enrolTotp: (name, options) => request("post", "/auth/mfa/totp", { body: name === undefined ? {} : { name }, ...as(options) }),
		confirmTotp: (factorId, code, options) => request("post", "/auth/mfa/totp/{factorId}/confirm", { path: { factorId }, body: { code }, ...as(options) }),
		factors: () => request("get", "/auth/mfa/factors"),
		removeFactor: factorId => request("delete", "/auth/mfa/factors/{factorId}", { path: { factorId } }),
		regenerateRecoveryCodes: () => request("post", "/auth/mfa/recovery-codes"),
		sendSmsCode: async mfaToken => {
			await request("post", "/auth/mfa/challenge", { body: { mfaToken, type: "sms" }, auth: false });
		},
		setPhone: async phone => {
			await request("put", "/auth/phone", { body: { phone } });
		},
		verifyPhone: code => request("post", "/auth/phone/verify", { body: { code } }),
		verify: async (mfaToken: string, type: "totp" | "recovery" | "sms" | "webauthn", code?: string) => {
			if (type !== "webauthn") return keep(await request("post", "/auth/mfa/verify", { body: { mfaToken, type, code: code ?? "" }, auth: false }));
			const options = (await request("post", "/auth/mfa/challenge", { body: { mfaToken, type }, auth: false })) as Record<string, unknown>;
			const response = await assertion(options);
			return keep(await request("post", "/auth/mfa/verify", { body: { mfaToken, type, response }, auth: false }));
		}
	};
}
