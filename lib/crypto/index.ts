/** Small crypto helpers shared by every module, so secrets are compared one way only. */
import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from "node:crypto";

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
 * A UUIDv7 (RFC 9562): the creation millisecond, a 12-bit counter, then 62 random bits.
 * Records made one after another get neighbouring ids, so an insert touches the end of
 * the id index instead of a random page of it (a third of the commit's writes for a
 * notification). The time it shows is no secret: the record's createdAt says as much.
 *
 * Ids this process makes in one millisecond sort in the order they were made (RFC 9562
 * section 6.2, method 1): the counter starts at a random value in its lower half and
 * goes up by one, so a user's timeline of events recorded in the same millisecond, or
 * notifications accepted in it, keep their order. Past at least 2,048 ids in one
 * millisecond the counter stops at its top and the random bits alone keep the ids
 * apart, in no order.
 */
export function uuidv7(now = Date.now()): string {
	// A v4 UUID's variant and last 62 random bits, behind the time, version 7 and counter.
	return uuidv7Prefix(now) + counterOf(now).toString(16).padStart(3, "0") + randomUUID().slice(18);
}

// The time part of the last millisecond asked for: ids made in the same millisecond share it.
let prefixMs = -1;
let prefix = "";
// The counter of the last millisecond asked for, and that millisecond.
let counterMs = -1;
let counter = 0;

function uuidv7Prefix(ms: number): string {
	if (ms !== prefixMs) {
		prefix = `${uuidv7Floor(ms)}-7`;
		prefixMs = ms;
	}
	return prefix;
}

function counterOf(ms: number): number {
	if (ms !== counterMs) {
		counterMs = ms;
		counter = randomInt(0x800);
	} else if (counter < 0xfff) counter++;
	return counter;
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
