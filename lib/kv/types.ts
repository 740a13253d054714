/**
 * Short-lived keys: temporary tokens, OAuth state, rate-limit counters, token caches.
 * Redis when REDIS_URL is set (shared by every node), in-process otherwise.
 */
export interface KeyValue {
	readonly kind: "redis" | "memory";
	/** Sets the key only when absent; true when it was set. */
	setNX(key: string, value: string, ttlSeconds: number): Promise<boolean>;
	set(key: string, value: string, ttlSeconds: number): Promise<void>;
	get(key: string): Promise<string | null>;
	/** Reads and removes in one step: of many concurrent callers exactly one gets the value. */
	getDel(key: string): Promise<string | null>;
	del(key: string): Promise<void>;
	/** Increments a counter that expires ttlSeconds after its first increment. */
	incr(key: string, ttlSeconds: number): Promise<{ count: number; ttl: number }>;
	ping(): Promise<void>;
	close(): Promise<void>;
}
