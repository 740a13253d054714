/**
 * The first hour, as a new user lives it: a fresh clone of this repository, the
 * README's commands word for word (its "Install and start" and "Your first
 * notification" sections), the verification mail opened in the console's Outbox in
 * Chromium and its link clicked, ending with a notification SENT to the verified user.
 *
 * Two shortcuts keep it fast, and neither changes what the commands do: the clone's
 * node_modules is a symlink to this project's (instead of a 60 s `npm install`), and
 * the clone gets this project's build (`dist/`, `client/dist/`, `examples/web/dist/`,
 * what `npm install`'s prepare script compiles), so `npm start`'s `tsc -b` finds it up
 * to date. FIRST_HOUR_COMPILE=1 compiles the clone itself instead (`npm run prepare`).
 * The platform listens on a free port rather than 8500, which might be taken:
 * `localhost:8500` in the commands becomes that port, and PORT is set for `npm start`
 * (PUBLIC_URL, and so every mailed link, follows it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { execFile } from "node:child_process";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS } from "../helpers/chromium";
import { freePort, waitFor } from "../helpers/processes";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const BUILDS = ["dist", "client/dist", "examples/web/dist"];

let clone: string;
let port: number;
let server: { child: ChildProcess; output: () => string } | null = null;
let browser: Browser | undefined;

/** The sh blocks of one README section, in order. */
function blocksOf(readme: string, heading: string): string[] {
	const start = readme.indexOf(`\n## ${heading}\n`);
	expect(start).toBeGreaterThan(0);
	const end = readme.indexOf("\n## ", start + 1);
	const section = readme.slice(start, end < 0 ? undefined : end);
	return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map(m => m[1].replaceAll("localhost:8500", `localhost:${port}`));
}

