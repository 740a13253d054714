/**
 * The example web app (examples/web) in Debian's Chromium, driven by playwright-core,
 * against the platform in this process and a real OAuth 2.0 provider
 * (oauth2-mock-server). The app is served by its own server (examples/web/serve.mjs)
 * on another loopback port, a cross-origin page as in production: its origin is in
 * CORS_ORIGINS and is UI_BASE_URL. Refresh and logout requests are counted where they
 * arrive, on the gateway's HTTP server. Access tokens live 60 s: well beyond the SDK's
 * 30 s refresh margin, so that a reload right after sign-in does not refresh. The
 * refresh cases do not wait that minute out: the session's pages run on Playwright's
 * clock, which they move past the token's expiry, so the SDK finds it expired exactly as
 * it would a minute later (it refreshes before sending an expired token, so the gateway
 * never sees it either way; that the gateway refuses expired tokens is
 * live-status-expiry's and gateway's to show), then set back to the real time, which the
 * tokens the refresh brought are valid for.
 * The Security section is checked with axe-core (no serious or critical violation).
 * With UPDATE_SCREENSHOTS=1 it also writes docs/example-web*.png for docs/api.md.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Server } from "node:http";
import { Secret, TOTP } from "otpauth";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS } from "../helpers/chromium";
import { linkToken, waitForMail } from "../helpers/mail";
import { MockProvider } from "../helpers/oauth2-provider";
import { http, newUser, startPlatform, type Platform } from "../helpers/platform";
import { freePort } from "../helpers/processes";
import { serviceToken } from "../helpers/senders";

const ROOT = path.resolve(__dirname, "../..");
const SESSION = "auth-notify.session";
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === "1";
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

let p: Platform;
let provider: MockProvider;
let app: ChildProcess;
let ui: string;
let browser: Browser;
const counted = { refresh: 0, logout: 0 };

/** Builds the SDK and the app as `npm run build` does, so the page runs the current sources. */
function buildApp(): void {
	const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
	for (const project of ["client/tsconfig.json", "examples/web/tsconfig.json"]) execFileSync(process.execPath, [tsc, "-p", project], { cwd: ROOT });
}

function serveApp(port: number, apiBaseUrl: string): Promise<ChildProcess> {
	const child = spawn(process.execPath, [path.join(ROOT, "examples/web/serve.mjs")], { env: { ...process.env, PORT: String(port), API_BASE_URL: apiBaseUrl } });
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
	provider = new MockProvider();
	await provider.start();
	const [apiPort, uiPort] = [await freePort(), await freePort()];
	ui = `http://127.0.0.1:${uiPort}`;
	p = await startPlatform({
		PORT: String(apiPort),
		CORS_ORIGINS: ui,
		UI_BASE_URL: ui,
		UI_CALLBACK_PATH: "/auth/callback",
		IDP_ACCESS_TOKEN_TTL_SECONDS: "60",
		// The defaults, spelled out: users send only to their own verified address.
		NOTIFICATIONS_USER_SEND: "self",
		NOTIFICATIONS_QUOTA_PER_HOUR: "100",
		SOCIAL_OAUTH2_CLIENT_ID: "example-web",
		SOCIAL_OAUTH2_CLIENT_SECRET: "example-web-secret",
		SOCIAL_OAUTH2_ISSUER: provider.issuer,
		SOCIAL_OAUTH2_REDIRECT_URI: `http://127.0.0.1:${apiPort}/auth/social/login/callback`,
		OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64")
	});
	const server = (p.broker.getLocalService("api") as unknown as { server: Server }).server;
	// Ahead of moleculer-web's handler, which rewrites req.url to the path within its route.
	server.prependListener("request", (req: { method?: string; url?: string }) => {
		if (req.method === "POST" && req.url === "/auth/tokens/refresh") counted.refresh += 1;
		if (req.method === "POST" && req.url === "/auth/logout") counted.logout += 1;
	});
	app = await serveApp(uiPort, p.baseUrl);
	browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}, 60000);

afterAll(async () => {
	await browser?.close();
	app?.kill();
	await p?.stop();
	await provider?.stop();
});

