/**
 * Delivery channels. A channel turns a rendered notification into a message on its
 * medium and returns the provider's message id. EMAIL is the one with a provider
 * today; SMS and PUSH are refused when a notification is accepted
 * (DELIVERABLE_CHANNELS), and a sender added here is all the dispatcher needs.
 */
import type { Config } from "../config";
import { createEmailProvider, type EmailProvider, type SendResult } from "../email";
import type { Channel } from "../notifications/model";
import type { TemplateParts } from "../notifications/render";

export interface ChannelSender {
	readonly channel: Channel;
	/** Throws SendError (permanent or not) when the provider refuses or fails; `signal` abandons the send. */
	send(notificationId: string, to: string, parts: TemplateParts, signal?: AbortSignal): Promise<SendResult>;
	close(): Promise<void>;
}

class EmailChannel implements ChannelSender {
	readonly channel = "EMAIL" as const;

	constructor(private readonly provider: EmailProvider, private readonly from: string) {}

	send(notificationId: string, to: string, parts: TemplateParts, signal?: AbortSignal): Promise<SendResult> {
		return this.provider.send({ notificationId, from: this.from, to, ...parts }, signal);
	}

	close(): Promise<void> {
		return this.provider.close();
	}
}

export function createChannels(config: Config): Map<Channel, ChannelSender> {
	const email = new EmailChannel(createEmailProvider(config), config.notifications.fromEmail);
	return new Map<Channel, ChannelSender>([[email.channel, email]]);
}
