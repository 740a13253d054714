/**
 * The delivery channels with a span for every provider call: a child of the delivery
 * attempt's span (lib/tracing/delivery.ts), tagged with the notification's id, its
 * channel and the provider, never the recipient or the message. Used only when
 * tracing is on (lib/channels/index.ts).
 */
import type { ChannelResult, ChannelSender, SendOptions } from "../channels/types";
import type { Channel } from "../notifications/model";
import type { TemplateParts } from "../notifications/render";
import { childSpan, within } from "./scope";

class TracedChannel implements ChannelSender {
	readonly channel: Channel;

	constructor(private readonly inner: ChannelSender, private readonly provider: string) {
		this.channel = inner.channel;
	}

	send(notificationId: string, to: string, parts: TemplateParts, signal?: AbortSignal, options?: SendOptions): Promise<ChannelResult> {
		const span = childSpan(`send ${this.channel}`, {
			type: "provider",
			tags: { "notification.id": notificationId, "notification.channel": this.channel, "notification.provider": this.provider }
		});
		const call = () => this.inner.send(notificationId, to, parts, signal, options);
		return span ? within(span, call) : call();
	}

	close(): Promise<void> {
		return this.inner.close();
	}
}

/** `providers` names each channel's provider (ses, smtp, file, aws, smpp, web-push). */
export function traceChannels(senders: ChannelSender[], providers: Record<Channel, string>): ChannelSender[] {
	return senders.map(s => new TracedChannel(s, providers[s.channel]));
}
