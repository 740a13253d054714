/**
 * Second factors end to end through the gateway with the embedded identity provider:
 * TOTP enrolment and sign-in (codes computed with otpauth from the seed the platform
 * handed out), recovery codes, the mfaToken's tries and lifetime, step-up, MFA_ENFORCE,
 * the administrators' reset, and bad input. The code-level skew and reuse rules with a
 * frozen clock are test/unit/totp.test.ts's.
 */
import { randomBytes } from "node:crypto";
import { decodeJwt } from "jose";
import { Secret, TOTP } from "otpauth";
import type { AuditEvent } from "../../lib/audit";
import type { FactorRecord, MfaTokenRecord } from "../../lib/mfa/records";
import { sha256 } from "../../lib/crypto";
import { AuthSessions } from "../../lib/mfa";
import { platformOnCognito } from "../helpers/cognito-local";
import { expectStatus, http, newUser, runtime, startPlatform, type HttpResult, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";

const ADMIN = { email: "mfa-admin@example.test", password: "Admin-Passw0rd!" };
const KEK = randomBytes(32).toString("base64");

/** High limits: these tests count tries per mfaToken, not per address. */
const BASE_ENV = {
	RATE_LIMIT_LOGIN_PER_IP: "100000",
	RATE_LIMIT_LOGIN_PER_USER: "100000",
	RATE_LIMIT_REGISTER_PER_IP: "100000",
	RATE_LIMIT_REDEEM_PER_IP: "100000",
	RATE_LIMIT_REFRESH_PER_IP: "100000",
	BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
	BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
	IDP_KEY_ENCRYPTION_KEY: KEK
};

interface Account {
	email: string;
	password: string;
	actorId: string;
	accessToken: string;
}

function totp(secret: string): TOTP {
	return new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
}

/** The code of the time step `steps` from now. */
function codeAt(secret: string, steps = 0): string {
	return totp(secret).generate({ timestamp: Date.now() + steps * 30_000 });
}

/** A six-digit code no step around now has. */
function wrongCode(secret: string): string {
	const near = new Set([-2, -1, 0, 1, 2].map(s => codeAt(secret, s)));
	for (let n = 0; ; n++) {
		const c = String(n).padStart(6, "0");
		if (!near.has(c)) return c;
	}
}

async function register(p: Platform): Promise<Account> {
	const user = newUser();
	const reg = await http(p.baseUrl, "POST", "/auth/register", { json: user });
	expectStatus(reg, 201);
	return { email: user.email.toLowerCase(), password: user.password, actorId: reg.body.actorId, accessToken: reg.body.accessToken };
}

function login(p: Platform, a: { email: string; password: string }): Promise<HttpResult> {
	return http(p.baseUrl, "POST", "/auth/login", { json: { username: a.email, password: a.password } });
}

/** Enrols and confirms a TOTP factor; the seed and the recovery codes. */
async function enrol(p: Platform, token: string): Promise<{ factorId: string; secret: string; recoveryCodes?: string[] }> {
	const started = await http(p.baseUrl, "POST", "/auth/mfa/totp", { token, json: { name: "Phone" } });
	expectStatus(started, 201);
	const { factorId, secret } = started.body;
	const confirmed = await http(p.baseUrl, "POST", `/auth/mfa/totp/${factorId}/confirm`, { token, json: { code: codeAt(secret) } });
	expectStatus(confirmed, 200);
	return { factorId, secret, recoveryCodes: confirmed.body.recoveryCodes };
}

async function mfaToken(p: Platform, a: Account): Promise<string> {
	const res = await login(p, a);
	expectStatus(res, 403);
	expect(res.body.code).toBe("MFA_REQUIRED");
	return res.body.mfaToken;
}

function verify(p: Platform, body: unknown): Promise<HttpResult> {
	return http(p.baseUrl, "POST", "/auth/mfa/verify", { json: body });
}

/** The actor's second-factor events, oldest first (registration and sign-ins are audited too). */
function audit(p: Platform, actorId: string): Promise<AuditEvent[]> {
	return runtime(p)
		.store()
		.collection<AuditEvent>("audit_events")
		.find({ actorId, type: { $in: ["auth.mfa_enrolled", "auth.mfa_removed", "auth.mfa_challenge_failed", "auth.recovery_code_used"] } }, { sort: { id: 1 } });
}

/** The second-factor events only (registration and sign-ins are audited too). */
async function factorEvents(p: Platform, actorId: string): Promise<string[]> {
	return (await audit(p, actorId)).map(e => e.type).filter(t => t.startsWith("auth.mfa_") || t === "auth.recovery_code_used");
}

describe("multi-factor authentication", () => {
	let p: Platform;

	beforeAll(async () => {
		p = await startPlatform(BASE_ENV);
	}, 30000);
	afterAll(() => p?.stop());

	it("should enrol a TOTP factor pending until its first code, with ten recovery codes, and keep the seed only sealed", async () => {
		const a = await register(p);
		const started = await http(p.baseUrl, "POST", "/auth/mfa/totp", { token: a.accessToken, json: {} });
		expectStatus(started, 201);
		expect(started.body.otpauthUri).toMatch(/^otpauth:\/\/totp\/auth-notify:/);
		const uri = new URL(started.body.otpauthUri);
		expect(Object.fromEntries(uri.searchParams)).toMatchObject({ secret: started.body.secret, issuer: "auth-notify", algorithm: "SHA1", digits: "6", period: "30" });
		expect(started.headers.get("cache-control")).toMatch(/no-store/);

		// Pending factors are not listed and do not guard sign-in.
		const listed = await http(p.baseUrl, "GET", "/auth/mfa/factors", { token: a.accessToken });
		expectStatus(listed, 200);
		expect(listed.body).toEqual({ items: [], recoveryCodesLeft: 0 });
		expectStatus(await login(p, a), 200);

		const stored = await runtime(p).store().collection<FactorRecord>("mfa_factors").get(started.body.factorId);
		expect(stored).toMatchObject({ status: "pending", sealedSeed: expect.stringMatching(/^v1\./) });
		expect(stored!.seed).toBeUndefined();
		expect(JSON.stringify(stored)).not.toContain(started.body.secret);

		const { factorId, secret } = started.body;
		const wrong = await http(p.baseUrl, "POST", `/auth/mfa/totp/${factorId}/confirm`, { token: a.accessToken, json: { code: wrongCode(secret) } });
		expectStatus(wrong, 401);
		expect(wrong.body.code).toBe("INVALID_MFA_CODE");

		const confirmed = await http(p.baseUrl, "POST", `/auth/mfa/totp/${factorId}/confirm`, { token: a.accessToken, json: { code: codeAt(secret) } });
		expectStatus(confirmed, 200);
		expect(confirmed.body.factorId).toBe(factorId);
		expect(confirmed.body.recoveryCodes).toHaveLength(10);
		expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);
		// Stored only as hashes.
		const codes = await runtime(p).store().collection("mfa_recovery_codes").find({ userSub: a.actorId });
		expect(codes).toHaveLength(10);
		for (const c of confirmed.body.recoveryCodes as string[]) expect(JSON.stringify(codes)).not.toContain(c.replace("-", ""));

		// Confirmed once: the same factor cannot be confirmed again.
		expectStatus(await http(p.baseUrl, "POST", `/auth/mfa/totp/${factorId}/confirm`, { token: a.accessToken, json: { code: codeAt(secret, 1) } }), 404);

		const after = await http(p.baseUrl, "GET", "/auth/mfa/factors", { token: a.accessToken });
		expect(after.body).toEqual({ items: [{ factorId, type: "totp", name: "Authenticator app", createdAt: expect.any(String), lastUsedAt: expect.any(String) }], recoveryCodesLeft: 10 });
		expect(await factorEvents(p, a.actorId)).toEqual(["auth.mfa_enrolled"]);
	});

	it("should answer login with 403 MFA_REQUIRED and finish with a TOTP code once, with amr naming both factors", async () => {
		const a = await register(p);
		const { secret } = await enrol(p, a.accessToken);
		const res = await login(p, a);
		expectStatus(res, 403);
		expect(res.body).toMatchObject({ code: "MFA_REQUIRED", status: 403, mfaToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), factors: ["totp", "recovery"] });
		expect(res.headers.get("content-type")).toMatch(/application\/problem\+json/);
		// Stored only as a hash.
		const rec = await runtime(p).store().collection<MfaTokenRecord>("mfa_tokens").get(sha256(res.body.mfaToken));
		expect(rec).toMatchObject({ purpose: "verify", userSub: a.actorId, attempts: 0, usedAt: null });

		// The code that confirmed the factor was spent there: the next step's passes (one step of skew).
		const reused = await verify(p, { mfaToken: res.body.mfaToken, type: "totp", code: codeAt(secret) });
		expectStatus(reused, 401);
		expect(reused.body.code).toBe("INVALID_MFA_CODE");
		const code = codeAt(secret, 1);
		const ok = await verify(p, { mfaToken: res.body.mfaToken, type: "totp", code });
		expectStatus(ok, 200);
		const access = decodeJwt(ok.body.accessToken);
		expect(access).toMatchObject({ sub: a.actorId, amr: ["pwd", "otp", "mfa"], sid: expect.any(String) });
		expect(Math.abs((access.auth_time as number) - Date.now() / 1000)).toBeLessThan(10);
		expect(decodeJwt(ok.body.idToken)).toMatchObject({ amr: ["pwd", "otp", "mfa"] });
		await expect(runtime(p).verifier().then(v => v.verify(ok.body.accessToken))).resolves.toMatchObject({ sub: a.actorId });

		// A refresh keeps the session's amr and auth_time.
		const refreshed = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: ok.body.refreshToken } });
		expectStatus(refreshed, 200);
		expect(decodeJwt(refreshed.body.accessToken)).toMatchObject({ amr: ["pwd", "otp", "mfa"], auth_time: access.auth_time, sid: access.sid });

		// The mfaToken is spent; the code too, even with a new mfaToken.
		const again = await verify(p, { mfaToken: res.body.mfaToken, type: "totp", code });
		expectStatus(again, 401);
		expect(again.body.code).toBe("INVALID_MFA_TOKEN");
		const second = await verify(p, { mfaToken: await mfaToken(p, a), type: "totp", code });
		expect(second.body.code).toBe("INVALID_MFA_CODE");
	});

	it("should end an mfaToken after five wrong codes, and audit each failure", async () => {
		const a = await register(p);
		const { secret } = await enrol(p, a.accessToken);
		const token = await mfaToken(p, a);
		for (let i = 0; i < 5; i++) {
			const res = await verify(p, { mfaToken: token, type: "totp", code: wrongCode(secret) });
			expectStatus(res, 401);
			expect(res.body.code).toBe("INVALID_MFA_CODE");
		}
		const right = await verify(p, { mfaToken: token, type: "totp", code: codeAt(secret, 1) });
		expectStatus(right, 401);
		expect(right.body.code).toBe("INVALID_MFA_TOKEN");
		const failed = (await audit(p, a.actorId)).filter(e => e.type === "auth.mfa_challenge_failed");
		expect(failed).toHaveLength(5);
		expect(failed[0]).toMatchObject({ actorId: a.actorId, ip: expect.any(String), occurredAt: expect.any(String) });
		// A new sign-in gets a new mfaToken and the code still works there.
		expectStatus(await verify(p, { mfaToken: await mfaToken(p, a), type: "totp", code: codeAt(secret, 1) }), 200);
	});

	it("should accept a recovery code once, audit it, and replace the set on regeneration", async () => {
		const a = await register(p);
		const { recoveryCodes } = await enrol(p, a.accessToken);
		const [first, second] = recoveryCodes!;
		const ok = await verify(p, { mfaToken: await mfaToken(p, a), type: "recovery", code: first.toUpperCase() });
		expectStatus(ok, 200);
		expect(decodeJwt(ok.body.accessToken).amr).toEqual(["pwd", "otp", "mfa"]);
		const reused = await verify(p, { mfaToken: await mfaToken(p, a), type: "recovery", code: first });
		expect(reused.body.code).toBe("INVALID_MFA_CODE");
		expect((await audit(p, a.actorId)).map(e => e.type)).toContain("auth.recovery_code_used");
		const listed = await http(p.baseUrl, "GET", "/auth/mfa/factors", { token: ok.body.accessToken });
		expect(listed.body.recoveryCodesLeft).toBe(9);

		const regenerated = await http(p.baseUrl, "POST", "/auth/mfa/recovery-codes", { token: ok.body.accessToken });
		expectStatus(regenerated, 201);
		expect(regenerated.body.codes).toHaveLength(10);
		expect((await verify(p, { mfaToken: await mfaToken(p, a), type: "recovery", code: second })).body.code).toBe("INVALID_MFA_CODE");
		expectStatus(await verify(p, { mfaToken: await mfaToken(p, a), type: "recovery", code: regenerated.body.codes[0] }), 200);
	});

	it("should refuse an expired mfaToken with 401 INVALID_MFA_TOKEN", async () => {
		const a = await register(p);
		const { secret } = await enrol(p, a.accessToken);
		const token = await mfaToken(p, a);
		await runtime(p).store().collection<MfaTokenRecord>("mfa_tokens").updateMany({ id: sha256(token) }, { $set: { expiresAt: new Date(Date.now() - 1000).toISOString() } });
		const res = await verify(p, { mfaToken: token, type: "totp", code: codeAt(secret, 1) });
		expectStatus(res, 401);
		expect(res.body.code).toBe("INVALID_MFA_TOKEN");
		expect((await verify(p, { mfaToken: "not-a-token", type: "totp", code: "123456" })).body.code).toBe("INVALID_MFA_TOKEN");
	});

	it.each<[string, (token: string) => Promise<HttpResult>, number, string]>([
		["a code in the query string", t => http(p.baseUrl, "POST", "/auth/mfa/verify?code=123456", { json: { mfaToken: t, type: "totp" } }), 400, "VALIDATION_ERROR"],
		["a body that is not JSON", () => http(p.baseUrl, "POST", "/auth/mfa/verify", { body: "{mfaToken:", headers: { "content-type": "application/json" } }), 400, "MALFORMED_JSON"],
		["an mfaToken that is a number", () => verify(p, { mfaToken: 5, type: "totp", code: "123456" }), 400, "VALIDATION_ERROR"],
		["an unknown factor type", t => verify(p, { mfaToken: t, type: "email", code: "123456" }), 400, "VALIDATION_ERROR"],
		["no code", t => verify(p, { mfaToken: t, type: "totp" }), 400, "VALIDATION_ERROR"],
		["an extra field", t => verify(p, { mfaToken: t, type: "totp", code: "123456", admin: true }), 400, "VALIDATION_ERROR"]
	])("should refuse %s with a problem document and take no try", async (_label, send, status, code) => {
		const a = await register(p);
		await enrol(p, a.accessToken);
		const token = await mfaToken(p, a);
		const res = await send(token);
		expectStatus(res, status);
		expect(res.body).toMatchObject({ code, status });
		expect(res.headers.get("content-type")).toMatch(/application\/problem\+json/);
		await expect(runtime(p).store().collection<MfaTokenRecord>("mfa_tokens").get(sha256(token))).resolves.toMatchObject({ attempts: 0, usedAt: null });
	});

	it("should answer 404 for another user's factor and leave it in place", async () => {
		const a = await register(p);
		const b = await register(p);
		const { factorId } = await enrol(p, a.accessToken);
		const res = await http(p.baseUrl, "DELETE", `/auth/mfa/factors/${factorId}`, { token: b.accessToken });
		expectStatus(res, 404);
		expectStatus(await http(p.baseUrl, "POST", `/auth/mfa/totp/${factorId}/confirm`, { token: b.accessToken, json: { code: "123456" } }), 404);
		expectStatus(await http(p.baseUrl, "DELETE", `/auth/mfa/factors/${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}`, { token: a.accessToken }), 404);
		expect((await http(p.baseUrl, "GET", "/auth/mfa/factors", { token: a.accessToken })).body.items).toHaveLength(1);
	});

	it("should remove the user's own factor and its recovery codes, after which the password alone signs in", async () => {
		const a = await register(p);
		const { factorId } = await enrol(p, a.accessToken);
		expectStatus(await http(p.baseUrl, "DELETE", `/auth/mfa/factors/${factorId}`, { token: a.accessToken }), 204);
		expect((await http(p.baseUrl, "GET", "/auth/mfa/factors", { token: a.accessToken })).body).toEqual({ items: [], recoveryCodesLeft: 0 });
		await expect(runtime(p).store().collection("mfa_recovery_codes").count({ userSub: a.actorId })).resolves.toBe(0);
		expectStatus(await login(p, a), 200);
		expect(await factorEvents(p, a.actorId)).toEqual(["auth.mfa_enrolled", "auth.mfa_removed"]);
	});

	it("should let an administrator remove every factor of a user, and no one else", async () => {
		const a = await register(p);
		await enrol(p, a.accessToken);
		const other = await register(p);
		expectStatus(await http(p.baseUrl, "DELETE", `/admin/users/${a.actorId}/mfa`, { token: other.accessToken }), 403);
		const admin = await login(p, ADMIN);
		expectStatus(admin, 200);
		expectStatus(await http(p.baseUrl, "DELETE", `/admin/users/${a.actorId}/mfa`, { token: admin.body.accessToken }), 204);
		expectStatus(await login(p, a), 200);
		const removed = (await audit(p, a.actorId)).find(e => e.type === "auth.mfa_removed");
		expect(removed).toMatchObject({ detail: { by: decodeJwt(admin.body.accessToken).sub } });
	});

	it("should answer a locked account's right password as a wrong one, not with MFA_REQUIRED", async () => {
		const a = await register(p);
		await enrol(p, a.accessToken);
		const admin = await login(p, ADMIN);
		expectStatus(await http(p.baseUrl, "POST", `/admin/users/${a.actorId}/lock`, { token: admin.body.accessToken, json: {} }), 204);
		const locked = await login(p, a);
		const wrong = await login(p, { email: a.email, password: `${a.password}x` });
		expectStatus(locked, 401);
		expect({ ...locked.body, requestId: undefined }).toEqual({ ...wrong.body, requestId: undefined });
		expect(locked.body.mfaToken).toBeUndefined();
		expectStatus(await http(p.baseUrl, "POST", `/admin/users/${a.actorId}/unlock`, { token: admin.body.accessToken, json: {} }), 204);
		expect((await login(p, a)).body.code).toBe("MFA_REQUIRED");
	});
});

