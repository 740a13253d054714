/**
 * The provider-event parsers against recorded payloads (test/fixtures/providers/, built
 * from the examples in AWS's documentation; see the README there): each file is the
 * body SNS posts to the webhook, and the table says what the platform reads from it.
 * SES events (identity notifications with notificationType, configuration-set events
 * with eventType) read into delivery reports (lib/email/ses-events.ts); AWS End User
 * Messaging SMS events into SMS receipts (lib/sms/events.ts); the SNS envelope is
 * recognised and its signed string made as SNS makes it (lib/sns/verify.ts). The
 * signatures in the files are not AWS's: signed messages are the integration tests'
 * (webhook.test.ts, sms-outcomes.test.ts), which sign with a certificate of their own.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { DeliveryReport } from "../../lib/delivery";
import { parseSesEvent } from "../../lib/email/ses-events";
import { parseSmsEvent } from "../../lib/sms/events";
import type { SmsReceipt } from "../../lib/sms/types";
import { canonicalString, isSnsMessage, type SnsMessage } from "../../lib/sns/verify";

const DIR = path.join(__dirname, "../fixtures/providers");
/** The notification ids the fixtures echo back (the SES tag, the SMS context). */
const NID = "0193e2a4-5b1c-7d2e-8f30-4a5b6c7d8e9f";
const NID2 = "0193e2a4-6c2d-7e3f-9a41-5b6c7d8e9fa0";

function fixture(name: string): SnsMessage {
	const body: unknown = JSON.parse(readFileSync(path.join(DIR, name), "utf8"));
	if (!isSnsMessage(body)) throw new Error(`${name} is not an SNS message`);
	return body;
}

const SES: Array<[string, DeliveryReport | null]> = [
	[
		"ses-delivery.json",
		{ channel: "EMAIL", event: "DELIVERED", providerMessageId: "0100019ad1e2f3a4-5b6c7d8e-1111-4a2b-9c3d-4e5f6a7b8c9d-000000", notificationId: undefined, detail: { smtpResponse: "250 2.6.0 Message received" } }
	],
	[
		"ses-bounce-permanent.json",
		{
			channel: "EMAIL",
			event: "BOUNCED",
			providerMessageId: "0100019ad1e49f10-6d7e8f90-2222-4b3c-8d9e-0f1a2b3c4d5e-000000",
			notificationId: undefined,
			detail: { bounceType: "Permanent" },
			// Suppressed as the address is normalised everywhere else.
			suppress: ["jane.doe@example.com"]
		}
	],
	[
		"ses-complaint.json",
		{ channel: "EMAIL", event: "COMPLAINT", providerMessageId: "0100019ad1e7aa01-7e8f9a0b-3333-4c4d-9e0f-1a2b3c4d5e6f-000000", notificationId: undefined, detail: {}, suppress: ["richard@example.com"] }
	],
	[
		"ses-complaint-no-feedback.json",
		{ channel: "EMAIL", event: "COMPLAINT", providerMessageId: "0100019ad1e7aa02-8f9a0b1c-4444-4d5e-8f1a-2b3c4d5e6f70-000000", notificationId: undefined, detail: {}, suppress: ["richard@example.com"] }
	],
	[
		"ses-event-delivery.json",
		{
			channel: "EMAIL",
			event: "DELIVERED",
			providerMessageId: "0100019ad1f0b1c2-0a1b2c3d-5555-4e6f-9a2b-3c4d5e6f7081-000000",
			notificationId: NID,
			detail: { smtpResponse: "250 2.0.0 OK 1764327601 d2e3f4a5b6c7-8d9e0f1a2b3c4d.98 - gsmtp" }
		}
	],
	// A transient bounce (a full mailbox) is reported but suppresses nothing.
	["ses-event-bounce-transient.json", { channel: "EMAIL", event: "BOUNCED", providerMessageId: "0100019ad1f5d0e1-1b2c3d4e-6666-4f70-8b3c-4d5e6f708192-000000", notificationId: NID2, detail: { bounceType: "Transient" } }],
	[
		"ses-event-bounce-permanent.json",
		{ channel: "EMAIL", event: "BOUNCED", providerMessageId: "0100019ad1f6e1f2-2c3d4e5f-7777-4081-9c4d-5e6f708192a3-000000", notificationId: NID, detail: { bounceType: "Permanent" }, suppress: ["gone@example.com"] }
	],
	[
		"ses-event-complaint.json",
		{ channel: "EMAIL", event: "COMPLAINT", providerMessageId: "0100019ad1f7f2a3-3d4e5f60-8888-4192-8d5e-6f708192a3b4-000000", notificationId: NID, detail: {}, suppress: ["richard@example.com"] }
	],
	// No outcome: SES took the message, or the recipient opened it.
	["ses-event-send.json", null],
	["ses-event-open.json", null],
	["sns-subscription-confirmation.json", null]
];

