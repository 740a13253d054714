/** An mfaToken: 32 random bytes in base64url, one part (a JWT has three, with dots). */
const MFA_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function looksLikeMfaToken(token: string): boolean {
	return MFA_TOKEN_SHAPE.test(token);
}
