/**
 * The platform's own magic-link page (GET /ui/magic-link, used when UI_BASE_URL is
 * unset) in Chromium: the link from the one-time code mail signs the user in, the page
 * says as whom, and the token leaves the address bar; a used link is refused.
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

describe("the platform's own magic-link page", () => {
	it("should sign in with the mailed link, say as whom, clear the token from the address bar, and refuse the link a second time", async () => {
		const user = newUser({ password: "Correct-Horse-9!" });
		expect((await http(p.baseUrl, "POST", "/auth/register", { json: user })).status).toBe(201);
		const email = user.email.toLowerCase();
		expect((await http(p.baseUrl, "POST", "/auth/otp", { json: { email } })).status).toBe(202);
		const mail = await waitForMail(p.dataDir, email, /Your sign-in code/);
		const link = new RegExp(`${p.config.publicUrl.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}/ui/magic-link#token=[A-Za-z0-9_-]+`).exec(mail.text ?? "")?.[0];
		expect(link).toBeDefined();
		// The platform listens on a port of its own choosing here (PORT=0): the mailed path and fragment, on that port.
		const url = `${p.baseUrl}${link!.slice(p.config.publicUrl.length)}`;

		const page = await (await browser.newContext()).newPage();
		const errors: string[] = [];
		page.on("console", m => m.type() === "error" && errors.push(m.text()));
		await page.goto(url);
		await page.getByText(`You are signed in as ${email}`).waitFor({ timeout: 10000 });
		expect(page.url()).not.toContain("token");
		expect(errors).toEqual([]);

		const again = await (await browser.newContext()).newPage();
		await again.goto(url);
		await again.locator("#status.error").waitFor({ timeout: 10000 });
		expect(await again.locator("#status").textContent()).not.toContain("signed in");
	});
});
