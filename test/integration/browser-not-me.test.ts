/**
 * The platform's own "not me" page (GET /ui/not-me, used when UI_BASE_URL is unset) in
 * Chromium: a new-device alert's link opens it, the token leaves the address bar, a
 * click secures the account (the sessions end), and the used link is refused.
 */
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS } from "../helpers/chromium";
import { waitForMail } from "../helpers/mail";
import { http, newUser, startPlatform, type Platform } from "../helpers/platform";

let p: Platform;
let browser: Browser;

beforeAll(async () => {
	p = await startPlatform({});
	browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}, 30000);
afterAll(async () => {
	await browser?.close();
	await p?.stop();
});

describe("the platform's own not-me page", () => {
	it("should secure the account with a click on the alert's link, clear the token from the address bar, and refuse the link a second time", async () => {
		const user = newUser({ password: "Correct-Horse-9!" });
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: user });
		expect(reg.status).toBe(201);
		const email = user.email.toLowerCase();
		// Another browser family than the registration's: a new device.
		const other = await http(p.baseUrl, "POST", "/auth/login", { json: { username: email, password: user.password }, headers: { "user-agent": "Mozilla/5.0 (Windows NT 10.0) Firefox/128.0" } });
		expect(other.status).toBe(200);
		const mail = await waitForMail(p.dataDir, email, /Security alert: New sign-in/);
		const link = new RegExp(`${p.config.publicUrl.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}/ui/not-me#token=[A-Za-z0-9_-]+`).exec(mail.text ?? "")?.[0];
		expect(link).toBeDefined();
		// The platform listens on a port of its own choosing here (PORT=0): the mailed path and fragment, on that port.
		const url = `${p.baseUrl}${link!.slice(p.config.publicUrl.length)}`;

		const page = await (await browser.newContext()).newPage();
		const errors: string[] = [];
		page.on("console", m => m.type() === "error" && errors.push(m.text()));
		await page.goto(url);
		const button = page.getByRole("button", { name: "Secure my account" });
		// The script shows the button once it has taken the token out of the address.
		await button.waitFor({ timeout: 10000 });
		expect(page.url()).not.toContain("token");
		await button.click();
		await page.getByText("Your account is secured").waitFor({ timeout: 10000 });
		expect(errors).toEqual([]);
		const refresh = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: other.body.refreshToken } });
		expect(refresh.status).toBe(401);

		const again = await (await browser.newContext()).newPage();
		await again.goto(url);
		await again.getByRole("button", { name: "Secure my account" }).click();
		await again.locator("#status.error").waitFor({ timeout: 10000 });
		expect(await again.locator("#status").textContent()).toContain("invalid, expired or already used");
	});
});
