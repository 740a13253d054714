/**
 * Passkeys in Debian's Chromium, driven by playwright-core, with real WebAuthn
 * ceremonies: a CDP virtual authenticator (ctap2, internal, resident keys, user
 * verification) signs, navigator.credentials is the browser's own. The example app
 * (examples/web) is served on http://localhost:<port> (WebAuthn needs a secure context
 * and a domain as RP id, so not 127.0.0.1), and the platform is told so:
 * WEBAUTHN_RP_ID=localhost, WEBAUTHN_ORIGINS that origin. The app registers a passkey,
 * signs in with it without a password, and confirms a password sign-in with it; the
 * bad-input cases drive the browser's ceremonies directly and send the JSON themselves.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { decodeJwt } from "jose";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import type { FactorRecord } from "../../lib/mfa/records";
import type { WebAuthnChallengeRecord } from "../../lib/mfa/passkeys";
import { CHROMIUM, CHROMIUM_FLAGS } from "../helpers/chromium";
import { expectStatus, http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { freePort } from "../helpers/processes";

const ROOT = path.resolve(__dirname, "../..");
const SESSION = "auth-notify.session";

let p: Platform;
let app: ChildProcess;
let ui: string;
let browser: Browser;

function buildApp(): void {
	const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
	for (const project of ["client/tsconfig.json", "examples/web/tsconfig.json"]) execFileSync(process.execPath, [tsc, "-p", project], { cwd: ROOT });
}

function serveApp(port: number, apiBaseUrl: string): Promise<ChildProcess> {
	const child = spawn(process.execPath, [path.join(ROOT, "examples/web/serve.mjs")], {
		env: { ...process.env, PORT: String(port), HOST: "localhost", API_BASE_URL: apiBaseUrl }
	});
	return new Promise((resolve, reject) => {
		let output = "";
		child.stdout!.on("data", (chunk: Buffer) => {
			output += chunk;
			if (output.includes("example web app on")) resolve(child);
		});
		child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
		child.on("exit", code => reject(new Error(`serve.mjs exited with ${code}: ${output}`)));
	});
}

beforeAll(async () => {
	buildApp();
	const [apiPort, uiPort] = [await freePort(), await freePort()];
	ui = `http://localhost:${uiPort}`;
	p = await startPlatform({
		PORT: String(apiPort),
		CORS_ORIGINS: ui,
		UI_BASE_URL: ui,
		WEBAUTHN_RP_ID: "localhost",
		WEBAUTHN_ORIGINS: ui,
		RATE_LIMIT_LOGIN_PER_IP: "100000",
		RATE_LIMIT_LOGIN_PER_USER: "100000",
		RATE_LIMIT_REDEEM_PER_IP: "100000"
	});
	app = await serveApp(uiPort, p.baseUrl);
	browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}, 60000);

afterAll(async () => {
	await browser?.close();
	app?.kill();
	await p?.stop();
});

/** A context whose pages have one virtual platform authenticator that verifies its user. */
async function withAuthenticator(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
	const context = await browser.newContext();
	const page = await context.newPage();
	const problems: string[] = [];
	page.on("pageerror", e => problems.push(String(e)));
	const cdp = await context.newCDPSession(page);
	await cdp.send("WebAuthn.enable");
	await cdp.send("WebAuthn.addVirtualAuthenticator", {
		options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true }
	});
	await page.goto(ui + "/");
	return { context, page, problems };
}

async function registered(): Promise<ReturnType<typeof newUser> & { actorId: string; accessToken: string }> {
	const user = newUser();
	const res = await http(p.baseUrl, "POST", "/auth/register", { json: user });
	expectStatus(res, 201);
	return { ...user, email: user.email.toLowerCase(), actorId: res.body.actorId, accessToken: res.body.accessToken };
}

async function session(page: Page): Promise<{ accessToken: string } | null> {
	return page.evaluate(key => JSON.parse(localStorage.getItem(key) ?? "null"), SESSION);
}

async function message(page: Page): Promise<string> {
	return (await page.textContent("#message")) ?? "";
}

function passkeysOf(actorId: string): Promise<FactorRecord[]> {
	return runtime(p).store().collection<FactorRecord>("mfa_factors").find({ userSub: actorId, type: "webauthn" });
}

