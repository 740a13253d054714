/**
 * Notification metrics for Prometheus, next to Moleculer's own: queue depth and the
 * age of the oldest waiting notification per priority, and counters of outcomes
 * (their rate is the send rate). Registered only when metrics are on.
 */
import type { ServiceBroker } from "moleculer";
import { emailRates, queueSnapshot } from "./readings";
import type { Store } from "../store";

export const METRIC = {
	queueDepth: "notifications_queue_depth",
	oldestAge: "notifications_queue_oldest_age_seconds",
	outcomes: "notifications_outcomes_total",
	bounceRate: "notifications_email_bounce_rate",
	complaintRate: "notifications_email_complaint_rate"
} as const;

/** How often the rates are counted again. */
export const RATE_SAMPLE_MS = 60_000;

export type Outcome = "sent" | "failed" | "retried" | "suppressed";

/** The outcome counted for each event a dispatcher records. */
const OUTCOME_OF_EVENT: Record<string, Outcome> = { SENT: "sent", FAILED: "failed", ATTEMPT_FAILED: "retried", SUPPRESSED: "suppressed" };

export function registerNotificationMetrics(broker: ServiceBroker): void {
	if (!broker.isMetricsEnabled()) return;
	const m = broker.metrics;
	if (!m.hasMetric(METRIC.queueDepth)) {
		m.register({ type: "gauge", name: METRIC.queueDepth, labelNames: ["priority"], description: "Notifications due and waiting to be sent (QUEUED); scheduled ones are not counted" });
		m.register({ type: "gauge", name: METRIC.oldestAge, labelNames: ["priority"], description: "Age in seconds of the oldest QUEUED notification that is due" });
		m.register({ type: "counter", name: METRIC.outcomes, labelNames: ["outcome"], description: "Dispatch outcomes: sent, failed, retried, suppressed" });
		m.register({ type: "gauge", name: METRIC.bounceRate, description: "Share of email sent in the last 24 h that bounced (SES reviews accounts above 0.05)" });
		m.register({ type: "gauge", name: METRIC.complaintRate, description: "Share of email sent in the last 24 h reported as spam (SES reviews above 0.001; Gmail's limit is 0.003)" });
	}
}

/** Counts a dispatcher's recorded outcome by the event that recorded it. */
export function countOutcome(broker: ServiceBroker, event: string): void {
	if (broker.isMetricsEnabled()) broker.metrics.increment(METRIC.outcomes, { outcome: OUTCOME_OF_EVENT[event] });
}

/** Reads the queue and sets the gauges. */
export async function sampleQueue(broker: ServiceBroker, store: Store, now = Date.now()): Promise<void> {
	if (!broker.isMetricsEnabled()) return;
	for (const q of await queueSnapshot(store, now)) {
		broker.metrics.set(METRIC.queueDepth, q.depth, { priority: q.priority });
		broker.metrics.set(METRIC.oldestAge, q.oldestAgeSeconds, { priority: q.priority });
	}
}

/** Sets the rate gauges. */
export async function sampleRates(broker: ServiceBroker, store: Store, now = Date.now()): Promise<void> {
	if (!broker.isMetricsEnabled()) return;
	const r = await emailRates(store, now);
	broker.metrics.set(METRIC.bounceRate, r.bounceRate);
	broker.metrics.set(METRIC.complaintRate, r.complaintRate);
}
