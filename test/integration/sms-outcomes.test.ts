/**
 * SMS delivery outcomes end to end, through the gateway and the dispatcher:
 * - AWS End User Messaging SMS events, signed as SNS signs them (with a certificate
 *   the test makes and serves over local HTTPS, as the email webhook's tests do), at
 *   POST /notifications/webhooks/sms-provider: DELIVERED, FAILED, suppression of an
 *   unusable number for SMS only, and the same signature refusals as for email;
 * - SMPP delivery receipts from an SMSC built from the smpp package's own server on
 *   loopback, which sends the receipt the moment it has answered submit_sm (before
 *   the dispatcher has written SENT): DELIVERED and FAILED on the record.
 * Either way an outcome applies to an SMS only: an SMS event or receipt never touches an
 * email that carries the same provider message id, nor an SES event an SMS.
 */
import https from "node:https";
import type { AddressInfo } from "node:net";
import * as smpp from "smpp";
import type { PDU, Session } from "smpp";
import { isSuppressed, suppressionId } from "../../lib/notifications/suppressions";
import type { NotificationDoc, SuppressionDoc } from "../../lib/notifications/model";
import type { SnsMessage } from "../../lib/sns/verify";
import { http, runtime, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { serviceToken } from "../helpers/senders";
import { makeCert, notification, sign, startHttpsHost, type HttpsHost, type TestCert } from "../helpers/sns";

const WEBHOOK = "/notifications/webhooks/sms-provider";

async function sendSms(p: Platform, token: string, to: string): Promise<string> {
	const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { channel: "SMS", to, template: { subject: "s", text: "Your code is 123456" } } });
	expect(res.status).toBe(201);
	return res.body.notificationId;
}

async function sendEmail(p: Platform, token: string, to: string): Promise<string> {
	const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to, template: { subject: "s", text: "t" } } });
	expect(res.status).toBe(201);
	return res.body.notificationId;
}

async function settled(p: Platform, id: string, statuses: string[]): Promise<NotificationDoc> {
	const notifications = runtime(p).store().collection<NotificationDoc>("notifications");
	let doc: NotificationDoc | null = null;
	await waitFor(`notification ${id} to be ${statuses.join(" or ")}`, async () => statuses.includes((doc = await notifications.get(id))?.status ?? ""));
	return doc!;
}

async function timeline(p: Platform, token: string, id: string): Promise<{ event: string; detail?: Record<string, unknown> }[]> {
	const view = await http(p.baseUrl, "GET", `/notifications/${id}`, { token });
	expect(view.status).toBe(200);
	return view.body.events;
}

