/**
 * GET /docs in a real browser: Debian's Chromium driven by playwright-core renders
 * every operation of the OpenAPI document, reports no Content-Security-Policy
 * violation, and sends no request beyond the platform on loopback. With
 * UPDATE_SCREENSHOTS=1 it also writes docs/api-reference.png for docs/api.md.
 */
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS } from "../helpers/chromium";
import { startPlatform, type Platform } from "../helpers/platform";

let p: Platform;
let browser: Browser;

beforeAll(async () => {
	p = await startPlatform();
	browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
});
afterAll(async () => {
	await browser?.close();
	await p?.stop();
});

describe("the API reference page in Chromium", () => {
	it("should render every operation from the platform's own files with no CSP violation and no request off loopback", async () => {
		const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
		const requests: string[] = [];
		const problems: string[] = [];
		page.on("request", r => requests.push(r.url()));
		page.on("console", m => {
			if (m.type() === "error" || /Content Security Policy/i.test(m.text())) problems.push(m.text());
		});
		page.on("pageerror", e => problems.push(String(e)));
		await page.goto(`${p.baseUrl}/docs`);
		await page.waitForSelector(".opblock-summary-path", { timeout: 20000 });
		const doc = (await (await fetch(`${p.baseUrl}/openapi.json`)).json()) as { paths: Record<string, object> };
		const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
		expect(await page.locator(".opblock-summary-path").count()).toBe(operations);
		await expect(page.locator(".title").first().textContent()).resolves.toContain("auth-notify");
		expect(problems).toEqual([]);
		// Swagger UI shows what it cannot read in the document as a warning box.
		expect(await page.locator(".errors-wrapper, .version-pragma").count()).toBe(0);
		const origin = new URL(p.baseUrl).origin;
		expect(requests.filter(u => !u.startsWith(`${origin}/`) && !u.startsWith("data:"))).toEqual([]);
		expect(requests).toEqual(expect.arrayContaining([`${origin}/docs/swagger-ui-bundle.js`, `${origin}/openapi.json`]));
		if (process.env.UPDATE_SCREENSHOTS === "1") await page.screenshot({ path: path.resolve(__dirname, "../../docs/api-reference.png") });
		await page.close();
	});
});
