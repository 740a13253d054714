/**
 * The circuit of each provider in a failover list (EMAIL_PROVIDERS, SMS_PROVIDERS).
 * PROVIDER_FAILURE_THRESHOLD consecutive retryable failures open it: the provider is
 * `down` and skipped for PROVIDER_COOLDOWN_SECONDS. Then one message at a time probes
 * it (`probing`, a lock in the key-value store), and that message's outcome closes the
 * circuit (`up`) or opens it again for another cooldown. A success, and a permanent
 * refusal (the provider answered; the message or recipient was wrong), ends a run of
 * failures.
 *
 * The state lives in the key-value store: with REDIS_URL every dispatcher node shares
 * it, so a provider one node found down is skipped by all; without it each node keeps
 * its own, and GET /admin/providers collects every node's. A send reads the state at
 * most once per `cacheMs` (writes refresh it at once), so a healthy provider costs no
 * round trip per message. While the shared store does not answer, the node keeps its
 * circuits in memory on its own (as lib/kv/counter.ts counts), trying the store again
 * after `retryMs`, so an outage costs no wait per send; each switch to memory is
 * reported to `onError`.
 */
import type { Channel, ProviderHealth, ProviderState } from "../delivery";
import type { KeyValue } from "../kv";
import { MemoryKeyValue } from "../kv/memory";

export interface CircuitOptions {
	failureThreshold: number;
	cooldownMs: number;
	/** How long one probe holds its lock: a node that dies while probing frees it then. */
	probeLockMs: number;
	/** How long a read of the state is trusted before it is read again. */
	cacheMs?: number;
	/** How long the node keeps to its own memory after the shared store failed a call. */
	retryMs?: number;
	now?: () => number;
}

/** What a send may do with a provider now. */
export type Admission = "use" | "probe" | "skip";

/** A transition this node made, for its log. */
export interface CircuitChange {
	channel: Channel;
	name: string;
	state: ProviderState;
	consecutiveFailures?: number;
	lastError?: string;
}

export interface CircuitListeners {
	onChange?(change: CircuitChange): void;
	onError?(err: unknown): void;
}

interface StateRecord {
	state: ProviderState;
	/** Epoch milliseconds the state began. */
	since: number;
	lastError?: string;
	/** down: when the cooldown ends. */
	until?: number;
	/** A failure came after the last success: the next success resets the count. */
	failing?: boolean;
}

