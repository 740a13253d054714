/**
 * The administrators' overview behind the console (GET /admin/stats). The queue is
 * read from the store when asked, so every node answers the same. Sends and failures
 * come from each dispatcher node's in-memory tally of the last hour, asked for over
 * the broker. The queue depth over the last hour is sampled here once a minute and
 * kept in memory: the store keeps no history of the queue, and a sample a minute is
 * sixty small records. With several nodes running this service each keeps its own
 * samples of the same shared store, so whichever answers shows the same curve; one
 * that just started shows a shorter one.
 *
 * GET /admin/providers shows every dispatcher node's view of its providers' circuits
 * (one view when they share Redis), merged: for each provider the worst state.
 *
 * It has no SERVICES name of its own: it runs wherever `notifications` runs (index.ts).
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { mergeProviderReports } from "../../lib/channels";
import type { ProviderHealth } from "../../lib/delivery";
import { adminStats, type AdminStats, depthSample, type DepthSample, type MinuteCounts, PRIORITIES, queueSnapshot, SERIES_MINUTES } from "../../lib/notifications";
import { RuntimeMixin, type RuntimeMethods } from "../../mixins/runtime.mixin";

export type { AdminStats };

const DEPTH_SAMPLE_MS = 60_000;

interface StatsMethods extends RuntimeMethods {
	sampleDepth(): Promise<void>;
	tallies(ctx: Context): Promise<MinuteCounts[][]>;
	dispatcherNodes(): string[];
}

interface StatsState {
	depth: DepthSample[];
	sampler: NodeJS.Timeout | null;
}

const count = { type: "integer", minimum: 0 } as const;
const rate = { type: "number", minimum: 0, maximum: 1 } as const;
const isoTime = { type: "string", format: "date-time" } as const;
const byPriority = { type: "object", required: [...PRIORITIES], properties: Object.fromEntries(PRIORITIES.map(p => [p, count])) };

/** lib/notifications/stats.ts AdminStats. */
const STATS_SCHEMA = {
	type: "object",
	required: ["at", "queue", "dispatchers", "sendsPerMinute", "rates", "series"],
	properties: {
		at: isoTime,
		queue: {
			type: "array",
			items: {
				type: "object",
				required: ["priority", "depth", "scheduled", "oldestAgeSeconds"],
				properties: {
					priority: { enum: [...PRIORITIES] },
					depth: { ...count, description: "QUEUED and due: the backlog." },
					scheduled: { ...count, description: "QUEUED and not due yet (a later sendAt, or a retry's wait)." },
					oldestAgeSeconds: { type: "number", minimum: 0 }
				}
			}
		},
		dispatchers: { ...count, description: "Dispatcher nodes whose last hour is counted." },
		sendsPerMinute: { ...count, description: "Notifications sent in the last 60 seconds." },
		rates: {
			type: "object",
			required: ["failure", "bounce", "complaint"],
			properties: {
				failure: { ...rate, description: "Failed among sent and failed in the last hour." },
				bounce: { ...rate, description: "Bounced among email sent in the last 24 hours." },
				complaint: { ...rate, description: "Complaints among email sent in the last 24 hours." }
			}
		},
		series: {
			type: "object",
			required: ["minutes", "sent", "failed", "depth"],
			properties: {
				minutes: { type: "array", items: isoTime, description: `The last ${SERIES_MINUTES} minutes, oldest first.` },
				sent: { type: "array", items: count },
				failed: { type: "array", items: count },
				depth: { type: "array", items: { type: "object", required: ["at", "depth"], properties: { at: isoTime, depth: byPriority } } }
			}
		}
	}
};

/** lib/delivery/senders.ts ProviderHealth. */
const PROVIDERS_SCHEMA = {
	type: "object",
	required: ["items"],
	properties: {
		items: {
			type: "array",
			items: {
				type: "object",
				required: ["channel", "name", "state", "consecutiveFailures", "since"],
				properties: {
					channel: { enum: ["EMAIL", "SMS"] },
					name: { type: "string", description: "The provider's name in EMAIL_PROVIDERS or SMS_PROVIDERS." },
					state: { enum: ["up", "down", "probing"], description: "down: skipped until its cooldown ends; probing: one message is trying it again." },
					consecutiveFailures: count,
					lastError: { type: "string", description: "The code of its latest retryable failure." },
					since: isoTime
				}
			}
		}
	}
};

const StatsService: ServiceSchema<ServiceSettingSchema, StatsMethods, StatsState> = {
	name: "stats",
	mixins: [RuntimeMixin],
	actions: {
		overview: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Queue, throughput and rates for the console (administrators)",
				success: { status: 200, description: "The overview.", schema: STATS_SCHEMA }
			},
			params: { $$strict: true },
			async handler(ctx: Context): Promise<AdminStats> {
				return adminStats(this.runtime().store(), await this.tallies(ctx), this.depth);
			}
		},
		providers: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Email and SMS providers' health across dispatcher nodes (administrators)",
				success: { status: 200, description: "Each provider of EMAIL_PROVIDERS and SMS_PROVIDERS, in order.", schema: PROVIDERS_SCHEMA }
			},
			params: { $$strict: true },
			async handler(ctx: Context): Promise<{ items: ProviderHealth[] }> {
				// A node that does not answer (stopping, or gone) leaves out its view, not everyone's.
				const answers = await Promise.allSettled(this.dispatcherNodes().map(nodeID => ctx.call<ProviderHealth[], object>("dispatcher.providers", {}, { nodeID })));
				const reports = answers.flatMap(a => (a.status === "fulfilled" ? [a.value] : []));
				const refused = answers.find(a => a.status === "rejected");
				if (reports.length === 0 && refused) throw refused.reason;
				return { items: mergeProviderReports(reports) };
			}
		}
	},
	methods: {
		async sampleDepth(): Promise<void> {
			this.depth.push(depthSample(await queueSnapshot(this.runtime().store())));
			if (this.depth.length > SERIES_MINUTES) this.depth.shift();
		},
		/** Every dispatcher node's tally, asked with the administrator's call (dispatcher.throughput is for administrators too). */
		async tallies(ctx: Context): Promise<MinuteCounts[][]> {
			return Promise.all(this.dispatcherNodes().map(nodeID => ctx.call<MinuteCounts[], object>("dispatcher.throughput", {}, { nodeID })));
		},
		dispatcherNodes(): string[] {
			const nodes = this.broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }).filter(s => s.name === "dispatcher").map(s => s.nodeID as string);
			return [...new Set(nodes)];
		}
	},
	created() {
		this.depth = [];
		this.sampler = null;
	},
	started() {
		const sample = () => this.sampleDepth().catch(err => this.logger.warn("Sampling the queue depth failed", { error: (err as Error).message }));
		void sample();
		this.sampler = setInterval(sample, DEPTH_SAMPLE_MS);
	},
	stopped() {
		if (this.sampler) clearInterval(this.sampler);
	}
};

export default StatsService;
