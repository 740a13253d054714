/**
 * The pure parts of SMS: E.164 numbers, GSM-7 and UCS-2 segments, SMPP receipts and
 * statuses, AWS SMS events; and the file provider's outbox.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createChannels } from "../../lib/channels";
import { loadConfig } from "../../lib/config";
import { countSegments, parseE164, parseSmsEvent, smsEncoding, splitSms } from "../../lib/sms";
import { parseReceipt, statusError, submitParams } from "../../lib/sms/smpp-pdu";
import { tempDir } from "../helpers/platform";

describe("parseE164", () => {
	it.each([
		["+14155550100", "+14155550100"],
		[" +1 (415) 555-0100 ", "+14155550100"],
		["+44 7911 123456", "+447911123456"],
		["+33 6.12.34.56.78", "+33612345678"],
		["+4479111234", null],
		["14155550100", null],
		["004414155550100", null],
		["+1415555010", null],
		["+999123456", null],
		["call +14155550100", null],
		["+1-800-FLOWERS", null],
		["", null]
	])("should read %j as %j", (input, expected) => {
		expect(parseE164(input)).toBe(expected);
	});
});

describe("SMS segments", () => {
	it.each([
		["", "GSM7", 1],
		["a".repeat(160), "GSM7", 1],
		["a".repeat(161), "GSM7", 2],
		["a".repeat(306), "GSM7", 2],
		["a".repeat(307), "GSM7", 3],
		["é".repeat(160), "GSM7", 1],
		["€".repeat(80), "GSM7", 1],
		["€".repeat(81), "GSM7", 2],
		["{}[]~^|\\".repeat(10), "GSM7", 1],
		["{}[]~^|\\".repeat(11), "GSM7", 2],
		["á".repeat(70), "UCS2", 1],
		["á".repeat(71), "UCS2", 2],
		["á".repeat(134), "UCS2", 2],
		["á".repeat(135), "UCS2", 3],
		["a".repeat(159) + "ç", "UCS2", 3],
		["😀".repeat(35), "UCS2", 1],
		["😀".repeat(36), "UCS2", 2]
	])("should send %j as %s in %i segment(s)", (text, encoding, segments) => {
		expect(smsEncoding(text)).toBe(encoding);
		expect(countSegments(text)).toBe(segments);
		expect(splitSms(text).parts.join("")).toBe(text);
	});

	it("should never split an extension character's two septets or a surrogate pair", () => {
		expect(splitSms("a".repeat(152) + "€".repeat(5)).parts).toEqual(["a".repeat(152), "€".repeat(5)]);
		expect(splitSms("😀".repeat(36)).parts).toEqual(["😀".repeat(33), "😀".repeat(3)]);
	});

	it("should carry one concatenation reference in every part of a long message", () => {
		const parts = submitParams({ from: "+18005550199", to: "+14155550100", text: "a".repeat(200) });
		expect(parts).toHaveLength(2);
		expect(parts[0]).toMatchObject({ source_addr: "18005550199", source_addr_ton: 1, destination_addr: "14155550100", data_coding: 0, registered_delivery: 0 });
		const udh = parts.map(p => (p.short_message as { udh: Buffer }).udh);
		expect(udh[0][3]).toBe(udh[1][3]);
		expect([...udh[1]]).toEqual([0x05, 0x00, 0x03, udh[0][3], 2, 2]);
		expect(parts[1].registered_delivery).toBe(1);
		expect(submitParams({ to: "+14155550100", text: "hi" })[0]).toMatchObject({ source_addr: "", source_addr_ton: 0, short_message: "hi" });
	});
});

describe("SMPP receipts and statuses", () => {
	const text = (stat: string, id = "abc123") => `id:${id} sub:001 dlvrd:001 submit date:2501011200 done date:2501011201 stat:${stat} err:000 text:Hello`;

	it.each([
		[text("DELIVRD"), {}, { providerMessageId: "abc123", status: "DELIVERED", detail: { stat: "DELIVRD", err: "000" } }],
		[text("UNDELIV"), {}, { providerMessageId: "abc123", status: "FAILED", detail: { stat: "UNDELIV", err: "000" } }],
		[text("EXPIRED"), {}, { providerMessageId: "abc123", status: "FAILED", detail: { stat: "EXPIRED", err: "000" } }],
		[text("REJECTD"), {}, { providerMessageId: "abc123", status: "FAILED", detail: { stat: "REJECTD", err: "000" } }],
		[text("delivrd"), {}, { providerMessageId: "abc123", status: "DELIVERED", detail: { stat: "DELIVRD", err: "000" } }],
		[text("ENROUTE"), {}, null],
		[text("ACCEPTD"), {}, null],
		["stat:DELIVRD", {}, null],
		[text("ENROUTE", "1f"), { receiptedMessageId: "0000001F", messageState: 5 }, { providerMessageId: "0000001F", status: "FAILED", detail: { stat: "UNDELIV", err: "000" } }],
		["", { receiptedMessageId: "m1", messageState: 2 }, { providerMessageId: "m1", status: "DELIVERED", detail: { stat: "DELIVRD" } }]
	])("should read %j with TLVs %j as %j", (receipt, tlv, expected) => {
		expect(parseReceipt(receipt, tlv)).toEqual(expected);
	});

	it.each([
		[0x0b, "ESME_RINVDSTADR", true, true],
		[0x01, "ESME_RINVMSGLEN", true, false],
		[0x58, "ESME_RTHROTTLED", false, false],
		[0x14, "ESME_RMSGQFUL", false, false],
		[0x08, "ESME_RSYSERR", false, false],
		[0x0d, "ESME_RBINDFAIL", false, false],
		[0x0400, "ESME_0x00000400", false, false]
	])("should read command_status %i as %s (permanent: %s, number unusable: %s)", (status, code, permanent, recipientUnusable) => {
		expect(statusError(status)).toMatchObject({ code, permanent, recipientUnusable });
	});
});

describe("parseSmsEvent", () => {
	const id = randomUUID();
	const event = (eventType: string, extra: object = {}) => JSON.stringify({ eventType, isFinal: true, messageId: "m-1", messageStatus: "X", context: { notificationId: id }, ...extra });

	it.each([
		[event("TEXT_DELIVERED"), { providerMessageId: "m-1", status: "DELIVERED", notificationId: id, detail: { eventType: "TEXT_DELIVERED", messageStatus: "X" } }],
		[event("TEXT_SUCCESSFUL"), { providerMessageId: "m-1", status: "DELIVERED", notificationId: id, detail: { eventType: "TEXT_SUCCESSFUL", messageStatus: "X" } }],
		[event("TEXT_BLOCKED"), { providerMessageId: "m-1", status: "FAILED", notificationId: id, detail: { eventType: "TEXT_BLOCKED", messageStatus: "X" }, numberUnusable: true }],
		[event("TEXT_CARRIER_UNREACHABLE", { context: { notificationId: "not-a-uuid" } }), { providerMessageId: "m-1", status: "FAILED", notificationId: undefined, detail: { eventType: "TEXT_CARRIER_UNREACHABLE", messageStatus: "X" } }],
		[event("TEXT_INVALID", { messageStatus: undefined }), { providerMessageId: "m-1", status: "FAILED", notificationId: id, detail: { eventType: "TEXT_INVALID" }, numberUnusable: true }],
		[event("TEXT_QUEUED"), null],
		[event("TEXT_PENDING"), null],
		[event("TEXT_UNREACHABLE", { isFinal: false }), null],
		[event("TEXT_DELIVERED", { messageId: "" }), null],
		[event("constructor"), null],
		["not json", null],
		["null", null]
	])("should read %s as %j", (message, expected) => {
		expect(parseSmsEvent(message)).toEqual(expected);
	});
});

describe("the file SMS provider", () => {
	it("should write exactly the contract's JSON, readable by the owner only, and report the segments", async () => {
		const dataDir = tempDir();
		try {
			const sms = createChannels(loadConfig({ DATA_DIR: dataDir, SMS_ORIGINATION_IDENTITY: "ACME" })).get("SMS")!;
			const id = randomUUID();
			const result = await sms.send(id, "+44 7911 123456", { subject: "ignored", html: "<p>ignored</p>", text: "Zażółć gęślą jaźń ".repeat(5) });
			expect(result.segments).toBe(2);
			const dir = path.join(dataDir, "outbox", "sms");
			const files = fs.readdirSync(dir);
			expect(files).toEqual([`${id}.${result.messageId}.json`]);
			expect(JSON.parse(fs.readFileSync(path.join(dir, files[0]), "utf8"))).toStrictEqual({ notificationId: id, to: "+447911123456", from: "ACME", text: "Zażółć gęślą jaźń ".repeat(5) });
			expect(fs.statSync(path.join(dir, files[0])).mode & 0o777).toBe(0o600);
			expect(fs.statSync(dir).mode & 0o777).toBe(0o700);

			const noSender = createChannels(loadConfig({ DATA_DIR: dataDir })).get("SMS")!;
			const other = randomUUID();
			const r = await noSender.send(other, "+14155550100", { subject: "", text: "hi" });
			expect(JSON.parse(fs.readFileSync(path.join(dir, `${other}.${r.messageId}.json`), "utf8"))).toStrictEqual({ notificationId: other, to: "+14155550100", from: null, text: "hi" });
		} finally {
			fs.rmSync(dataDir, { recursive: true, force: true });
		}
	});
});
