/** SMS: the template's text part, to an E.164 number, through the configured providers in order. */
import type { TemplateParts } from "../delivery";
import { SendError } from "../errors/send-error";
import { parseE164, type SmsMessage, type SmsResult } from "../sms";
import type { FailoverProvider } from "./failover";
import type { ChannelResult, ChannelSender } from "./types";

export class SmsChannel implements ChannelSender {
	readonly channel = "SMS" as const;
	readonly providerCount: number;

	constructor(
		private readonly provider: FailoverProvider<SmsMessage, SmsResult>,
		private readonly from?: string
	) {
		this.providerCount = provider.count;
	}

	async send(notificationId: string, to: string, parts: TemplateParts, signal?: AbortSignal): Promise<ChannelResult> {
		// Both are checked when the notification is accepted; a record from before that check fails here for good.
		const number = parseE164(to);
		if (!number) throw new SendError("INVALID_PHONE_NUMBER", true);
		if (parts.text == null) throw new SendError("NO_TEXT_PART", true);
		return this.provider.send({ notificationId, from: this.from, to: number, text: parts.text }, signal);
	}

	close(): Promise<void> {
		return this.provider.close();
	}
}
