/**
 * Delivers queued notifications. Any number of dispatcher nodes share the queue in
 * the store; each runs one loop (lib/notifications/dispatcher.ts) that claims only as
 * many as it has free slots, is woken at once by "notifications.queued", and polls
 * slowly as a safety net. An orderly stop (lib/process/shutdown.ts) stops its claims first.
 * SMPP delivery receipts, which arrive over the dispatcher's own bind, are recorded
 * here as delivery outcomes.
 */
import { signUnsubscribe } from "../lib/unsubscribe/token";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { createChannels } from "../lib/channels";
import { countOutcome, Dispatcher, type MinuteCounts, recordSmsReceipt, registerNotificationMetrics, Throughput } from "../lib/notifications";
import type { Drain } from "../lib/process/shutdown";
import { FeatureFlagsMixin, type FeatureFlagMethods } from "../mixins/feature-flags.mixin";
import { RuntimeMixin } from "../mixins/runtime.mixin";

interface DispatcherMethods extends FeatureFlagMethods {
	holdLow(): Promise<boolean>;
}

interface DispatcherState {
	dispatcher: Dispatcher | null;
	throughput: Throughput;
	drain: Drain | null;
}

const DispatcherService: ServiceSchema<ServiceSettingSchema, DispatcherMethods, DispatcherState> = {
	name: "dispatcher",
	mixins: [RuntimeMixin, FeatureFlagsMixin],
	actions: {
		/** This node's outcomes per minute over the last hour, for the stats service (lib/notifications/throughput.ts). */
		throughput: {
			visibility: "public",
			auth: ["admin"],
			params: { $$strict: true },
			handler(): MinuteCounts[] {
				return this.throughput.lastHour();
			}
		}
	},
	events: {
		"notifications.queued"(ctx: Context<{ urgent?: boolean }>) {
			this.dispatcher?.wake(ctx.params?.urgent === true);
		}
	},
	methods: {
		/** LOW notifications wait while the flag notifications.low-priority says paused; higher ones never do. */
		async holdLow(): Promise<boolean> {
			try {
				return (await this.featureFlag("notifications.low-priority"))?.paused === true;
			} catch (err) {
				// Without the flag, LOW goes on: stopping all marketing mail on a read error would be worse.
				this.logger.warn("Reading notifications.low-priority failed", { error: (err as Error).message });
				return false;
			}
		}
	},
	created() {
		this.dispatcher = null;
		this.throughput = new Throughput();
		this.drain = null;
	},
	started() {
		const rt = this.runtime();
		registerNotificationMetrics(this.broker);
		this.dispatcher = new Dispatcher({
			config: rt.config.notifications,
			store: rt.store(),
			events: rt.statusEvents,
			kv: rt.kv(),
			channels: createChannels(rt.config, {
				store: rt.store(),
				log: this.logger,
				onInboxChange: change => rt.announceInbox(change),
				// SMPP delivery receipts arrive over this node's bind: DELIVERED or FAILED on the record.
				onSmsReceipt: async receipt => {
					const result = await recordSmsReceipt(rt.store(), rt.statusEvents, receipt);
					if (result === "unknown-message") this.logger.warn("An SMS delivery receipt matches no message", { providerMessageId: receipt.providerMessageId });
				}
			}),
			logger: this.logger,
			health: rt.storageHealth,
			probeStorage: () => rt.probeStorage(),
			holdLow: () => this.holdLow(),
			unsubscribeUrl: async target => `${rt.config.publicUrl}/unsubscribe/${await signUnsubscribe(rt.unsubscribeKeys(), target)}`,
			onSettled: outcome => {
				countOutcome(this.broker, outcome.event);
				this.throughput.count(outcome.event);
			},
			sendTimeVariables: n => rt.notificationExtensions.sendTimeVariables(n),
			tracer: this.broker.isTracingEnabled() ? this.broker.tracer : undefined
		});
		this.dispatcher.start();
		const dispatcher = this.dispatcher;
		this.drain = {
			begin: () => dispatcher.stop(),
			// Sends under way are not cut short: one cut may have gone out all the same. Each is bounded by EMAIL_SEND_TIMEOUT_MS.
			abort: () => dispatcher.stop()
		};
		rt.shutdown.add(this.drain);
	},
	async stopped() {
		if (this.drain) this.runtime().shutdown.delete(this.drain);
		await this.dispatcher?.stop();
	}
};

export default DispatcherService;