/** Records outlive any cooldown; one untouched for a week is forgotten (the provider reads as up). */
const RECORD_TTL_SECONDS = 7 * 86_400;
export const DEFAULT_CACHE_MS = 1000;
export const DEFAULT_RETRY_MS = 1000;

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class ProviderCircuits {
	private readonly providers = new Map<string, { channel: Channel; name: string }>();
	private readonly cache = new Map<string, { record: StateRecord | null; readAt: number }>();
	private readonly now: () => number;
	private readonly cacheMs: number;
	private readonly retryMs: number;
	/** This node's own circuits, used while the shared store does not answer. */
	private readonly local: MemoryKeyValue;
	private sharedDownUntil = 0;
	/** What `since` says of a provider with no record: it has been up as far as this node knows. */
	private readonly startedAt: number;

	constructor(
		private readonly kv: KeyValue,
		private readonly opts: CircuitOptions,
		private readonly listeners: CircuitListeners = {}
	) {
		this.now = opts.now ?? Date.now;
		this.cacheMs = opts.cacheMs ?? DEFAULT_CACHE_MS;
		this.retryMs = opts.retryMs ?? DEFAULT_RETRY_MS;
		this.local = new MemoryKeyValue(this.now);
		this.startedAt = this.now();
	}

	/** Names a provider, so the report lists it before its first send. */
	register(channel: Channel, name: string): void {
		this.providers.set(`${channel}:${name}`, { channel, name });
	}

	async admit(channel: Channel, name: string): Promise<Admission> {
		const key = `${channel}:${name}`;
		return this.run(async kv => {
			const record = await this.read(kv, key, true);
			if (!record || record.state === "up") return "use";
			if (record.state === "down" && this.now() < (record.until ?? 0)) return "skip";
			// The cooldown is over, or a probe is under way: one message at a time tries it (a lapsed lock frees the turn).
			if (!(await kv.setNX(`providers:${key}:probe`, "1", seconds(this.opts.probeLockMs)))) return "skip";
			await this.write(kv, key, { state: "probing", since: this.now(), lastError: record.lastError, failing: true });
			this.listeners.onChange?.({ channel, name, state: "probing", lastError: record.lastError });
			return "probe";
		});
	}

	/** The provider took the message, or refused it for good (it answered: it is working). */
	async succeeded(channel: Channel, name: string, admission: Admission): Promise<void> {
		const key = `${channel}:${name}`;
		await this.run(async kv => {
			const record = await this.read(kv, key, admission !== "probe");
			if (record && (record.state !== "up" || record.failing)) {
				await kv.del(`providers:${key}:failures`);
				await this.write(kv, key, { state: "up", since: record.state === "up" ? record.since : this.now(), lastError: record.lastError });
				if (record.state !== "up") this.listeners.onChange?.({ channel, name, state: "up", lastError: record.lastError });
			}
			if (admission === "probe") await kv.del(`providers:${key}:probe`);
		});
	}

	/** A retryable failure: timeout, connection error, 5xx, throttling. */
	async failed(channel: Channel, name: string, error: string, admission: Admission): Promise<void> {
		const key = `${channel}:${name}`;
		await this.run(async kv => {
			const { count } = await kv.incr(`providers:${key}:failures`, RECORD_TTL_SECONDS);
			const record = (await this.read(kv, key, false)) ?? { state: "up", since: this.startedAt };
			if (admission === "probe" || (record.state === "up" && count >= this.opts.failureThreshold)) {
				const now = this.now();
				await this.write(kv, key, { state: "down", since: now, until: now + this.opts.cooldownMs, lastError: error, failing: true });
				this.listeners.onChange?.({ channel, name, state: "down", consecutiveFailures: count, lastError: error });
			} else {
				// Already down (a send admitted before it opened, or the last resort): the cooldown it started keeps its end.
				await this.write(kv, key, { ...record, lastError: error, failing: true });
			}
			if (admission === "probe") await kv.del(`providers:${key}:probe`);
		});
	}

	/** Every registered provider's state, read from the key-value store (not the cache). */
	async report(): Promise<ProviderHealth[]> {
		return this.run(kv =>
			Promise.all(
				[...this.providers].map(async ([key, { channel, name }]) => {
					const record = await this.read(kv, key, false);
					const failures = Number(await kv.get(`providers:${key}:failures`)) || 0;
					return {
						channel,
						name,
						state: record?.state ?? "up",
						consecutiveFailures: failures,
						...(record?.lastError ? { lastError: record.lastError } : {}),
						since: new Date(record?.since ?? this.startedAt).toISOString()
					};
				})
			)
		);
	}

	/** `op` on the shared store, or on this node's memory while the shared one does not answer. */
	private async run<T>(op: (kv: KeyValue) => Promise<T>): Promise<T> {
		if (this.now() < this.sharedDownUntil) return op(this.local);
		try {
			return await op(this.kv);
		} catch (err) {
			this.sharedDownUntil = this.now() + this.retryMs;
			this.cache.clear();
			this.listeners.onError?.(err);
			return op(this.local);
		}
	}

	private async read(kv: KeyValue, key: string, cached: boolean): Promise<StateRecord | null> {
		const hit = this.cache.get(key);
		if (cached && hit && this.now() - hit.readAt < this.cacheMs) return hit.record;
		const raw = await kv.get(`providers:${key}:state`);
		const record = raw ? (JSON.parse(raw) as StateRecord) : null;
		this.cache.set(key, { record, readAt: this.now() });
		return record;
	}

	private async write(kv: KeyValue, key: string, record: StateRecord): Promise<void> {
		await kv.set(`providers:${key}:state`, JSON.stringify(record), RECORD_TTL_SECONDS);
		this.cache.set(key, { record, readAt: this.now() });
	}
}

/** How far a state is from healthy: the worst of several nodes' views is the one shown. */
const SEVERITY: Record<ProviderState, number> = { up: 0, probing: 1, down: 2 };

/** One entry per provider from several nodes' reports: the worst state, then the longest run of failures. */
export function mergeProviderReports(reports: ProviderHealth[][]): ProviderHealth[] {
	const merged = new Map<string, ProviderHealth>();
	for (const item of reports.flat()) {
		const key = `${item.channel}:${item.name}`;
		const seen = merged.get(key);
		const worse =
			!seen ||
			SEVERITY[item.state] > SEVERITY[seen.state] ||
			(SEVERITY[item.state] === SEVERITY[seen.state] && item.consecutiveFailures > seen.consecutiveFailures);
		if (worse) merged.set(key, item);
	}
	return [...merged.values()];
}
