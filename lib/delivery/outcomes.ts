/**
 * What happened to a notification, as it leaves the domain (status events for live
 * streams and outbound webhooks) and as it comes back from a provider (delivery reports
 * read from SES, SNS SMS events and SMPP receipts).
 */
import type { Channel, Creator, Status } from "./model";

/** A recorded event as it leaves the process: what live streams and outbound webhooks are told. */
export interface StatusEvent {
	notificationId: string;
	/** Who created the notification: its webhook endpoints receive the event. */
	owner: Creator;
	/** The event's place in the timeline (its `seq`): the SSE id a client resumes after. */
	seq: string;
	event: string;
	occurredAt: string;
	status: Status;
	detail?: Record<string, unknown>;
}

/**
 * The broker event that carries recorded events to every gateway node, whose live
 * streams follow them: all the events one node recorded in the same moment at once.
 */
export const STATUS_EVENTS = "notifications.statuses";

export interface StatusEvents {
	events: StatusEvent[];
}

export type DeliveryEvent = "DELIVERED" | "BOUNCED" | "COMPLAINT" | "FAILED";

export interface DeliveryReport {
	/** The channel of the provider that reports it: it matches notifications of that channel only. */
	channel: Channel;
	event: DeliveryEvent;
	providerMessageId: string;
	/** The notification id the provider echoes back with the message, when it does. */
	notificationId?: string;
	/** A few facts worth keeping from the provider's event; never its whole payload. */
	detail: Record<string, unknown>;
	/**
	 * For an outcome that must stop further mail (a permanent bounce, a complaint): the
	 * addresses it names, or an empty list when it names none. Absent otherwise.
	 */
	suppress?: string[];
	/** What the suppression records as its reason; the event when absent. */
	suppressReason?: string;
}
