/**
 * Delivers queued notifications. Any number of dispatcher nodes share the queue in
 * the store; each claims only as many as it has free slots (bounded concurrency),
 * is woken at once by "notifications.queued", and polls slowly as a safety net.
 * Errors are classified: permanent ones fail at once, the others are retried with
 * exponential backoff and jitter until the attempts run out.
 */
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { createChannels, type ChannelSender } from "../lib/channels";
import { SendError } from "../lib/email";
import type { Channel } from "../lib/notifications/model";
import type { NotificationDoc } from "../lib/notifications/model";
import { countOutcome, registerNotificationMetrics, type Outcome as MetricOutcome } from "../lib/notifications/metrics";
import { NotificationQueue, retryDelay, type Outcome } from "../lib/notifications/queue";
import { render, type TemplateParts } from "../lib/notifications/render";
import { SendRateLimiter } from "../lib/notifications/send-rate";
import { FeatureFlagsMixin, type FeatureFlagMethods } from "../mixins/feature-flags.mixin";
import { RuntimeMixin, type RuntimeMethods } from "../mixins/runtime.mixin";
import type { TemplateDoc } from "./notifications.service";

interface Suppression {
	id: string;
}

interface DispatcherState {
	queue: NotificationQueue;
	channels: Map<Channel, ChannelSender>;
	limiter: SendRateLimiter;
	running: boolean;
	inflight: Set<Promise<void>>;
	wakeUp: (() => void) | null;
	loop: Promise<void> | null;
	reaper: NodeJS.Timeout | null;
	/** How often this node found a lease of its own already lost when finishing. */
	lostLeases: number;
	pending: { outcome: Outcome; resolve: () => void; reject: (err: Error) => void }[];
	flushTimer: NodeJS.Timeout | null;
}

/** Outcomes wait at most this long, or until this many are ready, to be written together. */
const FLUSH_DELAY_MS = 3;
const FLUSH_SIZE = 64;

const OUTCOME_METRIC: Record<string, MetricOutcome> = { SENT: "sent", FAILED: "failed", ATTEMPT_FAILED: "retried", SUPPRESSED: "suppressed" };

export interface DispatcherStats {
	inflight: number;
	lostLeases: number;
}

type This = DispatcherState & FeatureFlagMethods & {
	broker: import("moleculer").ServiceBroker;
	logger: { info: (...a: unknown[]) => void; warn: (...a: unknown[]) => void; error: (...a: unknown[]) => void };
	wake(): void;
	run(): Promise<void>;
	process(n: NotificationDoc): Promise<Outcome>;
	record(outcome: Outcome): Promise<void>;
	flush(): Promise<void>;
	holdLow(): Promise<boolean>;
};

class Timeout extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
	let timer: NodeJS.Timeout;
	return Promise.race([
		p.finally(() => clearTimeout(timer)),
		new Promise<T>((_r, reject) => (timer = setTimeout(() => reject(new Timeout()), ms)))
	]);
}

