/**
 * Delivers queued notifications. Any number of dispatcher nodes share the queue in
 * the store; each runs one loop (lib/notifications/dispatcher.ts) that claims only as
 * many as it has free slots, is woken at once by "notifications.queued", and polls
 * slowly as a safety net. An orderly stop (lib/process/shutdown.ts) stops its claims first.
 * SMPP delivery receipts, which arrive over the dispatcher's own bind, are recorded
 * here as delivery outcomes. The providers' circuits (lib/channels/circuit.ts) keep
 * their state in the key-value store, shared by every node with REDIS_URL; this node's
 * view is `dispatcher.providers`, which GET /admin/providers collects from every node.
 */
import { signUnsubscribe } from "../lib/unsubscribe/token";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { createChannels, ProviderCircuits, type CircuitChange } from "../lib/channels";
import type { ProviderHealth } from "../lib/delivery";
import { countOutcome, Dispatcher, type MinuteCounts, recordSmsReceipt, registerNotificationMetrics, Throughput } from "../lib/notifications";
import type { Drain } from "../lib/process/shutdown";
import { FeatureFlagsMixin, type FeatureFlagMethods } from "../mixins/feature-flags.mixin";
import { RuntimeMixin } from "../mixins/runtime.mixin";
import { notFound } from "../lib/errors";
import { ref } from "../lib/openapi/schemas";
import { fileSources, inboxSource, Outbox, OUTBOX_ID, OUTBOX_MAX_LIMIT, type OutboxMessage, type OutboxPage } from "../lib/outbox";

interface DispatcherMethods extends FeatureFlagMethods {
	holdLow(): Promise<boolean>;
	circuitChanged(change: CircuitChange): void;
	circuitError(err: unknown): void;
	outboxReader(): Outbox;
}

/** A key-value store that does not answer is said once a minute, not on every send. */
const CIRCUIT_ERROR_LOG_MS = 60_000;

interface DispatcherState {
	dispatcher: Dispatcher | null;
	circuits: ProviderCircuits | null;
	circuitErrorLoggedAt: number;
	throughput: Throughput;
	drain: Drain | null;
	outbox: Outbox | null;
}

export interface OutboxListParams {
	cursor?: string;
	limit?: number;
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
		},
		/** This node's view of its providers' circuits, for GET /admin/providers (services/notifications/stats.service.ts). */
		providers: {
			visibility: "public",
			auth: ["admin"],
			params: { $$strict: true },
			async handler(): Promise<ProviderHealth[]> {
				return this.circuits ? this.circuits.report() : [];
			}
		},
		// The dev inbox (lib/outbox): what this node's file providers wrote under its DATA_DIR.
		listOutbox: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "List what the file providers wrote, newest first",
				description:
					"The dev inbox: every email, SMS and push message the `file` providers wrote under `DATA_DIR/outbox` on the dispatcher node that answers, and the newest in-app messages (from the store, any node). Email, SMS and push are empty with real providers.",
				success: { status: 200, description: "A page of messages.", schema: ref("OutboxPage") },
				storage: false
			},
			params: {
				cursor: { type: "string", min: 1, max: 200, optional: true },
				limit: { type: "number", integer: true, min: 1, max: OUTBOX_MAX_LIMIT, convert: true, optional: true },
				$$strict: true
			},
			handler(ctx: Context<OutboxListParams>): Promise<OutboxPage> {
				return this.outboxReader().list(ctx.params);
			}
		},
		getOutbox: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "One message the file providers wrote",
				description: "An email with its headers and its text and HTML decoded (quoted-printable and base64 undone), an SMS's text, a push message's payload, or an in-app message with its recipient's state.",
				success: { status: 200, description: "The message.", schema: ref("OutboxMessage") },
				problems: ["NOT_FOUND"],
				storage: false
			},
			params: { id: { type: "string", min: 3, max: 100, pattern: OUTBOX_ID }, $$strict: true },
			async handler(ctx: Context<{ id: string }>): Promise<OutboxMessage> {
				const message = await this.outboxReader().get(ctx.params.id);
				if (!message) throw notFound("NOT_FOUND", "No message in the outbox has this id.");
				return message;
			}
		}
	},
	events: {
		"notifications.queued"(ctx: Context<{ urgent?: boolean }>) {
			this.dispatcher?.wake(ctx.params?.urgent === true);
		}
	},
	methods: {
		outboxReader(): Outbox {
			const rt = this.runtime();
			return (this.outbox ??= new Outbox([...fileSources(rt.config.dataDir), inboxSource(() => rt.store())]));
		},
		/** LOW notifications wait while the flag notifications.low-priority says paused; higher ones never do. */
		async holdLow(): Promise<boolean> {
			try {
				return (await this.featureFlag("notifications.low-priority"))?.paused === true;
			} catch (err) {
				// Without the flag, LOW goes on: stopping all marketing mail on a read error would be worse.
				this.logger.warn("Reading notifications.low-priority failed", { error: (err as Error).message });
				return false;
			}
		},
		circuitChanged({ channel, name, state, consecutiveFailures, lastError }: CircuitChange): void {
			if (state === "down") this.logger.warn(`${channel} provider ${name} is down: it is skipped until its cooldown ends`, { consecutiveFailures, lastError });
			else this.logger.info(`${channel} provider ${name} is ${state === "up" ? "up again" : "being probed with one message"}`);
		},
		circuitError(err: unknown): void {
			if (Date.now() - this.circuitErrorLoggedAt < CIRCUIT_ERROR_LOG_MS) return;
			this.circuitErrorLoggedAt = Date.now();
			this.logger.warn("The providers' circuits cannot reach the key-value store: this node keeps its own in memory until it answers", { error: (err as Error).message });
		}
	},
	created() {
		this.dispatcher = null;
		this.circuits = null;
		this.circuitErrorLoggedAt = 0;
		this.throughput = new Throughput();
		this.drain = null;
		this.outbox = null;
	},
	started() {
		const rt = this.runtime();
		registerNotificationMetrics(this.broker);
		const n = rt.config.notifications;
		this.circuits = new ProviderCircuits(
			rt.kv(),
			// A probe's lock outlives the longest send of one provider, so a second message cannot start probing meanwhile.
			{ ...n.providerCircuit, probeLockMs: 2 * n.sendTimeoutMs },
			{ onChange: change => this.circuitChanged(change), onError: err => this.circuitError(err) }
		);
		this.dispatcher = new Dispatcher({
			config: rt.config.notifications,
			store: rt.store(),
			events: rt.statusEvents,
			kv: rt.kv(),
			channels: createChannels(rt.config, {
				store: rt.store(),
				log: this.logger,
				onInboxChange: change => rt.announceInbox(change),
				circuits: this.circuits,
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
			recipientLocale: n => rt.notificationExtensions.recipientLocale(n),
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
