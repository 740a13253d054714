/**
 * SMS delivery behind one interface: JSON files (default), AWS End User Messaging
 * SMS, or a direct SMPP 3.4 bind to an SMSC.
 */
import type { SmsProviderKind } from "../config";

export interface SmsMessage {
	notificationId: string;
	/** The sender (SMS_ORIGINATION_IDENTITY); the provider's default when unset. */
	from?: string;
	/** E.164, already normalised (parseE164). */
	to: string;
	text: string;
}

export interface SmsResult {
	/** The provider's id for the message; delivery receipts and events refer to it. */
	messageId: string;
	/** Parts the text travels in (what a carrier bills). */
	segments: number;
}

/** A final delivery outcome the provider reported for a message it accepted. */
export interface SmsReceipt {
	providerMessageId: string;
	status: "DELIVERED" | "FAILED";
	/** The notification id, when the provider echoes it back (AWS's message context). */
	notificationId?: string;
	/** A few facts from the provider's report (its state and error code); never the whole payload. */
	detail: Record<string, unknown>;
	/**
	 * The number itself cannot take messages (it does not exist, or the recipient's
	 * device or carrier blocks them): sending to it again cannot help, so it is
	 * suppressed for SMS. Absent for failures of one message (expiry, carrier trouble,
	 * content).
	 */
	numberUnusable?: true;
}

/** May be async: a rejection is logged, and the receipt is not asked for again (it was already answered). */
export type ReceiptListener = (receipt: SmsReceipt) => void | Promise<void>;

export interface SmsProvider {
	readonly kind: SmsProviderKind;
	/** Throws SendError (permanent or not); `signal` abandons the send. */
	send(message: SmsMessage, signal?: AbortSignal): Promise<SmsResult>;
	close(): Promise<void>;
}