/** A page of the app that fails the test on any script error or CSP violation. */
async function openApp(context: BrowserContext, problems: string[], at = "/"): Promise<Page> {
	const page = await context.newPage();
	page.on("console", m => {
		if (m.type() === "error" && !/Failed to load resource/.test(m.text())) problems.push(m.text());
	});
	page.on("pageerror", e => problems.push(String(e)));
	await page.goto(ui + at);
	return page;
}

async function signInWithPassword(page: Page, user: { email: string; password: string }): Promise<void> {
	await page.fill("#login [name=username]", user.email);
	await page.fill("#login [name=password]", user.password);
	await page.click("#login button[type=submit]");
	await page.waitForSelector("#signed-in:not([hidden])");
}

async function registered(): Promise<ReturnType<typeof newUser> & { actorId: string }> {
	const user = newUser();
	const res = await http(p.baseUrl, "POST", "/auth/register", { json: user });
	expect(res.status).toBe(201);
	return { ...user, actorId: res.body.actorId };
}

function stored(page: Page): Promise<{ accessToken: string; refreshToken: string; expiresAt: number } | null> {
	return page.evaluate(key => JSON.parse(localStorage.getItem(key) ?? "null"), SESSION);
}

/** Calls GET /actors/{id} `n` times at once through the page's SDK; answers the statuses. */
function parallelCalls(page: Page, actorId: string, n: number): Promise<number[]> {
	return page.evaluate(
		async ({ actorId, n }) => {
			const api = (globalThis as unknown as { authNotify: { fetch(path: string): Promise<Response> } }).authNotify;
			return Promise.all(Array.from({ length: n }, () => api.fetch(`/actors/${actorId}`).then(r => r.status)));
		},
		{ actorId, n }
	);
}

/**
/**
 * Moves the page's clock (its context's: every tab of it) past the stored access token's
 * exp and the gateway's 5 s clock tolerance, as waiting for the expiry would. The live
 * inbox streams of the session's pages are stopped first: one that ends reconnects with
 * a fresh token, which would add a refresh of its own to the ones counted.
 */
async function untilExpired(page: Page, ...sameSession: Page[]): Promise<void> {
	for (const p of [page, ...sameSession]) await p.evaluate(() => (globalThis as unknown as { authNotifyInbox: { stop(): void } }).authNotifyInbox.stop());
	const { expiresAt } = (await stored(page))!;
	const pageNow = await page.evaluate(() => Date.now());
	await page.clock.fastForward(Math.max(0, (expiresAt + 6) * 1000 - pageNow));
	expect(await page.evaluate(() => Date.now() / 1000)).toBeGreaterThan(expiresAt + 5);
}

/** Sets the page's clock back to the real time, which the tokens issued since are valid for. */
async function realTime(page: Page): Promise<void> {
	await page.clock.setSystemTime(Date.now());
	expect(Math.abs((await page.evaluate(() => Date.now())) - Date.now())).toBeLessThan(5000);
}

/** A browser context whose pages run on Playwright's clock: real time until a test moves it. */
async function clockedContext(): Promise<BrowserContext> {
	const context = await browser.newContext();
	await context.clock.install();
	return context;
}