describe("step-up", () => {
	let p: Platform;

	beforeAll(async () => {
		p = await startPlatform({ ...BASE_ENV, STEP_UP_MAX_AGE_SECONDS: "1" });
	}, 30000);
	afterAll(() => p?.stop());

	it("should answer 401 STEP_UP_REQUIRED once the sign-in is older than STEP_UP_MAX_AGE_SECONDS, and a refresh does not renew it", async () => {
		const a = await register(p);
		const signIn = await login(p, a);
		expectStatus(signIn, 200);
		let refused: HttpResult | undefined;
		await waitFor(
			"the sign-in to age past the step-up limit",
			async () => {
				refused = await http(p.baseUrl, "POST", "/auth/mfa/totp", { token: signIn.body.accessToken, json: {} });
				return refused.status === 401;
			},
			5000,
			100
		);
		expect(refused!.body.code).toBe("STEP_UP_REQUIRED");
		expect(refused!.headers.get("www-authenticate")).toBe(
			'Bearer realm="auth-notify", error="insufficient_user_authentication", error_description="This route needs a sign-in at most 1 seconds old: sign in again.", max_age=1'
		);
		const change = await http(p.baseUrl, "POST", "/auth/password/change", { token: signIn.body.accessToken, json: { currentPassword: a.password, newPassword: "Another-Passw0rd!" } });
		expectStatus(change, 401);
		expect(change.body.code).toBe("STEP_UP_REQUIRED");
		// Non-step-up routes still take the token.
		expectStatus(await http(p.baseUrl, "GET", "/auth/mfa/factors", { token: signIn.body.accessToken }), 200);
		// A refresh proves nothing new.
		const refreshed = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: signIn.body.refreshToken } });
		expectStatus(refreshed, 200);
		expect((await http(p.baseUrl, "POST", "/auth/mfa/totp", { token: refreshed.body.accessToken, json: {} })).body.code).toBe("STEP_UP_REQUIRED");
		// A new sign-in does.
		const fresh = await login(p, a);
		expectStatus(await http(p.baseUrl, "POST", "/auth/mfa/totp", { token: fresh.body.accessToken, json: {} }), 201);
	});
});

