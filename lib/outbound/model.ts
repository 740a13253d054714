/**
 * Outbound webhooks: endpoints their owners register, and the deliveries of their
 * notifications' status events to them, kept in the store until each succeeds or
 * its retries run out.
 */
import type { Creator } from "../delivery";

export interface EndpointDoc {
	id: string;
	owner: Creator;
	/** `${kind}:${id}` of the owner: what deliveries are fanned out by. */
	ownerKey: string;
	url: string;
	/**
	 * SHA-256 of the owner key and the url, unique: an owner has one endpoint per url.
	 * Absent on endpoints made before it was kept (those are found by url).
	 */
	urlKey?: string;
	/** Event types it receives (`notification.sent`, ...); empty means all. */
	events: string[];
	/** `whsec_` + base64 of the signing key: shown once, kept to sign. */
	secret: string;
	createdAt: string;
}

export type DeliveryState = "PENDING" | "SENDING" | "DELIVERED" | "FAILED";

export interface DeliveryDoc {
	/** `${endpointId}:${event seq}`: one delivery per endpoint and event, however often it is enqueued. */
	id: string;
	endpointId: string;
	/** The endpoint's owner (`kind:id`): a node sends only so many at once per owner. Absent on deliveries stored before it was kept. */
	ownerKey?: string;
	notificationId: string;
	/** The event's seq: deliveries of one notification to one endpoint go in this order. */
	seq: string;
	/** The `webhook-id` every attempt carries, so receivers can drop repeats. */
	webhookId: string;
	type: string;
	/** The JSON body, as signed. */
	body: string;
	state: DeliveryState;
	attempts: number;
	availableAt: string;
	createdAt: string;
	leaseToken?: string;
	leaseUntil?: string;
}

/** One try of a delivery, as the endpoint's owner sees it in the list. */
export interface AttemptDoc {
	id: string;
	endpointId: string;
	webhookId: string;
	type: string;
	at: string;
	outcome: "succeeded" | "failed";
	responseCode?: number;
	error?: string;
}

export function ownerKey(c: Creator): string {
	return `${c.kind}:${c.id}`;
}

export const EVENT_TYPE = /^notification\.[a-z]+$/;

export function eventType(status: string): string {
	return `notification.${status.toLowerCase()}`;
}
