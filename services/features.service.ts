/**
 * Feature flags, for administrators only. A flag is a JSON object stored under its
 * name with who changed it last and when. After each change every node is told to
 * drop its cached copy (mixins/feature-flags.mixin.ts); reads of a single flag go
 * through that same cache, so this service sees changes exactly as other services do.
 *
 * It has no SERVICES name of its own: it runs wherever `actors` runs (index.ts).
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { notFound } from "../lib/errors";
import { DuplicateKeyError, type Collection } from "../lib/store";
import { principalOf } from "../middlewares/auth.middleware";
import {
	FeatureFlagsMixin,
	toFeatureFlag,
	type FeatureFlag,
	type FeatureFlagDoc,
	type FeatureFlagMethods,
	type FeatureFlagsChangedEvent,
	type FlagValue
} from "../mixins/feature-flags.mixin";
import { ref } from "../lib/openapi/schemas";

export interface SetFeatureParams {
	featureName: string;
	value: FlagValue;
}

export interface GetFeatureParams {
	featureName: string;
}

/** Lower case only, so two flags cannot differ by letter case alone. */
export const FEATURE_NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/;

const featureName = {
	type: "string",
	pattern: FEATURE_NAME,
	messages: { stringPattern: "The 'featureName' must be 1 to 100 lower-case letters, digits, '.', '_' or '-'." }
} as const;

/** A time after the flag's last updatedAt, even when this node's clock is behind the node that wrote it. */
function after(previous: string | undefined): string {
	return new Date(Math.max(Date.now(), previous ? Date.parse(previous) + 1 : 0)).toISOString();
}

/**
 * Stores the flag as a compare-and-set on updatedAt, the flag's version: every write
 * moves it strictly forward and applies only over the version it read, else it reads
 * again. So writes apply one at a time, each answered with the version it made, and
 * the stored flag is the last one applied, in whatever order concurrent requests (over
 * one store connection or several, from nodes with clocks apart) reach the store. A
 * blind overwrite stamped before it was sent could land after a later write, and the
 * stored flag was then older than an answered one.
 */
async function writeFlag(flags: Collection<FeatureFlagDoc>, name: string, valueJson: string, updatedBy: string): Promise<FeatureFlagDoc> {
	for (;;) {
		const current = await flags.get(name);
		const updatedAt = after(current?.updatedAt);
		if (!current) {
			try {
				return await flags.insert({ id: name, valueJson, updatedAt, updatedBy });
			} catch (err) {
				// Another first write of this flag came first: this one goes over it.
				if (!(err instanceof DuplicateKeyError)) throw err;
				continue;
			}
		}
		const written = await flags.findOneAndUpdate({ id: name, updatedAt: current.updatedAt }, { $set: { valueJson, updatedAt, updatedBy } });
		if (written) return written;
	}
}

const FeaturesService: ServiceSchema<ServiceSettingSchema, FeatureFlagMethods> = {
	name: "features",
	mixins: [FeatureFlagsMixin],
	actions: {
		set: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Set a feature flag (administrators)",
				success: { status: 200, description: "The flag as stored.", schema: ref("FeatureFlag") },
				example: { enabled: true, rolloutPercent: 25 }
			},
			params: { featureName, value: { type: "object" }, $$strict: true },
			async handler(ctx: Context<SetFeatureParams>): Promise<FeatureFlag> {
				const { featureName: name, value } = ctx.params;
				const updatedBy = principalOf(ctx)!.sub;
				const doc = await writeFlag(this.runtime().store().collection<FeatureFlagDoc>("feature_flags"), name, JSON.stringify(value), updatedBy);
				this.logger.info("Feature flag changed", { featureName: name, updatedBy, updatedAt: doc.updatedAt });
				this.forgetFeatureFlags(name);
				const event: FeatureFlagsChangedEvent = { featureName: name };
				// The change is stored either way; nodes that miss the event drop their whole cache when they reconnect.
				await ctx.broadcast("features.changed", event).catch(err => this.logger.warn("Could not broadcast features.changed", { featureName: name, err }));
				return toFeatureFlag(doc);
			}
		},
		get: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Read a feature flag (administrators)",
				success: { status: 200, description: "The flag.", schema: ref("FeatureFlag") },
				problems: ["FEATURE_NOT_FOUND"]
			},
			params: { featureName, $$strict: true },
			async handler(ctx: Context<GetFeatureParams>): Promise<FeatureFlag> {
				const flag = await this.featureFlagRecord(ctx.params.featureName);
				if (!flag) throw notFound("FEATURE_NOT_FOUND", "No feature flag has this name.");
				return flag;
			}
		},
		list: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "List feature flags (administrators)",
				success: { status: 200, description: "Every flag.", schema: { type: "object", required: ["items"], properties: { items: { type: "array", items: ref("FeatureFlag") } } } }
			},
			params: { $$strict: true },
			async handler(): Promise<{ items: FeatureFlag[] }> {
				// Flags are set by hand and stay few, so the list is not paged.
				const docs = await this.runtime().store().collection<FeatureFlagDoc>("feature_flags").find({}, { sort: { id: 1 } });
				return { items: docs.map(toFeatureFlag) };
			}
		}
	}
};

export default FeaturesService;
