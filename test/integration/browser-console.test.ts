/**
 * The administrators' console in a real browser: Debian's Chromium driven by
 * playwright-core, against the platform in this process. The dispatcher is left out
 * at first (SERVICES) so a known backlog stays queued; the test starts it once LOW
 * is paused through the console. A notification scheduled for later is not part of the
 * backlog. axe-core checks each page for serious or critical accessibility violations.
 * With UPDATE_SCREENSHOTS=1 it writes docs/console-*.png.
 */
import fs from "node:fs";
import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { chromium, type Browser, type Page } from "playwright-core";
import { suppress } from "../../lib/notifications/suppressions";
import DispatcherService from "../../services/dispatcher.service";
import { CHROMIUM, CHROMIUM_FLAGS } from "../helpers/chromium";
import { Receiver } from "../helpers/receiver";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";

const ADMIN = { email: "root@example.com", password: "Root-Passw0rd" };
const BACKLOG = { CRITICAL: 1, HIGH: 2, NORMAL: 3, LOW: 4 } as const;
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const SHOTS = process.env.UPDATE_SCREENSHOTS === "1";

/** The little of the page's DOM the functions run inside the browser use (this project compiles without DOM typings). */
declare const document: {
	querySelector(selector: string): { textContent: string | null } | null;
	querySelectorAll(selector: string): { length: number };
	getElementById(id: string): { textContent: string | null } | null;
};
declare const window: { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } };

let p: Platform;
let browser: Browser;
let service: string;
let adminToken: string;
let receiver: Receiver;
const ids: Record<string, string[]> = {};
let scheduledId: string;
const LINK = "https://example.com/welcome?from=console";

beforeAll(async () => {
	p = await startPlatform({
		SERVICES: "api-gateway,auth,actors,notifications,outbound",
		BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
		BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
		// The service's webhook endpoint is a receiver on loopback.
		WEBHOOK_ALLOW_PRIVATE_URLS: "true",
		WEBHOOK_POLL_MS: "50"
	});
	receiver = await Receiver.start();
	adminToken = (await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.email, password: ADMIN.password } })).body.accessToken;
	const account = await http(p.baseUrl, "POST", "/admin/service-accounts", { token: adminToken, json: { serviceId: "console-test" } });
	expect(account.status).toBe(201);
	const svc = await http(p.baseUrl, "POST", "/auth/services/token", { json: { username: account.body.username, password: account.body.password } });
	expect(svc.status).toBe(200);
	service = svc.body.idToken;
	const hook = await http(p.baseUrl, "POST", "/webhook-endpoints", { token: service, json: { url: receiver.url, events: ["notification.sent"] } });
	expect(hook.status).toBe(201);
	for (const [priority, n] of Object.entries(BACKLOG)) {
		ids[priority] = [];
		for (let i = 0; i < n; i++) {
			const res = await http(p.baseUrl, "POST", "/notifications", {
				token: service,
				json: {
					to: `${priority.toLowerCase()}${i}@example.com`,
					priority,
					template: { subject: `${priority} ${i}`, text: "Hello", ...(priority === "CRITICAL" ? { html: `<h1>Hello</h1><p>Open <a href="${LINK}">the welcome page</a>.</p>` } : {}) }
				}
			});
			expect(res.status).toBe(201);
			ids[priority].push(res.body.notificationId);
		}
	}
	// Scheduled for an hour from now: QUEUED, but not a backlog.
	const later = await http(p.baseUrl, "POST", "/notifications", {
		token: service,
		json: { to: "later@example.com", priority: "NORMAL", sendAt: new Date(Date.now() + 3600_000).toISOString(), template: { subject: "Later", text: "In an hour" } }
	});
	expect(later.status).toBe(201);
	scheduledId = later.body.notificationId;
	browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}, 60_000);
afterAll(async () => {
	await browser?.close();
	await p?.stop();
	await receiver?.close();
});

interface Watched {
	page: Page;
	requests: string[];
	problems: string[];
	/** Requests the browser logged as failed (Chromium's "Failed to load resource"). */
	failed: string[];
}