describe.each(["all", "admins"] as const)("MFA_ENFORCE=%s", enforce => {
	let p: Platform;

	beforeAll(async () => {
		p = await startPlatform({ ...BASE_ENV, MFA_ENFORCE: enforce });
	}, 30000);
	afterAll(() => p?.stop());

	it("should answer 403 MFA_ENROLLMENT_REQUIRED with an mfaToken that only the enrolment routes take", async () => {
		const admin = await login(p, ADMIN);
		expectStatus(admin, 403);
		expect(admin.body).toMatchObject({ code: "MFA_ENROLLMENT_REQUIRED", mfaToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
		const token: string = admin.body.mfaToken;
		// Not a sign-in: no other route takes it, nor does verify.
		expectStatus(await http(p.baseUrl, "GET", "/auth/mfa/factors", { token }), 401);
		expectStatus(await http(p.baseUrl, "POST", "/auth/logout/all", { token }), 401);
		expect((await verify(p, { mfaToken: token, type: "totp", code: "123456" })).body.code).toBe("INVALID_MFA_TOKEN");

		const started = await http(p.baseUrl, "POST", "/auth/mfa/totp", { token, json: {} });
		expectStatus(started, 201);
		const confirmed = await http(p.baseUrl, "POST", `/auth/mfa/totp/${started.body.factorId}/confirm`, { token, json: { code: codeAt(started.body.secret) } });
		expectStatus(confirmed, 200);
		expect(confirmed.body.recoveryCodes).toHaveLength(10);
		// Spent with the enrolment: the user signs in again, now with the factor.
		expect((await http(p.baseUrl, "POST", "/auth/mfa/totp", { token, json: {} })).body.code).toBe("INVALID_MFA_TOKEN");
		const again = await login(p, ADMIN);
		expect(again.body.code).toBe("MFA_REQUIRED");
		expectStatus(await verify(p, { mfaToken: again.body.mfaToken, type: "totp", code: codeAt(started.body.secret, 1) }), 200);
	});

	it(`should ${enforce === "all" ? "also" : "not"} demand a factor of a user outside group admin`, async () => {
		const a = await register(p);
		const res = await login(p, a);
		if (enforce === "all") {
			expectStatus(res, 403);
			expect(res.body.code).toBe("MFA_ENROLLMENT_REQUIRED");
		} else expectStatus(res, 200);
	});
});

describe("multi-factor authentication with Cognito (cognito-local)", () => {
	let p: Platform;
	platformOnCognito(BASE_ENV, platform => (p = platform));

	it("should hold the pool's token set sealed until the second factor passes, and keep the session's amr in the platform's record", async () => {
		const a = await register(p);
		const { secret } = await enrol(p, a.accessToken);
		const res = await login(p, a);
		expectStatus(res, 403);
		expect(res.body.code).toBe("MFA_REQUIRED");
		const held = await runtime(p).store().collection<MfaTokenRecord>("mfa_tokens").get(sha256(res.body.mfaToken));
		expect(held!.sealedTokens).toMatch(/^v1\./);

		const ok = await verify(p, { mfaToken: res.body.mfaToken, type: "totp", code: codeAt(secret, 1) });
		expectStatus(ok, 200);
		expect(JSON.stringify(held)).not.toContain(ok.body.refreshToken.slice(-40));
		// Pool tokens cannot carry amr: the platform's record of the session does.
		const jti = decodeJwt(ok.body.accessToken).jti as string;
		const session = await new AuthSessions(runtime(p).store()).of(jti);
		expect(session).toMatchObject({ userSub: a.actorId, amr: ["pwd", "otp", "mfa"] });
		// The record follows the session through a refresh, and step-up routes read it.
		const refreshed = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: ok.body.refreshToken } });
		expectStatus(refreshed, 200);
		await expect(new AuthSessions(runtime(p).store()).of(decodeJwt(refreshed.body.accessToken).jti as string)).resolves.toMatchObject({ id: session!.id });
		expectStatus(await http(p.baseUrl, "POST", "/auth/mfa/recovery-codes", { token: refreshed.body.accessToken }), 201);
		// The held set is gone with the spent mfaToken.
		await expect(runtime(p).store().collection<MfaTokenRecord>("mfa_tokens").get(held!.id)).resolves.toMatchObject({ usedAt: expect.any(String) });
		expect((await runtime(p).store().collection<MfaTokenRecord>("mfa_tokens").get(held!.id))!.sealedTokens).toBeUndefined();
	});

	it("should answer step-up routes from the session's record, not the pool token's own auth_time", async () => {
		const a = await register(p);
		const signIn = await login(p, a);
		expectStatus(signIn, 200);
		const jti = decodeJwt(signIn.body.accessToken).jti as string;
		const sessions = runtime(p).store().collection("auth_sessions");
		const { sessionId } = (await runtime(p).store().collection<{ id: string; sessionId: string }>("auth_session_tokens").get(jti))!;
		expectStatus(await http(p.baseUrl, "POST", "/auth/mfa/totp", { token: signIn.body.accessToken, json: {} }), 201);
		// The session's sign-in is made old: the route refuses, though the pool token says it was issued just now.
		await sessions.updateMany({ id: sessionId }, { $set: { authTime: Math.floor(Date.now() / 1000) - 3600 } });
		const refused = await http(p.baseUrl, "POST", "/auth/mfa/totp", { token: signIn.body.accessToken, json: {} });
		expectStatus(refused, 401);
		expect(refused.body.code).toBe("STEP_UP_REQUIRED");
	});

	it("should refuse passwordless passkey sign-in with 501 NOT_SUPPORTED_BY_PROVIDER, and still offer passkey registration as a second factor", async () => {
		const options = await http(p.baseUrl, "POST", "/auth/passkeys/authentication/options", { json: {} });
		expectStatus(options, 501);
		expect(options.body.code).toBe("NOT_SUPPORTED_BY_PROVIDER");
		const assertion = { id: "AAAA", rawId: "AAAA", type: "public-key", response: { clientDataJSON: "AAAA", authenticatorData: "AAAA", signature: "AAAA" }, clientExtensionResults: {} };
		const signIn = await http(p.baseUrl, "POST", "/auth/passkeys/authentication", { json: { challengeId: "0b9f1c4e-3a8d-4f7b-9e21-6c5d8a7f0e13", response: assertion } });
		expectStatus(signIn, 501);
		expect(signIn.body.code).toBe("NOT_SUPPORTED_BY_PROVIDER");
		const a = await register(p);
		const creation = await http(p.baseUrl, "POST", "/auth/passkeys/registration/options", { token: a.accessToken });
		expectStatus(creation, 200);
		expect(creation.body.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
	});
});

describe("second-factor guesses against the account's login limit", () => {
	let p: Platform;

	beforeAll(async () => {
		p = await startPlatform({ ...BASE_ENV, RATE_LIMIT_LOGIN_PER_USER: "4" });
	}, 30000);
	afterAll(() => p?.stop());

	it("should answer 429 RATE_LIMITED once sign-ins and verifications of one account pass the limit, taking no try", async () => {
		const a = await register(p);
		const { secret } = await enrol(p, a.accessToken);
		const token = await mfaToken(p, a);
		for (let i = 0; i < 3; i++) expect((await verify(p, { mfaToken: token, type: "totp", code: wrongCode(secret) })).body.code).toBe("INVALID_MFA_CODE");
		const limited = await verify(p, { mfaToken: token, type: "totp", code: codeAt(secret, 1) });
		expectStatus(limited, 429);
		expect(limited.body.code).toBe("RATE_LIMITED");
		expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
		await expect(runtime(p).store().collection<MfaTokenRecord>("mfa_tokens").get(sha256(token))).resolves.toMatchObject({ attempts: 3, usedAt: null });
	});
});
