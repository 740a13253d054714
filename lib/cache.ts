/**
 * The one in-process cache: bounded in size (the oldest entry goes first), each entry
 * with its own expiry, and loads shared by concurrent callers of the same key so a
 * burst of misses costs one fetch. Nothing here is shared between processes.
 */
interface Entry<V> {
	value: V;
	until: number;
}

export class BoundedCache<K, V> {
	private readonly entries = new Map<K, Entry<V>>();
	private readonly loading = new Map<K, Promise<V>>();

	constructor(
		private readonly maxEntries: number,
		private readonly now: () => number = Date.now
	) {}

	get size(): number {
		return this.entries.size;
	}

	/** The value while it has not expired; an expired entry is dropped. */
	get(key: K): V | undefined {
		const hit = this.entries.get(key);
		if (!hit) return undefined;
		if (hit.until > this.now()) return hit.value;
		this.entries.delete(key);
		return undefined;
	}

	/** Keeps `value` until the time `until` (ms since the epoch). */
	set(key: K, value: V, until: number): void {
		this.entries.delete(key);
		if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
		this.entries.set(key, { value, until });
	}

	delete(key: K): void {
		this.entries.delete(key);
	}

	/**
	 * The cached value, or one load shared by every caller that misses meanwhile; the
	 * loaded value is kept until `expiry(value)`. A failed load is not cached.
	 */
	async getOrLoad(key: K, load: () => Promise<V>, expiry: (value: V) => number): Promise<V> {
		const hit = this.get(key);
		if (hit !== undefined) return hit;
		let p = this.loading.get(key);
		if (!p) {
			p = load()
				.then(value => {
					this.set(key, value, expiry(value));
					return value;
				})
				.finally(() => this.loading.delete(key));
			this.loading.set(key, p);
		}
		return p;
	}
}
