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

const COMMIT_RETRIES = 4;
const COMMIT_BACKOFF_MS = 100;

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
/** Another node holds the notification now; this one must neither send nor record. */
class LeaseLost extends Error {}

/** Time a send needs on top of its own limit: the result still has to be recorded. */
const LEASE_MARGIN_MS = 2000;

/** Gives up waiting after `ms` and aborts the send, so a late answer cannot race a retry. */
function withTimeout<T>(p: Promise<T>, ms: number, abort: AbortController): Promise<T> {
	let timer: NodeJS.Timeout;
	return Promise.race([
		p.finally(() => clearTimeout(timer)),
		new Promise<T>((_r, reject) => (timer = setTimeout(() => {
			abort.abort();
			reject(new Timeout());
		}, ms)))
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
					// With a send rate, take the token first and then one notification: a lease
					// starts only when its send can start, never while waiting for the rate.
					const limited = cfg.sendRatePerSecond > 0;
					if (limited) await this.limiter.acquire();
					batch = await this.queue.claim(limited ? 1 : free, cfg.leaseMs, { holdLow: await this.holdLow() });
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
						.catch(err => {
							if (!(err instanceof LeaseLost)) throw err;
							this.lostLeases += 1;
							this.logger.warn("Lease lost before sending; another node has the notification", { notificationId: n.id });
						})
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
				// A lease shorter than a send could expire mid-send: renew it (only if still
				// ours) so no other node can take the notification while this send runs.
				if (Date.parse(n.leaseUntil!) - Date.now() < cfg.sendTimeoutMs + LEASE_MARGIN_MS && !(await this.queue.renew(n, Math.max(cfg.leaseMs, cfg.sendTimeoutMs + LEASE_MARGIN_MS)))) {
					throw new LeaseLost();
				}
				const abort = new AbortController();
				const { messageId } = await withTimeout(sender.send(n.id, n.to, parts, abort.signal), cfg.sendTimeoutMs, abort);
				return { notification: n, status: "SENT", event: "SENT", detail: { attempt: n.attempts, providerMessageId: messageId }, set: { providerMessageId: messageId } };
			} catch (err) {
				if (err instanceof LeaseLost) throw err;
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
				detail: { attempt: n.attempts, error: error.code },
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

		/**
		 * Writes the pending outcomes in one batch. A failed write is retried (it is
		 * idempotent: every write names the lease token), then one outcome at a time, so
		 * sends that went out are recorded rather than sent again when their leases expire.
		 */
		async flush(this: This) {
			if (this.flushTimer) clearTimeout(this.flushTimer);
			this.flushTimer = null;
			const batch = this.pending.splice(0);
			if (batch.length === 0) return;
			const settle = (p: (typeof batch)[number], ok: boolean) => {
				if (ok) countOutcome(this.broker, OUTCOME_METRIC[p.outcome.event]);
				else {
					this.lostLeases += 1;
					this.logger.warn("Lease lost before the result was recorded", { notificationId: p.outcome.notification.id });
				}
				p.resolve();
			};
			for (let attempt = 0; attempt < COMMIT_RETRIES; attempt++) {
				try {
					const applied = await this.queue.commit(batch.map(p => p.outcome));
					batch.forEach((p, i) => settle(p, applied[i]));
					return;
				} catch (err) {
					this.logger.warn("Recording outcomes failed; trying again", { count: batch.length, error: (err as Error).message });
					await new Promise(r => setTimeout(r, COMMIT_BACKOFF_MS * 2 ** attempt));
				}
			}
			for (const p of batch) {
				try {
					settle(p, (await this.queue.commit([p.outcome]))[0]);
				} catch (err) {
					p.reject(err as Error);
				}
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
		if (cfg.leaseMs < cfg.sendTimeoutMs + LEASE_MARGIN_MS) {
			self.logger.warn("NOTIFICATION_LEASE_MS is shorter than EMAIL_SEND_TIMEOUT_MS plus a margin: leases are renewed before each send, so they last longer than configured.");
		}
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
