/**
 * AWS End User Messaging SMS (pinpoint-sms-voice-v2) SendTextMessage. The
 * notification id travels in the message context, which AWS copies into every
 * event of the message, so events can be matched without our database.
 */
import { PinpointSMSVoiceV2Client, SendTextMessageCommand } from "@aws-sdk/client-pinpoint-sms-voice-v2";
import { AwsSender, awsSendError, type AwsSenderOptions } from "../aws";
import { SendError } from "../errors/send-error";
import { countSegments } from "./segments";
import type { SmsMessage, SmsProvider, SmsResult } from "./types";

/**
 * Never worth retrying: the message or the number is wrong, or the recipient opted
 * out or is blocked (ConflictException carries DESTINATION_PHONE_NUMBER_OPTED_OUT).
 */
const PERMANENT = new Set(["ValidationException", "ConflictException"]);
/** ConflictException reasons about the number itself: the recipient opted out (texted STOP). */
const NUMBER_UNUSABLE = new Set(["DESTINATION_PHONE_NUMBER_OPTED_OUT"]);

export class AwsSmsProvider extends AwsSender<PinpointSMSVoiceV2Client> implements SmsProvider {
	readonly kind = "aws" as const;

	constructor(opts: AwsSenderOptions) {
		super(opts, config => new PinpointSMSVoiceV2Client(config));
	}

	async send(message: SmsMessage, signal?: AbortSignal): Promise<SmsResult> {
		try {
			const out = await this.client.send(
				new SendTextMessageCommand({
					DestinationPhoneNumber: message.to,
					OriginationIdentity: message.from,
					MessageBody: message.text,
					MessageType: "TRANSACTIONAL",
					ConfigurationSetName: this.opts.configurationSet,
					Context: { notificationId: message.notificationId }
				}),
				{ abortSignal: signal }
			);
			if (!out.MessageId) throw new SendError("NO_MESSAGE_ID", false);
			return { messageId: out.MessageId, segments: countSegments(message.text) };
		} catch (err) {
			const error = awsSendError(err, PERMANENT);
			const reason = (err as { Reason?: unknown }).Reason;
			if (error.permanent && typeof reason === "string" && NUMBER_UNUSABLE.has(reason)) throw new SendError(error.code, true, reason, true);
			throw error;
		}
	}
}
