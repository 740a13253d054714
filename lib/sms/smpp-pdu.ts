/**
 * The SMPP 3.4 details the SMPP provider needs that are pure functions: how a
 * command_status reads as a SendError, how a text becomes submit_sm parameters, and
 * how a delivery receipt reads as an SmsReceipt.
 */
import { randomInt } from "node:crypto";
import { errors as ESME } from "smpp";
import { SendError } from "../errors/send-error";
import { splitSms } from "./segments";
import type { SmsReceipt } from "./types";

/** The message's own faults: the destination or the text. Everything else (throttling, queue full, system errors, binds) is retried. */
const PERMANENT_STATUS = new Set(
	["ESME_RINVMSGLEN", "ESME_RINVDSTADR", "ESME_RINVDSTTON", "ESME_RINVDSTNPI", "ESME_RX_P_APPN", "ESME_RX_R_APPN"].map(n => ESME[n])
);

/** Of those, the ones about the number itself: it is suppressed for SMS. */
const NUMBER_UNUSABLE_STATUS = new Set(["ESME_RINVDSTADR"].map(n => ESME[n]));

const STATUS_NAMES = new Map(Object.entries(ESME).map(([name, status]) => [status, name]));

export function statusName(status: number): string {
	return STATUS_NAMES.get(status) ?? `ESME_0x${status.toString(16).padStart(8, "0")}`;
}

export function statusError(status: number): SendError {
	const name = statusName(status);
	return new SendError(name, PERMANENT_STATUS.has(status), name, NUMBER_UNUSABLE_STATUS.has(status));
}

const DATA_CODING = { GSM7: 0x00, UCS2: 0x08 } as const;
/** SMPP 3.4 §5.2.12: bits 2-5 of esm_class say "SMSC delivery receipt". */
const RECEIPT_TYPE_MASK = 0x3c;
const MC_DELIVERY_RECEIPT = 0x04;

/** International numbers (TON 1, NPI 1) without the "+"; a letter sender id is alphanumeric (TON 5). */
function address(addr: string): { ton: number; npi: number; addr: string } {
	if (addr.startsWith("+")) return { ton: 1, npi: 1, addr: addr.slice(1) };
	if (/^[0-9]+$/.test(addr)) return { ton: 0, npi: 1, addr };
	return { ton: 5, npi: 0, addr };
}

/**
 * One submit_sm per part. GSM-7 goes as data_coding 0 (the SMSC default alphabet,
 * GSM 03.38 on any SMSC that sends to handsets), anything else as UCS-2 (8). A long
 * text is split here, each part with an 8-bit-reference concatenation header (UDH
 * 00 03 ref total seq), rather than sent whole in message_payload: every SMSC and
 * handset takes concatenated parts, message_payload is optional in SMPP 3.4 and
 * many SMSCs refuse or truncate it, and the parts sent are the segments counted and
 * billed. Only the last part asks for a delivery receipt, so one message has one id
 * and one receipt.
 */
export function submitParams(message: { from?: string; to: string; text: string }): Record<string, unknown>[] {
	const { encoding, parts } = splitSms(message.text);
	const ref = randomInt(256);
	const source = address(message.from ?? "");
	const dest = address(message.to);
	return parts.map((part, i) => ({
		source_addr_ton: message.from ? source.ton : 0,
		source_addr_npi: message.from ? source.npi : 0,
		source_addr: source.addr,
		dest_addr_ton: dest.ton,
		dest_addr_npi: dest.npi,
		destination_addr: dest.addr,
		esm_class: 0,
		registered_delivery: i === parts.length - 1 ? 0x01 : 0x00,
		data_coding: DATA_CODING[encoding],
		short_message: parts.length === 1 ? part : { udh: Buffer.from([0x05, 0x00, 0x03, ref, parts.length, i + 1]), message: part }
	}));
}

const FINAL_STATE: Record<string, SmsReceipt["status"]> = {
	DELIVRD: "DELIVERED",
	DELIVERED: "DELIVERED",
	EXPIRED: "FAILED",
	DELETED: "FAILED",
	UNDELIV: "FAILED",
	REJECTD: "FAILED",
	UNKNOWN: "FAILED"
};
/** The message_state TLV's final values (SMPP 3.4 §5.2.28) as the receipt text names them. */
const STATE_NAMES: Record<number, string> = { 2: "DELIVRD", 3: "EXPIRED", 4: "DELETED", 5: "UNDELIV", 7: "UNKNOWN", 8: "REJECTD" };

export function isDeliveryReceipt(esmClass: number): boolean {
	return (esmClass & RECEIPT_TYPE_MASK) === MC_DELIVERY_RECEIPT;
}

/**
 * A receipt's text is `id:… sub:… dlvrd:… submit date:… done date:… stat:DELIVRD
 * err:…`; the receipted_message_id and message_state TLVs, when present, win over
 * the text. Null for states that are not final (ENROUTE, ACCEPTD) and for anything
 * without an id or a state.
 */
export function parseReceipt(text: string, tlv: { receiptedMessageId?: string; messageState?: number } = {}): SmsReceipt | null {
	const field = (name: string) => new RegExp(`(?:^|\\s)${name}:(\\S+)`, "i").exec(text)?.[1];
	const id = tlv.receiptedMessageId || field("id");
	const stat = ((tlv.messageState !== undefined ? STATE_NAMES[tlv.messageState] : undefined) ?? field("stat") ?? "").toUpperCase();
	const status = Object.hasOwn(FINAL_STATE, stat) ? FINAL_STATE[stat] : undefined;
	if (!id || !status) return null;
	const err = field("err");
	return { providerMessageId: id.slice(0, 128), status, detail: { stat, ...(err ? { err: err.slice(0, 16) } : {}) } };
}
