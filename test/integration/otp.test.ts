/**
 * One-time codes and magic links end to end through the gateway with the embedded
 * identity provider: the code is read from the mail the platform's own dispatcher put
 * in the file outbox. Unknown addresses, the challenge's five tries, the resend limit,
 * expiry, and the status that follows the code's notification.
 */
import { decodeJwt } from "jose";
import { linkToken, outbox, waitForMail, type Mail } from "../helpers/mail";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";

const UI = "https://ui.example.test";
const CODE_MAIL = /Your sign-in code/;
const ENV = {
	UI_BASE_URL: UI,
	RATE_LIMIT_FORGOT_PER_IP: "100000",
	RATE_LIMIT_FORGOT_PER_USER: "100000",
	RATE_LIMIT_REDEEM_PER_IP: "100000",
	RATE_LIMIT_REGISTER_PER_IP: "100000",
	RATE_LIMIT_LOGIN_PER_USER: "100000"
};

let p: Platform;

beforeAll(async () => {
	p = await startPlatform(ENV);
}, 30000);
afterAll(async () => {
	await p?.stop();
});

async function register(): Promise<string> {
	const user = newUser({ password: "Correct-Horse-9!" });
	const reg = await http(p.baseUrl, "POST", "/auth/register", { json: user });
	expect(reg.status).toBe(201);
	return user.email.toLowerCase();
}

async function start(email: string): Promise<string> {
	const res = await http(p.baseUrl, "POST", "/auth/otp", { json: { email } });
	expect(res.status).toBe(202);
	expect(Object.keys(res.body)).toEqual(["challengeId"]);
	return res.body.challengeId as string;
}

function codeOf(mail: Mail): string {
	const m = /Your sign-in code is (\d{6})\./.exec(mail.text);
	if (!m) throw new Error(`No code in:\n${mail.text}`);
	return m[1];
}

const verify = (json: object) => http(p.baseUrl, "POST", "/auth/otp/verify", { json });
const status = (id: string) => http(p.baseUrl, "GET", `/auth/otp/${id}`);

