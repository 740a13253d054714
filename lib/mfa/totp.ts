/**
 * TOTP (RFC 6238) with the otpauth library: SHA-1, 6 digits, 30-second steps, one
 * step of clock skew either side; what authenticator apps expect. The matched time
 * step (counter) is returned so the caller can refuse it the next time: a code is
 * accepted once.
 */
import { Secret, TOTP } from "otpauth";

export const TOTP_ALGORITHM = "SHA1";
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SEC = 30;
/** Steps either side of now a code may come from (phone clocks drift). */
export const TOTP_WINDOW = 1;
/** RFC 4226 recommends 160 bits for SHA-1 seeds. */
const SEED_BYTES = 20;
const CODE = /^[0-9]{6}$/;

/** A new random seed, in base32 as authenticator apps take it. */
export function newTotpSeed(): string {
	return new Secret({ size: SEED_BYTES }).base32;
}

function totp(seed: string, issuer: string, label: string): TOTP {
	return new TOTP({ issuer, label, secret: Secret.fromBase32(seed), algorithm: TOTP_ALGORITHM, digits: TOTP_DIGITS, period: TOTP_PERIOD_SEC });
}

/** The otpauth:// URI an authenticator app reads (from a QR code). */
export function otpauthUri(seed: string, issuer: string, label: string): string {
	return totp(seed, issuer, label).toString();
}

/**
 * The time step the code belongs to, within the window around `nowMs`, when it is
 * later than `lastCounter` (the step of the last code accepted); otherwise null.
 */
export function matchTotp(seed: string, code: string, nowMs: number, lastCounter: number): number | null {
	if (!CODE.test(code)) return null;
	const t = totp(seed, "", "");
	const delta = t.validate({ token: code, timestamp: nowMs, window: TOTP_WINDOW });
	if (delta === null) return null;
	const counter = t.counter({ timestamp: nowMs }) + delta;
	return counter > lastCounter ? counter : null;
}
