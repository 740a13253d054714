/**
 * Who may send to whom (the open-relay rule). Services and administrators may send to
 * anyone. A user token, by default (NOTIFICATIONS_USER_SEND=self), only to itself:
 * EMAIL to its own address once verified, PUSH and IN_APP to its own actorId, no SMS (a user has
 * no number the platform has checked); `off` refuses users, `any` lets them send to
 * anyone (closed deployments). Users also have an hourly quota
 * (NOTIFICATIONS_QUOTA_PER_HOUR, counted through the key-value store, shared by every
 * node with Redis). Refusals: 403 RECIPIENT_NOT_ALLOWED, 429 RATE_LIMITED.
 */
import type { Principal, UserPrincipal } from "../auth/rules";
import type { NotificationConfig } from "../config";
import { normalizeEmail } from "../email-address";
import { ClientError } from "../errors";
import { BoundedCache } from "../cache";
import type { KeyValue } from "../kv";
import type { Channel } from "./model";

export interface OwnAddress {
	email: string;
	emailVerified: boolean;
}

const refused = (detail: string) => new ClientError(403, "RECIPIENT_NOT_ALLOWED", detail);

/** Throws unless this principal may send on this channel to this recipient. */
export async function checkRecipient(
	p: Principal,
	channel: Channel,
	to: string,
	cfg: Pick<NotificationConfig, "userSend">,
	ownAddress: (p: UserPrincipal) => Promise<OwnAddress>
): Promise<void> {
	if (p.kind === "service" || p.isAdmin || cfg.userSend === "any") return;
	if (cfg.userSend === "off") throw refused("Users may not send notifications on this platform; a service may.");
	switch (channel) {
		case "PUSH":
		case "IN_APP":
			if (to.trim().toLowerCase() !== p.sub.toLowerCase()) throw refused(`A user may send ${channel === "PUSH" ? "push notifications" : "in-app messages"} to itself only.`);
			return;
		case "EMAIL": {
			const own = await ownAddress(p);
			if (normalizeEmail(to) !== normalizeEmail(own.email)) throw refused("A user may send email to its own address only.");
			if (!own.emailVerified) throw refused("Verify your email address before sending to it.");
			return;
		}
		default:
			throw refused(`A user may not send ${channel} notifications; a service may.`);
	}
}

/** Counts one notification against the user's hourly quota: 429 with Retry-After beyond it. */
export async function countAgainstQuota(p: Principal, cfg: Pick<NotificationConfig, "userQuotaPerHour">, kv: KeyValue, now = Date.now()): Promise<void> {
	if (p.kind === "service" || p.isAdmin || cfg.userQuotaPerHour === 0) return;
	const hour = Math.floor(now / 3_600_000);
	const { count } = await kv.incr(`send-quota:${p.sub}:${hour}`, 3600);
	if (count > cfg.userQuotaPerHour) {
		const retryAfter = Math.max(1, Math.ceil(((hour + 1) * 3_600_000 - now) / 1000));
		throw new ClientError(429, "RATE_LIMITED", `At most ${cfg.userQuotaPerHour} notifications per hour may be sent by a user.`, { retryAfter });
	}
}

/**
 * Users' own addresses as the identity provider has them. Only verified ones are kept
 * (for a few minutes): an address verified a moment ago must count at once.
 */
export class OwnAddresses {
	private readonly cache = new BoundedCache<string, OwnAddress>(10_000);

	constructor(private readonly ttlMs = 5 * 60_000) {}

	async get(p: UserPrincipal, lookup: (username: string) => Promise<OwnAddress>): Promise<OwnAddress> {
		const hit = this.cache.get(p.sub);
		if (hit) return hit;
		const own = await lookup(p.username);
		if (own.emailVerified) this.cache.set(p.sub, own, Date.now() + this.ttlMs);
		return own;
	}
}
