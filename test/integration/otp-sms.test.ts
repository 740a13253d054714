/**
 * Phone numbers, SMS one-time codes, the SMS second factor and the code's fallback end
 * to end through the gateway with the embedded identity provider and the smpp SMS
 * provider against an SMSC built from the smpp package's own server on loopback (as the
 * SMS channel's tests do): the codes are read from the submit_sm the SMSC received and
 * from the mails in the file outbox. The SMSC refuses the messages of a number in
 * `refuse` and never answers those of a number in `silent`, so the fallback is shown for
 * a FAILED code and for one not SENT within OTP_FALLBACK_AFTER_SECONDS (2 here).
 * OTP_SIGNUP is on in this file (test/integration/otp.test.ts covers it off).
 */
import type { AddressInfo } from "node:net";
import { decodeJwt } from "jose";
import { Secret, TOTP } from "otpauth";
import * as smpp from "smpp";
import type { PDU, Session } from "smpp";
import type { AuditEvent } from "../../lib/audit";
import { waitForMail, type Mail } from "../helpers/mail";
import { expectStatus, http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";

interface Smsc {
	port: number;
	submits: PDU[];
	refuse: Map<string, number>;
	silent: Set<string>;
	close(): Promise<void>;
}

async function startSmsc(): Promise<Smsc> {
	let nextId = 1;
	const sessions: Session[] = [];
	const smsc = { submits: [] as PDU[], refuse: new Map<string, number>(), silent: new Set<string>() } as Smsc;
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
			const to = String(pdu.destination_addr);
			smsc.submits.push(pdu);
			if (smsc.silent.has(to)) return;
			const refused = smsc.refuse.get(to);
			session.send(pdu.response(refused ? { command_status: refused } : { message_id: `smsc-${nextId++}` }));
		});
	});
	await new Promise<void>(r => server.listen(0, "127.0.0.1", () => r()));
	smsc.port = (server.address() as AddressInfo).port;
	smsc.close = () =>
		new Promise<void>(r => {
			for (const s of sessions) s.destroy();
			server.close(() => r());
		});
	return smsc;
}

const textOf = (pdu: PDU) => {
	const m = pdu.short_message as { message?: string } | string | Buffer;
	return typeof m === "string" ? m : Buffer.isBuffer(m) ? m.toString() : String(m.message);
};

let smsc: Smsc;
let p: Platform;

beforeAll(async () => {
	smsc = await startSmsc();
	p = await startPlatform({
		SMS_PROVIDER: "smpp",
		SMPP_URL: `smpp://acme:s3cret@127.0.0.1:${smsc.port}`,
		SMS_ORIGINATION_IDENTITY: "ACME",
		DISPATCHER_POLL_MS: "50",
		OTP_FALLBACK_AFTER_SECONDS: "2",
		OTP_SIGNUP: "true",
		UI_BASE_URL: "https://ui.example.test",
		RATE_LIMIT_FORGOT_PER_IP: "100000",
		RATE_LIMIT_FORGOT_PER_USER: "100000",
		RATE_LIMIT_REDEEM_PER_IP: "100000",
		RATE_LIMIT_REGISTER_PER_IP: "100000",
		RATE_LIMIT_LOGIN_PER_USER: "100000",
		RATE_LIMIT_LOGIN_PER_IP: "100000",
		RATE_LIMIT_VERIFICATION_PER_USER: "100000"
	});
}, 30000);
afterAll(async () => {
	await p?.stop();
	await smsc?.close();
});

let numberSeq = 0;
/** A fresh valid US number (555-01xx is reserved for fiction; libphonenumber takes 415-555-01xx). */
const freshNumber = () => `+1415555${String(200 + (process.pid % 500) + numberSeq++).padStart(4, "0")}`;

/** The code of the newest SMS to the number, waiting for the `count`th. */
async function smsCode(phone: string, count = 1): Promise<string> {
	const digits = phone.slice(1);
	const texts = () => smsc.submits.filter(s => String(s.destination_addr) === digits).map(textOf);
	let code = "";
	await waitFor(
		`SMS ${count} to ${phone}`,
		async () => {
			const got = texts();
			if (got.length < count) return false;
			const m = /code (?:is|to confirm this phone number is) (\d{6})/.exec(got[count - 1]);
			code = m?.[1] ?? "";
			return code !== "";
		},
		10000,
		250,
		() => `The SMSC got for ${phone}: ${JSON.stringify(texts())}`
	);
	return code;
}