const SMS: Array<[string, SmsReceipt | null]> = [
	[
		"sms-text-delivered.json",
		{ providerMessageId: "862a8790-60c0-4430-9b2b-658bd1a2b3c4", status: "DELIVERED", notificationId: NID, detail: { eventType: "TEXT_DELIVERED", messageStatus: "DELIVERED" } }
	],
	// The documentation's own example: its context holds no id of ours.
	[
		"sms-text-successful.json",
		{ providerMessageId: "862a8790-60c0-4430-9b2b-658bdexample", status: "DELIVERED", notificationId: undefined, detail: { eventType: "TEXT_SUCCESSFUL", messageStatus: "SUCCESSFUL" } }
	],
	// The number itself cannot take messages: suppressed for SMS.
	[
		"sms-text-invalid.json",
		{ providerMessageId: "0b4c9d8e-82e2-4652-9d4d-87adf3c4d5e6", status: "FAILED", notificationId: NID2, detail: { eventType: "TEXT_INVALID", messageStatus: "INVALID" }, numberUnusable: true }
	],
	[
		"sms-text-blocked.json",
		{ providerMessageId: "1c5d0e9f-93f3-4763-8e5e-98be04d5e6f7", status: "FAILED", notificationId: NID2, detail: { eventType: "TEXT_BLOCKED", messageStatus: "BLOCKED" }, numberUnusable: true }
	],
	// One message failed, not the number.
	[
		"sms-text-carrier-unreachable.json",
		{ providerMessageId: "2d6e1f0a-a4a4-4874-9f6f-a9cf05e6f708", status: "FAILED", notificationId: NID, detail: { eventType: "TEXT_CARRIER_UNREACHABLE", messageStatus: "CARRIER_UNREACHABLE" } }
	],
	// Still on the way, or a failure AWS marks as not final: nothing is recorded.
	["sms-text-queued.json", null],
	["sms-text-pending.json", null],
	["sms-text-unreachable-interim.json", null],
	// Another channel's event on the SMS topic is not an SMS receipt.
	["ses-event-delivery.json", null]
];

