/**
 * The command line (`npx auth-notify`, bin/auth-notify.js running dist/lib/cli) as
 * real processes: every command against a platform started in this process, the
 * --json shapes, and the exit codes (0 done, 1 failed, 2 usage); doctor on a good
 * and on a broken configuration, naming the fix.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { COMMANDS } from "../../lib/cli/commands";
import { http, newUser, runtime, startPlatform, tempDir, type Platform } from "../helpers/platform";

const BIN = path.join(__dirname, "..", "..", "bin", "auth-notify.js");
const ADMIN = { email: "cli-admin@example.test", password: "Admin-Passw0rd!" };
/** Where no platform answers (the discard port), so doctor's platform check is skipped whatever else runs here. */
const NOTHING_THERE = "http://127.0.0.1:9";

interface Run {
	code: number;
	stdout: string;
	stderr: string;
	/** stdout as JSON (for --json runs). */
	json: any;
}

/** Runs the CLI as its own process with only the given environment (and PATH, HOME). */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
	return new Promise(resolve => {
		execFile(
			process.execPath,
			[BIN, ...args],
			{ env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env }, timeout: 60_000 },
			(err, stdout, stderr) => {
				const code = err ? ((err as { code?: number }).code ?? 1) : 0;
				let json: unknown;
				try {
					json = JSON.parse(stdout);
				} catch {
					json = undefined;
				}
				resolve({ code: typeof code === "number" ? code : 1, stdout, stderr, json });
			}
		);
	});
}

beforeAll(() => {
	if (!fs.existsSync(path.join(__dirname, "..", "..", "dist", "lib", "cli", "index.js"))) throw new Error('dist/lib/cli is missing: run "npm run build" first');
});

describe("auth-notify usage", () => {
	it("should print the commands with --help and exit 0", async () => {
		const r = await cli(["--help"]);
		expect(r.code).toBe(0);
		for (const c of ["admin create", "service-account create", "service-account list", "service-account delete", "send", "keys rotate", "users list", "users show", "users lock", "users unlock", "outbox", "doctor"]) {
			expect(r.stdout).toContain(`auth-notify ${c}`);
		}
		const sub = await cli(["users", "lock", "--help"]);
		expect(sub.code).toBe(0);
		expect(sub.stdout).toContain("Usage: auth-notify users lock <actorId|email>");
	});

	it("should exit 2 with the usage for no command, an unknown command or option, and a missing argument", async () => {
		for (const args of [[], ["bogus"], ["doctor", "--bogus"], ["service-account", "create"], ["users", "show", "a", "b"], ["outbox", "--limit", "0"]]) {
			const r = await cli(args);
			expect({ args, code: r.code }).toEqual({ args, code: 2 });
			expect(r.stderr).toContain("Usage: auth-notify");
		}
		const json = await cli(["service-account", "delete", "--json"]);
		expect(json.code).toBe(2);
		expect(json.json).toEqual({ error: { code: "USAGE", message: expect.stringContaining("service-account delete takes <serviceId>") } });
	});

	it("should document every command in docs/cli.md", () => {
		const doc = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "cli.md"), "utf8");
		for (const c of COMMANDS) expect({ command: c.words.join(" "), documented: doc.includes(`npx auth-notify ${c.words.join(" ")}`) }).toEqual({ command: c.words.join(" "), documented: true });
	});

	it("should read an env file, the process's own variables winning, and exit 2 when it cannot", async () => {
		const dir = tempDir();
		try {
			const file = path.join(dir, ".env");
			fs.writeFileSync(file, `PORT=eighty\nDATA_DIR=${dir}\n`);
			const broken = await cli(["doctor", "--dotenv", file]);
			expect(broken.code).toBe(1);
			expect(broken.stdout).toContain("PORT must be a whole number");
			const fixed = await cli(["doctor", "--dotenv", file, "--json"], { PORT: "8600", PUBLIC_URL: NOTHING_THERE });
			expect(fixed.code).toBe(0);
			expect(fixed.json.ok).toBe(true);
			const missing = await cli(["doctor", "--dotenv", path.join(dir, "none")]);
			expect(missing.code).toBe(2);
			expect(missing.stderr).toContain("--dotenv cannot be read: ENOENT");
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});

	it("should exit 2 when a remote command has no administrator to sign in as", async () => {
		const r = await cli(["users", "list", "--url", "http://127.0.0.1:9"]);
		expect(r.code).toBe(2);
		expect(r.stderr).toContain("--email and --password");
	});

	it("should exit 1 naming the fix when the platform does not answer", async () => {
		const r = await cli(["service-account", "list", "--json", "--url", "http://127.0.0.1:9", "--email", ADMIN.email, "--password", ADMIN.password]);
		expect(r.code).toBe(1);
		expect(r.json).toEqual({ error: { code: "UNREACHABLE", message: expect.stringContaining("http://127.0.0.1:9"), fix: expect.stringContaining("--url") } });
	});
});

