/**
 * The smpp SMS provider against an SMSC built from the smpp package's own server on
 * loopback: what submit_sm carries (destination, text, data_coding, receipts asked
 * for, concatenation headers), delivery receipts reported through onReceipt and
 * answered with deliver_sm_resp, a dropped connection bound again, and
 * submit_sm_resp errors read as permanent or retried.
 */
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import * as smpp from "smpp";
import type { PDU, Session } from "smpp";
import { SendError } from "../../lib/errors/send-error";
import { SmppSmsProvider, type SmppOptions } from "../../lib/sms/smpp";
import type { SmsReceipt } from "../../lib/sms";
import { waitFor } from "../helpers/processes";

interface Smsc {
	port: number;
	submits: PDU[];
	sessions: Session[];
	binds: number;
	unbinds: number;
	enquireLinks: number;
	/** Sessions whose enquire_link go unanswered, as on a dead link. */
	silent: Set<Session>;
	/** A status to refuse a submit_sm with, by destination; 0 accepts. */
	refuse: Map<string, number>;
	deliver(options: Record<string, unknown>): Promise<PDU>;
	close(): Promise<void>;
}

async function startSmsc(): Promise<Smsc> {
	let nextId = 1;
	const smsc = { submits: [], sessions: [], binds: 0, unbinds: 0, enquireLinks: 0, silent: new Set(), refuse: new Map() } as unknown as Smsc;
	const server = smpp.createServer(session => {
		smsc.sessions.push(session);
		// A client tearing the connection down surfaces as an error on this side.
		session.on("error", () => undefined);
		session.on("bind_transceiver", (pdu: PDU) => {
			smsc.binds += 1;
			const ok = pdu.system_id === "acme" && pdu.password === "s3cret";
			session.send(pdu.response(ok ? {} : { command_status: smpp.ESME_RBINDFAIL }));
		});
		session.on("submit_sm", (pdu: PDU) => {
			smsc.submits.push(pdu);
			const status = smsc.refuse.get(String(pdu.destination_addr)) ?? 0;
			session.send(pdu.response(status ? { command_status: status } : { message_id: `m${nextId++}` }));
		});
		session.on("enquire_link", (pdu: PDU) => {
			smsc.enquireLinks += 1;
			if (!smsc.silent.has(session)) session.send(pdu.response());
		});
		session.on("unbind", (pdu: PDU) => {
			smsc.unbinds += 1;
			session.send(pdu.response());
			session.close();
		});
	});
	await new Promise<void>(r => server.listen(0, "127.0.0.1", () => r()));
	smsc.port = (server.address() as AddressInfo).port;
	smsc.deliver = options => {
		const session = smsc.sessions.at(-1)!;
		return new Promise<PDU>(resolve => session.deliver_sm(options, resolve));
	};
	smsc.close = () =>
		new Promise<void>(r => {
			for (const s of smsc.sessions) s.destroy();
			server.close(() => r());
		});
	return smsc;
}

const message = (to: string, text: string) => ({ notificationId: randomUUID(), from: "ACME", to, text });
const textOf = (pdu: PDU) => (pdu.short_message as { message: string }).message;
const udhOf = (pdu: PDU) => (pdu.short_message as { udh?: Buffer[] }).udh?.[0];

