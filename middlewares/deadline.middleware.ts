/**
 * Bounded calls, as Moleculer's own Timeout middleware bounds them, without a timer
 * per call. Moleculer races each call against a new setTimeout (`Promise.race` and
 * two more promises, a timer inserted into and removed from Node's timer lists):
 * about a twentieth of the work of an authenticated read through the gateway, which
 * makes two calls. Here a call still fails with RequestTimeoutError once its timeout
 * passes, but every call under way is one entry in a set, and one interval (running
 * only while calls are under way) fails those past their deadline, up to
 * DEADLINE_RESOLUTION_MS late.
 *
 * Everything else is Moleculer's: the timeout of a call is its own `timeout` option,
 * else its action's `timeout`, else the broker's `requestTimeout`, and 0 means none;
 * `ctx.startHrTime` is set so nested and remote calls get what is left of it
 * (Moleculer's distributed timeouts); a timed-out stream hears of it; the timeout is
 * logged and counted in the same metric. moleculer.config.ts puts this middleware
 * where Moleculer's built-in list has Timeout (builtInMiddlewares).
 */
import { Errors, METRIC, type Context, type Middleware, type ServiceBroker } from "moleculer";
import { Stream } from "node:stream";
import { LiveSet } from "../lib/live-set";

/** How late past its deadline a call may fail: the sweep's interval. */
export const DEADLINE_RESOLUTION_MS = 25;

interface Pending {
	at: number;
	fail(): void;
}

/** Calls under way with their deadlines; one interval fails those past theirs. */
export class Deadlines {
	// Not a Set: see lib/live-set.ts (a Set here made every other run promote its requests).
	private readonly pending = new LiveSet<Pending>();
	private timer: NodeJS.Timeout | undefined;

	constructor(
		private readonly resolutionMs = DEADLINE_RESOLUTION_MS,
		private readonly now: () => number = Date.now
	) {}

	/** Calls under way that have a deadline. */
	get size(): number {
		return this.pending.size;
	}

	/** Settles as `work` does, or rejects with `timedOut()`'s error once `ms` have passed first. */
	race<T>(work: Promise<T>, ms: number, timedOut: () => unknown): Promise<T> {
		return new Promise<T>((resolve, reject) => {
			const entry: Pending = { at: this.now() + ms, fail: () => reject(timedOut()) };
			this.pending.add(entry);
			// Like Moleculer's timer, the interval keeps the process up while a call waits.
			this.timer ??= setInterval(() => this.sweep(), this.resolutionMs);
			work.then(
				value => {
					this.pending.delete(entry);
					resolve(value);
				},
				(err: unknown) => {
					this.pending.delete(entry);
					reject(err);
				}
			);
		});
	}

	private sweep(): void {
		const now = this.now();
		for (const entry of this.pending) {
			if (entry.at > now) continue;
			this.pending.delete(entry);
			entry.fail();
		}
		if (this.pending.size === 0) this.stop();
	}

	/** Stops the interval; calls still under way no longer time out. */
	stop(): void {
		clearInterval(this.timer);
		this.timer = undefined;
	}
}

type Handler = (ctx: Context) => Promise<unknown>;

interface ActionLike {
	name: string;
	timeout?: number;
	service?: { fullName?: string };
}

export function DeadlineMiddleware(deadlines = new Deadlines()): Middleware {
	function wrap(this: ServiceBroker, next: Handler, action: ActionLike): Handler {
		const broker = this;
		const actionName = action.name;
		const service = action.service?.fullName ?? null;
		return ctx => {
			if (ctx.options.timeout == null) ctx.options.timeout = action.timeout ?? broker.options.requestTimeout;
			const ms = ctx.options.timeout ?? 0;
			if (!(ms > 0)) return next(ctx);
			// Moleculer's Context.call gives nested calls what is left of the timeout from here.
			if (!ctx.startHrTime) ctx.startHrTime = process.hrtime();
			const work = next(ctx);
			// Moleculer's own middleware bounds only promises too.
			if (typeof work?.then !== "function") return work;
			return deadlines.race(work, ms, () => {
				const nodeID = ctx.nodeID;
				broker.logger.warn(`Request '${actionName}' is timed out.`, { requestID: ctx.requestID, nodeID, timeout: ms });
				if (ctx.params instanceof Stream) ctx.params.emit("moleculer-timeout-middleware", ms);
				broker.metrics.increment(METRIC.MOLECULER_REQUEST_TIMEOUT_TOTAL, { service, action: actionName });
				return new Errors.RequestTimeoutError({ action: actionName, nodeID });
			});
		};
	}

	return {
		name: "Deadline",
		created(broker: ServiceBroker) {
			if (broker.isMetricsEnabled()) {
				broker.metrics.register({
					name: METRIC.MOLECULER_REQUEST_TIMEOUT_TOTAL,
					type: METRIC.TYPE_COUNTER,
					labelNames: ["service", "action"],
					description: "Number of timed out requests",
					rate: true
				});
			}
		},
		stopped() {
			deadlines.stop();
		},
		localAction: wrap,
		remoteAction: wrap
	} as unknown as Middleware;
}
