/**
 * Password hashing (scrypt) and the embedded provider's password policy.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * OWASP's Password Storage Cheat Sheet lists scrypt N=2^17 r=8 p=1 and, at the same
 * cost, N=2^14 r=8 p=5 as the minimum: the second needs 16 MiB per hash rather than
 * 128 MiB, so a small process stays small while it signs users in. Hashes made with
 * other parameters (p=1 before) still verify: each hash carries its own, and the
 * provider replaces one with a hash of today's parameters at the user's next sign-in
 * (needsRehash), when it has the password in hand.
 */
const N = 16384;
const R = 8;
const P = 5;
const KEYLEN = 32;

function scrypt(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
	return new Promise((resolve, reject) =>
		scryptCb(password.normalize("NFKC"), salt, KEYLEN, opts, (err, key) => (err ? reject(err) : resolve(key)))
	);
}

export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(16);
	const key = await scrypt(password, salt, { N, r: R, p: P });
	return `scrypt$${N}$${R}$${P}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** Compares in constant time. A malformed hash never matches. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
	const parts = encoded.split("$");
	if (parts.length !== 6 || parts[0] !== "scrypt") return false;
	const [n, r, p] = parts.slice(1, 4).map(Number);
	const salt = Buffer.from(parts[4], "base64url");
	const expected = Buffer.from(parts[5], "base64url");
	const key = await scrypt(password, salt, { N: n, r, p, maxmem: 64 * 1024 * 1024 });
	return key.length === expected.length && timingSafeEqual(key, expected);
}

/** True for a hash made with other parameters than today's: it verifies, and should be replaced. */
export function needsRehash(encoded: string): boolean {
	const parts = encoded.split("$");
	return parts.length !== 6 || parts[0] !== "scrypt" || Number(parts[1]) !== N || Number(parts[2]) !== R || Number(parts[3]) !== P;
}

/** A hash to compare against when the user does not exist, so both paths cost the same. */
export const DUMMY_HASH = `scrypt$${N}$${R}$${P}$${Buffer.alloc(16).toString("base64url")}$${Buffer.alloc(KEYLEN).toString("base64url")}`;

export const PASSWORD_POLICY =
	"at least 8 and at most 256 characters, with a lowercase letter, an uppercase letter and a digit";

export function meetsPolicy(password: string): boolean {
	return (
		password.length >= 8 &&
		password.length <= 256 &&
		/[a-z]/.test(password) &&
		/[A-Z]/.test(password) &&
		/[0-9]/.test(password)
	);
}
