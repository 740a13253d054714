/**
 * Files only the platform can read: DATA_DIR created beforehand with mode 0755 (as a
 * Dockerfile's mkdir or a volume mount makes it), the platform started under umask
 * 022 as its own process, then a full run (a user, a sent mail, an uploaded resume, a
 * stop). Nothing under DATA_DIR may be readable, writable or searchable by others; a
 * store file others could read is made owner-only at start, and the log says so.
 */
import fs from "node:fs";
import path from "node:path";
import { PLATFORM_ENTRY, spawnProcess } from "../../harness/processes";
import { http, newUser, tempDir } from "../helpers/platform";
import { freePort, waitFor } from "../helpers/processes";
import { PDF } from "../helpers/resumes";
import { ADMIN_ENV, adminToken } from "../helpers/senders";

/** Every path under dir (dir included) with its permission bits. */
function modes(dir: string): Map<string, number> {
	const out = new Map<string, number>([[dir, fs.statSync(dir).mode & 0o777]]);
	for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
		const p = path.join(entry.parentPath, entry.name);
		out.set(p, fs.lstatSync(p).mode & 0o777);
	}
	return out;
}

test("with a 0755 DATA_DIR and umask 022, nothing under it is open to others after a full run", async () => {
	const dataDir = path.join(tempDir("an-modes-"), "data");
	fs.mkdirSync(dataDir, { mode: 0o755 });
	fs.chmodSync(dataDir, 0o755);
	// A store file left readable (by an earlier version, a restore, a copy): an empty file is an empty SQLite database.
	fs.writeFileSync(path.join(dataDir, "store.sqlite"), "");
	fs.chmodSync(path.join(dataDir, "store.sqlite"), 0o644);

	const port = await freePort();
	const baseUrl = `http://127.0.0.1:${port}`;
	const node = spawnProcess({
		name: "modes",
		command: "/bin/sh",
		args: ["-c", `umask 022 && exec "${process.execPath}" "${PLATFORM_ENTRY}"`],
		env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "warn", DATA_DIR: dataDir, PORT: String(port), ...ADMIN_ENV }
	});
	try {
		await waitFor("the platform to be ready", async () => (await http(baseUrl, "GET", "/health/ready")).status === 200, 30000);
		expect(node.output()).toMatch(/store\.sqlite could be read by others \(mode 644\): made it 600/);
		expect(node.output()).toMatch(/data could be read by others \(mode 755\): made it 700/);

		const reg = await http(baseUrl, "POST", "/auth/register", { json: newUser() });
		expect(reg.status).toBe(201);
		const token = reg.body.accessToken as string;
		const admin = await adminToken(baseUrl);
		const sent = await http(baseUrl, "POST", "/notifications", { token: admin, json: { to: "modes@example.com", template: { subject: "s", text: "t" } } });
		expect(sent.status).toBe(201);
		const form = new FormData();
		form.append("candidateId", reg.body.actorId);
		form.append("resume", new Blob([PDF], { type: "application/pdf" }), "cv.pdf");
		expect((await http(baseUrl, "POST", "/resumes", { token, body: form })).status).toBe(201);
		await waitFor("the mail to be sent", async () => (await http(baseUrl, "GET", `/notifications/${sent.body.notificationId}`, { token: admin })).body.status === "SENT");
	} finally {
		await node.stop("SIGTERM");
	}

	const seen = modes(dataDir);
	// The run made the store, the outbox and the uploaded file: the check covers real files.
	const names = [...seen.keys()].map(p => path.relative(dataDir, p));
	expect(names).toEqual(expect.arrayContaining(["store.sqlite", "outbox", "files"]));
	expect(names.some(n => n.startsWith("outbox/") && n.endsWith(".eml"))).toBe(true);
	expect(names.some(n => n.startsWith("files/"))).toBe(true);
	const open = [...seen].filter(([, mode]) => (mode & 0o077) !== 0).map(([p, mode]) => `${path.relative(dataDir, p) || "."} ${mode.toString(8)}`);
	expect(open).toEqual([]);
}, 60000);
