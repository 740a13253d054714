/**
 * Unsubscribe tokens: what they unsubscribe (channel, address, category) and the kid
 * of the key that signed them, as base64url JSON, then an HMAC-SHA256 over both. A
 * token is checked by its signature alone (compared in constant time); nothing is
 * looked up. It does not expire: RFC 8058 links must keep working in old mail.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Channel } from "../delivery";
import type { UnsubscribeKey, UnsubscribeKeys } from "./keys";

export interface UnsubscribeTarget {
	channel: Channel;
	address: string;
	category: string;
}

interface Payload {
	v: 1;
	k: string;
	c: Channel;
	a: string;
	g: string;
}

const CHANNELS: readonly string[] = ["EMAIL", "SMS", "PUSH"];
const CATEGORY = /^([a-z0-9][a-z0-9._-]{0,63}|\*)$/;
/** Long enough for a 254-character address; anything longer is not ours. */
export const MAX_TOKEN_LENGTH = 1024;

function mac(key: UnsubscribeKey, body: string): Buffer {
	return createHmac("sha256", key.secret).update(`unsubscribe.v1.${body}`).digest();
}

export async function signUnsubscribe(keys: UnsubscribeKeys, t: UnsubscribeTarget): Promise<string> {
	const key = await keys.signing();
	const payload: Payload = { v: 1, k: key.kid, c: t.channel, a: t.address, g: t.category };
	const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
	return `${body}.${mac(key, body).toString("base64url")}`;
}

/** What the token unsubscribes, or null when it is malformed, tampered with, or signed by no key of ours. */
export async function verifyUnsubscribe(keys: UnsubscribeKeys, token: string): Promise<UnsubscribeTarget | null> {
	if (token.length > MAX_TOKEN_LENGTH) return null;
	const m = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
	if (!m) return null;
	let p: Partial<Payload>;
	try {
		p = JSON.parse(Buffer.from(m[1], "base64url").toString("utf8")) as Partial<Payload>;
	} catch {
		return null;
	}
	if (!p || p.v !== 1 || typeof p.k !== "string" || typeof p.a !== "string" || typeof p.g !== "string" || !CHANNELS.includes(p.c as string)) return null;
	if (!CATEGORY.test(p.g) || p.a.length === 0 || p.a.length > 254) return null;
	const key = await keys.byKid(p.k);
	if (!key) return null;
	const given = Buffer.from(m[2], "base64url");
	const expected = mac(key, m[1]);
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
	return { channel: p.c as Channel, address: p.a, category: p.g };
}
