import MailComposer from "nodemailer/lib/mail-composer";
import type { EmailMessage } from "./types";

/** Builds the RFC 5322 message (with a Message-ID) with nodemailer's composer. */
export function compose(message: EmailMessage, messageId: string): Promise<Buffer> {
	const mail = new MailComposer({
		from: message.from,
		to: message.to,
		subject: message.subject,
		html: message.html,
		text: message.text,
		messageId,
		headers: { "X-Notification-Id": message.notificationId },
		newline: "\n"
	} as ConstructorParameters<typeof MailComposer>[0]);
	return new Promise((resolve, reject) => mail.compile().build((err, raw) => (err ? reject(err) : resolve(raw))));
}
