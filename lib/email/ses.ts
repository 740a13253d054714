/**
 * Amazon SES v2 SendEmail. The notification id travels as a message tag, so events
 * published by a configuration set can be traced back without our database.
 */
import { SendEmailCommand, SESv2Client } from "@aws-sdk/client-sesv2";
import { AwsSender, awsSendError, type AwsSenderOptions } from "../aws";
import { extraHeaders } from "./mime";
import { SendError, type EmailMessage, type EmailProvider, type SendResult } from "./types";

/** Never worth retrying: the message or the sender is wrong. */
const PERMANENT = new Set([
	"MessageRejected",
	"MailFromDomainNotVerifiedException",
	"BadRequestException",
	"NotFoundException",
	"InvalidParameterValue"
]);

export class SesEmailProvider extends AwsSender<SESv2Client> implements EmailProvider {
	readonly kind = "ses" as const;

	constructor(opts: AwsSenderOptions) {
		super(opts, config => new SESv2Client(config));
	}

	async send(message: EmailMessage, signal?: AbortSignal): Promise<SendResult> {
		const body: Record<string, { Data: string; Charset: string }> = {};
		if (message.html != null) body.Html = { Data: message.html, Charset: "UTF-8" };
		if (message.text != null) body.Text = { Data: message.text, Charset: "UTF-8" };
		try {
			const out = await this.client.send(
				new SendEmailCommand({
					FromEmailAddress: message.from,
					Destination: { ToAddresses: [message.to] },
					Content: {
						Simple: {
							Subject: { Data: message.subject, Charset: "UTF-8" },
							Body: body,
							// SES keeps these as given (it replaces Message-ID alone); X-Notification-Id and the RFC 8058 pair.
							Headers: Object.entries(extraHeaders(message)).map(([Name, Value]) => ({ Name, Value }))
						}
					},
					EmailTags: [{ Name: "notificationId", Value: message.notificationId }],
					ConfigurationSetName: this.opts.configurationSet
				}),
				{ abortSignal: signal }
			);
			if (!out.MessageId) throw new SendError("NO_MESSAGE_ID", false);
			return { messageId: out.MessageId };
		} catch (err) {
			throw awsSendError(err, PERMANENT);
		}
	}
}
