/**
 * The console's Users page in Debian's Chromium (playwright-core), against the platform
 * in this process: an administrator finds a user, reads the account (its open sessions,
 * its factor, its security events with the lock alert's delivery status), ends its
 * sessions, locks it, resets its MFA, unlocks it and deletes it after a confirmation.
 * axe-core finds no serious or critical violation.
 * With UPDATE_SCREENSHOTS=1 it writes docs/console-users.png. Run `npm run build` first
 * (the console is served from dist/console).
 */
import fs from "node:fs";
import path from "node:path";
import { Secret, TOTP } from "otpauth";
import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS } from "../helpers/chromium";
import { AUDIT_PAGE_SIZE, AuditLog } from "../../lib/audit";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";

const ADMIN = { email: "root@example.com", password: "Root-Passw0rd" };
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const SHOTS = process.env.UPDATE_SCREENSHOTS === "1";

declare const document: { querySelector(selector: string): { textContent: string | null } | null };
declare const window: { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } };

let p: Platform;
let browser: Browser;

beforeAll(async () => {
	p = await startPlatform({ BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password });
	browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}, 60_000);
afterAll(async () => {
	await browser?.close();
	await p?.stop();
});

async function seriousViolations(page: Page): Promise<string[]> {
	await page.evaluate(AXE);
	const found = await page.evaluate(async () => (await window.axe.run()).violations.map(v => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })));
	return found.filter(v => v.impact === "serious" || v.impact === "critical").map(v => `${v.id} (${v.impact}, ${v.nodes} nodes)`);
}

/** The console's sign-in as the administrator, landing on the Users page. */
async function signInToUsers(page: Page): Promise<void> {
	await page.goto(`${p.baseUrl}/console#users`);
	await page.getByLabel("Email").fill(ADMIN.email);
	await page.getByLabel("Password").fill(ADMIN.password);
	await page.getByRole("button", { name: "Sign in" }).click();
	await page.getByRole("heading", { name: "Users" }).waitFor();
}

