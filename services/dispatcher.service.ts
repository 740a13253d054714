/**
 * Delivers queued notifications. Any number of dispatcher nodes share the queue in
 * the store; each runs one loop (lib/notifications/dispatcher.ts) that claims only as
 * many as it has free slots, is woken at once by "notifications.queued", and polls
 * slowly as a safety net.
 */
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { createChannels } from "../lib/channels";
import { Dispatcher } from "../lib/notifications/dispatcher";
import { countOutcome, registerNotificationMetrics } from "../lib/notifications/metrics";
import { FeatureFlagsMixin, type FeatureFlagMethods } from "../mixins/feature-flags.mixin";
import { RuntimeMixin } from "../mixins/runtime.mixin";

interface DispatcherMethods extends FeatureFlagMethods {
	holdLow(): Promise<boolean>;
}

interface DispatcherState {
	dispatcher: Dispatcher | null;
}

const DispatcherService: ServiceSchema<ServiceSettingSchema, DispatcherMethods, DispatcherState> = {
	name: "dispatcher",
	mixins: [RuntimeMixin, FeatureFlagsMixin],
	events: {
		"notifications.queued"() {
			this.dispatcher?.wake();
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
	},
	started() {
		const rt = this.runtime();
		registerNotificationMetrics(this.broker);
		this.dispatcher = new Dispatcher({
			config: rt.config.notifications,
			store: rt.store(),
			kv: rt.kv(),
			channels: createChannels(rt.config),
			logger: this.logger,
			holdLow: () => this.holdLow(),
			onSettled: outcome => countOutcome(this.broker, outcome.event)
		});
		this.dispatcher.start();
	},
	async stopped() {
		await this.dispatcher?.stop();
	}
};

export default DispatcherService;
