/**
 * Attempt limits for the unauthenticated auth endpoints, counted in fixed windows
 * (a counter that starts with the first attempt and expires RATE_LIMIT_WINDOW_SECONDS
 * later) in the key-value store, so every gateway node sharing Redis shares them.
 * A fixed window lets a client spend up to twice the limit around a window's edge;
 * that is accepted for one atomic command per counter.
 *
 * Keys never hold what the client sent: the address (IPv6 by /64) and the SHA-256
 * of the lower-cased username. When Redis cannot be reached, the counters move to
 * this process until it is back: the limits then hold per node instead of per
 * cluster, and sign-in keeps working.
 */
import type { RateLimitConfig, RateLimitedRoute } from "./config";
import { sha256 } from "./crypto";
import { ClientError } from "./errors";
import type { KeyValue } from "./kv";
import { SharedCounter } from "./kv/counter";
import { normalizeEmail } from "./email-address";

export interface RateLimitSubject {
	/** From ClientAddresses.of, through rateLimitSubject. */
	address: string;
	/** The username or email the attempt is for, when the route has one. */
	username?: string;
}

export interface RateLimitLogger {
	warn(...args: unknown[]): void;
	info(...args: unknown[]): void;
}

interface Counter {
	key: string;
	limit: number;
}

export function userKey(route: RateLimitedRoute, username: string): string {
	return `rl:${route}:user:${sha256(normalizeEmail(username))}`;
}

export function addressKey(route: RateLimitedRoute, address: string): string {
	return `rl:${route}:ip:${address}`;
}

export class RateLimiter {
	private readonly counter: SharedCounter;

	constructor(
		shared: KeyValue,
		private readonly config: RateLimitConfig,
		logger: RateLimitLogger
	) {
		this.counter = new SharedCounter(shared, degraded =>
			degraded
				? logger.warn("Redis is unavailable: rate limits are counted on this node alone until it is back.")
				: logger.info("Rate limits are shared through Redis again.")
		);
	}

	/** Counts one attempt; RATE_LIMITED with the seconds until the fullest window ends when any limit is passed. */
	async hit(route: RateLimitedRoute, subject: RateLimitSubject): Promise<void> {
		const { perIp, perUser } = this.config.routes[route];
		const counters: Counter[] = [];
		if (perIp > 0) counters.push({ key: addressKey(route, subject.address), limit: perIp });
		if (perUser > 0 && subject.username) counters.push({ key: userKey(route, subject.username), limit: perUser });
		const counts = await Promise.all(counters.map(c => this.incr(c.key)));
		const exceeded = counts.filter((c, i) => c.count > counters[i].limit);
		if (exceeded.length === 0) return;
		const retryAfter = Math.max(1, ...exceeded.map(c => c.ttl));
		throw new ClientError(429, "RATE_LIMITED", "Too many attempts. Try again later.", { retryAfter });
	}

	/**
	 * Counts one attempt against the bucket's per-account limit alone: for routes whose
	 * account is known only from the token, after the gateway counted the address.
	 */
	async hitUser(route: RateLimitedRoute, username: string): Promise<void> {
		const { perUser } = this.config.routes[route];
		if (perUser <= 0) return;
		const { count, ttl } = await this.incr(userKey(route, username));
		if (count > perUser) throw new ClientError(429, "RATE_LIMITED", "Too many attempts. Try again later.", { retryAfter: Math.max(1, ttl) });
	}

	private incr(key: string): Promise<{ count: number; ttl: number }> {
		return this.counter.incr(key, this.config.windowSeconds);
	}
}