describe("auth-notify doctor", () => {
	it("should exit 0 and report every check on a working configuration", async () => {
		const dir = tempDir();
		try {
			const r = await cli(["doctor", "--json"], { DATA_DIR: dir, NATS_URL: "nats://127.0.0.1:4222", REDIS_URL: "redis://127.0.0.1:6379", PUBLIC_URL: NOTHING_THERE });
			expect(r.code).toBe(0);
			expect(r.json).toMatchObject({ ok: true, problems: 0 });
			const checks = r.json.findings.map((f: { check: string; status: string }) => `${f.check}:${f.status}`);
			expect(checks).toEqual(expect.arrayContaining(["configuration:ok", "store:ok", "nats:ok", "redis:ok", "email:ok", "sms:ok", "keys:ok"]));
			expect(r.json.findings).toContainEqual({ check: "platform", status: "skipped", message: expect.stringContaining(NOTHING_THERE) });
			const text = await cli(["doctor"], { DATA_DIR: dir, PUBLIC_URL: NOTHING_THERE });
			expect(text.code).toBe(0);
			expect(text.stdout).toContain("No problems found.");
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});

	it("should exit 1 on a broken configuration, naming each problem and its fix", async () => {
		const r = await cli(["doctor"], { PORT: "eighty", EMAIL_PROVIDER: "smtp" });
		expect(r.code).toBe(1);
		expect(r.stdout).toMatch(/PROBLEM +configuration: PORT must be a whole number/);
		expect(r.stdout).toContain("fix: Set PORT to a whole number from 0 to 65535");
		expect(r.stdout).toMatch(/PROBLEM +configuration: SMTP_URL/);
		expect(r.stdout).toMatch(/problems? found/);
	});

	it("should exit 1 when a dependency is down or DATA_DIR is not writable, naming the fix", async () => {
		const dir = tempDir();
		try {
			fs.chmodSync(dir, 0o500);
			const r = await cli(["doctor", "--json"], {
				DATA_DIR: dir,
				REDIS_URL: "redis://127.0.0.1:9",
				NATS_URL: "nats://127.0.0.1:9",
				EMAIL_PROVIDER: "smtp",
				SMTP_URL: "smtp://user:secret-pw@127.0.0.1:9"
			});
			expect(r.code).toBe(1);
			const problem = (check: string) => r.json.findings.find((f: { check: string; status: string }) => f.check === check && f.status === "problem");
			// Root reads every directory: the write check cannot fail for it.
			if (process.getuid?.() !== 0) expect(problem("store")).toMatchObject({ message: expect.stringContaining("is not writable"), fix: expect.stringContaining("DATA_DIR") });
			expect(problem("redis")).toMatchObject({ message: expect.stringContaining("127.0.0.1:9"), fix: expect.stringContaining("REDIS_URL") });
			expect(problem("nats")).toMatchObject({ fix: expect.stringContaining("NATS_URL") });
			expect(problem("email")).toMatchObject({ message: expect.stringContaining("The SMTP server at 127.0.0.1:9"), fix: expect.stringContaining("SMTP_URL") });
			// The URL's password is never printed.
			expect(r.stdout).not.toContain("secret-pw");
		} finally {
			fs.chmodSync(dir, 0o700);
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe("auth-notify against a running platform", () => {
	let p: Platform;
	let env: Record<string, string>;
	const kek = randomBytes(32).toString("base64");

	beforeAll(async () => {
		// Every run signs in again: more than the default 10 sign-ins a minute of one username.
		p = await startPlatform({ BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password, IDP_KEY_ENCRYPTION_KEY: kek, RATE_LIMIT_LOGIN_PER_USER: "0" });
		// What an operator's shell would hold: the platform's own configuration.
		env = { DATA_DIR: p.dataDir, PUBLIC_URL: p.baseUrl, BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password, IDP_KEY_ENCRYPTION_KEY: kek };
	}, 30000);
	afterAll(() => p?.stop());

	it("should create, list and delete a service account", async () => {
		const created = await cli(["service-account", "create", "cli-billing", "--json"], env);
		expect(created.code).toBe(0);
		expect(created.json).toEqual({ serviceId: "cli-billing", username: "svc-cli-billing", password: expect.any(String), createdAt: expect.any(String) });
		const token = await http(p.baseUrl, "POST", "/auth/services/token", { json: { username: "svc-cli-billing", password: created.json.password } });
		expect(token.status).toBe(200);

		const listed = await cli(["service-account", "list", "--json"], env);
		expect(listed.code).toBe(0);
		expect(listed.json.items).toContainEqual({ serviceId: "cli-billing", username: "svc-cli-billing", createdAt: created.json.createdAt });
		const text = await cli(["service-account", "list"], env);
		expect(text.stdout).toMatch(/SERVICE +USERNAME +CREATED\ncli-billing +svc-cli-billing/);

		const again = await cli(["service-account", "create", "cli-billing", "--json"], env);
		expect(again.code).toBe(1);
		expect(again.json.error).toMatchObject({ code: "SERVICE_EXISTS", status: 409 });

		const deleted = await cli(["service-account", "delete", "cli-billing", "--json"], env);
		expect(deleted).toMatchObject({ code: 0, json: { serviceId: "cli-billing", deleted: true } });
		const gone = await cli(["service-account", "delete", "cli-billing"], env);
		expect(gone.code).toBe(1);
		expect(gone.stderr).toContain("404 NOT_FOUND");
	});

	it("should send a test notification, wait for it, and show it in the outbox", async () => {
		const sent = await cli(["send", "--to", "cli-recipient@example.test", "--subject", "CLI check", "--wait", "--json"], env);
		expect(sent.code).toBe(0);
		expect(sent.json).toMatchObject({ notificationId: expect.any(String), status: "SENT", channel: "EMAIL", to: "cli-recipient@example.test" });
		expect(sent.json.events.map((e: { event: string }) => e.event)).toContain("SENT");

		const queued = await cli(["send", "--json"], env);
		expect(queued.code).toBe(0);
		// Without --to, to the administrator it signs in as.
		expect(queued.json).toEqual({ notificationId: expect.any(String), status: "QUEUED", channel: "EMAIL", to: ADMIN.email });

		const outbox = await cli(["outbox", "--json", "--limit", "50"], env);
		expect(outbox.code).toBe(0);
		expect(outbox.json.items).toContainEqual(
			expect.objectContaining({ id: expect.stringMatching(/^email\./), channel: "EMAIL", notificationId: sent.json.notificationId, to: "cli-recipient@example.test", subject: "CLI check", createdAt: expect.any(String) })
		);
		const text = await cli(["outbox"], env);
		expect(text.stdout).toMatch(/WRITTEN +CHANNEL +TO/);
		expect(text.stdout).toContain("CLI check");

		const refused = await cli(["send", "--to", "not-an-address", "--json"], env);
		expect(refused.code).toBe(1);
		expect(refused.json.error).toMatchObject({ status: 400 });
	});

	it("should rotate the signing key on the platform and the unsubscribe key in the store", async () => {
		const rotated = await cli(["keys", "rotate", "--json"], env);
		expect(rotated.code).toBe(0);
		expect(rotated.json).toEqual({ key: "signing", kid: expect.any(String) });
		const jwks = await http(p.baseUrl, "GET", "/.well-known/jwks.json");
		expect(jwks.body.keys.map((k: { kid: string }) => k.kid)).toContain(rotated.json.kid);

		const unsubscribe = await cli(["keys", "rotate", "--unsubscribe", "--json"], env);
		expect(unsubscribe.code).toBe(0);
		expect(unsubscribe.json).toEqual({ key: "unsubscribe", kid: expect.any(String) });
		const stored = await runtime(p).store().collection<{ id: string }>("unsubscribe_keys").get(unsubscribe.json.kid);
		expect(stored).not.toBeNull();
	});

	it("should list, show, lock and unlock users; a locked account signs in as with a wrong password", async () => {
		const user = newUser({ email: `cli-user-${Date.now()}@example.test` });
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: user });
		expect(reg.status).toBe(201);
		const actorId = reg.body.actorId as string;

		const listed = await cli(["users", "list", "--query", "CLI-USER-", "--json"], env);
		expect(listed.code).toBe(0);
		expect(listed.json.items).toContainEqual({ actorId, email: user.email, firstName: "Ada", lastName: "Lovelace", createdAt: expect.any(String), locked: false });

		const shown = await cli(["users", "show", user.email, "--json"], env);
		expect(shown.code).toBe(0);
		expect(shown.json).toEqual({
			actorId,
			email: user.email,
			firstName: "Ada",
			lastName: "Lovelace",
			createdAt: expect.any(String),
			emailVerified: false,
			emailDeliverable: true,
			phoneVerified: false,
			locked: false,
			factors: [],
			recoveryCodesLeft: 0,
			sessions: [expect.objectContaining({ sessionId: expect.any(String), amr: ["pwd"], current: false })]
		});

		const locked = await cli(["users", "lock", actorId, "--json"], env);
		expect(locked).toMatchObject({ code: 0, json: { actorId, email: user.email, locked: true } });
		const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } });
		const wrong = await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: "Wrong-Passw0rd" } });
		expect(login.status).toBe(401);
		expect({ code: login.body.code, detail: login.body.detail }).toEqual({ code: wrong.body.code, detail: wrong.body.detail });
		// The session the registration opened ended with the lock.
		const refresh = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: reg.body.refreshToken } });
		expect(refresh.status).toBe(401);
		expect(refresh.body.code).toBe("INVALID_REFRESH_TOKEN");
		const lockedView = await cli(["users", "show", actorId, "--json"], env);
		expect(lockedView.json).toMatchObject({ locked: true, lockedAt: expect.any(String) });

		const unlocked = await cli(["users", "unlock", user.email, "--json"], env);
		expect(unlocked).toMatchObject({ code: 0, json: { actorId, locked: false } });
		const again = await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } });
		expect(again.status).toBe(200);

		const missing = await cli(["users", "show", "nobody@example.test", "--json"], env);
		expect(missing.code).toBe(1);
		expect(missing.json.error.code).toBe("ACTOR_NOT_FOUND");
		const text = await cli(["users", "list", "--query", user.email], env);
		expect(text.stdout).toMatch(/ACTOR +EMAIL +NAME +STATE +CREATED/);
		expect(text.stdout).toContain(user.email);
	});

	it("should exit 1 with the platform's code for a wrong password and for a user who is not an administrator", async () => {
		const wrong = await cli(["service-account", "list", "--json", "--password", "Wrong-Passw0rd"], env);
		expect(wrong.code).toBe(1);
		expect(wrong.json.error).toMatchObject({ code: "INVALID_CREDENTIALS", status: 401 });

		const user = newUser({ email: `cli-plain-${Date.now()}@example.test` });
		expect((await http(p.baseUrl, "POST", "/auth/register", { json: user })).status).toBe(201);
		const plain = await cli(["users", "list", "--json", "--email", user.email, "--password", user.password], env);
		expect(plain.code).toBe(1);
		expect(plain.json.error).toMatchObject({ status: 403, fix: expect.stringContaining("admin create") });
	});

	it("should find the keys sealed, and name IDP_KEY_ENCRYPTION_KEY when it does not open them", async () => {
		const good = await cli(["doctor", "--json"], env);
		expect(good.code).toBe(0);
		expect(good.json.findings).toContainEqual({ check: "platform", status: "ok", message: `The platform at ${p.baseUrl} is ready` });
		expect(good.json.findings).toContainEqual(expect.objectContaining({ check: "keys", status: "ok", message: expect.stringMatching(/signing keys open and are sealed/) }));

		const bad = await cli(["doctor"], { ...env, IDP_KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64") });
		expect(bad.code).toBe(1);
		expect(bad.stdout).toMatch(/PROBLEM +keys: .*signing keys do not open/);
		expect(bad.stdout).toContain("fix: Set IDP_KEY_ENCRYPTION_KEY to the key-encryption key they were sealed under");
	});
});