/** Starts a command line in the clone as its own process group (npm, its shell and node stop together). */
function startServer(line: string): { child: ChildProcess; output: () => string } {
	let output = "";
	const child = spawn("bash", ["-c", line], { cwd: clone, env: { ...process.env, PORT: String(port), LOG_FORMAT: "json" }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
	child.stdout!.on("data", (b: Buffer) => (output = (output + b.toString()).slice(-200_000)));
	child.stderr!.on("data", (b: Buffer) => (output = (output + b.toString()).slice(-200_000)));
	return { child, output: () => output };
}

async function stopServer(): Promise<void> {
	const s = server;
	server = null;
	if (!s || s.child.exitCode !== null || s.child.signalCode !== null) return;
	const exited = new Promise(resolve => s.child.once("exit", resolve));
	// Ctrl-C at the terminal: the whole foreground group gets SIGINT.
	process.kill(-s.child.pid!, "SIGINT");
	await exited;
}

async function ready(): Promise<void> {
	await waitFor(
		"the platform in the clone to be ready",
		async () => (await fetch(`http://127.0.0.1:${port}/health/ready`)).status === 200,
		90_000,
		100,
		() => server?.output().slice(-4000) ?? ""
	);
}

const STATE = () => path.join(clone, ".first-hour-state.sh");

/**
 * Runs a block in bash as the second terminal would, with the variables earlier blocks
 * set (TOKEN, ID, USER_TOKEN: what a terminal keeps between commands). Its output.
 */
async function terminal(block: string): Promise<string> {
	const names = [...new Set([...block.matchAll(/^([A-Z_]+)=\$\(/gm)].map(m => m[1]))];
	const save = names.length ? `\ndeclare -p ${names.join(" ")} >> ${STATE()}` : "";
	const { stdout } = await run("bash", ["-e", "-c", `[ -f ${STATE()} ] && source ${STATE()}\n${block}${save}`], { cwd: clone, env: process.env, timeout: 60_000 });
	return stdout;
}

/** The block's last command (the read-back), again until the notification is SENT: the dispatcher sends "a moment later". */
async function readBackUntilSent(block: string): Promise<Record<string, unknown>> {
	const lines = block.trim().split("\n").filter(l => l.trim() && !l.startsWith("#"));
	const readBack = lines[lines.length - 1];
	expect(readBack).toMatch(/^curl -s localhost:\d+\/notifications\/\$ID /);
	let last: Record<string, unknown> = {};
	await waitFor(
		"the notification to be SENT",
		async () => {
			last = JSON.parse((await terminal(readBack)).trim().split("\n").pop()!);
			return last.status === "SENT";
		},
		20_000,
		100,
		() => JSON.stringify(last)
	);
	return last;
}

beforeAll(async () => {
	port = await freePort();
	clone = fs.mkdtempSync(path.join(os.tmpdir(), "an-first-hour-"));
	// This worktree's HEAD, as `git clone` of the repository gives it.
	await run("git", ["clone", "--quiet", "--local", ROOT, clone]);
	fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(clone, "node_modules"));
	if (process.env.FIRST_HOUR_COMPILE === "1") await run("npm", ["run", "prepare", "--silent"], { cwd: clone, timeout: 300_000 });
	else {
		// The project's build brought up to date (quick when it is), then copied after the clone, so it is newer than every source.
		await run("npm", ["run", "build:app", "--silent"], { cwd: ROOT, timeout: 300_000 });
		for (const dir of BUILDS) fs.cpSync(path.join(ROOT, dir), path.join(clone, dir), { recursive: true });
	}
	browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}, 360_000);

afterAll(async () => {
	await stopServer();
	await browser?.close();
	if (clone) fs.rmSync(clone, { recursive: true, force: true });
});

describe("the first hour on a fresh clone", () => {
	it("should start with the README's commands, send, and after the console's verification link, send to the user itself: SENT", async () => {
		const readme = fs.readFileSync(path.join(clone, "README.md"), "utf8");
		const [install] = blocksOf(readme, "Install and start");
		expect(install).toBe("npm install\nnpm start\n");
		const [adminStart, adminSend, register, selfSend, ...rest] = blocksOf(readme, "Your first notification");
		expect(rest).toEqual([]);

		// `npm install` is the symlinked node_modules and the copied build (above); `npm start` serves on an unchanged checkout.
		server = startServer("npm start");
		await ready();
		await stopServer();

		expect(adminStart.trim()).toMatch(/^BOOTSTRAP_ADMIN_EMAIL=\S+ BOOTSTRAP_ADMIN_PASSWORD=\S+ npm start$/);
		server = startServer(adminStart.trim());
		await ready();

		await terminal(adminSend);
		expect(await readBackUntilSent(adminSend)).toMatchObject({ status: "SENT", to: "ada@example.com", subject: "Hello Ada" });
		await terminal(register);

		// The console's Outbox, as the README says: sign in, open the mail to grace@example.com, click its link.
		const consoleUrl = /http:\/\/localhost:8500\/console#outbox/.exec(readme)![0].replace("8500", String(port));
		const [, email, password] = /sign in as `([^`]+)` with\s+`([^`]+)`/.exec(readme)!;
		const page = await browser!.newPage();
		const problems: string[] = [];
		page.on("pageerror", e => problems.push(String(e)));
		page.on("console", m => m.type() === "error" && problems.push(m.text()));
		await page.goto(consoleUrl);
		await page.getByLabel("Email").fill(email);
		await page.getByLabel("Password").fill(password);
		await page.getByRole("button", { name: "Sign in" }).click();
		await page.getByRole("heading", { name: "Outbox" }).waitFor();
		await page.getByRole("button", { name: /^Open the EMAIL to grace@example\.com/ }).click();
		// The mail as HTML, in its sandboxed frame, and as text with its link.
		await page.frameLocator("iframe.message-frame").getByText("Please confirm that grace@example.com is your email address").waitFor();
		await page.frameLocator("iframe.message-frame").getByRole("link", { name: "Verify my email address" }).waitFor();
		const link = page.locator("pre.message-body a", { hasText: "/ui/verify-email#token=" });
		const [verifyPage] = await Promise.all([page.waitForEvent("popup"), link.click()]);
		await verifyPage.getByText("Your email address is verified.").waitFor();
		// The token left the address bar once the page had read it.
		expect(verifyPage.url()).toBe(`http://localhost:${port}/ui/verify-email`);
		await page.screenshot({ path: path.join(os.tmpdir(), "first-hour-outbox.png"), fullPage: true });
		await page.locator("iframe.message-frame").screenshot({ path: path.join(os.tmpdir(), "first-hour-mail.png") });
		await verifyPage.screenshot({ path: path.join(os.tmpdir(), "first-hour-verified.png") });
		expect(problems).toEqual([]);

		await terminal(selfSend);
		expect(await readBackUntilSent(selfSend)).toMatchObject({ status: "SENT", to: "grace@example.com", subject: "Note to self" });
		// No token reached the server's log: the link's token travels in the fragment.
		const token = /#token=([A-Za-z0-9_-]+)/.exec((await link.getAttribute("href"))!)![1];
		expect(server!.output()).not.toContain(token);
	}, 180_000);
});