describe("the sms-provider webhook", () => {
	let tls: TestCert;
	let host: HttpsHost;
	let p: Platform;
	let token: string;
	let certUrl: string;

	/** An AWS End User Messaging SMS event as its configuration set publishes it. */
	const smsEvent = (eventType: string, n: NotificationDoc, extra: object = {}) => ({
		eventType,
		eventVersion: "1.0",
		eventTimestamp: Date.now(),
		isFinal: true,
		originationPhoneNumber: "+12065550152",
		destinationPhoneNumber: n.to,
		messageId: n.providerMessageId,
		messageType: "TRANSACTIONAL",
		messageStatus: eventType.replace("TEXT_", ""),
		context: { notificationId: n.id },
		totalMessageParts: 1,
		...extra
	});

	const post = (message: SnsMessage) => http(p.baseUrl, "POST", WEBHOOK, { body: JSON.stringify(message), headers: { "content-type": "text/plain; charset=UTF-8" } });
	const signed = (event: object) => sign(notification(event, certUrl), tls.key);

	beforeAll(async () => {
		tls = makeCert();
		host = await startHttpsHost(tls, tls.cert);
		p = await startPlatform({ SNS_SIGNING_CERT_HOST_PATTERN: "^localhost:\\d+$", DISPATCHER_POLL_MS: "50" });
		runtime(p).useSnsAgent(new https.Agent({ ca: tls.cert }));
		// A service's: a user may send no SMS.
		token = await serviceToken(p);
		certUrl = `https://localhost:${host.port}/SimpleNotificationService-test.pem`;
	});
	afterAll(async () => {
		await p?.stop();
		await host?.close();
	});

	it("should record DELIVERED for a signed TEXT_DELIVERED event, once however often SNS repeats it", async () => {
		const n = await settled(p, await sendSms(p, token, "+14155550101"), ["SENT"]);
		const message = signed(smsEvent("TEXT_DELIVERED", n));
		const res = await post(message);
		expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { outcome: "recorded" } });
		expect((await post(message)).body).toEqual({ outcome: "duplicate" });
		await expect(settled(p, n.id, ["DELIVERED"])).resolves.toMatchObject({ status: "DELIVERED" });
		const events = await timeline(p, token, n.id);
		expect(events.map(e => e.event)).toEqual(["QUEUED", "SENT", "DELIVERED"]);
		expect(events[2].detail).toMatchObject({ eventType: "TEXT_DELIVERED", messageStatus: "DELIVERED", snsMessageId: message.MessageId });
	});

	it("should record FAILED with the event type for a final failure, and keep sending to a number that failed for a passing reason", async () => {
		const number = "+14155550102";
		const n = await settled(p, await sendSms(p, token, number), ["SENT"]);
		expect((await post(signed(smsEvent("TEXT_CARRIER_UNREACHABLE", n)))).body).toEqual({ outcome: "recorded" });
		await settled(p, n.id, ["FAILED"]);
		const events = await timeline(p, token, n.id);
		expect(events.map(e => e.event)).toEqual(["QUEUED", "SENT", "FAILED"]);
		expect(events[2].detail).toMatchObject({ eventType: "TEXT_CARRIER_UNREACHABLE" });
		await expect(isSuppressed(runtime(p).store(), "SMS", number)).resolves.toBe(false);
		await expect(settled(p, await sendSms(p, token, number), ["SENT"])).resolves.toMatchObject({ status: "SENT" });
	});

	it("should let a delivery win over a failure whatever order they arrive in", async () => {
		const first = await settled(p, await sendSms(p, token, "+14155550103"), ["SENT"]);
		await post(signed(smsEvent("TEXT_DELIVERED", first)));
		expect((await post(signed(smsEvent("TEXT_UNREACHABLE", first)))).body).toEqual({ outcome: "recorded" });
		await expect(settled(p, first.id, ["DELIVERED", "FAILED"])).resolves.toMatchObject({ status: "DELIVERED" });

		const second = await settled(p, await sendSms(p, token, "+14155550104"), ["SENT"]);
		await post(signed(smsEvent("TEXT_UNREACHABLE", second)));
		await settled(p, second.id, ["FAILED"]);
		await post(signed(smsEvent("TEXT_DELIVERED", second)));
		await expect(settled(p, second.id, ["DELIVERED"])).resolves.toMatchObject({ status: "DELIVERED" });
	});

	it("should suppress a number reported invalid for SMS only, so the next SMS to it ends SUPPRESSED unsent", async () => {
		const number = "+14155550105";
		const n = await settled(p, await sendSms(p, token, number), ["SENT"]);
		await post(signed(smsEvent("TEXT_INVALID", n)));
		await settled(p, n.id, ["FAILED"]);
		const store = runtime(p).store();
		const record = await store.collection<SuppressionDoc>("suppressions").get(suppressionId("SMS", number));
		expect(record).toMatchObject({ channel: "SMS", reason: "TEXT_INVALID", notificationId: n.id });
		await expect(isSuppressed(store, "SMS", number)).resolves.toBe(true);
		// The same string on another channel is not suppressed.
		await expect(isSuppressed(store, "EMAIL", number)).resolves.toBe(false);
		const next = await settled(p, await sendSms(p, token, number), ["SUPPRESSED", "SENT"]);
		expect(next.status).toBe("SUPPRESSED");
		expect(next.providerMessageId).toBeUndefined();
	});

	it("should not suppress a number when the event names another notification's message", async () => {
		const n = await settled(p, await sendSms(p, token, "+14155550106"), ["SENT"]);
		const res = await post(signed(smsEvent("TEXT_INVALID", n, { messageId: "no-such-message", context: {} })));
		expect(res.body).toEqual({ outcome: "unknown-message" });
		await expect(isSuppressed(runtime(p).store(), "SMS", n.to)).resolves.toBe(false);
		await expect(settled(p, n.id, ["SENT"])).resolves.toMatchObject({ status: "SENT" });
	});

	it("should not let a signed SMS event touch an email notification that has its message id", async () => {
		const email = await settled(p, await sendEmail(p, token, "cross-sms@example.com"), ["SENT"]);
		// The email's provider message id and notification id, in an event of the SMS topic.
		const res = await post(signed(smsEvent("TEXT_BLOCKED", email)));
		expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { outcome: "unknown-message" } });
		await expect(settled(p, email.id, ["SENT"])).resolves.toMatchObject({ status: "SENT" });
		expect((await timeline(p, token, email.id)).map(e => e.event)).toEqual(["QUEUED", "SENT"]);
		await expect(isSuppressed(runtime(p).store(), "EMAIL", email.to)).resolves.toBe(false);
	});

	it("should not let a signed SES complaint touch an SMS notification that has its message id", async () => {
		const sms = await settled(p, await sendSms(p, token, "+14155550109"), ["SENT"]);
		const complaint = { eventType: "Complaint", mail: { messageId: sms.providerMessageId, tags: { notificationId: [sms.id] } }, complaint: { complainedRecipients: [] } };
		const res = await http(p.baseUrl, "POST", "/notifications/webhooks/email-provider", { body: JSON.stringify(signed(complaint)), headers: { "content-type": "text/plain; charset=UTF-8" } });
		expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { outcome: "unknown-message" } });
		await expect(settled(p, sms.id, ["SENT"])).resolves.toMatchObject({ status: "SENT" });
		expect((await timeline(p, token, sms.id)).map(e => e.event)).toEqual(["QUEUED", "SENT"]);
		await expect(isSuppressed(runtime(p).store(), "SMS", sms.to)).resolves.toBe(false);
	});

	it("should answer 200 and change nothing for events that are not final", async () => {
		const n = await settled(p, await sendSms(p, token, "+14155550107"), ["SENT"]);
		expect((await post(signed(smsEvent("TEXT_PENDING", n)))).body).toEqual({ outcome: "ignored" });
		expect((await post(signed(smsEvent("TEXT_UNREACHABLE", n, { isFinal: false })))).body).toEqual({ outcome: "ignored" });
		expect((await timeline(p, token, n.id)).map(e => e.event)).toEqual(["QUEUED", "SENT"]);
	});

	it.each<[string, (m: SnsMessage) => SnsMessage]>([
		["the Message was changed after signing", m => ({ ...m, Message: m.Message.replace("TEXT_CARRIER_UNREACHABLE", "TEXT_INVALID") })],
		["the signature is not SNS's", m => ({ ...m, Signature: Buffer.alloc(256, 7).toString("base64") })],
		["the certificate URL is http", m => sign({ ...m, SigningCertURL: certUrl.replace("https:", "http:") }, tls.key)]
	])("should answer 403 INVALID_SIGNATURE and change nothing when %s", async (_label, tamper) => {
		const n = await settled(p, await sendSms(p, token, "+14155550108"), ["SENT"]);
		const res = await post(tamper(signed(smsEvent("TEXT_CARRIER_UNREACHABLE", n))));
		expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: "INVALID_SIGNATURE" });
		expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
		expect((await timeline(p, token, n.id)).map(e => e.event)).toEqual(["QUEUED", "SENT"]);
	});

	it("should answer 400 for a body that is not an SNS message", async () => {
		const malformed = await http(p.baseUrl, "POST", WEBHOOK, { body: "{not json", headers: { "content-type": "text/plain" } });
		expect({ status: malformed.status, code: malformed.body.code }).toEqual({ status: 400, code: "MALFORMED_JSON" });
		const other = await http(p.baseUrl, "POST", WEBHOOK, { body: JSON.stringify({ eventType: "TEXT_DELIVERED" }), headers: { "content-type": "text/plain" } });
		expect({ status: other.status, code: other.body.code }).toEqual({ status: 400, code: "VALIDATION_ERROR" });
	});
});

