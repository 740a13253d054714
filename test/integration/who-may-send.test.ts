/**
 * Who may send (the platform is no open relay): with the default
 * NOTIFICATIONS_USER_SEND=self a user sends email to its own verified address, and push
 * and in-app messages to itself only, no SMS; services and administrators send to anyone; `off` and `any`;
 * the users' hourly quota (NOTIFICATIONS_QUOTA_PER_HOUR) answers 429 with Retry-After.
 */
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { markVerified } from "../helpers/senders";

const ADMIN = { BOOTSTRAP_ADMIN_EMAIL: "root@example.com", BOOTSTRAP_ADMIN_PASSWORD: "Root-Passw0rd" };
const inline = { template: { subject: "s", text: "t" } };

async function register(p: Platform) {
	const user = newUser();
	const res = await http(p.baseUrl, "POST", "/auth/register", { json: user });
	expect(res.status).toBe(201);
	return { token: res.body.accessToken as string, actorId: res.body.actorId as string, email: user.email };
}

const send = (p: Platform, token: string, json: Record<string, unknown>) => http(p.baseUrl, "POST", "/notifications", { token, json: { ...inline, ...json } });

describe("who may send, by default (users to themselves only)", () => {
	let p: Platform;
	let admin: string;
	let service: string;

	beforeAll(async () => {
		p = await startPlatform({ ...ADMIN, NOTIFICATIONS_USER_SEND: "self", NOTIFICATIONS_QUOTA_PER_HOUR: "3", SERVICES: "api-gateway,auth,actors,notifications" });
		admin = (await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.BOOTSTRAP_ADMIN_EMAIL, password: ADMIN.BOOTSTRAP_ADMIN_PASSWORD } })).body.accessToken;
		service = await runtime(p).serviceTokens.get("auth");
	});
	afterAll(() => p.stop());

	it("should refuse a user sending to another address, its own unverified one, SMS, or another actor's push, with 403 and nothing stored", async () => {
		const me = await register(p);
		const other = await register(p);
		const before = await runtime(p).store().collection("notifications").count({});
		for (const [json, why] of [
			[{ to: other.email }, "another address"],
			[{ to: me.email }, "its own address before it is verified"],
			[{ channel: "SMS", to: "+14155550100" }, "SMS"],
			[{ channel: "PUSH", to: other.actorId }, "another actor"],
			[{ channel: "IN_APP", to: other.actorId }, "another actor's inbox"]
		] as const) {
			const res = await send(p, me.token, json);
			expect({ why, status: res.status, code: res.body.code }).toEqual({ why, status: 403, code: "RECIPIENT_NOT_ALLOWED" });
		}
		expect(await runtime(p).store().collection("notifications").count({})).toBe(before);
	});

	it("should let a user send to its own verified address (in any case), and push and in-app messages to itself", async () => {
		const me = await register(p);
		await markVerified(p, me.email);
		expect((await send(p, me.token, { to: me.email.toUpperCase() })).status).toBe(201);
		expect((await send(p, me.token, { channel: "PUSH", to: me.actorId })).status).toBe(201);
		expect((await send(p, me.token, { channel: "IN_APP", to: me.actorId.toUpperCase() })).status).toBe(201);
	});

	it("should let services and administrators send to anyone, on every channel, without a quota", async () => {
		for (const token of [service, admin]) {
			for (let i = 0; i < 5; i++) expect((await send(p, token, { to: `anyone-${i}@example.com` })).status).toBe(201);
			expect((await send(p, token, { channel: "SMS", to: "+14155550100" })).status).toBe(201);
			expect((await send(p, token, { channel: "IN_APP", to: "0190a000-0000-7000-8000-0000000000aa" })).status).toBe(201);
		}
	});

	it("should answer 429 with Retry-After once a user has sent its hourly quota", async () => {
		const me = await register(p);
		await markVerified(p, me.email);
		for (let i = 0; i < 3; i++) expect((await send(p, me.token, { to: me.email })).status).toBe(201);
		const over = await send(p, me.token, { to: me.email });
		expect({ status: over.status, code: over.body.code }).toEqual({ status: 429, code: "RATE_LIMITED" });
		const retryAfter = Number(over.headers.get("retry-after"));
		expect(retryAfter).toBeGreaterThan(0);
		expect(retryAfter).toBeLessThanOrEqual(3600);
		// Another user's quota is its own.
		const other = await register(p);
		await markVerified(p, other.email);
		expect((await send(p, other.token, { to: other.email })).status).toBe(201);
	});
});

describe("who may send, configured", () => {
	it("off: users may not send at all; services still may", async () => {
		const p = await startPlatform({ NOTIFICATIONS_USER_SEND: "off", SERVICES: "api-gateway,auth,actors,notifications" });
		try {
			const me = await register(p);
			await markVerified(p, me.email);
			const res = await send(p, me.token, { to: me.email });
			expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: "RECIPIENT_NOT_ALLOWED" });
			expect((await send(p, await runtime(p).serviceTokens.get("auth"), { to: me.email })).status).toBe(201);
		} finally {
			await p.stop();
		}
	});

	it("any: users may send to anyone (a closed deployment)", async () => {
		const p = await startPlatform({ NOTIFICATIONS_USER_SEND: "any", SERVICES: "api-gateway,auth,actors,notifications" });
		try {
			const me = await register(p);
			expect((await send(p, me.token, { to: "someone-else@example.com" })).status).toBe(201);
		} finally {
			await p.stop();
		}
	});

	it("refuses an unknown NOTIFICATIONS_USER_SEND at start", async () => {
		await expect(startPlatform({ NOTIFICATIONS_USER_SEND: "everyone" })).rejects.toThrow(/NOTIFICATIONS_USER_SEND must be one of self, off, any \(got "everyone"\)/);
	});
});