describe("auth-notify admin create", () => {
	it("should make an administrator in a fresh store, who then signs in to a platform started on it", async () => {
		const dir = tempDir();
		const admin = { email: "first-admin@example.test", password: "First-Passw0rd" };
		const weak = await cli(["admin", "create", "--email", admin.email, "--password", "short", "--json"], { DATA_DIR: dir });
		expect(weak.code).toBe(1);
		expect(weak.json.error.code).toBe("INVALID_PASSWORD");

		const created = await cli(["admin", "create", "--email", admin.email, "--password", admin.password, "--json"], { DATA_DIR: dir });
		expect(created.code).toBe(0);
		expect(created.json).toEqual({ email: admin.email, created: true });
		const again = await cli(["admin", "create", "--email", admin.email, "--password", admin.password, "--json"], { DATA_DIR: dir });
		expect(again.json).toEqual({ email: admin.email, created: false });

		const p = await startPlatform({ DATA_DIR: dir });
		try {
			const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: admin.email, password: admin.password } });
			expect(login.status).toBe(200);
			const list = await http(p.baseUrl, "GET", "/admin/service-accounts", { token: login.body.accessToken });
			expect(list.status).toBe(200);

			// Someone else's account is not made an administrator without its password.
			const user = newUser();
			expect((await http(p.baseUrl, "POST", "/auth/register", { json: user })).status).toBe(201);
			const refused = await cli(["admin", "create", "--email", user.email, "--password", "Other-Passw0rd", "--json"], { DATA_DIR: dir });
			expect(refused.code).toBe(1);
			expect(refused.json.error.code).toBe("ADMIN_REFUSED");
		} finally {
			await p.stop();
		}
	}, 30000);
});