/**
 * An SMSC that answers every submit_sm and sends its receipt at once: the state by
 * destination, DELIVRD by default; a destination in `refuse` gets that command_status instead.
 */
async function startSmsc(states: Map<string, number>, refuse: Map<string, number>) {
	let nextId = 1;
	const sessions: Session[] = [];
	const submits: PDU[] = [];
	const receipts: PDU[] = [];
	const server = smpp.createServer(session => {
		sessions.push(session);
		session.on("error", () => undefined);
		session.on("bind_transceiver", (pdu: PDU) => session.send(pdu.response(pdu.system_id === "acme" && pdu.password === "s3cret" ? {} : { command_status: smpp.ESME_RBINDFAIL })));
		session.on("enquire_link", (pdu: PDU) => session.send(pdu.response()));
		session.on("unbind", (pdu: PDU) => {
			session.send(pdu.response());
			session.close();
		});
		session.on("submit_sm", (pdu: PDU) => {
			submits.push(pdu);
			const refused = refuse.get(String(pdu.destination_addr));
			if (refused) return session.send(pdu.response({ command_status: refused }));
			const id = `smsc-${nextId++}`;
			session.send(pdu.response({ message_id: id }));
			const state = states.get(String(pdu.destination_addr)) ?? smpp.MESSAGE_STATE.DELIVERED;
			const stat = state === smpp.MESSAGE_STATE.DELIVERED ? "DELIVRD" : "UNDELIV";
			session.deliver_sm(
				{
					source_addr: pdu.destination_addr,
					destination_addr: pdu.source_addr,
					esm_class: smpp.ESM_CLASS.MC_DELIVERY_RECEIPT,
					short_message: `id:${id} sub:001 dlvrd:00${stat === "DELIVRD" ? 1 : 0} submit date:2501011200 done date:2501011201 stat:${stat} err:${stat === "DELIVRD" ? "000" : "001"} text:Your code`,
					receipted_message_id: id,
					message_state: state
				},
				(resp: PDU) => receipts.push(resp)
			);
		});
	});
	await new Promise<void>(r => server.listen(0, "127.0.0.1", () => r()));
	return {
		port: (server.address() as AddressInfo).port,
		/** The message id the next accepted submit_sm gets. */
		nextMessageId: () => `smsc-${nextId}`,
		submits,
		receipts,
		close: () =>
			new Promise<void>(r => {
				for (const s of sessions) s.destroy();
				server.close(() => r());
			})
	};
}

