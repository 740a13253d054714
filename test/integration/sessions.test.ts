/**
 * Sessions through the gateway, embedded identity provider, one process: listing them
 * with their devices and `current`, ending one (its refresh token at once, its access
 * tokens on the next request), another user's or an ended session's id answering 404,
 * the administrators' end-sessions and account view, service tokens refused, and
 * GET /auth/me; then the same with Cognito. The multi-node deny list is in
 * sessions-multiprocess.test.ts.
 */
import { decodeJwt } from "jose";
import type { AuditEvent } from "../../lib/audit";
import { expectStatus, http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { serviceToken } from "../helpers/senders";
import { platformOnCognito } from "../helpers/cognito-local";

const ADMIN = { email: "admin@example.test", password: "Admin-Passw0rd!" };
const ENV = {
	BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
	BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
	RATE_LIMIT_LOGIN_PER_IP: "100000",
	RATE_LIMIT_LOGIN_PER_USER: "100000",
	RATE_LIMIT_REGISTER_PER_IP: "100000"
};
const PHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1";
const LAPTOP_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";

interface Device {
	accessToken: string;
	refreshToken: string;
	sid: string;
}

describe("sessions", () => {
	let p: Platform;
	let admin: string;
	const login = (username: string, password: string, ua: string) =>
		http(p.baseUrl, "POST", "/auth/login", { json: { username, password }, headers: { "user-agent": ua } });

	async function account(): Promise<{ email: string; password: string; actorId: string; register: Device }> {
		const user = newUser();
		const res = await http(p.baseUrl, "POST", "/auth/register", { json: user, headers: { "user-agent": LAPTOP_UA } });
		expectStatus(res, 201);
		return { email: user.email.toLowerCase(), password: user.password, actorId: res.body.actorId, register: device(res.body) };
	}
	function device(body: { accessToken: string; refreshToken: string }): Device {
		return { accessToken: body.accessToken, refreshToken: body.refreshToken, sid: decodeJwt(body.accessToken).sid as string };
	}
	async function signIn(email: string, password: string, ua: string): Promise<Device> {
		const res = await login(email, password, ua);
		expectStatus(res, 200);
		return device(res.body);
	}
	const list = async (token: string) => {
		const res = await http(p.baseUrl, "GET", "/auth/sessions", { token });
		expectStatus(res, 200);
		expect(res.headers.get("cache-control")).toMatch(/no-store/);
		return res.body.items as { sessionId: string; createdAt: string; lastUsedAt: string; userAgent: string | null; ip: string | null; amr: string[]; current: boolean }[];
	};
	const refresh = (refreshToken: string) => http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken } });
	const auditOf = (actorId: string) => runtime(p).store().collection<AuditEvent>("audit_events").find({ actorId }, { sort: { id: 1 } });

	beforeAll(async () => {
		p = await startPlatform(ENV);
		const res = await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.email, password: ADMIN.password } });
		expectStatus(res, 200);
		admin = res.body.accessToken;
	}, 30000);
	afterAll(async () => {
		await p?.stop();
	});

	it("should list every open session with its device, address, times and amr, and mark the caller's as current", async () => {
		const a = await account();
		const phone = await signIn(a.email, a.password, PHONE_UA);
		const items = await list(phone.accessToken);
		expect(items.map(s => s.sessionId).sort()).toEqual([a.register.sid, phone.sid].sort());
		const mine = items.find(s => s.sessionId === phone.sid)!;
		expect(mine).toMatchObject({ current: true, userAgent: PHONE_UA, amr: ["pwd"] });
		expect(mine.ip).toMatch(/127\.0\.0\.1|::1/);
		expect(Date.parse(mine.createdAt)).toBeGreaterThan(Date.now() - 60_000);
		expect(items.find(s => s.sessionId === a.register.sid)).toMatchObject({ current: false, userAgent: LAPTOP_UA });
		// From the other device, the other one is current.
		const fromLaptop = await list(a.register.accessToken);
		expect(fromLaptop.find(s => s.current)?.sessionId).toBe(a.register.sid);

		// A refresh moves lastUsedAt and keeps the session.
		await new Promise(r => setTimeout(r, 20));
		const refreshed = await refresh(phone.refreshToken);
		expectStatus(refreshed, 200);
		const after = (await list(phone.accessToken)).find(s => s.sessionId === phone.sid)!;
		expect(after.lastUsedAt > mine.lastUsedAt).toBe(true);
		expect(after.createdAt).toBe(mine.createdAt);
	});

	it("should end one session: its refresh token at once, its access token on the next request, the other session untouched", async () => {
		const a = await account();
		const phone = await signIn(a.email, a.password, PHONE_UA);
		const laptop = await signIn(a.email, a.password, LAPTOP_UA);
		// The phone's token is cached by the verifier before the end: the deny list must still refuse it.
		expectStatus(await http(p.baseUrl, "GET", "/auth/me", { token: phone.accessToken }), 200);

		const del = await http(p.baseUrl, "DELETE", `/auth/sessions/${phone.sid}`, { token: laptop.accessToken });
		expectStatus(del, 204);
		const refused = await http(p.baseUrl, "GET", "/auth/me", { token: phone.accessToken });
		expectStatus(refused, 401);
		expect(refused.body.type).toBe((await http(p.baseUrl, "GET", "/auth/me", { token: "x.y.z" })).body.type);
		expectStatus(await refresh(phone.refreshToken), 401);
		expectStatus(await http(p.baseUrl, "GET", "/auth/me", { token: laptop.accessToken }), 200);
		expectStatus(await refresh(laptop.refreshToken), 200);
		expect((await list(laptop.accessToken)).map(s => s.sessionId)).not.toContain(phone.sid);

		// Ending it again, or a session that never was: 404.
		expectStatus(await http(p.baseUrl, "DELETE", `/auth/sessions/${phone.sid}`, { token: laptop.accessToken }), 404);
		expectStatus(await http(p.baseUrl, "DELETE", "/auth/sessions/no-such-session", { token: laptop.accessToken }), 404);

		const revoked = (await auditOf(a.actorId)).filter(e => e.type === "auth.session_revoked");
		expect(revoked).toHaveLength(1);
		expect(revoked[0]).toMatchObject({ sessionId: laptop.sid, detail: { revokedSessionId: phone.sid } });
	});

	it("should end every other session of the caller, and only the caller's, keeping its own", async () => {
		const a = await account();
		const b = await account();
		const phone = await signIn(a.email, a.password, PHONE_UA);
		const tablet = await signIn(a.email, a.password, PHONE_UA);
		expectStatus(await http(p.baseUrl, "GET", "/auth/me", { token: phone.accessToken }), 200);

		const res = await http(p.baseUrl, "DELETE", "/auth/sessions", { token: a.register.accessToken });
		expectStatus(res, 204);
		for (const other of [phone, tablet]) {
			expectStatus(await http(p.baseUrl, "GET", "/auth/me", { token: other.accessToken }), 401);
			expectStatus(await refresh(other.refreshToken), 401);
		}
		expectStatus(await http(p.baseUrl, "GET", "/auth/me", { token: a.register.accessToken }), 200);
		expect((await list(a.register.accessToken)).map(s => ({ id: s.sessionId, current: s.current }))).toEqual([{ id: a.register.sid, current: true }]);
		expectStatus(await refresh(a.register.refreshToken), 200);
		// Another user's sessions are untouched.
		expectStatus(await http(p.baseUrl, "GET", "/auth/me", { token: b.register.accessToken }), 200);
		const revoked = (await auditOf(a.actorId)).filter(e => e.type === "auth.session_revoked");
		expect(revoked.map(e => ({ sessionId: e.sessionId, detail: e.detail }))).toEqual([{ sessionId: a.register.sid, detail: { scope: "others", count: "2" } }]);
		// Nothing left to end: 204 again, nothing audited.
		expectStatus(await http(p.baseUrl, "DELETE", "/auth/sessions", { token: a.register.accessToken }), 204);
		expect((await auditOf(a.actorId)).filter(e => e.type === "auth.session_revoked")).toHaveLength(1);
		expectStatus(await http(p.baseUrl, "DELETE", "/auth/sessions"), 401);
	});

	it("should answer 404 for another user's session and leave it working", async () => {
		const a = await account();
		const b = await account();
		expectStatus(await http(p.baseUrl, "DELETE", `/auth/sessions/${b.register.sid}`, { token: a.register.accessToken }), 404);
		expectStatus(await http(p.baseUrl, "GET", "/auth/me", { token: b.register.accessToken }), 200);
		expectStatus(await refresh(b.register.refreshToken), 200);
		expect((await list(a.register.accessToken)).map(s => s.sessionId)).toEqual([a.register.sid]);
	});

	it("should stop the access tokens of sessions ended by sign-out and sign-out everywhere", async () => {
		const a = await account();
		const phone = await signIn(a.email, a.password, PHONE_UA);
		expectStatus(await http(p.baseUrl, "GET", "/auth/me", { token: phone.accessToken }), 200);
		expectStatus(await http(p.baseUrl, "POST", "/auth/logout", { json: { refreshToken: phone.refreshToken } }), 204);
		expectStatus(await http(p.baseUrl, "GET", "/auth/me", { token: phone.accessToken }), 401);
		expectStatus(await http(p.baseUrl, "GET", "/auth/me", { token: a.register.accessToken }), 200);
		expectStatus(await http(p.baseUrl, "POST", "/auth/logout/all", { token: a.register.accessToken }), 204);
		expectStatus(await http(p.baseUrl, "GET", "/auth/me", { token: a.register.accessToken }), 401);
		expectStatus(await refresh(a.register.refreshToken), 401);
	});

	it("should let only administrators end every session of an account, and show sessions and factors in the account view", async () => {
		const a = await account();
		const phone = await signIn(a.email, a.password, PHONE_UA);
		const view = await http(p.baseUrl, "GET", `/admin/users/${a.actorId}`, { token: admin });
		expectStatus(view, 200);
		expect(view.body.sessions.map((s: { sessionId: string }) => s.sessionId).sort()).toEqual([a.register.sid, phone.sid].sort());
		expect(view.body.sessions.every((s: { current: boolean }) => s.current === false)).toBe(true);
		expect(view.body.factors).toEqual([]);

		expectStatus(await http(p.baseUrl, "DELETE", `/admin/users/${a.actorId}/sessions`, { token: phone.accessToken }), 403);
		expectStatus(await http(p.baseUrl, "GET", "/auth/me", { token: phone.accessToken }), 200);
		expectStatus(await http(p.baseUrl, "DELETE", `/admin/users/${a.actorId}/sessions`, { token: admin }), 204);
		for (const d of [a.register, phone]) {
			expectStatus(await http(p.baseUrl, "GET", "/auth/me", { token: d.accessToken }), 401);
			expectStatus(await refresh(d.refreshToken), 401);
		}
		expect((await http(p.baseUrl, "GET", `/admin/users/${a.actorId}`, { token: admin })).body.sessions).toEqual([]);
		expect((await auditOf(a.actorId)).filter(e => e.type === "auth.session_revoked").map(e => e.detail)).toEqual([expect.objectContaining({ scope: "all" })]);
		expectStatus(await http(p.baseUrl, "DELETE", "/admin/users/00000000-0000-4000-8000-000000000000/sessions", { token: admin }), 404);
	});

	it("should refuse service tokens on the user's own routes", async () => {
		const token = await serviceToken(p, "documents");
		for (const [method, path] of [
			["GET", "/auth/me"],
			["GET", "/auth/sessions"],
			["DELETE", "/auth/sessions/anything"],
			["DELETE", "/auth/sessions"]
		] as const) {
			const res = await http(p.baseUrl, method, path, { token });
			expectStatus(res, 403);
			expect(res.body.type).toMatch(/service-not-allowed$/);
		}
		expectStatus(await http(p.baseUrl, "GET", "/auth/sessions"), 401);
	});

	it("should show the signed-in account in GET /auth/me", async () => {
		const a = await account();
		const res = await http(p.baseUrl, "GET", "/auth/me", { token: a.register.accessToken });
		expectStatus(res, 200);
		expect(res.headers.get("cache-control")).toMatch(/no-store/);
		expect(res.body).toEqual({ actorId: a.actorId, email: a.email, emailVerified: false, phoneVerified: false, emailDeliverable: true, factors: [], createdAt: expect.any(String) });
		expect(Date.parse(res.body.createdAt)).toBeGreaterThan(Date.now() - 60_000);
	});
});