describe("provider events from recorded payloads", () => {
	it("should have a row for every fixture", () => {
		const files = readdirSync(DIR).filter(f => f.endsWith(".json"));
		expect(new Set([...SES, ...SMS].map(([f]) => f))).toEqual(new Set(files));
	});

	describe("SES events (lib/email/ses-events.ts)", () => {
		it.each(SES)("should read %s", (name, expected) => {
			expect(parseSesEvent(fixture(name).Message)).toEqual(expected);
		});

		it("should read the event alike however SNS carried it: as identity notification or configuration-set event", () => {
			const event = JSON.parse(fixture("ses-event-bounce-permanent.json").Message) as Record<string, unknown>;
			const { eventType, ...rest } = event;
			expect(parseSesEvent(JSON.stringify({ notificationType: eventType, ...rest }))).toEqual(parseSesEvent(JSON.stringify(event)));
		});

		it("should take only a notification id shaped like one from the message tag", () => {
			const event = JSON.parse(fixture("ses-event-delivery.json").Message) as { mail: { tags: Record<string, string[]> } };
			for (const tag of [["not-an-id"], [`${NID}x`], [], [42], "0193e2a4-5b1c-7d2e-8f30-4a5b6c7d8e9f"]) {
				event.mail.tags.notificationId = tag as string[];
				expect(parseSesEvent(JSON.stringify(event))?.notificationId).toBeUndefined();
			}
		});

		it.each([
			["not JSON", "{"],
			["a JSON string", '"Delivery"'],
			["null", "null"],
			["an event type that is an object's own property name", JSON.stringify({ eventType: "constructor", mail: { messageId: "m" } })],
			["a Delivery without a message id", JSON.stringify({ notificationType: "Delivery", mail: {} })],
			["a Delivery whose message id is a number", JSON.stringify({ notificationType: "Delivery", mail: { messageId: 7 } })],
			["a Bounce with an empty message id", JSON.stringify({ notificationType: "Bounce", mail: { messageId: "" }, bounce: { bounceType: "Permanent" } })]
		])("should read %s as nothing", (_what, message) => {
			expect(parseSesEvent(message)).toBeNull();
		});

		it("should keep at most 200 characters of an SMTP response and drop recipients that are no address", () => {
			const delivery = parseSesEvent(JSON.stringify({ notificationType: "Delivery", mail: { messageId: "m" }, delivery: { smtpResponse: "2".repeat(500) } }));
			expect((delivery?.detail.smtpResponse as string).length).toBe(200);
			const bounce = parseSesEvent(
				JSON.stringify({
					notificationType: "Bounce",
					mail: { messageId: "m" },
					bounce: { bounceType: "Permanent", bouncedRecipients: [{ emailAddress: " A@Example.com " }, {}, { emailAddress: 5 }, { emailAddress: `${"a".repeat(250)}@x.io` }, null] }
				})
			);
			expect(bounce?.suppress).toEqual(["a@example.com"]);
			// A bounce without its type reads as Undetermined and suppresses nothing.
			expect(parseSesEvent(JSON.stringify({ notificationType: "Bounce", mail: { messageId: "m" }, bounce: {} }))).toEqual({ channel: "EMAIL", event: "BOUNCED", providerMessageId: "m", notificationId: undefined, detail: { bounceType: "Undetermined" } });
		});
	});

	describe("AWS End User Messaging SMS events (lib/sms/events.ts)", () => {
		it.each(SMS)("should read %s", (name, expected) => {
			expect(parseSmsEvent(fixture(name).Message)).toEqual(expected);
		});

		it("should treat TEXT_DELIVERED and TEXT_SUCCESSFUL alike, and read every final failure type as FAILED", () => {
			const base = JSON.parse(fixture("sms-text-delivered.json").Message) as Record<string, unknown>;
			const read = (eventType: string) => parseSmsEvent(JSON.stringify({ ...base, eventType }))?.status;
			expect(["TEXT_DELIVERED", "TEXT_SUCCESSFUL"].map(read)).toEqual(["DELIVERED", "DELIVERED"]);
			const failures = ["TEXT_BLOCKED", "TEXT_TTL_EXPIRED", "TEXT_CARRIER_UNREACHABLE", "TEXT_INVALID", "TEXT_INVALID_MESSAGE", "TEXT_CARRIER_BLOCKED", "TEXT_UNREACHABLE", "TEXT_SPAM", "TEXT_UNKNOWN", "TEXT_PROTECT_BLOCKED"];
			expect(failures.map(read)).toEqual(failures.map(() => "FAILED"));
			expect(["TEXT_QUEUED", "TEXT_PENDING", "TEXT_SENT", "VOICE_COMPLETED", "constructor"].map(read)).toEqual([undefined, undefined, undefined, undefined, undefined]);
		});

		it.each([
			["not JSON", "]"],
			["an array", "[]"],
			["an event without a message id", JSON.stringify({ eventType: "TEXT_DELIVERED", isFinal: true })],
			["a message id longer than 200 characters", JSON.stringify({ eventType: "TEXT_DELIVERED", messageId: "m".repeat(201) })],
			["an event type that is not a string", JSON.stringify({ eventType: ["TEXT_DELIVERED"], messageId: "m" })]
		])("should read %s as nothing", (_what, message) => {
			expect(parseSmsEvent(message)).toBeNull();
		});

		it("should take only a UUID from the context as the notification id, and cut a long status", () => {
			const base = JSON.parse(fixture("sms-text-delivered.json").Message) as Record<string, unknown>;
			for (const context of [{ notificationId: "x" }, { notificationId: 7 }, "ctx", null]) {
				expect(parseSmsEvent(JSON.stringify({ ...base, context }))?.notificationId).toBeUndefined();
			}
			expect((parseSmsEvent(JSON.stringify({ ...base, messageStatus: "S".repeat(100) }))?.detail.messageStatus as string).length).toBe(64);
		});
	});

	describe("the SNS envelope (lib/sns/verify.ts)", () => {
		it("should make the string SNS signs for a notification: its fields in order, Subject only when present", () => {
			const withSubject = fixture("ses-event-delivery.json");
			expect(canonicalString(withSubject)).toBe(
				["Message", withSubject.Message, "MessageId", withSubject.MessageId, "Subject", "Amazon SES Email Event Notification", "Timestamp", withSubject.Timestamp, "TopicArn", withSubject.TopicArn, "Type", "Notification", ""].join("\n")
			);
			const without = fixture("ses-delivery.json");
			expect(canonicalString(without)).toBe(["Message", without.Message, "MessageId", without.MessageId, "Timestamp", without.Timestamp, "TopicArn", without.TopicArn, "Type", "Notification", ""].join("\n"));
		});

		it("should make the string SNS signs for a subscription confirmation, with its SubscribeURL and Token", () => {
			const m = fixture("sns-subscription-confirmation.json");
			expect(canonicalString(m)).toBe(["Message", m.Message, "MessageId", m.MessageId, "SubscribeURL", m.SubscribeURL, "Timestamp", m.Timestamp, "Token", m.Token, "TopicArn", m.TopicArn, "Type", "SubscriptionConfirmation", ""].join("\n"));
		});

		it("should not take a body without a required field or of another type as an SNS message", () => {
			const m = fixture("sms-text-delivered.json") as unknown as Record<string, unknown>;
			for (const field of ["Type", "MessageId", "TopicArn", "Message", "Timestamp", "SignatureVersion", "Signature", "SigningCertURL"]) {
				const { [field]: _dropped, ...rest } = m;
				expect(isSnsMessage(rest)).toBe(false);
			}
			expect(isSnsMessage({ ...m, Type: "Other" })).toBe(false);
			expect(isSnsMessage({ ...m, Message: { eventType: "TEXT_DELIVERED" } })).toBe(false);
			expect(isSnsMessage(JSON.stringify(m))).toBe(false);
		});
	});
});