const DispatcherService: ServiceSchema<ServiceSettingSchema, RuntimeMethods> = {
	name: "dispatcher",
	mixins: [RuntimeMixin, FeatureFlagsMixin],
	actions: {
		stats: {
			visibility: "public",
			auth: ["admin", "service"],
			handler(): DispatcherStats {
				const self = this as unknown as This;
				return { inflight: self.inflight.size, lostLeases: self.lostLeases };
			}
		}
	},
	events: {
		"notifications.queued"() {
			(this as unknown as This).wake();
		}
	},
	methods: {
		wake(this: This) {
			const w = this.wakeUp;
			this.wakeUp = null;
			w?.();
		},

		/** LOW notifications wait while the flag notifications.low-priority says paused; higher ones never do. */
		async holdLow(this: This): Promise<boolean> {
			try {
				return (await this.featureFlag("notifications.low-priority"))?.paused === true;
			} catch (err) {
				// Without the flag, LOW goes on: stopping all marketing mail on a read error would be worse.
				this.logger.warn("Reading notifications.low-priority failed", { error: (err as Error).message });
				return false;
			}
		},

		async run(this: This) {
			const cfg = this.runtime().config.notifications;
			while (this.running) {
				const free = cfg.concurrency - this.inflight.size;
				// Claim in batches: one claim for many free slots costs one transaction, not many.
				if (free <= 0 || (free < Math.ceil(cfg.concurrency / 2) && this.inflight.size > 0)) {
					await Promise.race(this.inflight);
					continue;
				}
				let batch: NotificationDoc[] = [];
				try {
					batch = await this.queue.claim(free, cfg.leaseMs, { holdLow: await this.holdLow() });
				} catch (err) {
					this.logger.error("Claiming notifications failed", { error: (err as Error).message });
				}
				if (batch.length === 0) {
					await new Promise<void>(resolve => {
						const timer = setTimeout(() => {
							this.wakeUp = null;
							resolve();
						}, cfg.pollMs);
						this.wakeUp = () => {
							clearTimeout(timer);
							resolve();
						};
					});
					continue;
				}
				for (const n of batch) {
					const job: Promise<void> = this.process(n)
						.then(outcome => this.record(outcome))
						// The lease expires and another attempt follows: nothing is lost.
						.catch(err => this.logger.error("Processing a notification failed", { notificationId: n.id, error: (err as Error).message }))
						.finally(() => this.inflight.delete(job));
					this.inflight.add(job);
				}
			}
		},

		/** Works out what becomes of one notification (sending it if due); the caller records it. */
		async process(this: This, n: NotificationDoc): Promise<Outcome> {
			const cfg = this.runtime().config.notifications;
			const store = this.runtime().store();
			const address = n.to.trim().toLowerCase();
			if (await store.collection<Suppression>("suppressions").get(address)) {
				return { notification: n, status: "SUPPRESSED", event: "SUPPRESSED", detail: { attempt: n.attempts } };
			}
			let template: TemplateParts | null = n.template ?? null;
			if (!template && n.templateId) template = await store.collection<TemplateDoc>("templates").get(n.templateId);
			if (!template) {
				return {
					notification: n,
					status: "FAILED",
					event: "FAILED",
					detail: { attempt: n.attempts, error: "TEMPLATE_NOT_FOUND", permanent: true },
					set: { lastError: "TEMPLATE_NOT_FOUND" }
				};
			}
			const parts = render(template, n.variables);

			let error: SendError;
			try {
				const sender = this.channels.get(n.channel);
				if (!sender) throw new SendError("CHANNEL_NOT_SUPPORTED", true);
				await this.limiter.acquire();
				const { messageId } = await withTimeout(sender.send(n.id, n.to, parts), cfg.sendTimeoutMs);
				return { notification: n, status: "SENT", event: "SENT", detail: { attempt: n.attempts, providerMessageId: messageId }, set: { providerMessageId: messageId } };
			} catch (err) {
				error = err instanceof SendError ? err : err instanceof Timeout ? new SendError("SEND_TIMEOUT", false) : new SendError("SEND_ERROR", false);
			}
			if (error.permanent || n.attempts >= cfg.maxAttempts) {
				return {
					notification: n,
					status: "FAILED",
					event: "FAILED",
					detail: { attempt: n.attempts, error: error.code, permanent: error.permanent },
					set: { lastError: error.code }
				};
			}
			const delay = retryDelay(n.attempts, cfg.retryBaseMs, cfg.retryMaxMs);
			return {
				notification: n,
				status: "QUEUED",
				event: "ATTEMPT_FAILED",
				detail: { attempt: n.attempts, error: error.code, retryAt: new Date(Date.now() + delay).toISOString() },
				set: { lastError: error.code },
				retryInMs: delay
			};
		},

		/**
		 * Outcomes are written together: one batch (one transaction in SQLite) for all that
		 * finished within a few milliseconds, instead of two commits per notification.
		 */
		record(this: This, outcome: Outcome): Promise<void> {
			return new Promise((resolve, reject) => {
				this.pending.push({ outcome, resolve, reject });
				if (this.pending.length >= FLUSH_SIZE) void this.flush();
				else this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
			});
		},

		async flush(this: This) {
			if (this.flushTimer) clearTimeout(this.flushTimer);
			this.flushTimer = null;
			const batch = this.pending.splice(0);
			if (batch.length === 0) return;
			try {
				const applied = await this.queue.commit(batch.map(p => p.outcome));
				applied.forEach((ok, i) => {
					if (ok) countOutcome(this.broker, OUTCOME_METRIC[batch[i].outcome.event]);
					else {
						this.lostLeases += 1;
						this.logger.warn("Lease lost before the result was recorded", { notificationId: batch[i].outcome.notification.id });
					}
				});
				for (const p of batch) p.resolve();
			} catch (err) {
				for (const p of batch) p.reject(err as Error);
			}
		}
	},
	created() {
		const self = this as unknown as This;
		self.running = false;
		self.inflight = new Set();
		self.wakeUp = null;
		self.loop = null;
		self.reaper = null;
		self.lostLeases = 0;
		self.pending = [];
		self.flushTimer = null;
	},
	async started() {
		const self = this as unknown as This;
		const rt = self.runtime();
		const cfg = rt.config.notifications;
		registerNotificationMetrics(self.broker);
		self.queue = new NotificationQueue(rt.store());
		self.channels = createChannels(rt.config);
		self.limiter = new SendRateLimiter(rt.kv(), cfg.sendRatePerSecond, Date.now, degraded =>
			degraded
				? self.logger.warn("Redis is unavailable: the send rate is counted on this node alone until it is back.")
				: self.logger.info("The send rate is shared through Redis again.")
		);
		self.running = true;
		self.loop = self.run();
		self.reaper = setInterval(() => {
			self.queue.reapExpired(cfg.maxAttempts).then(
				n => n > 0 && self.wake(),
				err => self.logger.error("Returning expired leases failed", { error: (err as Error).message })
			);
		}, Math.max(100, Math.floor(cfg.leaseMs / 4)));
	},
	async stopped() {
		const self = this as unknown as This;
		self.running = false;
		if (self.reaper) clearInterval(self.reaper);
		self.wake();
		await self.loop;
		// Sends already under way finish and record their result; nothing new starts.
		await Promise.allSettled(self.inflight);
		await self.flush();
		for (const sender of self.channels?.values() ?? []) await sender.close();
	}
};

export default DispatcherService;
