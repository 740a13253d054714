/**
 * Why a social sign-in ended: the code the UI receives as `?error=<code>`. Only
 * these codes ever reach the UI; the provider's own error texts never do.
 */
export const SOCIAL_ERROR_CODES = [
	/** Not configured here, or a dependency (provider discovery, key-value store, identity provider) is down. */
	"SOCIAL_LOGIN_UNAVAILABLE",
	/** The state is unknown, expired, already used, or belongs to another browser. */
	"INVALID_STATE",
	/** The user declined at the provider. */
	"ACCESS_DENIED",
	/** The provider answered with another error. */
	"PROVIDER_ERROR",
	/** The callback lacks the authorization code or is malformed. */
	"INVALID_REQUEST",
	/** The provider's token endpoint refused the code or could not be reached. */
	"TOKEN_EXCHANGE_FAILED",
	/** The ID token failed its checks (signature, issuer, audience, expiry, nonce, subject). */
	"INVALID_ID_TOKEN",
	/** The userinfo call failed or returned no usable subject and email. */
	"USERINFO_FAILED",
	/** The provider does not vouch for the email, so no account is created with it. */
	"EMAIL_NOT_VERIFIED",
	/** An account with this email exists already: sign in with its password instead. */
	"ACCOUNT_EXISTS",
	"INTERNAL"
] as const;

export type SocialErrorCode = (typeof SOCIAL_ERROR_CODES)[number];

/** An expected end of a sign-in; `reason` is for the log and holds no secret. */
export class SocialFailure extends Error {
	constructor(readonly code: SocialErrorCode, readonly reason: string) {
		super(`Social sign-in failed (${code}): ${reason}`);
		this.name = "SocialFailure";
	}
}
