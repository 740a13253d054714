/**
 * The account lifecycle end to end through the gateway, for both identity providers
 * (the embedded one, and Cognito played by cognito-local): email verification,
 * password reset and change, sign-out, the refresh-token reuse grace. Every mail is
 * read from the file outbox, where the platform's own dispatcher put it.
 */
import fs from "node:fs";
import path from "node:path";
import { decodeJwt } from "jose";
import { LifecycleTokens } from "../../lib/accounts/lifecycle-tokens";
import type { NotificationDoc } from "../../lib/notifications/model";
import { cognitoEnv, createPools, startCognitoLocal, type CognitoLocal } from "../helpers/cognito-local";
import { linkToken, outbox, waitForMail } from "../helpers/mail";
import { http, newUser, runtime, startPlatform, type HttpResult, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";

const UI = "https://ui.example.test";
const VERIFY = /Verify your email/;
const RESET = /Reset your password/;
const NEW_PASSWORD = "Brand-New-Passw0rd!";
const ADMIN = { email: "admin@example.test", password: "Admin-Passw0rd!" };

/** High limits: these tests count other things than the limits. */
const BASE_ENV = {
	UI_BASE_URL: UI,
	RATE_LIMIT_FORGOT_PER_IP: "100000",
	RATE_LIMIT_FORGOT_PER_USER: "100000",
	RATE_LIMIT_REDEEM_PER_IP: "100000",
	RATE_LIMIT_LOGIN_PER_IP: "100000",
	RATE_LIMIT_LOGIN_PER_USER: "100000",
	RATE_LIMIT_REGISTER_PER_IP: "100000",
	RATE_LIMIT_REFRESH_PER_IP: "100000",
	RATE_LIMIT_VERIFICATION_PER_USER: "100000",
	BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
	BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
	REFRESH_TOKEN_REUSE_INTERVAL_SECONDS: "2"
};

type Kind = "embedded" | "cognito";

let local: CognitoLocal | undefined;
let cognito: Record<string, string> = {};

beforeAll(async () => {
	local = await startCognitoLocal();
	cognito = cognitoEnv(local, await createPools(local));
}, 30000);
afterAll(async () => {
	await local?.stop();
});

function envFor(kind: Kind, extra: Record<string, string> = {}): Record<string, string> {
	return { ...BASE_ENV, ...(kind === "cognito" ? cognito : {}), ...extra };
}

async function register(p: Platform) {
	const user = newUser({ password: "Correct-Horse-9!" });
	const reg = await http(p.baseUrl, "POST", "/auth/register", { json: user });
	expect(reg.status).toBe(201);
	return { ...user, email: user.email.toLowerCase(), actorId: reg.body.actorId as string, tokens: reg.body };
}

async function login(p: Platform, email: string, password: string): Promise<HttpResult> {
	return http(p.baseUrl, "POST", "/auth/login", { json: { username: email, password } });
}

async function verificationToken(p: Platform, email: string, count = 1): Promise<string> {
	return linkToken(await waitForMail(p.dataDir, email, VERIFY, count), UI, "/verify-email");
}

async function resetToken(p: Platform, email: string, count = 1): Promise<string> {
	return linkToken(await waitForMail(p.dataDir, email, RESET, count), UI, "/reset-password");
}

/** Lets the forgot requests' background work finish, so one request's work does not slow the next one measured. */
async function settled(p: Platform): Promise<void> {
	await (p.broker.getLocalService("auth") as unknown as { lifecycle: { settle(): Promise<void> } }).lifecycle.settle();
}

/** Until the dispatcher has recorded every send (the mail file comes before its SENT record). */
async function queueIdle(p: Platform): Promise<void> {
	const notifications = runtime(p).store().collection<NotificationDoc>("notifications");
	const deadline = Date.now() + 10000;
	while ((await notifications.count({ status: { $in: ["QUEUED", "PROCESSING"] } })) > 0) {
		if (Date.now() > deadline) throw new Error("The queue did not empty within 10 s");
		await new Promise(resolve => setTimeout(resolve, 10));
	}
}

/** Counts the SENT events the platform records from now on; until(n) waits for the n-th (its file is written before). */
function sentCounter(p: Platform): { until(n: number): Promise<void> } {
	let count = 0;
	const waiting = new Set<() => void>();
	runtime(p).statusEvents.subscribe(events => {
		count += events.filter(e => e.event === "SENT").length;
		for (const check of waiting) check();
	});
	return {
		until: n =>
			new Promise<void>((resolve, reject) => {
				const timer = setTimeout(() => {
					waiting.delete(check);
					reject(new Error(`SENT #${n} did not come within 10 s (${count} so far)`));
				}, 10000);
				function check(): void {
					if (count < n) return;
					waiting.delete(check);
					clearTimeout(timer);
					resolve();
				}
				waiting.add(check);
				check();
			})
	};
}

/**
 * How many mails the outbox holds, counted without reading them: waitForMail parses the
 * whole outbox on every look, which a loop of many mails cannot afford.
 */
function mailFiles(p: Platform): number {
	return fs.readdirSync(path.join(p.dataDir, "outbox")).filter(f => f.endsWith(".eml")).length;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Headers that differ on every answer whatever the account. */
const PER_REQUEST = new Set(["date", "x-request-id"]);
const headersOf = (res: HttpResult) => [...res.headers].filter(([k]) => !PER_REQUEST.has(k));

describe.each<Kind>(["embedded", "cognito"])("account lifecycle with the %s identity provider", kind => {
	let p: Platform;

	beforeAll(async () => {
		if (kind === "cognito") {
			// cognito-local has no AdminUserGlobalSignOut: the platform's own revocation record alone ends sessions there.
			console.log("cognito-local has no AdminUserGlobalSignOut and never rotates refresh tokens: sign-out everywhere is shown by the platform's revocation record, and the reuse grace applies to the embedded provider only.");
		}
		p = await startPlatform(envFor(kind));
	}, 30000);
	afterAll(() => p?.stop());

	it("should mail a verification link on registration and mark the email verified when it is followed, once", async () => {
		const user = await register(p);
		expect(decodeJwt(user.tokens.idToken).email_verified ?? false).toBe(false);
		const mail = await waitForMail(p.dataDir, user.email, VERIFY);
		const token = linkToken(mail, UI, "/verify-email");
		expect(mail.html).toContain(`${UI}/verify-email#token=${token}`);

		// The stored notification is CRITICAL and holds no token; the token is stored only as a hash.
		// SENT is recorded once the file is in place, so the mail can be read a moment before.
		const notifications = runtime(p).store().collection<NotificationDoc>("notifications");
		await waitFor("the verification mail recorded SENT", async () => (await notifications.get(mail.notificationId))?.status === "SENT", 5000, 25);
		const doc = await notifications.get(mail.notificationId);
		expect(doc).toMatchObject({ priority: "CRITICAL", status: "SENT", metadata: { category: "security", purpose: "verify-email" } });
		expect(JSON.stringify(doc)).not.toContain(token);
		const stored = await runtime(p).store().collection("lifecycle_tokens").find({});
		expect(JSON.stringify(stored)).not.toContain(token);

		// Unverified users may sign in unless REQUIRE_VERIFIED_EMAIL says otherwise.
		expect((await login(p, user.email, user.password)).status).toBe(200);

		const verified = await http(p.baseUrl, "POST", "/auth/email/verify", { json: { token } });
		expect(verified.status).toBe(200);
		expect(verified.body).toEqual({ emailVerified: true });
		const after = await login(p, user.email, user.password);
		expect(decodeJwt(after.body.idToken).email_verified).toBe(true);

		const replay = await http(p.baseUrl, "POST", "/auth/email/verify", { json: { token } });
		expect(replay.status).toBe(401);
		expect(replay.body.code).toBe("INVALID_VERIFICATION_TOKEN");
		const again = await http(p.baseUrl, "POST", "/auth/email/verification", { token: after.body.accessToken });
		expect(again.status).toBe(409);
		expect(again.body.code).toBe("EMAIL_ALREADY_VERIFIED");
	});

	it("should mail a new verification link on request, and refuse a request without a user token", async () => {
		const user = await register(p);
		await waitForMail(p.dataDir, user.email, VERIFY);
		expect((await http(p.baseUrl, "POST", "/auth/email/verification", {})).status).toBe(401);
		const res = await http(p.baseUrl, "POST", "/auth/email/verification", { token: user.tokens.accessToken });
		expect(res.status).toBe(202);
		const token = await verificationToken(p, user.email, 2);
		expect((await http(p.baseUrl, "POST", "/auth/email/verify", { json: { token } })).status).toBe(200);
	});

	it("should refuse malformed, unknown and expired verification tokens alike", async () => {
		const user = await register(p);
		const profile = (await (await runtime(p).idp()).findProfileByEmail(user.email))!;
		const past = new LifecycleTokens(runtime(p).store(), () => Date.now() - 25 * 3600 * 1000);
		const expired = await past.mint("verify-email", { sub: profile.sub, username: profile.username, email: profile.email }, 24 * 3600);
		for (const token of ["x", "A".repeat(43), expired]) {
			const res = await http(p.baseUrl, "POST", "/auth/email/verify", { json: { token } });
			expect(res.status).toBe(401);
			expect(res.body.code).toBe("INVALID_VERIFICATION_TOKEN");
		}
		expect((await http(p.baseUrl, "POST", "/auth/email/verify", { json: {} })).status).toBe(400);
	});

	it("should answer forgot identically for known and unknown addresses, and mail only the known one", async () => {
		const user = await register(p);
		const unknown = `nobody-${Date.now()}@example.com`;
		const known = await http(p.baseUrl, "POST", "/auth/password/forgot", { json: { email: user.email } });
		const missing = await http(p.baseUrl, "POST", "/auth/password/forgot", { json: { email: unknown } });
		expect(known.status).toBe(202);
		expect(missing.status).toBe(202);
		expect(missing.body).toEqual(known.body);
		expect(headersOf(missing)).toEqual(headersOf(known));
		await resetToken(p, user.email);
		await settled(p);
		expect((await outbox(p.dataDir)).filter(m => m.to === unknown)).toEqual([]);
	});

	// The issue asks for at least 50 tries each. With 50, the medians of the same request
	// (about 2 ms here) differ by ±5 % (one standard error) on a 2-core CI machine, so the
	// 10 % bound failed about one run in ten with no difference to find; with 120 the error
	// is about ±3 %, while a lookup or a mail before the answer adds far more than 10 %.
	const FORGOT_TRIES = 120;

	it(`should answer forgot in the same median time for known and unknown addresses (${FORGOT_TRIES} each, within 10%)`, async () => {
		const user = await register(p);
		// One address each, asked FORGOT_TRIES times: both count against one existing rate-limit counter.
		const unknown = `nobody-${Date.now()}@example.com`;
		const times: Record<"known" | "unknown", number[]> = { known: [], unknown: [] };
		await waitForMail(p.dataDir, user.email, VERIFY);
		await queueIdle(p);
		let files = mailFiles(p);
		const sent = sentCounter(p);
		let expected = 0;
		for (let i = 0; i < FORGOT_TRIES; i++) {
			for (const which of i % 2 ? (["known", "unknown"] as const) : (["unknown", "known"] as const)) {
				const email = which === "known" ? user.email : unknown;
				const started = process.hrtime.bigint();
				const res = await http(p.baseUrl, "POST", "/auth/password/forgot", { json: { email } });
				times[which].push(Number(process.hrtime.bigint() - started) / 1e6);
				expect(res.status).toBe(202);
				// The work after the answer (lookup, queueing, the send) ends before the next request is timed:
				// the mail of a known address is written before its send is recorded.
				await settled(p);
				if (which === "known") {
					await sent.until((expected += 1));
					files += 1;
				}
				await queueIdle(p);
				expect(mailFiles(p)).toBe(files);
			}
		}
		const [k, u] = [median(times.known), median(times.unknown)];
		console.log(`forgot median: known ${k.toFixed(3)} ms, unknown ${u.toFixed(3)} ms`);
		expect(Math.abs(k - u) / Math.min(k, u)).toBeLessThan(0.1);
		// Read once at the end: every new mail is a reset mail to the known address.
		const mails = await outbox(p.dataDir);
		expect(mails.filter(m => m.to === user.email && RESET.test(m.subject))).toHaveLength(FORGOT_TRIES);
		expect(mails.filter(m => m.to === unknown)).toEqual([]);
	}, 60000);

	it("should reset the password with the mailed token once, revoke every refresh token, and verify the email", async () => {
		const user = await register(p);
		const session = await login(p, user.email, user.password);
		expect((await http(p.baseUrl, "POST", "/auth/password/forgot", { json: { email: user.email } })).status).toBe(202);
		const token = await resetToken(p, user.email);

		const weak = await http(p.baseUrl, "POST", "/auth/password/reset", { json: { token, password: "short" } });
		if (kind === "embedded") {
			// The policy refuses it, and the token stays usable.
			expect(weak.status).toBe(422);
			expect(weak.body.code).toBe("INVALID_PASSWORD");
		}
		const password = kind === "embedded" ? NEW_PASSWORD : weak.status === 204 ? "short" : NEW_PASSWORD;
		if (weak.status !== 204) {
			const res = await http(p.baseUrl, "POST", "/auth/password/reset", { json: { token, password } });
			expect(res.status).toBe(204);
		}

		for (const refreshToken of [user.tokens.refreshToken, session.body.refreshToken]) {
			const refreshed = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken } });
			expect(refreshed.status).toBe(401);
			expect(refreshed.body.code).toBe("INVALID_REFRESH_TOKEN");
		}
		expect((await login(p, user.email, user.password)).status).toBe(401);
		const fresh = await login(p, user.email, password);
		expect(fresh.status).toBe(200);
		expect(decodeJwt(fresh.body.idToken).email_verified).toBe(true);
		// A session begun after the reset lives on.
		expect((await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: fresh.body.refreshToken } })).status).toBe(200);

		const replay = await http(p.baseUrl, "POST", "/auth/password/reset", { json: { token, password: NEW_PASSWORD + "x" } });
		expect(replay.status).toBe(401);
		expect(replay.body.code).toBe("INVALID_RESET_TOKEN");
	});

	it("should let exactly one of 100 parallel redemptions of one reset token succeed", async () => {
		const user = await register(p);
		await http(p.baseUrl, "POST", "/auth/password/forgot", { json: { email: user.email } });
		const token = await resetToken(p, user.email);
		const answers = await Promise.all(
			Array.from({ length: 100 }, (_, i) => http(p.baseUrl, "POST", "/auth/password/reset", { json: { token, password: `${NEW_PASSWORD}${i}` } }))
		);
		const won = answers.map((a, i) => [a.status, i] as const).filter(([s]) => s === 204);
		expect(won).toHaveLength(1);
		expect(answers.filter(a => a.status === 401 && a.body.code === "INVALID_RESET_TOKEN")).toHaveLength(99);
		expect((await login(p, user.email, `${NEW_PASSWORD}${won[0][1]}`)).status).toBe(200);
	}, 60000);

	it("should refuse an expired reset token", async () => {
		const user = await register(p);
		const profile = (await (await runtime(p).idp()).findProfileByEmail(user.email))!;
		const past = new LifecycleTokens(runtime(p).store(), () => Date.now() - 31 * 60 * 1000);
		const token = await past.mint("reset-password", { sub: profile.sub, username: profile.username, email: profile.email }, 30 * 60);
		const res = await http(p.baseUrl, "POST", "/auth/password/reset", { json: { token, password: NEW_PASSWORD } });
		expect(res.status).toBe(401);
		expect(res.body.code).toBe("INVALID_RESET_TOKEN");
		expect((await login(p, user.email, user.password)).status).toBe(200);
	});

	it("should change the password only with the current one, and end the other sessions", async () => {
		const user = await register(p);
		const other = await login(p, user.email, user.password);
		const mine = await login(p, user.email, user.password);
		const change = (currentPassword: string, newPassword: string) =>
			http(p.baseUrl, "POST", "/auth/password/change", { token: mine.body.accessToken, json: { currentPassword, newPassword } });

		const wrong = await change("Wrong-Passw0rd!", NEW_PASSWORD);
		expect(wrong.status).toBe(401);
		expect(wrong.body.code).toBe("INVALID_CREDENTIALS");
		expect((await http(p.baseUrl, "POST", "/auth/password/change", { json: { currentPassword: user.password, newPassword: NEW_PASSWORD } })).status).toBe(401);
		expect((await change(user.password, NEW_PASSWORD)).status).toBe(204);

		expect((await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: other.body.refreshToken } })).status).toBe(401);
		// The embedded provider tells sessions apart and keeps the caller's; Cognito's global sign-out ends them all.
		const own = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: mine.body.refreshToken } });
		expect(own.status).toBe(kind === "embedded" ? 200 : 401);
		expect((await login(p, user.email, user.password)).status).toBe(401);
		expect((await login(p, user.email, NEW_PASSWORD)).status).toBe(200);
	});

	it("should sign out one session with its refresh token, and every session with logout/all", async () => {
		const user = await register(p);
		const a = await login(p, user.email, user.password);
		const b = await login(p, user.email, user.password);
		const c = await login(p, user.email, user.password);
		expect((await http(p.baseUrl, "POST", "/auth/logout", { json: { refreshToken: a.body.refreshToken } })).status).toBe(204);
		expect((await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: a.body.refreshToken } })).status).toBe(401);
		expect((await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: b.body.refreshToken } })).status).toBe(200);
		// Unknown and already revoked tokens get the same answer.
		expect((await http(p.baseUrl, "POST", "/auth/logout", { json: { refreshToken: a.body.refreshToken } })).status).toBe(204);
		expect((await http(p.baseUrl, "POST", "/auth/logout", { json: { refreshToken: "not-a-token" } })).status).toBe(204);
		expect((await http(p.baseUrl, "POST", "/auth/logout", { json: {} })).status).toBe(400);

		expect((await http(p.baseUrl, "POST", "/auth/logout/all", {})).status).toBe(401);
		expect((await http(p.baseUrl, "POST", "/auth/logout/all", { token: c.body.accessToken })).status).toBe(204);
		for (const s of [b, c]) {
			expect((await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: s.body.refreshToken } })).status).toBe(401);
		}
		expect((await login(p, user.email, user.password)).status).toBe(200);
	});

	it("should give parallel refreshes of one token the same successor, and treat a later reuse as theft", async () => {
		const user = await register(p);
		const session = await login(p, user.email, user.password);
		const refresh = (refreshToken: string) => http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken } });
		const [one, two] = await Promise.all([refresh(session.body.refreshToken), refresh(session.body.refreshToken)]);
		expect([one.status, two.status]).toEqual([200, 200]);
		expect(two.body.refreshToken).toBe(one.body.refreshToken);
		// Cognito does not rotate (REFRESH_TOKEN_AUTH): both simply keep the token.
		if (kind === "cognito") return;
		expect(two.body.accessToken).toBe(one.body.accessToken);
		expect(one.body.refreshToken).not.toBe(session.body.refreshToken);
		const rotatedAt = Date.now();
		// Past the interval (2 s), the old token is a stolen copy: the family ends, successor included.
		while (Date.now() - rotatedAt < 2100) await new Promise(resolve => setTimeout(resolve, 100));
		expect((await refresh(session.body.refreshToken)).status).toBe(401);
		expect((await refresh(one.body.refreshToken)).status).toBe(401);
	});

	it("should mail an administrator's template under the well-known name, which only administrators may use", async () => {
		const user = await register(p);
		const admin = await login(p, ADMIN.email, ADMIN.password);
		const template = { name: "auth.reset-password", subject: "Reset your password at Example", text: "Hello {{email}}, go to {{link}} now." };
		const refused = await http(p.baseUrl, "POST", "/templates", { token: user.tokens.accessToken, json: template });
		expect(refused.status).toBe(403);
		const created = await http(p.baseUrl, "POST", "/templates", { token: admin.body.accessToken, json: template });
		expect(created.status).toBe(201);
		try {
			await http(p.baseUrl, "POST", "/auth/password/forgot", { json: { email: user.email } });
			const mail = await waitForMail(p.dataDir, user.email, /at Example/);
			const token = linkToken(mail, UI, "/reset-password");
			expect(mail.text.trim()).toBe(`Hello ${user.email}, go to ${UI}/reset-password#token=${token} now.`);
		} finally {
			await runtime(p).store().collection("templates").deleteMany({ id: created.body.templateId });
		}
	});
});

