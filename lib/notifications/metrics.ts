/**
 * Notification metrics for Prometheus, next to Moleculer's own: queue depth and the
 * age of the oldest waiting notification per priority, and counters of outcomes
 * (their rate is the send rate). Registered only when metrics are on.
 */
import type { ServiceBroker } from "moleculer";
import { PRIORITIES, type NotificationDoc } from "./model";
import type { Store } from "../store";

export const METRIC = {
	queueDepth: "notifications_queue_depth",
	oldestAge: "notifications_queue_oldest_age_seconds",
	outcomes: "notifications_outcomes_total"
} as const;

export type Outcome = "sent" | "failed" | "retried" | "suppressed";

/** The outcome counted for each event a dispatcher records. */
const OUTCOME_OF_EVENT: Record<string, Outcome> = { SENT: "sent", FAILED: "failed", ATTEMPT_FAILED: "retried", SUPPRESSED: "suppressed" };

export function registerNotificationMetrics(broker: ServiceBroker): void {
	if (!broker.isMetricsEnabled()) return;
	const m = broker.metrics;
	if (!m.hasMetric(METRIC.queueDepth)) {
		m.register({ type: "gauge", name: METRIC.queueDepth, labelNames: ["priority"], description: "Notifications waiting to be sent (QUEUED)" });
		m.register({ type: "gauge", name: METRIC.oldestAge, labelNames: ["priority"], description: "Age in seconds of the oldest QUEUED notification that is due" });
		m.register({ type: "counter", name: METRIC.outcomes, labelNames: ["outcome"], description: "Dispatch outcomes: sent, failed, retried, suppressed" });
	}
}

/** Counts a dispatcher's recorded outcome by the event that recorded it. */
export function countOutcome(broker: ServiceBroker, event: string): void {
	if (broker.isMetricsEnabled()) broker.metrics.increment(METRIC.outcomes, { outcome: OUTCOME_OF_EVENT[event] });
}

/** Reads the queue and sets the gauges. */
export async function sampleQueue(broker: ServiceBroker, store: Store, now = Date.now()): Promise<void> {
	if (!broker.isMetricsEnabled()) return;
	const coll = store.collection<NotificationDoc>("notifications");
	for (const [rank, priority] of PRIORITIES.entries()) {
		const depth = await coll.count({ status: "QUEUED", priorityRank: rank });
		const oldest = await coll.findOne(
			{ status: "QUEUED", priorityRank: rank, availableAt: { $lte: new Date(now).toISOString() } },
			{ sort: { status: 1, priorityRank: 1, availableAt: 1, seq: 1 } }
		);
		broker.metrics.set(METRIC.queueDepth, depth, { priority });
		broker.metrics.set(METRIC.oldestAge, oldest ? Math.max(0, (now - Date.parse(oldest.availableAt)) / 1000) : 0, { priority });
	}
}
