import nodemailer, { type Transporter } from "nodemailer";
import { SendError, type EmailMessage, type EmailProvider, type SendResult } from "./types";

/** SMTP through nodemailer: 5xx replies are permanent, 4xx and network errors are retried. */
export class SmtpEmailProvider implements EmailProvider {
	readonly kind = "smtp" as const;
	private readonly transport: Transporter;

	constructor(url: string, timeoutMs: number) {
		this.transport = nodemailer.createTransport(url, {
			connectionTimeout: timeoutMs,
			greetingTimeout: timeoutMs,
			socketTimeout: timeoutMs
		} as never);
	}

	async send(message: EmailMessage): Promise<SendResult> {
		try {
			const info = await this.transport.sendMail({
				from: message.from,
				to: message.to,
				subject: message.subject,
				html: message.html,
				text: message.text,
				headers: { "X-Notification-Id": message.notificationId }
			});
			return { messageId: String(info.messageId).replace(/^<|>$/g, "") };
		} catch (err) {
			const e = err as { responseCode?: number; code?: string };
			// 530/534/535: our authentication, not the message, is wrong; retried until it is fixed.
			if (e.responseCode && e.responseCode >= 500 && ![530, 534, 535].includes(e.responseCode)) throw new SendError(`SMTP_${e.responseCode}`, true);
			throw new SendError(e.responseCode ? `SMTP_${e.responseCode}` : (e.code ?? "SMTP_ERROR"), false);
		}
	}

	async close(): Promise<void> {
		this.transport.close();
	}
}
