/**
 * Amazon SES v2 SendEmail. The notification id travels as a message tag, so events
 * published by a configuration set can be traced back without our database.
 */
import { SendEmailCommand, SESv2Client } from "@aws-sdk/client-sesv2";
import { isLoopbackEndpoint } from "../crypto";
import { SendError, type EmailMessage, type EmailProvider, type SendResult } from "./types";

/** Never worth retrying: the message or the sender is wrong. */
const PERMANENT = new Set([
	"MessageRejected",
	"MailFromDomainNotVerifiedException",
	"BadRequestException",
	"NotFoundException",
	"InvalidParameterValue"
]);

export interface SesOptions {
	region: string;
	endpoint?: string;
	configurationSet?: string;
	timeoutMs: number;
}

export class SesEmailProvider implements EmailProvider {
	readonly kind = "ses" as const;
	private readonly client: SESv2Client;

	constructor(private readonly opts: SesOptions) {
		this.client = new SESv2Client({
			region: opts.region,
			endpoint: opts.endpoint,
			maxAttempts: 1,
			requestHandler: { requestTimeout: opts.timeoutMs, connectionTimeout: Math.min(opts.timeoutMs, 3000) },
			// A local emulator takes any credentials; real SES (and a VPC endpoint) uses the default chain.
			...(isLoopbackEndpoint(opts.endpoint) ? { credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {})
		});
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
					Content: { Simple: { Subject: { Data: message.subject, Charset: "UTF-8" }, Body: body } },
					EmailTags: [{ Name: "notificationId", Value: message.notificationId }],
					ConfigurationSetName: this.opts.configurationSet
				}),
				{ abortSignal: signal }
			);
			if (!out.MessageId) throw new SendError("NO_MESSAGE_ID", false);
			return { messageId: out.MessageId };
		} catch (err) {
			if (err instanceof SendError) throw err;
			const name = (err as Error).name || "SES_ERROR";
			const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
			// Only the message's own faults are permanent. Throttling, paused sending and
			// credential or signature trouble (expired keys, clock skew, 403) are the
			// account's, and pass once it is fixed.
			const accountTrouble = /TooManyRequests|LimitExceeded|Throttl|SendingPaused|AccountSuspended|AccessDenied|ExpiredToken|UnrecognizedClient|InvalidSignature|SignatureDoesNotMatch|InvalidClientTokenId|Credentials/.test(name) || status === 403;
			const permanent = !accountTrouble && (PERMANENT.has(name) || (status !== undefined && status >= 400 && status < 500));
			throw new SendError(name, permanent);
		}
	}

	async close(): Promise<void> {
		this.client.destroy();
	}
}