async function openConsole(): Promise<Watched> {
	const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
	const requests: string[] = [];
	const problems: string[] = [];
	const failed: string[] = [];
	page.on("request", r => requests.push(r.url()));
	page.on("console", m => {
		// Chromium logs every failed fetch as an error, the refusals the console expects (403 for a non-administrator) among them: kept apart.
		if (m.type() === "error" && /^Failed to load resource/.test(m.text())) failed.push(`${m.text()} ${m.location().url}`);
		else if (m.type() === "error" || /Content Security Policy/i.test(m.text())) problems.push(m.text());
	});
	// The console's own files must all load.
	page.on("response", r => {
		if (new URL(r.url()).pathname.startsWith("/console") && r.status() !== 200) problems.push(`${r.status()} ${r.url()}`);
	});
	page.on("pageerror", e => problems.push(String(e)));
	await page.goto(`${p.baseUrl}/console`);
	return { page, requests, problems, failed };
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
	await page.getByLabel("Email").fill(username);
	await page.getByLabel("Password").fill(password);
	await page.getByRole("button", { name: "Sign in" }).press("Enter");
}

/** axe-core's serious and critical violations of the page as it is now (evaluated through the driver, so the page's CSP does not apply to it). */
async function seriousViolations(page: Page): Promise<string[]> {
	await page.evaluate(AXE);
	const found = await page.evaluate(async () => {
		const r = await window.axe.run();
		return r.violations.map(v => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
	});
	return found.filter(v => v.impact === "serious" || v.impact === "critical").map(v => `${v.id} (${v.impact}, ${v.nodes} nodes)`);
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

const depthOf = (page: Page, priority: string) => page.locator(`tr[data-priority="${priority}"] td.depth`).textContent();

/** Waits until the overview (which refreshes itself) shows these depths. */
async function waitForDepths(page: Page, want: Partial<Record<string, number>>): Promise<void> {
	try {
		await page.waitForFunction(
			w => Object.entries(w).every(([pr, n]) => document.querySelector(`tr[data-priority="${pr}"] td.depth`)?.textContent === String(n)),
			want,
			{ timeout: 20_000 }
		);
	} catch (err) {
		throw new Error(`${(err as Error).message}\nThe page shows: ${await page.locator("body").innerText()}`);
	}
}

function expectClean(w: Watched): void {
	expect(w.problems).toEqual([]);
	const origin = new URL(p.baseUrl).origin;
	expect(w.requests.filter(u => !u.startsWith(`${origin}/`))).toEqual([]);
	// The token travels in headers and bodies only.
	expect(w.requests.filter(u => /token|eyJ/i.test(u))).toEqual([]);
}

// The administrator's test comes first: a registration queues a CRITICAL verification mail, which would change the backlog it counts.
describe("the admin console in Chromium", () => {
	it("should show an administrator the backlog per priority, hold LOW when paused, find a SENT notification and remove a suppression and an unsubscribe", async () => {
		const w = await openConsole();
		const { page } = w;
		expect(await seriousViolations(page)).toEqual([]);
		await signIn(page, ADMIN.email, ADMIN.password);
		await page.getByRole("heading", { name: "Overview" }).waitFor();
		await waitForDepths(page, BACKLOG);
		expect(await page.locator('tr[data-priority="NORMAL"] td.scheduled').textContent()).toBe("1");
		expect(await page.locator("#stat-sends .stat-value").textContent()).toBe("0");
		expect(await page.locator("figure.chart").count()).toBe(6);
		// Kept in this tab's session storage only.
		expect(await page.evaluate(() => [sessionStorage.length, localStorage.length])).toEqual([1, 0]);
		expect(await seriousViolations(page)).toEqual([]);

		// Pause LOW with the switch, by keyboard.
		await page.getByRole("link", { name: "Feature flags" }).click();
		const sw = page.getByRole("switch");
		await sw.waitFor();
		expect(await sw.getAttribute("aria-checked")).toBe("false");
		await sw.focus();
		await page.keyboard.press("Enter");
		await page.locator('#low-pause[aria-checked="true"]').waitFor();
		expect(await seriousViolations(page)).toEqual([]);
		expect(JSON.parse((await runtime(p).store().collection<{ id: string; valueJson: string }>("feature_flags").get("notifications.low-priority"))!.valueJson)).toEqual({ paused: true });
		// A value that is not a JSON object is refused before anything is sent.
		const puts: string[] = [];
		page.on("request", r => r.method() === "PUT" && puts.push(r.url()));
		const editor = page.getByLabel("Value of notifications.low-priority (JSON object)");
		await editor.fill("[1, 2");
		await page.locator("form.flag").first().getByRole("button", { name: "Save" }).click();
		await page.getByRole("alert").filter({ hasText: "Not JSON" }).waitFor();
		expect(puts).toEqual([]);
		if (SHOTS) await page.screenshot({ path: path.resolve(__dirname, "../../docs/console-flags.png"), fullPage: true });

		// The dispatcher starts: everything but LOW drains.
		p.broker.createService(DispatcherService as ServiceSchema);
		await page.getByRole("link", { name: "Overview" }).click();
		await waitForDepths(page, { CRITICAL: 0, HIGH: 0, NORMAL: 0 });
		expect(await depthOf(page, "LOW")).toBe("4");
		await page.locator('tr[data-priority="LOW"] .badge').filter({ hasText: "paused" }).waitFor();
		// Six sent in this minute or the last: the window's count is above zero, and the hour's series holds all six.
		await page.waitForFunction(() => Number(document.querySelector("#stat-sends .stat-value")?.textContent) > 0, undefined, { timeout: 10_000 });
		const stats = await http(p.baseUrl, "GET", "/admin/stats", { token: adminToken });
		expect(stats.status).toBe(200);
		expect([sum(stats.body.series.sent), sum(stats.body.series.failed), stats.body.dispatchers]).toEqual([6, 0, 1]);
		if (SHOTS) await page.screenshot({ path: path.resolve(__dirname, "../../docs/console-overview.png"), fullPage: true });
		// A refresh later LOW has still not moved.
		const before = await page.locator("#updated").textContent();
		await page.waitForFunction(b => document.getElementById("updated")?.textContent !== b, before, { timeout: 10_000 });
		expect(await depthOf(page, "LOW")).toBe("4");
		const lows = await Promise.all(ids.LOW.map(id => http(p.baseUrl, "GET", `/notifications/${id}`, { token: service })));
		expect(lows.map(r => r.body.status)).toEqual(["QUEUED", "QUEUED", "QUEUED", "QUEUED"]);

		// The Notifications page lists the newest as it opens, with subject and recipient; an opened one is in view.
		await page.getByRole("link", { name: "Notifications" }).click();
		const listed = page.locator("#results tbody tr");
		await listed.first().waitFor();
		expect(await listed.count()).toBe(11);
		expect(await listed.first().locator("td").nth(1).textContent()).toBe("later@example.com");
		expect(await listed.first().locator("td").nth(2).textContent()).toBe("Later");
		expect(await listed.last().locator("td").nth(2).textContent()).toBe("CRITICAL 0");
		await page.setViewportSize({ width: 1366, height: 600 });
		await listed.last().getByRole("button", { name: /^Open / }).click();
		await page.locator('[data-fact="Subject"]').filter({ hasText: "CRITICAL 0" }).waitFor();
		const box = await page.locator("#detail h2").boundingBox();
		expect(box && box.y >= 0 && box.y + box.height <= 600).toBe(true);
		await page.setViewportSize({ width: 1366, height: 900 });
		expect(await runtime(p).store().collection<{ id: string; status: string }>("notifications").get(scheduledId)).toMatchObject({ status: "QUEUED" });

		// Find the CRITICAL one by id: its timeline ends SENT, with the provider's id.
		await page.getByLabel("Notification id").fill(ids.CRITICAL[0]);
		await page.getByLabel("Notification id").press("Enter");
		await page.locator('ol.timeline li[data-event="SENT"]').waitFor();
		expect(await page.locator('[data-fact="Status"]').textContent()).toBe("SENT");
		expect(await page.locator('[data-fact="Provider id"]').textContent()).not.toBe("—");
		expect(await page.locator("ol.timeline li .event").allTextContents()).toEqual(expect.arrayContaining(["QUEUED", "SENT"]));
		expect(await seriousViolations(page)).toEqual([]);
		if (SHOTS) await page.screenshot({ path: path.resolve(__dirname, "../../docs/console-notification.png"), fullPage: true });

		// Cancel a held LOW one from its page.
		await page.getByLabel("Notification id").fill(ids.LOW[0]);
		await page.getByRole("button", { name: "Search" }).click();
		await page.getByRole("button", { name: "Cancel this notification" }).click();
		await page.getByRole("dialog").getByRole("button", { name: "Cancel notification" }).click();
		await page.locator('[data-fact="Status"]').filter({ hasText: "CANCELLED" }).waitFor();

		// The Outbox: the six mails written, newest first; the CRITICAL one's HTML in a frame that runs nothing, its links opening new tabs.
		await page.getByRole("link", { name: "Outbox" }).click();
		const mails = page.locator("#outbox tbody tr");
		await page.waitForFunction(() => document.querySelectorAll("#outbox tbody tr").length === 6, undefined, { timeout: 10_000 });
		expect(await mails.locator("td:nth-child(2)").allTextContents()).toEqual(Array(6).fill("EMAIL"));
		expect(await mails.last().locator("td:nth-child(3)").textContent()).toBe("critical0@example.com");
		await page.getByRole("button", { name: "Open the EMAIL to critical0@example.com: CRITICAL 0" }).click();
		const frame = page.locator("iframe.message-frame");
		await frame.waitFor();
		expect(await frame.getAttribute("sandbox")).toBe("allow-popups allow-popups-to-escape-sandbox");
		const inFrame = page.frameLocator("iframe.message-frame");
		expect(await inFrame.getByRole("link", { name: "the welcome page" }).getAttribute("href")).toBe(LINK);
		expect(await inFrame.locator("base").getAttribute("target")).toBe("_blank");
		expect(await page.locator("pre.message-body").first().textContent()).toBe("Hello");
		expect(await page.locator("table.headers tr", { hasText: "Subject" }).locator("td").textContent()).toBe("CRITICAL 0");
		expect(await seriousViolations(page)).toEqual([]);
		await page.screenshot({ path: path.join(p.dataDir, "console-outbox.png"), fullPage: true });
		if (SHOTS) await page.screenshot({ path: path.resolve(__dirname, "../../docs/console-outbox.png"), fullPage: true });

		// Remove a suppression, confirming in the dialog.
		await suppress(runtime(p).store(), "EMAIL", "bounced@example.com", "permanent bounce", ids.NORMAL[0]);
		await page.getByRole("link", { name: "Suppressions" }).click();
		await page.locator('tr[data-address="bounced@example.com"]').waitFor();
		expect(await seriousViolations(page)).toEqual([]);
		await page.getByRole("button", { name: "Remove bounced@example.com (EMAIL)" }).click();
		await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
		await page.getByText("bounced@example.com removed from EMAIL.").waitFor();
		expect(await page.locator('tr[data-address="bounced@example.com"]').count()).toBe(0);
		expect(await runtime(p).store().collection("suppressions").get("bounced@example.com")).toBeNull();

		// An unsubscribe made through the one-click link of a sent NORMAL mail, listed and removed through the dialog.
		const outbox = path.join(p.dataDir, "outbox");
		const mail = fs.readdirSync(outbox).find(f => f.startsWith(`${ids.NORMAL[1]}.`) && f.endsWith(".eml"))!;
		const link = /\/unsubscribe\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/.exec(fs.readFileSync(path.join(outbox, mail), "utf8").replace(/\r?\n(?=[ \t])/g, ""))![0];
		expect((await fetch(p.baseUrl + link, { method: "POST" })).status).toBe(200);
		expect(await runtime(p).store().collection("unsubscribes").get("EMAIL:normal1@example.com:general")).not.toBeNull();
		await page.reload();
		const unsubscribed = page.locator('#unsubscribe-list tr[data-address="normal1@example.com"][data-category="general"]');
		await unsubscribed.waitFor();
		expect(await seriousViolations(page)).toEqual([]);
		await page.getByRole("button", { name: "Remove the unsubscribe of normal1@example.com from general (EMAIL)" }).click();
		await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
		await page.getByText("normal1@example.com receives general on EMAIL again.").waitFor();
		expect(await unsubscribed.count()).toBe(0);
		expect(await runtime(p).store().collection("unsubscribes").get("EMAIL:normal1@example.com:general")).toBeNull();

		// The service's webhook endpoint, with its deliveries of the six SENT events.
		const deadline = Date.now() + 15_000;
		while (receiver.received.length < 6 && Date.now() < deadline) await new Promise(r => setTimeout(r, 100));
		expect(receiver.received).toHaveLength(6);
		await page.getByRole("link", { name: "Webhooks" }).click();
		const endpoint = page.getByRole("region", { name: receiver.url });
		await endpoint.waitFor();
		expect(await endpoint.getByText("service console-test", { exact: false }).count()).toBe(1);
		const rows = endpoint.locator("tbody tr");
		expect(await rows.count()).toBe(6);
		expect(await rows.locator("td:nth-child(2)").allTextContents()).toEqual(Array(6).fill("notification.sent"));
		expect(await rows.locator("td:nth-child(3)").allTextContents()).toEqual(Array(6).fill("succeeded"));
		expect(await seriousViolations(page)).toEqual([]);

		// Resumed, LOW drains: the pause was what held it.
		await page.getByRole("link", { name: "Feature flags" }).click();
		await page.locator('#low-pause[aria-checked="true"]').click();
		await page.locator('#low-pause[aria-checked="false"]').waitFor();
		await page.getByRole("link", { name: "Overview" }).click();
		await waitForDepths(page, { LOW: 0 });
		// Nothing failed to load for an administrator: no favicon 404, no 404 for a flag never set.
		expect(w.failed).toEqual([]);
		expectClean(w);
		await page.close();
	}, 120_000);

	it("should let an administrator create, edit, preview per locale and channel, and restore a template", async () => {
		const w = await openConsole();
		const { page } = w;
		await signIn(page, ADMIN.email, ADMIN.password);
		await page.getByRole("heading", { name: "Overview" }).waitFor();
		await page.getByRole("link", { name: "Templates" }).click();
		await page.getByRole("button", { name: "New template" }).click();
		await page.getByLabel("Name").fill("console-order");
		await page.getByLabel("Default locale (BCP 47)").fill("en");
		await page.getByLabel("Subject (EMAIL and PUSH)").fill("Order {{ order }}");
		await page.getByLabel("HTML").fill("<p>Hi {{ name }}</p>{% for i in items %}<li>{{ i }}</li>{% endfor %}");
		await page.getByLabel("Text", { exact: true }).fill("Hi {{ name }}");
		await page.getByLabel("Translations (JSON object by locale)").fill('{"de": {"subject": "Bestellung {{ order }}", "text": "Hallo {{ name }}"}}');
		await page.getByRole("button", { name: "Create" }).click();
		await page.getByRole("heading", { name: "Edit console-order (version 1)" }).waitFor();
		expect(await page.locator('#template-list tr[data-template] td:nth-child(3)').first().textContent()).toBe("en, de");

		// A template that does not parse is refused with its line, and nothing is saved.
		await page.getByLabel("Text", { exact: true }).fill("Hi\n{% if name %}");
		await page.getByRole("button", { name: "Save as new version" }).click();
		await page.locator("form.template .field-error", { hasText: "line 2" }).waitFor();
		await page.getByLabel("Text", { exact: true }).fill("Hello {{ name }}");
		await page.getByRole("button", { name: "Save as new version" }).click();
		await page.getByRole("heading", { name: "Edit console-order (version 2)" }).waitFor();

		await page.getByLabel("Locale", { exact: true }).fill("de-AT");
		await page.getByLabel("Variables (JSON object)").fill('{"name": "<Ada>", "order": "A-1", "items": ["Tea"]}');
		await page.getByRole("button", { name: "Preview" }).click();
		await page.locator("#preview-out dd", { hasText: "Bestellung A-1" }).waitFor();
		expect(await page.locator("#preview-out pre").allTextContents()).toEqual(["Hallo <Ada>"]);
		await page.getByLabel("Locale", { exact: true }).fill("");
		await page.getByLabel("Channel").selectOption("EMAIL");
		await page.getByRole("button", { name: "Preview" }).click();
		await page.locator("#preview-out dd", { hasText: "Order A-1" }).waitFor();
		expect(await page.locator("#preview-out pre").allTextContents()).toEqual(["<p>Hi &lt;Ada&gt;</p><li>Tea</li>", "Hello <Ada>"]);
		await page.getByLabel("Channel").selectOption("SMS");
		await page.getByRole("button", { name: "Preview" }).click();
		await page.locator("#preview-out dd", { hasText: "Order A-1" }).waitFor({ state: "detached" });
		expect(await page.locator("#preview-out pre").allTextContents()).toEqual(["Hello <Ada>"]);

		await page.locator('#version-list tr[data-version="1"]').waitFor();
		expect(await seriousViolations(page)).toEqual([]);
		if (SHOTS) await page.screenshot({ path: path.resolve(__dirname, "../../docs/console-templates.png"), fullPage: true });
		await page.getByRole("button", { name: "Restore version 1" }).click();
		await page.getByRole("dialog").getByRole("button", { name: "Restore" }).click();
		await page.getByRole("heading", { name: "Edit console-order (version 3)" }).waitFor();
		expect(await page.getByLabel("Text", { exact: true }).inputValue()).toBe("Hi {{ name }}");
		expect(await page.locator("#version-list tbody tr td:first-child").allTextContents()).toEqual(["3 (restores 1)", "2", "1"]);
		expect(await seriousViolations(page)).toEqual([]);
		expectClean(w);
		await page.close();
	}, 120_000);

	it("should refuse a normal user clearly and sign them out", async () => {
		const user = newUser();
		expect((await http(p.baseUrl, "POST", "/auth/register", { json: user })).status).toBe(201);
		const w = await openConsole();
		await signIn(w.page, user.email, user.password);
		await w.page.getByRole("heading", { name: "Administrators only" }).waitFor();
		expect(await w.page.locator("nav").count()).toBe(0);
		expect(await w.page.evaluate(() => [sessionStorage.length, localStorage.length])).toEqual([0, 0]);
		expect(await seriousViolations(w.page)).toEqual([]);
		expectClean(w);
		await w.page.close();
	});
});
