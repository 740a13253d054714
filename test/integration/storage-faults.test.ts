/**
 * Storage faults with a real full disk: the platform runs as its own process with
 * DATA_DIR on a small tmpfs, which the test fills to the last block. Accepts and
 * uploads must answer 503 STORAGE_UNAVAILABLE with Retry-After (never 500), readiness
 * must say 503 until a write succeeds, the first error is logged once, and once space
 * is freed the same process recovers with nothing it accepted lost. Also: a read-only
 * or non-directory DATA_DIR stops start-up with a message naming it and the cause.
 *
 * Mounting needs root (CI runs as root); without it the suite fails under
 * REQUIRE_SERVICES=1 and is skipped, with the reason, otherwise.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { http, newUser, tempDir } from "../helpers/platform";
import { freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { ADMIN_ENV, adminToken } from "../helpers/senders";
import { PDF } from "../helpers/resumes";

const isRoot = process.getuid?.() === 0;
const required = process.env.REQUIRE_SERVICES === "1";
if (!isRoot) {
	const reason = "storage-fault tests mount a tmpfs and need root";
	if (required) throw new Error(`${reason}; REQUIRE_SERVICES=1 forbids skipping them`);
	process.stdout.write(`Skipping: ${reason}\n`);
}
const maybe = isRoot ? describe : describe.skip;

function mount(dir: string, options: string): void {
	execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir]);
}

function unmount(dir: string): void {
	try {
		execFileSync("umount", ["-l", dir]);
	} catch {
		/* not mounted */
	}
}

/** Writes zeros into `file` until the file system has no block left. */
function fill(file: string): number {
	const fd = fs.openSync(file, "w", 0o600);
	const chunk = Buffer.alloc(64 * 1024);
	let written = 0;
	try {
		for (let size = chunk.length; size >= 512; ) {
			try {
				written += fs.writeSync(fd, chunk, 0, size);
			} catch (err) {
				if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
				size /= 2;
			}
		}
	} finally {
		fs.closeSync(fd);
	}
	return written;
}

function resumeForm(candidateId: string): FormData {
	const f = new FormData();
	f.append("candidateId", candidateId);
	f.append("resume", new Blob([Buffer.concat([PDF, Buffer.alloc(256 * 1024, 0x20)])], { type: "application/pdf" }), "cv.pdf");
	return f;
}

