/**
 * A dispatcher node's loop over the shared queue: it claims only as many
 * notifications as it has free slots (bounded concurrency), sends them, settles each
 * outcome, is woken at once by wake() and polls slowly as a safety net. A reaper
 * returns expired leases (of nodes that died or hung) to the queue. On stop, sends
 * under way finish and the notifications claimed but not yet handed to a provider go
 * back to the queue at once.
 *
 * While the storage cannot take writes (a full disk), it claims nothing and probes
 * with a real write every poll interval. An outcome it could not record is kept and
 * recorded as soon as a probe succeeds, so a notification that went out is not sent
 * again when its lease would have expired; one it could not hand over (its outbox on
 * the same disk refused the file) goes back to the queue then, without counting as an
 * attempt. Sending resumes with that same probe.
 */
import { setTimeout as pause } from "node:timers/promises";
import type { Logger, Span, Tracer } from "moleculer";
import type { ChannelSender } from "../channels";
import type { NotificationConfig } from "../config";
import type { KeyValue } from "../kv";
import { isStorageFault } from "../errors/storage-faults";
import { LeaseWorker } from "../process/lease-worker";
import type { StorageHealth } from "../process/storage-health";
import type { Store } from "../store";
import { CHANNELS, type Channel, type NotificationDoc } from "./model";
import type { StatusPublisher } from "./events";
import { NotificationQueue, SETTLE_BATCHING, type Outcome } from "./queue";
import { SendRateLimiter } from "./send-rate";
import { LEASE_MARGIN_MS, LeaseLost, NotStarted, send, type SendDeps } from "./send";
import { traceDelivery } from "./delivery-trace";

export interface DispatcherDeps {
	config: NotificationConfig;
	store: Store;
	/** Where the outcomes it records are published. */
	events: StatusPublisher;
	kv: KeyValue;
	/** Closed when the dispatcher stops. */
	channels: ReadonlyMap<Channel, ChannelSender>;
	logger: Logger;
	/** This node's storage health: the dispatcher tells it of faults and waits for their end. */
	health: Pick<StorageHealth, "failing" | "failed">;
	/** A real write to the node's storage that ends a fault (Runtime.probeStorage); throws while it cannot be made. */
	probeStorage(): Promise<void>;
	/** Whether LOW notifications wait for now. */
	holdLow(): Promise<boolean>;
	/** Told of every outcome that was recorded (not of those whose lease was lost). */
	onSettled(outcome: Outcome): void;
	/** The one-click unsubscribe link of non-CRITICAL email; without it, mail carries none. */
	unsubscribeUrl?: SendDeps["unsubscribeUrl"];
	/** See SendDeps.sendTimeVariables. */
	sendTimeVariables?: SendDeps["sendTimeVariables"];
	/** See SendDeps.recipientLocale. */
	recipientLocale?: SendDeps["recipientLocale"];
	/** With tracing on: each delivery attempt is a span (lib/notifications/delivery-trace.ts). */
	tracer?: Tracer;
}

export class Dispatcher {
	private readonly queue: NotificationQueue;
	private readonly sendDeps: SendDeps;
	private readonly worker: LeaseWorker<NotificationDoc>;
	/** Set by an urgent wake until the next claim. */
	private urgent = false;
	private reaper: NodeJS.Timeout | null = null;
	private stopped: Promise<void> | null = null;
	private readonly stopping = new AbortController();
	/** While the storage cannot take writes: true once a probe wrote, false if the dispatcher stopped first. */
	private recovery: Promise<boolean> | null = null;
	/** Writes waiting for the storage; until they are made, this node returns no expired lease (one may be theirs). */
	private held = 0;

	constructor(private readonly deps: DispatcherDeps) {
		const { config, store, kv, channels, logger } = deps;
		this.queue = new NotificationQueue(store, deps.events, Date.now, {
			...SETTLE_BATCHING,
			onBatchError: (err, count) => logger.warn("Recording outcomes failed; trying again", { count, error: (err as Error).message })
		});
		const onDegraded = (degraded: boolean) =>
			degraded
				? logger.warn("Redis is unavailable: the send rate is counted on this node alone until it is back.")
				: logger.info("The send rate is shared through Redis again.");
		const limiters = new Map(CHANNELS.filter(c => config.sendRates[c] > 0).map(c => [c, new SendRateLimiter(kv, config.sendRates[c], Date.now, onDegraded, c)] as const));
		this.sendDeps = { store, queue: this.queue, channels, limiters, config, accepting: () => this.worker.running, unsubscribeUrl: deps.unsubscribeUrl, sendTimeVariables: deps.sendTimeVariables, recipientLocale: deps.recipientLocale };
		this.worker = new LeaseWorker<NotificationDoc>({
			concurrency: config.concurrency,
			pollMs: config.pollMs,
			// While the storage fails, nothing is claimed until a probe wrote.
			ready: async () => !deps.health.failing || (await this.storageBack()),
			// Claim in batches: one claim for many free slots costs one transaction, not many;
			// after an urgent wake, one free slot is enough.
			defer: free => free < Math.ceil(config.concurrency / 2) && !this.urgent,
			claim: async free => {
				this.urgent = false;
				return this.queue.claim(free, config.leaseMs, { holdLow: await deps.holdLow() });
			},
			handle: n => (deps.tracer ? traceDelivery(deps.tracer, n, span => this.process(n, span)) : this.process(n)),
			onClaimError: err => logger.error("Claiming notifications failed", { error: (err as Error).message }),
			onHandleError: (err, n) => logger.error("Processing a notification failed", { notificationId: n.id, error: (err as Error).message })
		});
	}