function mailCode(mail: Mail): string {
	const m = /code is (\d{6})\./.exec(mail.text);
	if (!m) throw new Error(`No code in:\n${mail.text}`);
	return m[1];
}

interface Account {
	email: string;
	password: string;
	actorId: string;
	accessToken: string;
}

async function register(emailVerified = true): Promise<Account> {
	const user = newUser({ password: "Correct-Horse-9!" });
	const reg = await http(p.baseUrl, "POST", "/auth/register", { json: user });
	expectStatus(reg, 201);
	const email = user.email.toLowerCase();
	if (emailVerified) await (await runtime(p).idp()).markEmailVerified(email);
	return { email, password: user.password, actorId: reg.body.actorId, accessToken: reg.body.accessToken };
}

async function setPhone(a: Account, phone: string): Promise<void> {
	expectStatus(await http(p.baseUrl, "PUT", "/auth/phone", { token: a.accessToken, json: { phone } }), 202);
	const ok = await http(p.baseUrl, "POST", "/auth/phone/verify", { token: a.accessToken, json: { code: await smsCode(phone) } });
	expectStatus(ok, 200);
}

const status = (id: string) => http(p.baseUrl, "GET", `/auth/otp/${id}`);
const verify = (json: object) => http(p.baseUrl, "POST", "/auth/otp/verify", { json });

async function auditOf(actorId: string, type: string): Promise<AuditEvent[]> {
	return runtime(p).store().collection<AuditEvent>("audit_events").find({ actorId, type });
}

describe("phone numbers on accounts", () => {
	it("sets a number only once its SMS code comes back: 400 for a malformed one, 401 INVALID_OTP for a wrong code, then phoneVerified and an audit entry", async () => {
		const a = await register();
		for (const phone of ["0415 555 0100", "+1 415", "+999123456789", "not a number"]) {
			const bad = await http(p.baseUrl, "PUT", "/auth/phone", { token: a.accessToken, json: { phone } });
			expectStatus(bad, 400);
			expect(bad.body.code).toBe("VALIDATION_ERROR");
		}
		expectStatus(await http(p.baseUrl, "PUT", "/auth/phone", { json: { phone: "+14155550100" } }), 401);

		const phone = freshNumber();
		const set = await http(p.baseUrl, "PUT", "/auth/phone", { token: a.accessToken, json: { phone: `${phone.slice(0, 2)} ${phone.slice(2, 5)} ${phone.slice(5)}` } });
		expectStatus(set, 202);
		const code = await smsCode(phone);
		const wrong = await http(p.baseUrl, "POST", "/auth/phone/verify", { token: a.accessToken, json: { code: code === "000000" ? "111111" : "000000" } });
		expectStatus(wrong, 401);
		expect(wrong.body.code).toBe("INVALID_OTP");
		// Not set before the right code.
		expect((await (await runtime(p).idp()).findProfileByPhone(phone))).toBeNull();

		const ok = await http(p.baseUrl, "POST", "/auth/phone/verify", { token: a.accessToken, json: { code } });
		expectStatus(ok, 200);
		expect(ok.body).toEqual({ phoneVerified: true });
		const profile = await (await runtime(p).idp()).getProfile(a.email);
		expect(profile).toMatchObject({ phone, phoneVerified: true });
		expect(await auditOf(a.actorId, "auth.phone_verified")).toHaveLength(1);
		// The code is spent.
		expectStatus(await http(p.baseUrl, "POST", "/auth/phone/verify", { token: a.accessToken, json: { code } }), 401);
		// ID tokens carry it.
		const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: a.email, password: a.password } });
		expectStatus(login, 200);
		expect(decodeJwt(login.body.idToken)).toMatchObject({ phone_number: phone, phone_number_verified: true });
	});
});