maybe("a full disk", () => {
	let mountDir: string;
	let node: NodeProcess | undefined;

	beforeAll(() => {
		mountDir = tempDir("an-full-");
		mount(mountDir, "size=8m,mode=0700");
	});

	afterAll(async () => {
		await node?.stop("SIGKILL");
		unmount(mountDir);
		fs.rmSync(mountDir, { recursive: true, force: true });
	});

	test("answers 503 STORAGE_UNAVAILABLE, turns readiness 503, and recovers without a restart with nothing lost", async () => {
		const dataDir = path.join(mountDir, "data");
		const port = await freePort();
		const baseUrl = `http://127.0.0.1:${port}`;
		node = startNode({
			...ADMIN_ENV,
			DATA_DIR: dataDir,
			PORT: String(port),
			LOG_LEVEL: "info",
			// Sends that fail on the full disk are retried soon after it has room again.
			NOTIFICATION_RETRY_BASE_MS: "200",
			NOTIFICATION_RETRY_MAX_MS: "1000"
		});
		await waitFor("the platform to be ready", async () => (await http(baseUrl, "GET", "/health/ready")).status === 200, 30000);
		const reg = await http(baseUrl, "POST", "/auth/register", { json: newUser() });
		expect(reg.status).toBe(201);
		const token = reg.body.accessToken as string;
		// The user uploads its own resume; the notifications, to any address, are the administrator's.
		const admin = await adminToken(baseUrl);
		const send = (i: number) => http(baseUrl, "POST", "/notifications", { token: admin, json: { to: `full-${i}@example.com`, template: { subject: `s${i}`, text: `t${i}` } } });

		const accepted: string[] = [];
		for (let i = 0; i < 5; i++) {
			const r = await send(i);
			expect(r.status).toBe(201);
			accepted.push(r.body.notificationId);
		}

		const filler = path.join(mountDir, "filler");
		expect(fill(filler)).toBeGreaterThan(0);

		// The store may still have room in pages it holds; keep sending until it has none.
		let refused: Awaited<ReturnType<typeof send>> | null = null;
		for (let i = 5; i < 400 && !refused; i++) {
			const r = await send(i);
			expect([201, 503]).toContain(r.status);
			if (r.status === 201) accepted.push(r.body.notificationId);
			else refused = r;
		}
		expect(refused).not.toBeNull();
		expect(refused!.body).toMatchObject({ status: 503, code: "STORAGE_UNAVAILABLE" });
		expect(refused!.headers.get("content-type")).toMatch(/^application\/problem\+json/);
		expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);

		const upload = await http(baseUrl, "POST", "/resumes", { token, body: resumeForm(reg.body.actorId) });
		expect({ status: upload.status, code: upload.body?.code }).toEqual({ status: 503, code: "STORAGE_UNAVAILABLE" });
		expect(fs.readdirSync(path.join(dataDir, "files")).filter(f => !f.startsWith("."))).toEqual([]);

		const ready = await http(baseUrl, "GET", "/health/ready");
		expect(ready.status).toBe(503);
		expect(ready.body.checks.storage).toBe("down");

		// The first error is logged in full, once, not once per refused request.
		const logged = node.output().match(/Storage cannot take writes/g) ?? [];
		expect(logged).toHaveLength(1);

		fs.rmSync(filler);
		await waitFor("readiness to recover", async () => (await http(baseUrl, "GET", "/health/ready")).status === 200, 20000);
		await waitFor("the recovery to be logged", async () => /Storage takes writes again/.test(node!.output()), 5000);

		const after = await send(1000);
		expect(after.status).toBe(201);
		accepted.push(after.body.notificationId);
		const uploaded = await http(baseUrl, "POST", "/resumes", { token, body: resumeForm(reg.body.actorId) });
		expect(uploaded.status).toBe(201);

		// Nothing that was answered 201 is lost: every one is sent, to the outbox on the same disk.
		let unsent: unknown[] = [];
		await waitFor(
			"every accepted notification to be sent",
			async () => {
				const states = await Promise.all(accepted.map(id => http(baseUrl, "GET", `/notifications/${id}`, { token: admin })));
				unsent = states.filter(s => s.body.status !== "SENT").map(s => s.body);
				return unsent.length === 0;
			},
			60000,
			500
		).catch(err => {
			throw new Error(`${(err as Error).message}: ${JSON.stringify(unsent).slice(0, 3000)}\n${node!.output().slice(-3000)}`);
		});
		const outbox = fs.readdirSync(path.join(dataDir, "outbox")).filter(f => f.endsWith(".eml"));
		for (const id of accepted) expect(outbox.some(f => f.startsWith(`${id}.`))).toBe(true);
		// Still the same process: recovered without a restart.
		expect(node.child.exitCode).toBeNull();
	}, 120000);
});

maybe("an unusable DATA_DIR", () => {
	let mountDir: string;

	beforeAll(() => {
		mountDir = tempDir("an-ro-");
		mount(mountDir, "size=1m,ro");
	});

	afterAll(() => {
		unmount(mountDir);
		fs.rmSync(mountDir, { recursive: true, force: true });
	});

	async function startFails(dataDir: string): Promise<{ code: number | null; output: string }> {
		const node = startNode({ DATA_DIR: dataDir, PORT: String(await freePort()) });
		const code = await new Promise<number | null>(resolve => node.child.once("exit", c => resolve(c)));
		return { code, output: node.output() };
	}

	test.each([
		["the read-only directory itself", ""],
		["a directory to be made on it", "data"]
	])("read-only (%s): start-up stops with a message naming the variable, the path and the cause", async (_what, sub) => {
		const dataDir = path.join(mountDir, sub);
		const { code, output } = await startFails(dataDir);
		expect(code).toBe(78);
		expect(output).toContain(`DATA_DIR (${dataDir})`);
		expect(output).toMatch(/EROFS, read-only file system/);
	});

	test("not a directory: the same, with that cause", async () => {
		const file = path.join(tempDir("an-notdir-"), "plain-file");
		fs.writeFileSync(file, "");
		const { code, output } = await startFails(path.join(file, "data"));
		expect(code).toBe(78);
		expect(output).toContain(`DATA_DIR (${path.join(file, "data")})`);
		expect(output).toMatch(/ENOTDIR/);
	});
});