	start(): void {
		const cfg = this.deps.config;
		if (cfg.leaseMs < cfg.sendTimeoutMs + LEASE_MARGIN_MS) {
			this.deps.logger.warn("NOTIFICATION_LEASE_MS is shorter than EMAIL_SEND_TIMEOUT_MS plus a margin: leases are renewed before each send, so they last longer than configured.");
		}
		this.worker.start();
		this.reaper = setInterval(() => {
			if (this.deps.health.failing || this.held > 0) return;
			this.queue.reapExpired(cfg.maxAttempts).then(
				n => n > 0 && this.wake(),
				err => this.deps.logger.error("Returning expired leases failed", { error: (err as Error).message })
			);
		}, Math.max(100, Math.floor(cfg.leaseMs / 4)));
	}

	/**
	 * Wakes the loop when it idles. An urgent wake (a CRITICAL or HIGH notification was
	 * queued) also lets the next free slot claim at once, where the loop otherwise waits
	 * for half its slots: the claim takes the most urgent first, so the notification waits
	 * for one send under way to finish rather than for half of them.
	 */
	wake(urgent = false): void {
		if (urgent) this.urgent = true;
		this.worker.wake();
	}

	/**
	 * Sends already under way finish and record their result; nothing new starts, and
	 * what was claimed but not handed to a provider is released. Later calls wait for the same stop.
	 */
	stop(): Promise<void> {
		this.stopped ??= this.halt();
		return this.stopped;
	}

	private async halt(): Promise<void> {
		if (this.reaper) clearInterval(this.reaper);
		const stopped = this.worker.stop();
		this.stopping.abort();
		await stopped;
		for (const sender of this.deps.channels.values()) await sender.close();
	}

	/** Sends one claimed notification and records what became of it; never rejects. */
	private process(n: NotificationDoc, span?: Span): Promise<void> {
		return send(this.sendDeps, n)
			.then(outcome => {
				span?.addTags({ "notification.status": outcome.status });
				return this.settle(outcome);
			})
			.catch(err => {
				if (isStorageFault(err)) this.deps.health.failed(err, "notification outbox");
				// Nothing was handed to a provider: the notification waits in the queue, not in this node's lease.
				if (err instanceof NotStarted || isStorageFault(err)) return this.release(n);
				if (!(err instanceof LeaseLost)) throw err;
				this.deps.logger.warn("Lease lost before sending; another node has the notification", { notificationId: n.id });
			})
			// The lease expires and another attempt follows: nothing is lost.
			.catch(err => this.deps.logger.error("Processing a notification failed", { notificationId: n.id, error: (err as Error).message }));
	}

	/**
	 * Probes with a real write every poll interval until one succeeds (true) or the
	 * dispatcher stops (false). Everyone waiting for the storage waits on one probe loop.
	 */
	private storageBack(): Promise<boolean> {
		this.recovery ??= (async () => {
			while (this.worker.running) {
				try {
					await this.deps.probeStorage();
					return true;
				} catch {
					await pause(this.deps.config.pollMs, undefined, { signal: this.stopping.signal }).catch(() => undefined);
				}
			}
			return false;
		})().finally(() => {
			this.recovery = null;
		});
		return this.recovery;
	}

	/** Makes a write about a claimed notification; one the storage refused is made again once it takes writes. */
	private async record(n: NotificationDoc, write: () => Promise<boolean>): Promise<boolean> {
		let waiting = false;
		try {
			for (;;) {
				try {
					return await write();
				} catch (err) {
					if (!isStorageFault(err)) throw err;
					this.deps.health.failed(err, "notification outcomes");
					if (!waiting) {
						this.held += 1;
						this.deps.logger.warn("The storage refused a notification's outcome; it is written once the storage takes writes again", { notificationId: n.id });
					}
					waiting = true;
					// Stopping: the lease expires and another node sends the notification.
					if (!(await this.storageBack())) throw err;
				}
			}
		} finally {
			if (waiting) this.held -= 1;
		}
	}

	private async release(n: NotificationDoc): Promise<void> {
		if (!(await this.record(n, () => this.queue.release(n)))) this.deps.logger.warn("Lease lost before it was released", { notificationId: n.id });
	}

	private async settle(outcome: Outcome): Promise<void> {
		if (await this.record(outcome.notification, () => this.queue.settle(outcome))) this.deps.onSettled(outcome);
		else this.deps.logger.warn("Lease lost before the result was recorded", { notificationId: outcome.notification.id });
	}
}