/** What the page's scripts see (the tests compile without the DOM library). */
interface PageGlobals {
	PublicKeyCredential: { parseCreationOptionsFromJSON(o: unknown): unknown; parseRequestOptionsFromJSON(o: unknown): unknown };
	navigator: { credentials: { create(o: object): Promise<{ toJSON(): Record<string, unknown> }>; get(o: object): Promise<{ toJSON(): Record<string, unknown> }> } };
}

/** navigator.credentials.create() with the platform's creation options, answered as JSON. */
function createInPage(page: Page, options: unknown): Promise<Record<string, unknown>> {
	return page.evaluate(async o => {
		const g = globalThis as unknown as PageGlobals;
		const credential = await g.navigator.credentials.create({ publicKey: g.PublicKeyCredential.parseCreationOptionsFromJSON(o) });
		return credential.toJSON();
	}, options);
}

/** navigator.credentials.get() with request options, answered as JSON. */
function getInPage(page: Page, options: Record<string, unknown>): Promise<Record<string, unknown>> {
	const { challengeId: _id, ...json } = options;
	return page.evaluate(async o => {
		const g = globalThis as unknown as PageGlobals;
		const credential = await g.navigator.credentials.get({ publicKey: g.PublicKeyCredential.parseRequestOptionsFromJSON(o) });
		return credential.toJSON();
	}, json);
}

/** Registers a passkey for the user through the HTTP routes and the page's authenticator. */
async function registerPasskey(page: Page, accessToken: string): Promise<string> {
	const options = await http(p.baseUrl, "POST", "/auth/passkeys/registration/options", { token: accessToken });
	expectStatus(options, 200);
	const response = await createInPage(page, options.body);
	const done = await http(p.baseUrl, "POST", "/auth/passkeys/registration", { token: accessToken, json: { response, name: "Test key" } });
	expectStatus(done, 201);
	return done.body.factorId;
}

