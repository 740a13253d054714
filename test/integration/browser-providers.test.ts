/**
 * The console's Providers panel in Debian's Chromium (playwright-core), against the
 * platform in this process with EMAIL_PROVIDERS=smtp,smtp-backup on two real SMTP
 * servers: the first answers 421 until the panel shows it down, then recovers and is
 * shown up again after one message probed it. axe-core checks the page for serious or
 * critical accessibility violations.
 */
import fs from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS } from "../helpers/chromium";
import { http, runtime, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { ADMIN, ADMIN_ENV, adminToken, serviceToken } from "../helpers/senders";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp-servers";
import type { NotificationDoc } from "../../lib/notifications/model";

const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

declare const window: { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } };

let p: Platform;
let browser: Browser;
let primary: TestSmtp;
let backup: TestSmtp;

beforeAll(async () => {
	primary = await startTestSmtp();
	backup = await startTestSmtp();
	p = await startPlatform({
		...ADMIN_ENV,
		EMAIL_PROVIDERS: "smtp,smtp-backup",
		SMTP_URL: primary.url,
		SMTP_BACKUP_URL: backup.url,
		PROVIDER_COOLDOWN_SECONDS: "1",
		DISPATCHER_POLL_MS: "20"
	});
	browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}, 60_000);
afterAll(async () => {
	await browser?.close();
	await p?.stop();
	await primary?.stop();
	await backup?.stop();
});

async function seriousViolations(page: Page): Promise<string[]> {
	await page.evaluate(AXE);
	const found = await page.evaluate(async () => (await window.axe.run()).violations.map(v => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })));
	return found.filter(v => v.impact === "serious" || v.impact === "critical").map(v => `${v.id} (${v.impact}, ${v.nodes} nodes)`);
}

async function sendAndSettle(token: string, to: string): Promise<void> {
	const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to, template: { subject: "Hi", text: "Hello" } } });
	expect(res.status).toBe(201);
	const coll = runtime(p).store().collection<NotificationDoc>("notifications");
	await waitFor(`${to} to be sent`, async () => (await coll.get(res.body.notificationId))?.status === "SENT");
}

describe("the console's Providers panel in Chromium", () => {
	it("should show the first SMTP server down while it refuses, then up again after it recovers", async () => {
		const token = await serviceToken(p);
		const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
		const errors: string[] = [];
		page.on("pageerror", e => errors.push(String(e)));
		await page.goto(`${p.baseUrl}/console`);
		await page.getByLabel("Email").fill(ADMIN.email);
		await page.getByLabel("Password").fill(ADMIN.password);
		await page.getByRole("button", { name: "Sign in" }).press("Enter");
		await page.getByRole("heading", { name: "Providers" }).waitFor();
		const row = (name: string) => page.locator(`table.providers tr[data-provider="EMAIL:${name}"]`);
		await row("smtp").and(page.locator('[data-state="up"]')).waitFor();
		expect(await page.locator("table.providers tbody tr").evaluateAll(rows => rows.map(r => r.getAttribute("data-provider")))).toEqual(["EMAIL:smtp", "EMAIL:smtp-backup", "SMS:file"]);

		primary.refuseData = { code: 421, message: "Service not available" };
		for (let i = 0; i < 3; i++) await sendAndSettle(token, `panel${i}@example.com`);
		await row("smtp").and(page.locator('[data-state="down"]')).waitFor({ timeout: 10_000 });
		expect(await row("smtp").locator("td").allTextContents()).toEqual(["EMAIL", "Down (skipped)", expect.any(String), "3", "SMTP_421"]);
		expect(await row("smtp-backup").getAttribute("data-state")).toBe("up");
		expect(await seriousViolations(page)).toEqual([]);

		primary.refuseData = null;
		const down = (await http(p.baseUrl, "GET", "/admin/providers", { token: await adminToken(p.baseUrl) })).body.items[0];
		expect(down).toMatchObject({ name: "smtp", state: "down" });
		await waitFor("the cooldown to end", async () => Date.now() >= Date.parse(down.since) + 1050);
		await sendAndSettle(token, "panel-back@example.com");
		await row("smtp").and(page.locator('[data-state="up"]')).waitFor({ timeout: 10_000 });
		expect(await row("smtp").locator("td.failures").textContent()).toBe("0");
		expect(await seriousViolations(page)).toEqual([]);
		expect(errors).toEqual([]);
	}, 60_000);
});