describe("the example web app in Chromium", () => {
	it("should register, verify the email from its mail, send a notification to oneself and show its status live", async () => {
		const problems: string[] = [];
		const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
		const page = await openApp(context, problems);
		await page.waitForSelector("#signed-out:not([hidden])");
		if (SCREENSHOTS) await page.screenshot({ path: path.join(ROOT, "docs/example-web-signed-out.png") });
		const user = newUser();
		for (const [field, value] of Object.entries(user)) await page.fill(`#register [name=${field}]`, value);
		await page.click("#register button[type=submit]");
		await page.waitForSelector("#signed-in:not([hidden])");
		await expect(page.textContent("#profile [data-field=email]")).resolves.toBe(user.email.toLowerCase());

		// Not yet verified: the platform refuses a send to the address, and the page says why.
		await page.click("#send button[type=submit]");
		await page.waitForSelector("#message.error");
		await expect(page.textContent("#message")).resolves.toContain("RECIPIENT_NOT_ALLOWED");

		const token = linkToken(await waitForMail(p.dataDir, user.email, /Verify your email/), ui, "/verify-email");
		await page.goto(`${ui}/verify-email#token=${token}`);
		await page.locator("#message", { hasText: /^Email address verified\.$/ }).waitFor();
		expect(page.url()).toBe(`${ui}/`);
		await page.waitForSelector("#signed-in:not([hidden])");

		await page.click("#send button[type=submit]");
		await page.waitForSelector('#events li[data-status="SENT"]', { timeout: 20000 });
		const notificationId = (await page.textContent("#notification-id"))!;
		const statuses = await page.$$eval("#events li", items => items.map(li => li.getAttribute("data-status")));
		const view = await http(p.baseUrl, "GET", `/notifications/${notificationId}/events`, { token: (await stored(page))!.accessToken });
		expect(statuses).toEqual(view.body.items.map((i: { status: string }) => i.status));
		await expect(page.textContent("#status")).resolves.toBe("SENT");
		expect(problems).toEqual([]);
		if (SCREENSHOTS) await page.screenshot({ path: path.join(ROOT, "docs/example-web.png") });
		await context.close();
	});

	it("should enrol an authenticator app from its QR code, then ask for its code at the next sign-in", async () => {
		const problems: string[] = [];
		const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
		const page = await openApp(context, problems);
		const user = await registered();
		await page.waitForSelector("#signed-out:not([hidden])");
		await signInWithPassword(page, user);
		await page.click("#totp-enrol");
		await page.waitForSelector("#totp:not([hidden]) #totp-qr svg path");
		const secret = (await page.textContent("#totp-secret"))!;
		const uri = new URL((await page.getAttribute("#totp-qr", "data-uri"))!);
		expect(uri.searchParams.get("secret")).toBe(secret);
		// A QR code of a URI this long has at least 29 modules a side (version 3).
		expect((await page.getAttribute("#totp-qr svg path", "d"))!.split("M").length).toBeGreaterThan(200);
		const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
		await page.fill("#totp-confirm [name=code]", totp.generate());
		await page.click("#totp-confirm button[type=submit]");
		await page.waitForSelector("#recovery:not([hidden])");
		expect(await page.locator("#recovery-codes li").count()).toBe(10);
		if (SCREENSHOTS) await page.screenshot({ path: path.join(ROOT, "docs/example-web-totp.png") });

		await page.click("#logout");
		await page.waitForSelector("#signed-out:not([hidden])");
		await page.fill("#login [name=username]", user.email);
		await page.fill("#login [name=password]", user.password);
		await page.click("#login button[type=submit]");
		await page.waitForSelector("#mfa:not([hidden])");
		// The confirming code is spent: the next time step's (one step of skew is allowed).
		await page.fill("#mfa [name=code]", totp.generate({ timestamp: Date.now() + 30_000 }));
		await page.click("#mfa button[type=submit]");
		await page.waitForSelector("#signed-in:not([hidden])");
		expect(problems).toEqual([]);
		await context.close();
	});

	it("should sign in with a mailed one-time code while showing the code's delivery status live", async () => {
		const problems: string[] = [];
		const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
		const page = await openApp(context, problems);
		const user = await registered();
		await page.waitForSelector("#signed-out:not([hidden])");
		await page.fill("#otp-start [name=email]", user.email);
		await page.click("#otp-start button[type=submit]");
		await page.waitForSelector("#otp:not([hidden])");
		// The status follows the code's notification: PENDING first at most, then SENT (the file outbox has no DELIVERED).
		await page.waitForSelector('#otp-status[data-status="SENT"]', { timeout: 15000 });
		await expect(page.textContent("#otp-status")).resolves.toBe("SENT (email)");
		const mail = await waitForMail(p.dataDir, user.email, /Your sign-in code/);
		const code = /Your sign-in code is (\d{6})\./.exec(mail.text)![1];
		if (SCREENSHOTS) await page.screenshot({ path: path.join(ROOT, "docs/example-web-otp.png") });
		await page.fill("#otp-verify [name=code]", code);
		await page.click("#otp-verify button[type=submit]");
		await page.waitForSelector("#signed-in:not([hidden])");
		await expect(page.textContent("#profile [data-field=email]")).resolves.toBe(user.email.toLowerCase());
		expect(problems).toEqual([]);
		await context.close();
	});

	it("should show a bell whose unseen badge follows the inbox live, and mark what the opened inbox shows seen", async () => {
		const problems: string[] = [];
		const user = await registered();
		const context = await browser.newContext();
		const page = await openApp(context, problems);
		await signInWithPassword(page, user);
		await page.waitForSelector("#bell:not([hidden])");
		await page.locator(`#bell[aria-label="Notifications, 0 unseen, 0 unread"]`).waitFor({ timeout: 15000 });
		expect(await page.isHidden("#badge")).toBe(true);

		// A backend sends to the user's inbox: the badge changes without a reload.
		const service = await serviceToken(p, "documents");
		const send = async (text: string) => {
			const res = await http(p.baseUrl, "POST", "/notifications", { token: service, json: { channel: "IN_APP", to: user.actorId, template: { subject: "Order update", text }, data: { order: "A-1" } } });
			expect(res.status).toBe(201);
		};
		await send("Order A-1 has shipped");
		await page.locator("#badge", { hasText: /^1$/ }).waitFor({ timeout: 15000 });
		await send("Order A-1 was delivered");
		await page.locator("#badge", { hasText: /^2$/ }).waitFor({ timeout: 15000 });
		await expect(page.getAttribute("#bell", "aria-label")).resolves.toBe("Notifications, 2 unseen, 2 unread");

		// Opening the inbox lists the messages, newest first, and marks them seen: the badge goes.
		await page.click("#bell");
		await page.waitForSelector("#inbox-items li:nth-child(2)");
		await expect(page.$$eval("#inbox-items li", items => items.map(li => li.textContent))).resolves.toEqual(["Order update Order A-1 was delivered", "Order update Order A-1 has shipped"]);
		await page.waitForSelector("#badge", { state: "hidden", timeout: 15000 });
		await expect(page.getAttribute("#bell", "aria-label")).resolves.toBe("Notifications, 0 unseen, 2 unread");

		// The app's own form sends to the user's inbox; with the inbox open, it shows at the top, seen.
		await page.click("#send-in-app button[type=submit]");
		await page.waitForSelector("#inbox-items li:nth-child(3)", { timeout: 15000 });
		await expect(page.textContent("#inbox-items li:first-child")).resolves.toBe("Note to self A message for your inbox");
		await page.locator(`#bell[aria-label="Notifications, 0 unseen, 3 unread"]`).waitFor({ timeout: 15000 });
		await page.click("#read-all");
		await page.locator(`#bell[aria-label="Notifications, 0 unseen, 0 unread"]`).waitFor({ timeout: 15000 });
		expect(await page.$$eval("#inbox-items li.unread", items => items.length)).toBe(0);
		expect(problems).toEqual([]);
		await context.close();
	});

	it("should complete a social sign-in round trip and take the temporary token out of the address bar", async () => {
		const problems: string[] = [];
		const context = await browser.newContext();
		const page = await openApp(context, problems);
		const landed: string[] = [];
		page.on("framenavigated", frame => {
			if (frame === page.mainFrame() && frame.url().startsWith(ui)) landed.push(frame.url());
		});
		await page.waitForSelector("#signed-out:not([hidden])");
		await page.click("#social");
		await page.waitForSelector("#signed-in:not([hidden])");
		await expect(page.textContent("#profile [data-field=email]")).resolves.toBe(provider.user.email);
		expect(landed.some(u => /^[^?]*\/auth\/callback\?token=[A-Za-z0-9_-]{43}$/.test(u))).toBe(true);
		expect(page.url()).toBe(`${ui}/auth/callback`);
		expect(await page.evaluate("location.search + location.hash")).toBe("");
		expect(await stored(page)).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String) });
		expect(problems).toEqual([]);
		await context.close();
	});

	it("should list the sessions and sign one out, show the security events with alert delivery, export the data and delete the account after a confirmation", async () => {
		const problems: string[] = [];
		const user = await registered();
		const firefox = await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password }, headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0" } });
		expect(firefox.status).toBe(200);
		const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
		const page = await openApp(context, problems);
		await signInWithPassword(page, user);
		await page.click("#security-open");
		// Registering signed in too: three sessions, this one marked.
		await page.waitForSelector("#sessions li:nth-child(3)");
		expect(await page.locator("#sessions li.current").count()).toBe(1);
		await expect(page.getAttribute("#security-open", "aria-expanded")).resolves.toBe("true");
		const ff = page.locator("#sessions li", { hasText: "Firefox" });
		expect(await ff.count()).toBe(1);
		await ff.getByRole("button", { name: /^Sign out Firefox, last used / }).click();
		await page.locator("#message", { hasText: /^Signed out Firefox/ }).waitFor();
		// A locator, not waitForFunction with a string: Playwright evals the string at each
		// poll, and the page's CSP refuses eval outside DevTools' own first call.
		await page.locator("#sessions li").nth(2).waitFor({ state: "detached" });
		expect(await page.locator("#sessions li").count()).toBe(2);
		expect((await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: firefox.body.refreshToken } })).status).toBe(401);
		// Every other device at once (the registration's session is left): only this one stays.
		const chrome = await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password }, headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36" } });
		expect(chrome.status).toBe(200);
		await page.getByRole("button", { name: "Sign out every other device" }).click();
		await page.locator("#message", { hasText: "Every other device is signed out." }).waitFor();
		await page.locator("#sessions li").nth(1).waitFor({ state: "detached" });
		expect(await page.locator("#sessions li").count()).toBe(1);
		expect(await page.locator("#sessions li.current").count()).toBe(1);
		expect((await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: chrome.body.refreshToken } })).status).toBe(401);

		// The events, newest first; a new device's sign-in raised an alert whose delivery shows.
		const types = await page.$$eval("#audit li", items => items.map(li => li.getAttribute("data-type")));
		expect(types).toEqual(expect.arrayContaining(["auth.registered", "auth.signed_in", "auth.signed_in_new_device"]));
		expect(await page.locator('#audit li[data-type="auth.signed_in_new_device"] .alert').first().textContent()).toMatch(/^Alert (queued|sending|sent|delivered)/i);
		await page.evaluate(AXE);
		const serious = await page.evaluate(async () => {
			const r = await (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } }).axe.run();
			return r.violations.filter(v => v.impact === "serious" || v.impact === "critical").map(v => v.id);
		});
		expect(serious).toEqual([]);
		if (SCREENSHOTS) await page.screenshot({ path: path.join(ROOT, "docs/example-web-security.png"), fullPage: true });

		// Export: a download of the JSON the platform answered.
		const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export")]);
		expect(download.suggestedFilename()).toBe("my-account-data.json");
		const exported = JSON.parse(fs.readFileSync((await download.path())!, "utf8"));
		expect(exported.profile).toMatchObject({ email: user.email.toLowerCase() });

		// A sign-in too old for the step-up route: the page says to sign in again (the platform's answer, stood in for here).
		await page.route("**/auth/account", route =>
			route.request().method() === "DELETE"
				? route.fulfill({ status: 401, headers: { "content-type": "application/problem+json", "access-control-allow-origin": ui }, body: JSON.stringify({ type: "about:blank", title: "Unauthorized", status: 401, detail: "Sign in again.", code: "STEP_UP_REQUIRED", requestId: "x" }) })
				: route.fallback()
		);
		await page.click("#delete-account");
		await page.getByRole("dialog").getByRole("button", { name: "Delete my account" }).click();
		await page.locator("#message.error", { hasText: "sign in again" }).waitFor();
		await page.unrouteAll();

		// Keeping the account deletes nothing; confirming deletes it and signs out.
		await page.click("#delete-account");
		await page.getByRole("dialog").getByRole("button", { name: "Keep my account" }).click();
		await expect(page.isVisible("#signed-in")).resolves.toBe(true);
		await page.click("#delete-account");
		await page.getByRole("dialog").getByRole("button", { name: "Delete my account" }).click();
		await page.waitForSelector("#signed-out:not([hidden])");
		await expect(page.textContent("#message")).resolves.toBe("Your account is deleted.");
		expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
		let status = 0;
		for (const until = Date.now() + 10_000; Date.now() < until && status !== 401; await new Promise(r => setTimeout(r, 200)))
			status = (await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } })).status;
		expect(status).toBe(401);
		expect(problems).toEqual([]);
		await context.close();
	});

	describe("a password session", () => {
		let user: Awaited<ReturnType<typeof registered>>;
		let context: BrowserContext;
		let tabs: BrowserContext;
		let page: Page;
		let tab1: Page;
		let tab2: Page;
		const problems: string[] = [];

		beforeAll(async () => {
			user = await registered();
			context = await clockedContext();
			page = await openApp(context, problems);
			await signInWithPassword(page, user);
			tabs = await clockedContext();
			tab1 = await openApp(tabs, problems);
			await signInWithPassword(tab1, user);
			tab2 = await openApp(tabs, problems);
			await tab2.waitForSelector("#signed-in:not([hidden])");
		});
		afterAll(async () => {
			await context?.close();
			await tabs?.close();
		});

		it("should keep the session across a reload from localStorage", async () => {
			const before = await stored(page);
			expect(before).not.toBeNull();
			await page.reload();
			await page.waitForSelector("#signed-in:not([hidden])");
			await expect(page.textContent("#profile [data-field=actorId]")).resolves.toBe(user.actorId);
			expect(await stored(page)).toEqual(before);
		});

		it("should send exactly one refresh request when 5 parallel calls find the access token expired", async () => {
			await untilExpired(page);
			const expired = (await stored(page))!;
			counted.refresh = 0;
			await expect(parallelCalls(page, user.actorId, 5)).resolves.toEqual([200, 200, 200, 200, 200]);
			expect(counted.refresh).toBe(1);
			expect((await stored(page))!.refreshToken).not.toBe(expired.refreshToken);
			await realTime(page);
		});

		it("should keep two tabs signed in when both refresh at once", async () => {
			await untilExpired(tab1, tab2);
			counted.refresh = 0;
			const [a, b] = await Promise.all([parallelCalls(tab1, user.actorId, 1), parallelCalls(tab2, user.actorId, 1)]);
			expect([...a, ...b]).toEqual([200, 200]);
			// The Web Locks API lets one tab refresh; the other takes the tokens it stored. But
			// Chromium hands a localStorage write to another tab's renderer asynchronously, so
			// that tab may still read the old token under the lock and refresh with it once
			// more: within REFRESH_TOKEN_REUSE_INTERVAL_SECONDS the platform answers with the
			// same successor instead of ending the session. Never more than one each.
			expect(counted.refresh).toBeGreaterThanOrEqual(1);
			expect(counted.refresh).toBeLessThanOrEqual(2);
			await realTime(tab1);
			const refreshes = counted.refresh;
			await Promise.all([tab1.reload(), tab2.reload()]);
			for (const tab of [tab1, tab2]) await tab.waitForSelector("#signed-in:not([hidden])");
			await expect(parallelCalls(tab1, user.actorId, 1)).resolves.toEqual([200]);
			await expect(parallelCalls(tab2, user.actorId, 1)).resolves.toEqual([200]);
			expect(counted.refresh).toBe(refreshes);
		});

		it("should sign out at the platform and clear the stored session", async () => {
			const { refreshToken } = (await stored(page))!;
			counted.logout = 0;
			await page.click("#logout");
			await page.waitForSelector("#signed-out:not([hidden])");
			await expect(page.textContent("#message")).resolves.toBe("Signed out.");
			expect(counted.logout).toBe(1);
			expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
			const refresh = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken } });
			expect(refresh.status).toBe(401);
			await page.reload();
			await page.waitForSelector("#signed-out:not([hidden])");
			expect(problems).toEqual([]);
		});
	});
});