describe("passkeys in Chromium with a virtual authenticator", () => {
	it("should register a passkey from the example app, sign in with it without a password, and confirm a password sign-in with it", async () => {
		const user = await registered();
		const { context, page, problems } = await withAuthenticator();
		try {
			await page.fill("#login [name=username]", user.email);
			await page.fill("#login [name=password]", user.password);
			await page.click("#login button[type=submit]");
			await page.waitForSelector("#signed-in:not([hidden])");

			await page.click("#passkey-register");
			await page.locator("#message", { hasText: "Passkey registered" }).waitFor();
			const [stored] = await passkeysOf(user.actorId);
			expect(stored).toMatchObject({ type: "webauthn", status: "active", name: "Example app passkey", deviceType: "singleDevice", username: user.email });
			expect(stored.publicKey).toMatch(/^[A-Za-z0-9_-]{40,}$/);
			expect(stored.credentialId).toMatch(/^[A-Za-z0-9_-]+$/);
			const factors = await http(p.baseUrl, "GET", "/auth/mfa/factors", { token: (await session(page))!.accessToken });
			expectStatus(factors, 200);
			expect(factors.body.items).toEqual([expect.objectContaining({ factorId: stored.id, type: "webauthn", name: "Example app passkey", lastUsedAt: null })]);

			await page.click("#logout");
			await page.waitForSelector("#signed-out:not([hidden])");
			expect(await session(page)).toBeNull();

			// Passwordless: the authenticator's discoverable credential names the user.
			await page.click("#passkey-signin");
			await page.waitForSelector("#signed-in:not([hidden])");
			expect(await page.textContent('#profile [data-field="email"]')).toBe(user.email);
			const passwordless = decodeJwt((await session(page))!.accessToken);
			expect(passwordless).toMatchObject({ sub: user.actorId, amr: ["hwk", "mfa"] });
			// The passwordless sign-in is in the audit log, its amr and method in the detail.
			const audited = await runtime(p).store().collection<{ id: string; actorId: string; type: string; detail?: Record<string, string> }>("audit_events").find({ actorId: user.actorId, type: "auth.signed_in" });
			expect(audited.map(e => e.detail)).toContainEqual(expect.objectContaining({ amr: "hwk mfa", method: "passkey" }));
			expect(Math.abs((passwordless.auth_time as number) - Date.now() / 1000)).toBeLessThan(60);
			const afterSignIn = (await passkeysOf(user.actorId))[0];
			expect(afterSignIn.counter).toBeGreaterThan(stored.counter ?? 0);
			expect(afterSignIn.lastUsedAt).not.toBeNull();

			await page.click("#logout");
			await page.waitForSelector("#signed-out:not([hidden])");

			// The password alone no longer signs in: the app confirms with the passkey.
			const plain = await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } });
			expectStatus(plain, 403);
			expect(plain.body).toMatchObject({ code: "MFA_REQUIRED", factors: ["webauthn"] });
			await page.fill("#login [name=username]", user.email);
			await page.fill("#login [name=password]", user.password);
			await page.click("#login button[type=submit]");
			await page.waitForSelector("#signed-in:not([hidden])");
			expect(decodeJwt((await session(page))!.accessToken)).toMatchObject({ sub: user.actorId, amr: ["pwd", "hwk", "mfa"] });
			expect((await passkeysOf(user.actorId))[0].counter).toBeGreaterThan(afterSignIn.counter!);
			expect(await message(page)).toBe("");
			expect(problems).toEqual([]);

			// Removable like any factor; then the password alone signs in again.
			const removed = await http(p.baseUrl, "DELETE", `/auth/mfa/factors/${stored.id}`, { token: (await session(page))!.accessToken });
			expectStatus(removed, 204);
			expect(await passkeysOf(user.actorId)).toEqual([]);
			expectStatus(await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } }), 200);
		} finally {
			await context.close();
		}
	}, 60000);

	it("should offer registration options with resident key and user verification required, excluding the user's passkeys", async () => {
		const user = await registered();
		const { context, page } = await withAuthenticator();
		try {
			const first = await http(p.baseUrl, "POST", "/auth/passkeys/registration/options", { token: user.accessToken });
			expectStatus(first, 200);
			expect(first.body).toMatchObject({
				rp: { id: "localhost", name: "auth-notify" },
				user: { name: user.email },
				authenticatorSelection: { residentKey: "required", userVerification: "required" },
				excludeCredentials: []
			});
			const response = await createInPage(page, first.body);
			expectStatus(await http(p.baseUrl, "POST", "/auth/passkeys/registration", { token: user.accessToken, json: { response } }), 201);
			const second = await http(p.baseUrl, "POST", "/auth/passkeys/registration/options", { token: user.accessToken });
			expect(second.body.excludeCredentials).toEqual([expect.objectContaining({ id: response.id, type: "public-key" })]);
			// Only the challenge's hash is kept.
			const challenges = await runtime(p).store().collection<WebAuthnChallengeRecord>("webauthn_challenges").find({ userSub: user.actorId });
			expect(challenges).toHaveLength(1);
			expect(JSON.stringify(challenges)).not.toContain(second.body.challenge);
		} finally {
			await context.close();
		}
	}, 60000);

	it("should refuse a malformed registration and one for a replaced challenge, storing nothing", async () => {
		const user = await registered();
		const { context, page } = await withAuthenticator();
		try {
			const reg = (json: unknown) => http(p.baseUrl, "POST", "/auth/passkeys/registration", { token: user.accessToken, json });

			// Malformed: not an object, a shape that is no credential, fields that are no base64url.
			expect((await reg({ response: "nope" })).status).toBe(400);
			for (const response of [{}, { id: "x", rawId: "x", type: "public-key" }, { id: "a b", rawId: "a b", type: "public-key", response: { clientDataJSON: "%%", attestationObject: "%%" } }]) {
				const res = await reg({ response });
				expectStatus(res, 400);
				expect(res.body.code).toBe("INVALID_WEBAUTHN_RESPONSE");
			}

			// A credential made for one challenge, sent after new options replaced it.
			const stale = await http(p.baseUrl, "POST", "/auth/passkeys/registration/options", { token: user.accessToken });
			const staleResponse = await createInPage(page, stale.body);
			expectStatus(await http(p.baseUrl, "POST", "/auth/passkeys/registration/options", { token: user.accessToken }), 200);
			const replaced = await reg({ response: staleResponse });
			expectStatus(replaced, 400);
			expect(replaced.body.code).toBe("INVALID_WEBAUTHN_RESPONSE");
			// The new challenge was spent by that attempt: a second try has none pending.
			expectStatus(await reg({ response: staleResponse }), 400);
			expect(await passkeysOf(user.actorId)).toEqual([]);
		} finally {
			await context.close();
		}
	}, 60000);

	it("should refuse a sign-in assertion for another challenge, a used challenge, another user's challenge and another mfaToken's", async () => {
		const user = await registered();
		// A fresh authenticator: it holds only the passkey registered here, so a discoverable request picks it.
		const { context, page } = await withAuthenticator();
		try {
			await registerPasskey(page, user.accessToken);
			const before = (await passkeysOf(user.actorId))[0];
			const signIn = (json: unknown) => http(p.baseUrl, "POST", "/auth/passkeys/authentication", { json });

			// A sign-in assertion for challenge A, sent with challenge B.
			const a = (await http(p.baseUrl, "POST", "/auth/passkeys/authentication/options", { json: {} })).body;
			const b = (await http(p.baseUrl, "POST", "/auth/passkeys/authentication/options", { json: {} })).body;
			expect(a.challengeId).not.toBe(b.challengeId);
			const forA = await getInPage(page, a);
			const crossed = await signIn({ challengeId: b.challengeId, response: forA });
			expectStatus(crossed, 401);
			expect(crossed.body.code).toBe("INVALID_WEBAUTHN_RESPONSE");
			expect((await passkeysOf(user.actorId))[0].counter).toBe(before.counter);

			// The right pair signs in once; the same challenge again is refused.
			expectStatus(await signIn({ challengeId: a.challengeId, response: forA }), 200);
			const replay = await signIn({ challengeId: a.challengeId, response: forA });
			expectStatus(replay, 401);
			expect(replay.body.code).toBe("INVALID_WEBAUTHN_RESPONSE");

			// Malformed assertions and unknown challenges.
			expectStatus(await signIn({ challengeId: "not-a-uuid", response: forA }), 400);
			expectStatus(await signIn({ challengeId: b.challengeId, response: { id: "x" } }), 400);
			expectStatus(await signIn({ challengeId: "00000000-0000-4000-8000-000000000000", response: forA }), 401);

			// A username binds the challenge: another user's passkey does not answer it.
			const other = await registered();
			const bound = (await http(p.baseUrl, "POST", "/auth/passkeys/authentication/options", { json: { username: other.email } })).body;
			expect(bound.allowCredentials ?? []).toEqual([]);
			expectStatus(await signIn({ challengeId: bound.challengeId, response: await getInPage(page, bound) }), 401);

			// As a second factor: the challenge belongs to its mfaToken, and malformed JSON costs no try.
			const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } });
			expectStatus(login, 403);
			const mfaToken = login.body.mfaToken;
			const malformed = await http(p.baseUrl, "POST", "/auth/mfa/verify", { json: { mfaToken, type: "webauthn", response: { id: 1 } } });
			expectStatus(malformed, 400);
			const challenge = await http(p.baseUrl, "POST", "/auth/mfa/challenge", { json: { mfaToken, type: "webauthn" } });
			expectStatus(challenge, 200);
			expect(challenge.body.allowCredentials).toEqual([expect.objectContaining({ id: before.credentialId })]);
			// An assertion for a sign-in challenge is no answer to the mfaToken's.
			const wrong = await getInPage(page, (await http(p.baseUrl, "POST", "/auth/passkeys/authentication/options", { json: {} })).body);
			const refused = await http(p.baseUrl, "POST", "/auth/mfa/verify", { json: { mfaToken, type: "webauthn", response: wrong } });
			expectStatus(refused, 401);
			expect(refused.body.code).toBe("INVALID_MFA_CODE");
			// That try spent the challenge: a new one, and its assertion, finish the sign-in.
			const again = await http(p.baseUrl, "POST", "/auth/mfa/challenge", { json: { mfaToken, type: "webauthn" } });
			const verified = await http(p.baseUrl, "POST", "/auth/mfa/verify", { json: { mfaToken, type: "webauthn", response: await getInPage(page, again.body) } });
			expectStatus(verified, 200);
			expect(decodeJwt(verified.body.accessToken)).toMatchObject({ amr: ["pwd", "hwk", "mfa"] });
		} finally {
			await context.close();
		}
	}, 60000);
});
