/**
 * One delivery attempt of a notification as a span. A dispatcher claims notifications
 * in its own loop, outside any call, so the span is made here from the traceparent
 * stored when the notification was accepted (NotificationDoc.traceparent): a child of
 * the accepting action's span, in the request's trace, however much later and on
 * whichever node it runs. Each attempt is a span of its own (notification.attempt).
 * A notification accepted without tracing starts a trace of its own.
 */
import type { Span, Tracer } from "moleculer";
import type { NotificationDoc } from "../notifications/model";
import { parseTraceparent } from "./ids";
import { within } from "./scope";

export function traceDelivery(tracer: Tracer, n: NotificationDoc, work: (span: Span) => Promise<void>): Promise<void> {
	const parent = n.traceparent ? parseTraceparent(n.traceparent) : null;
	const span = tracer.startSpan(`deliver ${n.channel}`, {
		type: "delivery",
		...(parent ? { traceID: parent.traceId, parentID: parent.spanId, sampled: parent.sampled } : {}),
		tags: { "notification.id": n.id, "notification.channel": n.channel, "notification.priority": n.priority, "notification.attempt": n.attempts }
	});
	return within(span, () => work(span));
}