describe("one-time codes", () => {
	it("signs in with the mailed code once; the tokens' amr is otp + email; the challenge follows its notification to VERIFIED", async () => {
		const email = await register();
		const id = await start(email);
		const mail = await waitForMail(p.dataDir, email, CODE_MAIL);
		const code = codeOf(mail);
		// The stored notification holds neither the code nor the link's token.
		const doc = await runtime(p).store().collection<{ id: string; variables: object }>("notifications").get(mail.notificationId);
		expect(JSON.stringify(doc)).not.toContain(code);
		await waitFor("the code's notification SENT", async () => ["SENT", "DELIVERED"].includes((await status(id)).body.status as string), 10000);
		const st = await status(id);
		expect(st.body).toMatchObject({ channel: "email" });
		expect(st.body.fallbackChannel).toBeUndefined();
		expect(typeof st.body.resendAvailableAt).toBe("string");

		const ok = await verify({ challengeId: id, code });
		expect(ok.status).toBe(200);
		const claims = decodeJwt(ok.body.accessToken as string);
		expect(claims.amr).toEqual(["otp", "email"]);
		expect(typeof claims.auth_time).toBe("number");
		expect((await status(id)).body.status).toBe("VERIFIED");
		const again = await verify({ challengeId: id, code });
		expect(again.status).toBe(401);
		expect(again.body.code).toBe("INVALID_OTP");
	});

	it("signs in with the magic link's token from the mail's fragment, once", async () => {
		const email = await register();
		await start(email);
		const token = linkToken(await waitForMail(p.dataDir, email, CODE_MAIL), UI, "/magic-link");
		const ok = await verify({ token });
		expect(ok.status).toBe(200);
		expect(decodeJwt(ok.body.idToken as string).amr).toEqual(["otp", "email"]);
		expect((await verify({ token })).status).toBe(401);
	});

	it("answers an unknown address with the same 202, sends nothing, and no code opens its challenge", async () => {
		const email = `nobody-${Date.now()}@example.test`;
		const id = await start(email);
		expect((await status(id)).body).toMatchObject({ status: "SENT", channel: "email" });
		for (const code of ["000000", "123456"]) {
			const res = await verify({ challengeId: id, code });
			expect(res.status).toBe(401);
			expect(res.body.code).toBe("INVALID_OTP");
		}
		// A known address's mail goes after it: by then this one would have gone too.
		const known = await register();
		await start(known);
		await waitForMail(p.dataDir, known, CODE_MAIL);
		expect((await outbox(p.dataDir)).filter(m => m.to === email)).toHaveLength(0);
	});

	it("ends the challenge after five wrong codes: the right one then fails too, and it shows EXPIRED", async () => {
		const email = await register();
		const id = await start(email);
		const code = codeOf(await waitForMail(p.dataDir, email, CODE_MAIL));
		const wrong = code === "000000" ? "111111" : "000000";
		for (let i = 0; i < 5; i++) expect((await verify({ challengeId: id, code: wrong })).status).toBe(401);
		const late = await verify({ challengeId: id, code });
		expect(late.status).toBe(401);
		expect(late.body.code).toBe("INVALID_OTP");
		expect((await status(id)).body.status).toBe("EXPIRED");
	});

	it("replaces the code on a resend, allows three in ten minutes, then answers 429 with Retry-After", async () => {
		const email = await register();
		const id = await start(email);
		const first = codeOf(await waitForMail(p.dataDir, email, CODE_MAIL));
		for (let i = 0; i < 3; i++) expect((await http(p.baseUrl, "POST", `/auth/otp/${id}/resend`, { json: {} })).status).toBe(202);
		const limited = await http(p.baseUrl, "POST", `/auth/otp/${id}/resend`, { json: {} });
		expect(limited.status).toBe(429);
		expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(500);
		expect(new Date((await status(id)).body.resendAvailableAt as string).getTime()).toBeGreaterThan(Date.now() + 500_000);
		const last = codeOf(await waitForMail(p.dataDir, email, CODE_MAIL, 4));
		if (first !== last) expect((await verify({ challengeId: id, code: first })).status).toBe(401);
		expect((await verify({ challengeId: id, code: last })).status).toBe(200);
	});

	it("refuses the code of an expired challenge and shows EXPIRED", async () => {
		const email = await register();
		const id = await start(email);
		const code = codeOf(await waitForMail(p.dataDir, email, CODE_MAIL));
		await runtime(p).store().collection<{ id: string }>("otp_challenges").updateMany({ id }, { $set: { expiresAt: new Date(Date.now() - 1000).toISOString() } });
		expect((await status(id)).body.status).toBe("EXPIRED");
		expect((await verify({ challengeId: id, code })).status).toBe(401);
		expect((await http(p.baseUrl, "POST", `/auth/otp/${id}/resend`, { json: {} })).status).toBe(404);
	});

	it("answers 404 for an unknown challenge, 400 for a malformed phone number or both addresses, and 202 for a number no account has (SMS: otp-sms.test.ts)", async () => {
		expect((await status("0b9c3a52-8a53-4c55-9d0e-2b8f7f1e4c11")).status).toBe(404);
		expect((await http(p.baseUrl, "POST", "/auth/otp", { json: { phone: "4155550100" } })).status).toBe(400);
		expect((await http(p.baseUrl, "POST", "/auth/otp", { json: { phone: "+14155550100", email: "a@example.test" } })).status).toBe(400);
		expect((await http(p.baseUrl, "POST", "/auth/otp", { json: {} })).status).toBe(400);
		expect((await http(p.baseUrl, "POST", "/auth/otp", { json: { phone: "+14155550100" } })).status).toBe(202);
	});

	it("records auth.signed_in with the amr and the method for code and magic-link sign-ins", async () => {
		const email = await register();
		const id = await start(email);
		const ok = await verify({ challengeId: id, code: codeOf(await waitForMail(p.dataDir, email, CODE_MAIL)) });
		expect(ok.status).toBe(200);
		await start(email);
		const link = await verify({ token: linkToken(await waitForMail(p.dataDir, email, CODE_MAIL, 2), UI, "/magic-link") });
		expect(link.status).toBe(200);
		const sub = String(decodeJwt(ok.body.accessToken as string).sub);
		const events = await runtime(p).store().collection<{ id: string; actorId: string; type: string; detail?: object }>("audit_events").find({ actorId: sub, type: "auth.signed_in" });
		expect(events.map(e => e.detail)).toEqual(expect.arrayContaining([{ amr: "otp email", method: "otp" }, { amr: "otp email", method: "magic-link" }]));
	});
});
