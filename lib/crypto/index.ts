/** Small crypto helpers shared by every module, so secrets are compared one way only. */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";

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
 * A UUIDv7 (RFC 9562): the creation millisecond, then 74 random bits. Records made
 * one after another get neighbouring ids, so an insert touches the end of the id
 * index instead of a random page of it (a third of the commit's writes for a
 * notification). The time it shows is no secret: the record's createdAt says as much.
 */
export function uuidv7(now = Date.now()): string {
	// A v4 UUID's last 74 random bits and its variant, behind the time and version 7.
	return uuidv7Prefix(now) + randomUUID().slice(15);
}

// The time part of the last millisecond asked for: ids made in the same millisecond share it.
let prefixMs = -1;
let prefix = "";

function uuidv7Prefix(ms: number): string {
	if (ms !== prefixMs) {
		prefix = `${uuidv7Floor(ms)}-7`;
		prefixMs = ms;
	}
	return prefix;
}

/**
 * The lowest id `uuidv7` makes at `ms` (the time part alone): every id made at `ms` or
 * later sorts after it and every one made earlier sorts before, so a range of ids is a
 * range of times.
 */
export function uuidv7Floor(ms: number): string {
	const time = ms.toString(16).padStart(12, "0");
	return `${time.slice(0, 8)}-${time.slice(8)}`;
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