describe.each<Kind>(["embedded", "cognito"])("REQUIRE_VERIFIED_EMAIL=true with the %s identity provider", kind => {
	let p: Platform;
	beforeAll(async () => {
		p = await startPlatform(envFor(kind, { REQUIRE_VERIFIED_EMAIL: "true" }));
	}, 30000);
	afterAll(() => p?.stop());

	it("should refuse login and refresh of an unverified user with 403 EMAIL_NOT_VERIFIED until the email is verified", async () => {
		const user = await register(p);
		const refused = await login(p, user.email, user.password);
		expect(refused.status).toBe(403);
		expect(refused.body.code).toBe("EMAIL_NOT_VERIFIED");
		const refresh = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: user.tokens.refreshToken } });
		expect(refresh.status).toBe(403);
		expect(refresh.body.code).toBe("EMAIL_NOT_VERIFIED");
		// A wrong password is still the generic 401: the 403 is only for who holds the password.
		expect((await login(p, user.email, "Wrong-Passw0rd!")).status).toBe(401);

		const token = await verificationToken(p, user.email);
		expect((await http(p.baseUrl, "POST", "/auth/email/verify", { json: { token } })).status).toBe(200);
		expect((await login(p, user.email, user.password)).status).toBe(200);
	});
});

describe("rate limits of the lifecycle routes", () => {
	let p: Platform;
	beforeAll(async () => {
		p = await startPlatform({ UI_BASE_URL: UI, RATE_LIMIT_FORGOT_PER_USER: "2", RATE_LIMIT_FORGOT_PER_IP: "5", RATE_LIMIT_REDEEM_PER_IP: "3" });
	}, 30000);
	afterAll(() => p?.stop());

	it("should limit forgot per email and per client address, alike for known and unknown addresses", async () => {
		const user = await register(p);
		const forgot = (email: string) => http(p.baseUrl, "POST", "/auth/password/forgot", { json: { email } });
		const unknown = `nobody-${Date.now()}@example.com`;
		for (const email of [user.email, user.email, unknown, unknown]) expect((await forgot(email)).status).toBe(202);
		const [known3, unknown3] = [await forgot(user.email), await forgot(unknown)];
		for (const res of [known3, unknown3]) {
			expect(res.status).toBe(429);
			expect(res.body.code).toBe("RATE_LIMITED");
			expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
		}
		// Four answered and two refused: the fifth from this address is still counted, the sixth passes the address limit.
		const other = await forgot(`someone-${Date.now()}@example.com`);
		expect(other.status).toBe(429);
		await settled(p);
		// Only the two answered requests for the known address made mails.
		await waitForMail(p.dataDir, user.email, RESET, 2);
		expect((await outbox(p.dataDir)).filter(m => m.to === user.email && RESET.test(m.subject))).toHaveLength(2);
	});

	it("should limit token redemptions per client address", async () => {
		const answers = [];
		for (let i = 0; i < 4; i++) answers.push((await http(p.baseUrl, "POST", "/auth/email/verify", { json: { token: "A".repeat(43) } })).status);
		expect(answers).toEqual([401, 401, 401, 429]);
	});
});
