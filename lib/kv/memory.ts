import type { KeyValue } from "./types";

interface Entry {
	value: string;
	expiresAt: number;
}

export class MemoryKeyValue implements KeyValue {
	readonly kind = "memory" as const;
	private readonly map = new Map<string, Entry>();
	private sweeps = 0;

	constructor(private readonly now: () => number = Date.now) {}

	private live(key: string): Entry | undefined {
		const e = this.map.get(key);
		if (e && e.expiresAt <= this.now()) {
			this.map.delete(key);
			return undefined;
		}
		return e;
	}

	private put(key: string, value: string, ttlSeconds: number): void {
		if (++this.sweeps % 1000 === 0) {
			const now = this.now();
			for (const [k, e] of this.map) if (e.expiresAt <= now) this.map.delete(k);
		}
		this.map.set(key, { value, expiresAt: this.now() + ttlSeconds * 1000 });
	}

	async setNX(key: string, value: string, ttlSeconds: number): Promise<boolean> {
		if (this.live(key)) return false;
		this.put(key, value, ttlSeconds);
		return true;
	}

	async set(key: string, value: string, ttlSeconds: number): Promise<void> {
		this.put(key, value, ttlSeconds);
	}

	async get(key: string): Promise<string | null> {
		return this.live(key)?.value ?? null;
	}

	async getDel(key: string): Promise<string | null> {
		const e = this.live(key);
		this.map.delete(key);
		return e?.value ?? null;
	}

	async del(key: string): Promise<void> {
		this.map.delete(key);
	}

	async incr(key: string, ttlSeconds: number): Promise<{ count: number; ttl: number }> {
		const e = this.live(key);
		if (!e) {
			this.put(key, "1", ttlSeconds);
			return { count: 1, ttl: ttlSeconds };
		}
		e.value = String(Number(e.value) + 1);
		return { count: Number(e.value), ttl: Math.max(1, Math.ceil((e.expiresAt - this.now()) / 1000)) };
	}

	async ping(): Promise<void> {}

	async close(): Promise<void> {
		this.map.clear();
	}
}
