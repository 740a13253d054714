/**
 * Feature flags for any service: `featureFlag(name)` answers from a cache in this
 * process, filled from the store on first read. The features service broadcasts
 * "features.changed" after every change, and each node drops the flag from its cache,
 * so a change reaches every node without a restart.
 *
 * The event carries only the flag's name, never its value: any node can broadcast,
 * and the worst a forged event can do is cause one extra read from the store.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { RuntimeMixin, type RuntimeMethods } from "./runtime.mixin";

export type FlagValue = Readonly<Record<string, unknown>>;

export interface FeatureFlag {
	featureName: string;
	value: FlagValue;
	updatedAt: string;
	updatedBy: string;
}

/** Stored as JSON text: flag values may hold keys MongoDB refuses in updates ($-prefixed, dotted). */
export interface FeatureFlagDoc {
	id: string;
	valueJson: string;
	updatedAt: string;
	updatedBy: string;
}

export interface FeatureFlagsChangedEvent {
	featureName: string;
}

export interface FeatureFlagMethods extends RuntimeMethods {
	/** The flag's value, or undefined when no such flag has been set. */
	featureFlag(name: string): Promise<FlagValue | undefined>;
	/** The whole flag as last stored, or null. */
	featureFlagRecord(name: string): Promise<FeatureFlag | null>;
	/** Drops one flag (or all) from this process's cache. */
	forgetFeatureFlags(name?: string): void;
}

interface FlagCache {
	entries: Map<string, FeatureFlag | null>;
	/** Bumped on every invalidation; a read that started before one must not fill the cache. */
	generation: number;
}

/** Names are few in practice; the bound only stops lookups of many unknown names from growing the cache. */
const MAX_CACHED = 1000;

function deepFreeze<T>(value: T): T {
	if (value && typeof value === "object") {
		for (const v of Object.values(value)) deepFreeze(v);
		Object.freeze(value);
	}
	return value;
}

export function toFeatureFlag(doc: FeatureFlagDoc): FeatureFlag {
	return {
		featureName: doc.id,
		value: deepFreeze(JSON.parse(doc.valueJson) as FlagValue),
		updatedAt: doc.updatedAt,
		updatedBy: doc.updatedBy
	};
}

const mixin: Partial<ServiceSchema<ServiceSettingSchema, FeatureFlagMethods, { flagCache: FlagCache }>> = {
	mixins: [RuntimeMixin],
	events: {
		"features.changed": {
			handler(ctx: Context<Partial<FeatureFlagsChangedEvent>>) {
				const name = ctx.params?.featureName;
				this.forgetFeatureFlags(typeof name === "string" ? name : undefined);
			}
		},
		// Broadcasts sent while this node was cut off from the transporter are lost.
		"$transporter.connected"() {
			this.forgetFeatureFlags();
		}
	},
	methods: {
		async featureFlag(name: string): Promise<FlagValue | undefined> {
			return (await this.featureFlagRecord(name))?.value;
		},

		async featureFlagRecord(name: string): Promise<FeatureFlag | null> {
			const cache = this.flagCache;
			const cached = cache.entries.get(name);
			if (cached !== undefined) return cached;
			const generation = cache.generation;
			const doc = await this.runtime().store().collection<FeatureFlagDoc>("feature_flags").get(name);
			const flag = doc ? toFeatureFlag(doc) : null;
			if (generation === cache.generation) {
				if (cache.entries.size >= MAX_CACHED) cache.entries.clear();
				cache.entries.set(name, flag);
			}
			return flag;
		},

		forgetFeatureFlags(name?: string): void {
			const cache = this.flagCache;
			cache.generation += 1;
			if (name === undefined) cache.entries.clear();
			else cache.entries.delete(name);
		}
	},
	created() {
		this.flagCache = { entries: new Map(), generation: 0 };
	}
};

export const FeatureFlagsMixin = mixin as Partial<ServiceSchema>;
