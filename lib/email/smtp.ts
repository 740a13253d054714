import nodemailer, { type SendMailOptions, type Transporter } from "nodemailer";
import { mailFields } from "./mime";
import { SendError, type EmailMessage, type EmailProvider, type SendResult } from "./types";

/**
 * SMTP through nodemailer: 5xx replies are permanent, 4xx and network errors are
 * retried. An aborted send (the dispatcher's send timeout) tears the connection down
 * at once, so a server's late "250" cannot be read as success after the dispatcher
 * has already scheduled a retry; the message keeps its Message-ID on that retry.
 */
export class SmtpEmailProvider implements EmailProvider {
	readonly kind = "smtp" as const;
	private readonly transport: Transporter;

	constructor(url: string, timeoutMs: number) {
		this.transport = nodemailer.createTransport(url, {
			connectionTimeout: timeoutMs,
			greetingTimeout: timeoutMs,
			socketTimeout: timeoutMs,
			// Destroy rather than half-close on abort: the server sees the connection end
			// before its final reply, which is where an MTA must not take the message.
			socketCloseTimeout: 0
		} as never);
	}

	async send(message: EmailMessage, signal?: AbortSignal): Promise<SendResult> {
		try {
			const info = await this.transport.sendMail({ ...mailFields(message), ...(signal ? { signal } : {}) } as SendMailOptions);
			return { messageId: String(info.messageId).replace(/^<|>$/g, "") };
		} catch (err) {
			const e = err as { responseCode?: number; code?: string };
			if (e.code === "EABORT") throw new SendError("SEND_TIMEOUT", false);
			// 530/534/535: our authentication, not the message, is wrong; retried until it is fixed.
			if (e.responseCode && e.responseCode >= 500 && ![530, 534, 535].includes(e.responseCode)) throw new SendError(`SMTP_${e.responseCode}`, true);
			throw new SendError(e.responseCode ? `SMTP_${e.responseCode}` : (e.code ?? "SMTP_ERROR"), false);
		}
	}

	async close(): Promise<void> {
		this.transport.close();
	}
}
