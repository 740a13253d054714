/**
 * The platform's own pages in Chromium, used when UI_BASE_URL is unset. The magic-link
 * page (GET /ui/magic-link): the link from the one-time code mail signs the user in, the
 * page says as whom, and the token leaves the address bar; a used link is refused. The
 * social sign-in's end (GET /ui/auth/callback, UI_CALLBACK_PATH): a real OAuth 2.0
 * provider (oauth2-mock-server) signs the user in, the page exchanges the temporary
 * token; a provider's refusal lands on the same page as a readable error.
 */
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS } from "../helpers/chromium";
import { waitForMail } from "../helpers/mail";
import { MockProvider, providerUser } from "../helpers/oauth2-provider";
import { http, newUser, startPlatform, type Platform } from "../helpers/platform";
import { freePort } from "../helpers/processes";

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

describe("the platform's own social sign-in page", () => {
	const provider = new MockProvider();
	let social: Platform;

	beforeAll(async () => {
		await provider.start();
		const port = await freePort();
		const base = `http://127.0.0.1:${port}`;
		// UI_BASE_URL unset: social sign-in ends at PUBLIC_URL + /ui + UI_CALLBACK_PATH (/auth/callback).
		social = await startPlatform({
			PORT: String(port),
			PUBLIC_URL: base,
			SOCIAL_OAUTH2_CLIENT_ID: "platform-client",
			SOCIAL_OAUTH2_CLIENT_SECRET: "platform-client-secret",
			SOCIAL_OAUTH2_ISSUER: provider.issuer,
			SOCIAL_OAUTH2_REDIRECT_URI: `${base}/auth/social/login/callback`,
			OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64")
		});
	}, 30000);
	afterAll(async () => {
		await social?.stop();
		await provider.stop();
	});

	it("should finish a social sign-in on /ui/auth/callback, say as whom, and clear the token from the address bar", async () => {
		provider.user = providerUser();
		const page = await (await browser.newContext()).newPage();
		const errors: string[] = [];
		page.on("console", m => m.type() === "error" && errors.push(m.text()));
		await page.goto(`${social.baseUrl}/auth/social/login`);
		await page.getByText(`You are signed in as ${provider.user.email}`).waitFor({ timeout: 10000 });
		expect(new URL(page.url()).pathname).toBe("/ui/auth/callback");
		expect(page.url()).not.toContain("token");
		expect(errors).toEqual([]);
	});

	it("should show the provider's refusal as an error on the same page", async () => {
		provider.denyNextAuthorization("access_denied", "The user said no");
		const page = await (await browser.newContext()).newPage();
		await page.goto(`${social.baseUrl}/auth/social/login`);
		await page.locator("#status.error").waitFor({ timeout: 10000 });
		expect(await page.locator("#status").textContent()).toMatch(/did not finish \([A-Z_]+\)/);
		expect(new URL(page.url()).search).toBe("");
	});
});
