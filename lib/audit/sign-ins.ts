/**
 * A sign-in's audit: `auth.signed_in` with how (password, social, passkey, otp, mfa),
 * and `auth.signed_in_new_device` when no sign-in to the account (nor its registration)
 * in the last 90 days came from this user-agent family on this network (an IPv4 /24,
 * an IPv6 /48), the two together; that event raises the new-device alert
 * (lib/accounts/security-alerts.ts). An account with no earlier sign-in in that time
 * has nothing to compare with and gets no alert.
 */
import { decodeJwt } from "jose";
import type { TokenSet } from "../idp/types";
import type { AuditLog, RequestOrigin } from "./index";

export type SignInMethod = "password" | "social" | "passkey" | "otp" | "magic-link" | "mfa";

/** How far back a device or network counts as known. */
export const KNOWN_DEVICE_DAYS = 90;

/** The token set's user, session (the embedded provider's `sid`) and authentication methods, for its audit. */
export function sessionOf(tokens: TokenSet): { sub?: string; sid?: string; amr?: string[] } {
	try {
		const claims = decodeJwt(tokens.accessToken);
		const amr = Array.isArray(claims.amr) ? claims.amr.filter((m): m is string => typeof m === "string") : undefined;
		return { sub: typeof claims.sub === "string" ? claims.sub : undefined, sid: typeof claims.sid === "string" ? claims.sid : undefined, amr };
	} catch {
		return {};
	}
}

/** A coarse user-agent family: browser and operating system, without versions. */
export function userAgentFamily(ua: string | null | undefined): string {
	if (!ua) return "unknown";
	const browser = /\bEdg(e|A|iOS)?\//.test(ua)
		? "Edge"
		: /\bOPR\//.test(ua)
			? "Opera"
			: /\bFirefox\//.test(ua)
				? "Firefox"
				: /\b(Chrome|CriOS|Chromium)\//.test(ua)
					? "Chrome"
					: /\bSafari\//.test(ua)
						? "Safari"
						: (/^([A-Za-z][\w.-]*)/.exec(ua)?.[1] ?? "other");
	const os = /Android/.test(ua) ? "Android" : /iPhone|iPad|iPod/.test(ua) ? "iOS" : /Windows/.test(ua) ? "Windows" : /Mac OS X|Macintosh/.test(ua) ? "macOS" : /Linux/.test(ua) ? "Linux" : "";
	return os ? `${browser}/${os}` : browser;
}

/** The network an address is in: IPv4 /24, IPv6 /48 (an IPv4-mapped IPv6 address counts as IPv4). */
export function networkOf(ip: string | null | undefined): string {
	if (!ip) return "unknown";
	const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
	if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
	if (!ip.includes(":")) return ip;
	const [head = "", tail = ""] = ip.toLowerCase().split("::");
	const left = head ? head.split(":") : [];
	const right = tail ? tail.split(":") : [];
	const groups = ip.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
	return `${groups.slice(0, 3).map(g => g.replace(/^0+(?=.)/, "")).join(":")}::/48`;
}

/** Records the sign-in, and a new device when it is one. */
export async function recordSignIn(audit: AuditLog, tokens: TokenSet, origin: RequestOrigin, method: SignInMethod, now = Date.now()): Promise<void> {
	const { sub, sid, amr } = sessionOf(tokens);
	if (!sub) return;
	const at = { ...origin, sessionId: sid ?? origin.sessionId };
	const earlier = await audit.since(sub, ["auth.signed_in", "auth.registered"], now - KNOWN_DEVICE_DAYS * 86_400_000);
	await audit.record("auth.signed_in", sub, at, amr?.length ? { amr: amr.join(" "), method } : { method });
	if (earlier.length === 0) return;
	const family = userAgentFamily(origin.userAgent);
	const network = networkOf(origin.ip);
	if (earlier.some(e => userAgentFamily(e.userAgent) === family && networkOf(e.ip) === network)) return;
	await audit.record("auth.signed_in_new_device", sub, at, { method, device: family, network });
}