describe("one-time codes by SMS", () => {
	it("signs in with the SMS code sent to a verified phone: amr otp + sms, no fallback while the SMS goes out, and an audit entry", async () => {
		const a = await register();
		const phone = freshNumber();
		await setPhone(a, phone);
		const start = await http(p.baseUrl, "POST", "/auth/otp", { json: { phone } });
		expectStatus(start, 202);
		const id = start.body.challengeId as string;
		const code = await smsCode(phone, 2);
		await waitFor("the SMS SENT", async () => (await status(id)).body.status === "SENT", 10000);
		expect((await status(id)).body).toMatchObject({ channel: "sms" });
		const ok = await verify({ challengeId: id, code });
		expectStatus(ok, 200);
		expect(decodeJwt(ok.body.accessToken).amr).toEqual(["otp", "sms"]);
		const st = (await status(id)).body;
		expect(st.status).toBe("VERIFIED");
		expect(st.fallbackChannel).toBeUndefined();
		const audit = await auditOf(a.actorId, "auth.signed_in");
		expect(audit.map(e => e.detail)).toContainEqual({ amr: "otp sms", method: "otp" });
	});

	it("sends { email, channel: sms } to the account's verified phone, and answers an unknown number with the same 202 and no SMS", async () => {
		const a = await register();
		const phone = freshNumber();
		await setPhone(a, phone);
		const start = await http(p.baseUrl, "POST", "/auth/otp", { json: { email: a.email, channel: "sms" } });
		expectStatus(start, 202);
		expect((await status(start.body.challengeId)).body.channel).toBe("sms");
		const code = await smsCode(phone, 2);
		expectStatus(await verify({ challengeId: start.body.challengeId, code }), 200);

		const unknown = freshNumber();
		const before = smsc.submits.length;
		const u = await http(p.baseUrl, "POST", "/auth/otp", { json: { phone: unknown } });
		expectStatus(u, 202);
		expect(Object.keys(u.body)).toEqual(["challengeId"]);
		expect((await status(u.body.challengeId)).body).toMatchObject({ status: "SENT", channel: "sms" });
		expectStatus(await verify({ challengeId: u.body.challengeId, code: "123456" }), 401);
		expect(smsc.submits.slice(before).filter(s => String(s.destination_addr) === unknown.slice(1))).toHaveLength(0);
		expectStatus(await http(p.baseUrl, "POST", "/auth/otp", { json: { phone: "12345" } }), 400);
	});

	it("falls back to the verified email when the SMSC refuses the SMS: FAILED, then fallbackChannel email, then VERIFIED with the mailed code", async () => {
		const a = await register();
		const phone = freshNumber();
		await setPhone(a, phone);
		smsc.refuse.set(phone.slice(1), smpp.errors.ESME_RINVMSGLEN);
		const start = await http(p.baseUrl, "POST", "/auth/otp", { json: { phone } });
		expectStatus(start, 202);
		const id = start.body.challengeId as string;
		const n = runtime(p).store().collection<{ id: string; status: string }>("notifications");
		await waitFor("the SMS FAILED", async () => {
			const c = await runtime(p).store().collection<{ id: string; notificationId?: string }>("otp_challenges").get(id);
			return (await n.get(c?.notificationId ?? ""))?.status === "FAILED";
		}, 10000);
		await waitFor("the fallback", async () => (await status(id)).body.fallbackChannel === "email", 10000);
		const mail = await waitForMail(p.dataDir, a.email, /Your sign-in code/);
		const ok = await verify({ challengeId: id, code: mailCode(mail) });
		expectStatus(ok, 200);
		expect((await status(id)).body).toMatchObject({ status: "VERIFIED", channel: "sms", fallbackChannel: "email" });
	});

	it("falls back to the verified email when the SMS is not SENT within OTP_FALLBACK_AFTER_SECONDS", async () => {
		const a = await register();
		const phone = freshNumber();
		await setPhone(a, phone);
		smsc.silent.add(phone.slice(1));
		const started = Date.now();
		const start = await http(p.baseUrl, "POST", "/auth/otp", { json: { phone } });
		const id = start.body.challengeId as string;
		expect((await status(id)).body.fallbackChannel).toBeUndefined();
		// No status read needed: the auth service's scan falls back by itself.
		const mail = await waitForMail(p.dataDir, a.email, /Your sign-in code/);
		expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
		const st = (await status(id)).body;
		expect(st.fallbackChannel).toBe("email");
		expect(["PENDING", "SENT", "DELIVERED"]).toContain(st.status);
		expectStatus(await verify({ challengeId: id, code: mailCode(mail) }), 200);
	});

	it("does not fall back when the account has no other verified channel", async () => {
		const a = await register();
		const phone = freshNumber();
		await setPhone(a, phone);
		await runtime(p).store().collection<{ id: string }>("idp_users").updateMany({ username: a.email }, { $set: { emailVerified: false } });
		smsc.refuse.set(phone.slice(1), smpp.errors.ESME_RINVMSGLEN);
		const start = await http(p.baseUrl, "POST", "/auth/otp", { json: { phone } });
		const id = start.body.challengeId as string;
		await waitFor("the SMS FAILED", async () => (await status(id)).body.status === "FAILED", 10000);
		await new Promise(r => setTimeout(r, 2500));
		expect((await status(id)).body).toMatchObject({ status: "FAILED" });
		expect((await status(id)).body.fallbackChannel).toBeUndefined();
	});
});

