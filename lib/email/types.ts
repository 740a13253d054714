import type { Priority, SendResult } from "../delivery";

/**
 * Email delivery behind one interface: SES v2, SMTP, or .eml files (default).
 */
export interface EmailMessage {
	notificationId: string;
	/** How urgent the send is: the file outbox writes the most urgent first. Not part of the mail. */
	priority?: Priority;
	from: string;
	to: string;
	subject: string;
	html?: string;
	text?: string;
	/** RFC 8058 one-click unsubscribe: an https URL that takes a POST (non-CRITICAL mail only). */
	unsubscribeUrl?: string;
}


export interface EmailProvider {
	readonly kind: "ses" | "smtp" | "file";
	/**
	 * `signal` abandons the send: SES aborts its request, SMTP drops the connection
	 * before the server's final answer can count, the file provider finishes its
	 * local write (it cannot hang on a peer).
	 */
	send(message: EmailMessage, signal?: AbortSignal): Promise<SendResult>;
	close(): Promise<void>;
}

export { SendError, type SendResult } from "../delivery";