describe("the console's Users page in Chromium", () => {
	it("should find a user, show the account, its sessions, factor and audit with alert delivery, end its sessions, lock, reset MFA, unlock and delete it", async () => {
		const user = newUser({ firstName: "Grace", lastName: "Hopper" });
		const registered = await http(p.baseUrl, "POST", "/auth/register", { json: user });
		expect(registered.status).toBe(201);
		const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password }, headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0" } });
		expect(login.status).toBe(200);
		// An authenticator app, for the MFA reset.
		const started = await http(p.baseUrl, "POST", "/auth/mfa/totp", { token: registered.body.accessToken, json: { name: "Phone" } });
		expect(started.status).toBe(201);
		const code = new TOTP({ secret: Secret.fromBase32(started.body.secret), algorithm: "SHA1", digits: 6, period: 30 }).generate();
		expect((await http(p.baseUrl, "POST", `/auth/mfa/totp/${started.body.factorId}/confirm`, { token: registered.body.accessToken, json: { code } })).status).toBe(200);
		const actorId = registered.body.actorId ?? JSON.parse(Buffer.from(login.body.idToken.split(".")[1], "base64url").toString()).sub;

		const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
		const problems: string[] = [];
		const requests: string[] = [];
		page.on("pageerror", e => problems.push(String(e)));
		page.on("request", r => requests.push(r.url()));
		await signInToUsers(page);

		await page.getByLabel("Email or actor id").fill(user.email.slice(0, 10).toUpperCase());
		await page.getByRole("button", { name: "Search" }).click();
		const row = page.locator(`#users tr[data-actor="${actorId}"]`);
		await row.waitFor();
		expect(await page.locator("#users tbody tr").count()).toBe(1);
		await page.getByRole("button", { name: `Open ${user.email}` }).click();
		await page.getByRole("heading", { name: user.email }).waitFor();
		expect(await page.locator('[data-fact="Name"]').textContent()).toBe("Grace Hopper");
		expect(await page.locator('[data-fact="Locked"]').textContent()).toBe("no");
		expect(await page.locator('[data-fact="Email deliverable"]').textContent()).toBe("yes");
		// Registering signed in too: two sessions, the second from Firefox.
		expect(await page.locator("#user-sessions tbody tr").count()).toBe(2);
		expect(await page.locator("#user-sessions tbody td:nth-child(4)").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("Firefox")]));
		expect(await page.locator("#user-audit tbody tr td:first-child").allTextContents()).toEqual(expect.arrayContaining(["auth.registered", "auth.signed_in"]));
		expect(await page.locator("#user-factors tbody td:nth-child(2)").allTextContents()).toEqual(["Phone"]);
		expect(await seriousViolations(page)).toEqual([]);

		// End every session: the user's refresh tokens stop working.
		await page.getByRole("button", { name: "End all sessions" }).click();
		await page.getByRole("dialog").getByRole("button", { name: "End sessions" }).click();
		await page.getByRole("status").filter({ hasText: "Every session of" }).waitFor();
		expect(await page.locator("#user-sessions").count()).toBe(0);
		expect((await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: login.body.refreshToken } })).status).toBe(401);

		// Lock: the dialog asks first; the session ends and the alert shows with its delivery status once written.
		await page.getByRole("button", { name: "Lock" }).click();
		await page.getByRole("dialog").getByRole("button", { name: "Lock" }).click();
		await page.getByRole("status").filter({ hasText: `${user.email} locked.` }).waitFor();
		await page.locator('[data-fact="Locked"] .badge').waitFor();
		expect((await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } })).status).toBe(401);
		const alert = page.locator('#user-audit tr[data-type="auth.locked"]');
		const deadline = Date.now() + 15_000;
		while (Date.now() < deadline && !/SENT|DELIVERED/.test((await alert.locator("td.delivery").textContent().catch(() => "")) ?? "")) {
			await new Promise(r => setTimeout(r, 300));
			await row.getByRole("button").click();
			await alert.waitFor();
		}
		expect(await alert.locator("td.delivery").textContent()).toMatch(/SENT|DELIVERED/);
		expect(await alert.locator("[data-notification]").textContent()).toMatch(/^[0-9a-f-]{36}$/);
		expect(await seriousViolations(page)).toEqual([]);
		if (SHOTS) await page.screenshot({ path: path.resolve(__dirname, "../../docs/console-users.png"), fullPage: true });

		// Reset MFA: the factor goes, after a confirmation.
		await page.getByRole("button", { name: "Reset MFA" }).click();
		await page.getByRole("dialog").getByRole("button", { name: "Reset MFA" }).click();
		await page.getByRole("status").filter({ hasText: "Second factors of" }).waitFor();
		expect(await page.locator("#user-factors").count()).toBe(0);
		expect(await page.getByRole("button", { name: "Reset MFA" }).isDisabled()).toBe(true);

		await page.getByRole("button", { name: "Unlock" }).click();
		await page.getByRole("status").filter({ hasText: "unlocked" }).waitFor();
		expect(await page.locator('[data-fact="Locked"]').textContent()).toBe("no");
		expect((await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } })).status).toBe(200);

		// Cancelling the dialog deletes nothing; confirming deletes.
		await page.getByRole("button", { name: "Delete account" }).click();
		await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
		expect((await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } })).status).toBe(200);
		await page.getByRole("button", { name: "Delete account" }).click();
		await page.getByRole("dialog").getByRole("button", { name: "Delete account" }).click();
		await page.getByRole("status").filter({ hasText: "is being deleted" }).waitFor();
		const gone = Date.now() + 10_000;
		let status = 0;
		while (Date.now() < gone && (status = (await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } })).status) !== 401) await new Promise(r => setTimeout(r, 200));
		expect(status).toBe(401);

		expect(problems).toEqual([]);
		expect(requests.filter(u => /token|eyJ/i.test(u))).toEqual([]);
		await page.close();
	}, 90_000);

	it("should page through an account's security events, older ones appended until none remain", async () => {
		const user = newUser();
		const registered = await http(p.baseUrl, "POST", "/auth/register", { json: user });
		expect(registered.status).toBe(201);
		const actorId = registered.body.actorId as string;
		// More events than one page (AUDIT_PAGE_SIZE) holds, recorded as the auth service records them.
		const audit = new AuditLog(() => runtime(p).store(), () => undefined);
		for (let i = 0; i < AUDIT_PAGE_SIZE + 10; i++) await audit.record("auth.signed_in", actorId, { ip: `192.0.2.${i}`, userAgent: "Mozilla/5.0 Firefox/128.0" });
		const total = (await runtime(p).store().collection("audit_events").find({ actorId })).length;
		expect(total).toBeGreaterThan(AUDIT_PAGE_SIZE);

		const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
		const problems: string[] = [];
		page.on("pageerror", e => problems.push(String(e)));
		await signInToUsers(page);
		await page.getByLabel("Email or actor id").fill(actorId);
		await page.getByRole("button", { name: "Search" }).click();
		await page.getByRole("button", { name: `Open ${user.email.toLowerCase()}` }).click();
		await page.getByRole("heading", { name: user.email.toLowerCase() }).waitFor();
		const rows = page.locator("#user-audit tbody tr");
		expect(await rows.count()).toBe(AUDIT_PAGE_SIZE);
		const older = page.getByRole("button", { name: "Older events" });
		await older.click();
		await page.getByRole("status").filter({ hasText: "older events" }).waitFor();
		expect(await rows.count()).toBe(total);
		expect(await older.isHidden()).toBe(true);
		// Newest first across the pages, each event once.
		const ips = (await page.locator("#user-audit tbody tr td:nth-child(3)").allTextContents()).filter(ip => ip.startsWith("192.0.2."));
		expect(new Set(ips).size).toBe(AUDIT_PAGE_SIZE + 10);
		expect(ips).toHaveLength(AUDIT_PAGE_SIZE + 10);
		expect(ips[0]).toBe(`192.0.2.${AUDIT_PAGE_SIZE + 9}`);
		expect(ips.at(-1)).toBe("192.0.2.0");
		expect(problems).toEqual([]);
		await page.close();
	}, 60_000);
});
