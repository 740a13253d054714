/** Small crypto helpers shared by every module, so secrets are compared one way only. */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Constant-time comparison of two secrets of any length. */
export function safeEqual(a: string | Buffer, b: string | Buffer): boolean {
	const ha = createHash("sha256").update(a).digest();
	const hb = createHash("sha256").update(b).digest();
	return timingSafeEqual(ha, hb) && Buffer.byteLength(a) === Buffer.byteLength(b);
}

export function sha256(value: string): string {
	return createHash("sha256").update(value).digest("base64url");
}

/** base64url of `bytes` bytes from the CSPRNG. */
export function randomToken(bytes = 32): string {
	return randomBytes(bytes).toString("base64url");
}

/**
 * True for an endpoint on this machine (a local emulator, such as cognito-local or
 * aws-ses-v2-local). Only there may AWS clients use placeholder credentials; a real
 * or VPC endpoint keeps the default credential chain.
 */
export function isLoopbackEndpoint(endpoint: string | undefined): boolean {
	if (!endpoint) return false;
	const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, "");
	return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}