describe("SMS over SMPP", () => {
	let smsc: Smsc;
	let provider: SmppSmsProvider;
	let receipts: SmsReceipt[];

	const connect = (overrides: Partial<SmppOptions> = {}) =>
		new SmppSmsProvider({
			host: "127.0.0.1",
			port: smsc.port,
			tls: false,
			systemId: "acme",
			password: "s3cret",
			timeoutMs: 5000,
			reconnectMs: [20, 100],
			onReceipt: r => void receipts.push(r),
			...overrides
		});

	beforeEach(async () => {
		smsc = await startSmsc();
		receipts = [];
	});
	afterEach(async () => {
		await provider?.close();
		await smsc.close();
	});

	it("should submit the number, text, GSM-7 coding and a receipt request, and report the delivery receipt it answers", async () => {
		provider = connect();
		const sent = await provider.send(message("+14155550100", "Your code is 123456 {ok}"));
		expect(sent).toEqual({ messageId: "m1", segments: 1 });
		const [pdu] = smsc.submits;
		expect(pdu).toMatchObject({ destination_addr: "14155550100", dest_addr_ton: 1, dest_addr_npi: 1, source_addr: "ACME", source_addr_ton: 5, data_coding: 0, registered_delivery: 1, esm_class: 0 });
		expect(textOf(pdu)).toBe("Your code is 123456 {ok}");

		const resp = await smsc.deliver({
			source_addr: "14155550100",
			destination_addr: "ACME",
			esm_class: smpp.ESM_CLASS.MC_DELIVERY_RECEIPT,
			short_message: "id:m1 sub:001 dlvrd:001 submit date:2501011200 done date:2501011201 stat:DELIVRD err:000 text:Your code",
			receipted_message_id: "m1",
			message_state: smpp.MESSAGE_STATE.DELIVERED
		});
		expect(resp).toMatchObject({ command: "deliver_sm_resp", command_status: 0 });
		await waitFor("the receipt", async () => receipts.length === 1);
		expect(receipts[0]).toEqual({ providerMessageId: "m1", status: "DELIVERED", detail: { stat: "DELIVRD", err: "000" } });

		// Only the text names the message here, and a mobile-originated message is answered but is no receipt.
		await smsc.deliver({ esm_class: smpp.ESM_CLASS.MC_DELIVERY_RECEIPT, short_message: "id:m9 sub:001 dlvrd:000 submit date:2501011200 done date:2501011201 stat:UNDELIV err:001" });
		await expect(smsc.deliver({ source_addr: "14155550100", short_message: "STOP" })).resolves.toMatchObject({ command_status: 0 });
		await waitFor("the failure receipt", async () => receipts.length === 2);
		expect(receipts[1]).toEqual({ providerMessageId: "m9", status: "FAILED", detail: { stat: "UNDELIV", err: "001" } });

		await provider.close();
		await waitFor("the unbind", async () => smsc.unbinds === 1);
		expect(receipts).toHaveLength(2);
	});

	it("should send a long UCS-2 text as concatenated parts with one reference and a receipt asked for on the last", async () => {
		provider = connect();
		const text = "Здравствуйте! ".repeat(10);
		const sent = await provider.send(message("+447911123456", text));
		expect(sent).toEqual({ messageId: "m3", segments: 3 });
		expect(smsc.submits).toHaveLength(3);
		const udhs = smsc.submits.map(udhOf);
		for (const [i, udh] of udhs.entries()) expect([...udh!]).toEqual([0x00, 0x03, udhs[0]![2], 3, i + 1]);
		expect(smsc.submits.map(p => [p.data_coding, p.registered_delivery])).toEqual([[8, 0], [8, 0], [8, 1]]);
		expect(smsc.submits.map(textOf).join("")).toBe(text);
		expect(smsc.submits.map(p => textOf(p).length)).toEqual([67, 67, 6]);
	});

	it("should bind again after the SMSC drops the connection and send the next message on the new bind", async () => {
		provider = connect();
		await provider.send(message("+14155550100", "first"));
		for (const s of smsc.sessions) s.destroy();
		await waitFor("the provider to bind again", async () => smsc.binds === 2);
		await expect(provider.send(message("+14155550100", "second"))).resolves.toMatchObject({ messageId: "m2" });
		expect(smsc.submits.map(textOf)).toEqual(["first", "second"]);
	});

	it("should keep the bind alive with enquire_link and bind again when the SMSC stops answering them", async () => {
		provider = connect({ enquireLinkMs: 20 });
		await provider.send(message("+14155550100", "first"));
		await waitFor("answered enquire_links", async () => smsc.enquireLinks >= 3);
		expect(smsc.binds).toBe(1);
		smsc.silent.add(smsc.sessions[0]);
		await waitFor("a bind after the silent link", async () => smsc.binds === 2);
		await expect(provider.send(message("+14155550100", "second"))).resolves.toMatchObject({ messageId: "m2" });
	});

	it("should fail for good on an invalid destination and be retried on throttling", async () => {
		provider = connect();
		smsc.refuse.set("14155550101", smpp.ESME_RINVDSTADR);
		smsc.refuse.set("14155550102", smpp.ESME_RTHROTTLED);
		await expect(provider.send(message("+14155550101", "x"))).rejects.toMatchObject({ name: "SendError", code: "ESME_RINVDSTADR", permanent: true });
		await expect(provider.send(message("+14155550102", "x"))).rejects.toMatchObject({ name: "SendError", code: "ESME_RTHROTTLED", permanent: false });
	});

	it("should keep trying to bind while the SMSC refuses, and let a waiting send end with its signal", async () => {
		provider = connect({ password: "wrong" });
		const abort = new AbortController();
		const send = provider.send(message("+14155550100", "x"), abort.signal);
		await waitFor("a second bind attempt", async () => smsc.binds >= 2);
		abort.abort();
		const err = await send.catch(e => e);
		expect(err).toBeInstanceOf(SendError);
		expect(err).toMatchObject({ code: "SEND_ABORTED", permanent: false });
		expect(smsc.submits).toHaveLength(0);
	});
});