describe("SMPP delivery receipts through the dispatcher", () => {
	let smsc: Awaited<ReturnType<typeof startSmsc>>;
	let p: Platform;
	let token: string;
	const states = new Map<string, number>();
	const refuse = new Map<string, number>();

	beforeAll(async () => {
		smsc = await startSmsc(states, refuse);
		p = await startPlatform({ SMS_PROVIDER: "smpp", SMPP_URL: `smpp://acme:s3cret@127.0.0.1:${smsc.port}`, SMS_ORIGINATION_IDENTITY: "ACME", DISPATCHER_POLL_MS: "50" });
		// A service's: a user may send no SMS.
		token = await serviceToken(p);
	});
	afterAll(async () => {
		await p?.stop();
		await smsc?.close();
	});

	it("should move the notification to DELIVERED when the SMSC sends a DELIVRD receipt the moment it answers submit_sm", async () => {
		const id = await sendSms(p, token, "+14155550110");
		const n = await settled(p, id, ["DELIVERED", "FAILED"]);
		expect(n).toMatchObject({ status: "DELIVERED", providerMessageId: expect.stringMatching(/^smsc-/) });
		expect(smsc.submits.filter(s => s.destination_addr === "14155550110")).toHaveLength(1);
		const events = await timeline(p, token, id);
		expect(events.map(e => e.event)).toEqual(["QUEUED", "SENT", "DELIVERED"]);
		expect(events[1].detail).toMatchObject({ providerMessageId: n.providerMessageId, segments: 1 });
		expect(events[2].detail).toEqual({ stat: "DELIVRD", err: "000" });
		// Every receipt was answered with deliver_sm_resp.
		await waitFor("the receipts to be answered", async () => smsc.receipts.length === smsc.submits.length);
		expect(smsc.receipts.every(r => r.command === "deliver_sm_resp" && r.command_status === 0)).toBe(true);
	});

	it("should apply a receipt to the SMS with its message id, not to an email that has the same provider message id", async () => {
		// Provider message ids are unique within one provider only: an SMSC counts, another provider may too.
		const store = runtime(p).store();
		const emailId = await sendEmail(p, token, "same-id@example.com");
		await settled(p, emailId, ["SENT"]);
		const sharedId = smsc.nextMessageId();
		await store.collection<NotificationDoc>("notifications").updateMany({ id: emailId }, { $set: { providerMessageId: sharedId } });
		const id = await sendSms(p, token, "+14155550114");
		await expect(settled(p, id, ["DELIVERED", "FAILED"])).resolves.toMatchObject({ status: "DELIVERED", providerMessageId: sharedId });
		await expect(store.collection<NotificationDoc>("notifications").get(emailId)).resolves.toMatchObject({ status: "SENT" });
		expect((await timeline(p, token, emailId)).map(e => e.event)).toEqual(["QUEUED", "SENT"]);
	});

	it("should move the notification to FAILED when the receipt says UNDELIV", async () => {
		states.set("14155550111", smpp.MESSAGE_STATE.UNDELIVERABLE);
		const id = await sendSms(p, token, "+14155550111");
		await expect(settled(p, id, ["DELIVERED", "FAILED"])).resolves.toMatchObject({ status: "FAILED" });
		const events = await timeline(p, token, id);
		expect(events.map(e => e.event)).toEqual(["QUEUED", "SENT", "FAILED"]);
		expect(events[2].detail).toEqual({ stat: "UNDELIV", err: "001" });
	});

	it("should suppress for SMS a number the SMSC refuses as an invalid destination, and fail a message it refuses for its text without suppressing", async () => {
		refuse.set("14155550112", smpp.ESME_RINVDSTADR);
		const first = await sendSms(p, token, "+14155550112");
		await expect(settled(p, first, ["FAILED", "SENT"])).resolves.toMatchObject({ status: "FAILED", lastError: "ESME_RINVDSTADR" });
		const store = runtime(p).store();
		await expect(store.collection<SuppressionDoc>("suppressions").get(suppressionId("SMS", "+14155550112"))).resolves.toMatchObject({ channel: "SMS", reason: "ESME_RINVDSTADR", notificationId: first });
		const submitted = smsc.submits.length;
		const next = await sendSms(p, token, "+14155550112");
		await expect(settled(p, next, ["SUPPRESSED", "FAILED", "SENT"])).resolves.toMatchObject({ status: "SUPPRESSED" });
		expect(smsc.submits).toHaveLength(submitted);

		refuse.set("14155550113", smpp.errors.ESME_RINVMSGLEN);
		const refused = await sendSms(p, token, "+14155550113");
		await expect(settled(p, refused, ["FAILED", "SENT"])).resolves.toMatchObject({ status: "FAILED", lastError: "ESME_RINVMSGLEN" });
		await expect(isSuppressed(store, "SMS", "+14155550113")).resolves.toBe(false);
	});
});
