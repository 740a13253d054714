import type { SendResult } from "../email";
import type { Channel, Priority } from "../notifications/model";
import type { TemplateParts } from "../notifications/render";

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
	 * Throws SendError (permanent or not) when the provider refuses or fails; `signal`
	 * abandons the send. `to` is an email address (EMAIL), an E.164 number (SMS) or an
	 * actorId (PUSH).
	 */
	send(notificationId: string, to: string, parts: TemplateParts, signal?: AbortSignal, options?: SendOptions): Promise<ChannelResult>;
	close(): Promise<void>;
}