describe("the SMS second factor", () => {
	it("lists sms in MFA_REQUIRED for a user with a factor and a verified phone; challenge 202, verify with the SMS code: amr names sms and mfa", async () => {
		const a = await register();
		const phone = freshNumber();
		await setPhone(a, phone);
		const started = await http(p.baseUrl, "POST", "/auth/mfa/totp", { token: a.accessToken, json: {} });
		expectStatus(started, 201);
		const totp = new TOTP({ secret: Secret.fromBase32(started.body.secret), algorithm: "SHA1", digits: 6, period: 30 });
		expectStatus(await http(p.baseUrl, "POST", `/auth/mfa/totp/${started.body.factorId}/confirm`, { token: a.accessToken, json: { code: totp.generate() } }), 200);

		const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: a.email, password: a.password } });
		expectStatus(login, 403);
		expect(login.body.factors).toEqual(expect.arrayContaining(["totp", "sms", "recovery"]));
		const mfaToken = login.body.mfaToken as string;
		const challenge = await http(p.baseUrl, "POST", "/auth/mfa/challenge", { json: { mfaToken, type: "sms" } });
		expectStatus(challenge, 202);
		const code = await smsCode(phone, 2);
		const wrong = await http(p.baseUrl, "POST", "/auth/mfa/verify", { json: { mfaToken, type: "sms", code: code === "000000" ? "111111" : "000000" } });
		expectStatus(wrong, 401);
		expect(wrong.body.code).toBe("INVALID_MFA_CODE");
		const ok = await http(p.baseUrl, "POST", "/auth/mfa/verify", { json: { mfaToken, type: "sms", code } });
		expectStatus(ok, 200);
		expect(decodeJwt(ok.body.accessToken).amr).toEqual(["pwd", "sms", "mfa"]);
	});

	it("answers 400 for an sms challenge of an account without a verified phone", async () => {
		const a = await register();
		const started = await http(p.baseUrl, "POST", "/auth/mfa/totp", { token: a.accessToken, json: {} });
		const totp = new TOTP({ secret: Secret.fromBase32(started.body.secret), algorithm: "SHA1", digits: 6, period: 30 });
		expectStatus(await http(p.baseUrl, "POST", `/auth/mfa/totp/${started.body.factorId}/confirm`, { token: a.accessToken, json: { code: totp.generate() } }), 200);
		const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: a.email, password: a.password } });
		expect(login.body.factors).not.toContain("sms");
		expectStatus(await http(p.baseUrl, "POST", "/auth/mfa/challenge", { json: { mfaToken: login.body.mfaToken, type: "sms" } }), 400);
		expectStatus(await http(p.baseUrl, "POST", "/auth/mfa/verify", { json: { mfaToken: login.body.mfaToken, type: "sms", code: "123456" } }), 400);
	});
});

describe("OTP_SIGNUP=true", () => {
	it("mails a code to an unknown address, and its verification creates the account with a verified email", async () => {
		const email = `otp-signup-${Date.now()}@example.test`;
		const start = await http(p.baseUrl, "POST", "/auth/otp", { json: { email } });
		expectStatus(start, 202);
		const code = mailCode(await waitForMail(p.dataDir, email, /Your sign-in code/));
		const ok = await verify({ challengeId: start.body.challengeId, code });
		expectStatus(ok, 200);
		const claims = decodeJwt(ok.body.idToken);
		expect(claims).toMatchObject({ email, email_verified: true, amr: ["otp", "email"] });
		const actor = await http(p.baseUrl, "GET", `/actors/${claims.sub}`, { token: ok.body.accessToken });
		expectStatus(actor, 200);
		expect(actor.body.email).toBe(email);
		const audit = await auditOf(String(claims.sub), "auth.signed_in");
		expect(audit.map(e => e.detail)).toContainEqual({ amr: "otp email", method: "otp" });
	});
});