/**
 * The same with Cognito (cognito-local), whose access tokens carry no sid: the platform
 * keeps each session's record and links every access token it hands out to it, so an
 * ended session's access tokens (those of its refreshes too) are denied by their jti and
 * origin_jti, and its refresh token is refused by the platform's refresh route.
 */
describe("sessions with Cognito (cognito-local)", () => {
	let p: Platform;
	platformOnCognito(ENV, platform => (p = platform));

	const me = (token: string) => http(p.baseUrl, "GET", "/auth/me", { token });
	const refresh = (refreshToken: string) => http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken } });
	async function account() {
		const user = newUser();
		const res = await http(p.baseUrl, "POST", "/auth/register", { json: user, headers: { "user-agent": LAPTOP_UA } });
		expectStatus(res, 201);
		return { email: user.email.toLowerCase(), password: user.password, actorId: res.body.actorId as string, laptop: res.body as { accessToken: string; refreshToken: string } };
	}
	async function signIn(email: string, password: string, ua: string) {
		const res = await http(p.baseUrl, "POST", "/auth/login", { json: { username: email, password }, headers: { "user-agent": ua } });
		expectStatus(res, 200);
		return res.body as { accessToken: string; refreshToken: string };
	}
	async function sessions(token: string) {
		const res = await http(p.baseUrl, "GET", "/auth/sessions", { token });
		expectStatus(res, 200);
		return res.body.items as { sessionId: string; userAgent: string | null; current: boolean }[];
	}

	it("should list each sign-in as a session and mark the caller's, though the pool's tokens carry no sid", async () => {
		const a = await account();
		expect(decodeJwt(a.laptop.accessToken).sid).toBeUndefined();
		const phone = await signIn(a.email, a.password, PHONE_UA);
		const fromPhone = await sessions(phone.accessToken);
		expect(fromPhone).toHaveLength(2);
		expect(fromPhone.find(s => s.current)).toMatchObject({ userAgent: PHONE_UA });
		expect(fromPhone.find(s => !s.current)).toMatchObject({ userAgent: LAPTOP_UA });
	});

	it("should end one session: its access tokens (a refresh's too) and its refresh token refused, the other session untouched", async () => {
		const a = await account();
		const phone = await signIn(a.email, a.password, PHONE_UA);
		// A refresh gives the phone a second access token: it belongs to the same session and must stop with it.
		const refreshed = await refresh(phone.refreshToken);
		expectStatus(refreshed, 200);
		const phoneAgain = refreshed.body.accessToken as string;
		expectStatus(await me(phone.accessToken), 200);
		expectStatus(await me(phoneAgain), 200);
		const phoneSession = (await sessions(a.laptop.accessToken)).find(s => s.userAgent === PHONE_UA)!;

		expectStatus(await http(p.baseUrl, "DELETE", `/auth/sessions/${phoneSession.sessionId}`, { token: a.laptop.accessToken }), 204);
		expectStatus(await me(phone.accessToken), 401);
		expectStatus(await me(phoneAgain), 401);
		const refused = await refresh(phone.refreshToken);
		expectStatus(refused, 401);
		expect(refused.body.code).toBe("INVALID_REFRESH_TOKEN");

		expectStatus(await me(a.laptop.accessToken), 200);
		const laptopAgain = await refresh(a.laptop.refreshToken);
		expectStatus(laptopAgain, 200);
		expectStatus(await me(laptopAgain.body.accessToken), 200);
		expect((await sessions(a.laptop.accessToken)).map(s => s.sessionId)).not.toContain(phoneSession.sessionId);
		// Ending it again: 404.
		expectStatus(await http(p.baseUrl, "DELETE", `/auth/sessions/${phoneSession.sessionId}`, { token: a.laptop.accessToken }), 404);
	});

	it("should end every other session without signing the caller out of the pool", async () => {
		const a = await account();
		const phone = await signIn(a.email, a.password, PHONE_UA);
		expectStatus(await me(phone.accessToken), 200);
		expectStatus(await http(p.baseUrl, "DELETE", "/auth/sessions", { token: a.laptop.accessToken }), 204);
		expectStatus(await me(phone.accessToken), 401);
		expectStatus(await refresh(phone.refreshToken), 401);
		expectStatus(await me(a.laptop.accessToken), 200);
		const again = await refresh(a.laptop.refreshToken);
		expectStatus(again, 200);
		expectStatus(await me(again.body.accessToken), 200);
		expect((await sessions(a.laptop.accessToken)).map(s => s.current)).toEqual([true]);
	});

	it("should answer 404 for another user's session and leave it working", async () => {
		const a = await account();
		const b = await account();
		const bSession = (await sessions(b.laptop.accessToken))[0]!;
		expectStatus(await http(p.baseUrl, "DELETE", `/auth/sessions/${bSession.sessionId}`, { token: a.laptop.accessToken }), 404);
		expectStatus(await me(b.laptop.accessToken), 200);
		expectStatus(await refresh(b.laptop.refreshToken), 200);
	});

	it("should stop a session's access token at sign-out, and every session's at sign-out everywhere", async () => {
		const a = await account();
		const phone = await signIn(a.email, a.password, PHONE_UA);
		expectStatus(await me(phone.accessToken), 200);
		expectStatus(await http(p.baseUrl, "POST", "/auth/logout", { json: { refreshToken: phone.refreshToken } }), 204);
		expectStatus(await me(phone.accessToken), 401);
		expectStatus(await refresh(phone.refreshToken), 401);
		expectStatus(await me(a.laptop.accessToken), 200);

		const tablet = await signIn(a.email, a.password, PHONE_UA);
		expectStatus(await http(p.baseUrl, "POST", "/auth/logout/all", { token: a.laptop.accessToken }), 204);
		expectStatus(await me(a.laptop.accessToken), 401);
		expectStatus(await me(tablet.accessToken), 401);
		expectStatus(await refresh(a.laptop.refreshToken), 401);
		expectStatus(await refresh(tablet.refreshToken), 401);
		// A new sign-in works.
		expectStatus(await me((await signIn(a.email, a.password, LAPTOP_UA)).accessToken), 200);
	});
});
