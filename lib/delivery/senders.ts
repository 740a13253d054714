/**
 * What a transport promises the dispatcher: one rendered message in, the provider's
 * message id out, or a SendError that says whether trying again can help.
 */
import type { Channel, Priority, TemplateParts } from "./model";

export { SendError } from "../errors/send-error";

export interface SendResult {
	/** The provider's id for the message; webhooks refer to it. */
	messageId: string;
	/** The provider that took the message, by its name in EMAIL_PROVIDERS or SMS_PROVIDERS (`web-push` for PUSH). */
	provider?: string;
}

/** A provider's circuit as `GET /admin/providers` shows it (lib/channels/circuit.ts). */
export type ProviderState = "up" | "down" | "probing";

export interface ProviderHealth {
	channel: Channel;
	name: string;
	/** up: used in its turn; down: skipped until its cooldown ends; probing: one message is trying it again. */
	state: ProviderState;
	consecutiveFailures: number;
	/** The code of its latest retryable failure (SMTP_421, ECONNREFUSED, SEND_TIMEOUT, ...). */
	lastError?: string;
	/** When it entered this state (ISO 8601). */
	since: string;
}

export interface SendOptions {
	/** PUSH takes its TTL and Urgency from it; NORMAL when absent. */
	priority?: Priority;
	/** EMAIL: the one-click unsubscribe link to carry (RFC 8058). */
	unsubscribeUrl?: string;
}

/** What became of one push subscription in a PUSH send. */
export interface SubscriptionDelivery {
	subscriptionId: string;
	outcome: "sent" | "gone" | "failed";
	status?: number;
	error?: string;
}

export interface ChannelResult extends SendResult {
	/** SMS: the parts the text travelled in. */
	segments?: number;
	/** PUSH: one entry per subscription of the actor; gone ones are already deleted. */
	subscriptions?: SubscriptionDelivery[];
}

export interface ChannelSender {
	readonly channel: Channel;
	/**
	 * How many providers one send may try in turn (failover), each within the send
	 * timeout: the dispatcher waits, and holds its lease, that many timeouts. 1 when absent.
	 */
	readonly providerCount?: number;
	/**
	 * Throws SendError (permanent or not) when the provider refuses or fails; `signal`
	 * abandons the send. `to` is an email address (EMAIL), an E.164 number (SMS) or an
	 * actorId (PUSH).
	 */
	send(notificationId: string, to: string, parts: TemplateParts, signal?: AbortSignal, options?: SendOptions): Promise<ChannelResult>;
	close(): Promise<void>;
}
