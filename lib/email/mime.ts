import nodemailer from "nodemailer";
import type { EmailMessage } from "./types";

const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });

/** Builds the RFC 5322 message (with a Message-ID) as nodemailer would send it. */
export async function compose(message: EmailMessage, messageId: string): Promise<Buffer> {
	const info = await composer.sendMail({
		from: message.from,
		to: message.to,
		subject: message.subject,
		html: message.html,
		text: message.text,
		messageId,
		headers: { "X-Notification-Id": message.notificationId }
	});
	return info.message as Buffer;
}
