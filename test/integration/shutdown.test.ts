/**
 * The orderly stop (lib/process/shutdown.ts) with real processes: SIGTERM during uploads
 * streamed slowly by the test, requests arriving during the stop, a second signal, the
 * partial files a crash leaves, `npm start` under a supervisor that signals npm, and a
 * dispatcher stopped while it holds claimed notifications it has not sent yet.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { request, type IncomingMessage } from "node:http";
import path from "node:path";
import type { ChannelSender } from "../../lib/channels";
import { createKeyValue } from "../../lib/kv";
import { newNotification } from "../../lib/notifications/accept";
import type { Dispatcher } from "../../lib/notifications/dispatcher";
import type { NotificationDoc } from "../../lib/notifications/model";
import { createStore } from "../../lib/store";
import { SqliteStore } from "../../lib/store/sqlite";
import { testDispatcher } from "../helpers/dispatcher";
import { http, newUser, startPlatform, tempDir, testConfig } from "../helpers/platform";
import { freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { portOpen } from "../helpers/servers";

const ROOT = path.join(__dirname, "../..");
const BOUNDARY = "shutdown-test-boundary";
const PART = /^[0-9a-f-]{36}\.part$/;

interface Answer {
	status: number;
	body: any;
	headers: IncomingMessage["headers"];
}

/** Waits for the process to exit and tells how. */
function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
	return new Promise(resolve => child.once("exit", (code, signal) => resolve({ code, signal })));
}

/** Settles with the exit, or fails the test when the process is still running after `ms`. */
function exitWithin(child: ChildProcess, ms: number) {
	let timer: NodeJS.Timeout;
	const late = new Promise<never>((_r, reject) => (timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms)));
	return Promise.race([exitOf(child), late]).finally(() => clearTimeout(timer));
}

function partialFiles(dataDir: string): string[] {
	const dir = path.join(dataDir, "files");
	return fs.existsSync(dir) ? fs.readdirSync(dir).filter(f => PART.test(f)) : [];
}

/**
 * A multipart upload whose file part streams as slowly as the test wants: the
 * candidate field and the start of a PDF go out at once, the rest on finish().
 */
function slowUpload(baseUrl: string, token: string, candidateId: string) {
	const req = request(`${baseUrl}/resumes`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "transfer-encoding": "chunked" }
	});
	const answer = new Promise<Answer>((resolve, reject) => {
		req.on("response", res => {
			let text = "";
			res.setEncoding("utf8");
			res.on("data", d => (text += d));
			res.on("end", () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null, headers: res.headers }));
		});
		// After an answer the server may cut the rest of the body off; only an error without one counts.
		req.on("error", reject);
	});
	req.write(
		`--${BOUNDARY}\r\nContent-Disposition: form-data; name="candidateId"\r\n\r\n${candidateId}\r\n` +
			`--${BOUNDARY}\r\nContent-Disposition: form-data; name="resume"; filename="cv.pdf"\r\nContent-Type: application/pdf\r\n\r\n` +
			`%PDF-1.7\n${"% padding\n".repeat(2000)}`
	);
	return {
		answer,
		finish: () => req.end(`1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n\r\n--${BOUNDARY}--\r\n`)
	};
}

/** A GET on a connection of its own: during a stop the server closes idle ones, which a pool could reuse as it happens. */
function get(baseUrl: string, url: string, token?: string): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const req = request(baseUrl + url, { agent: false, timeout: 5000, headers: token ? { authorization: `Bearer ${token}` } : {} }, res => {
			let text = "";
			res.setEncoding("utf8");
			res.on("data", d => (text += d));
			res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text), headers: res.headers }));
		});
		req.on("timeout", () => req.destroy(new Error("no answer in time")));
		req.on("error", reject);
		req.end();
	});
}

async function platformProcess(env: Record<string, string>) {
	const dataDir = tempDir();
	const port = await freePort();
	const baseUrl = `http://127.0.0.1:${port}`;
	const node = startNode({ DATA_DIR: dataDir, PORT: String(port), ...env });
	await waitFor("the platform to be ready", async () => (await get(baseUrl, "/health/ready")).status === 200, 30000);
	const reg = await http(baseUrl, "POST", "/auth/register", { json: newUser() });
	expect(reg.status).toBe(201);
	return { node, dataDir, baseUrl, token: reg.body.accessToken as string, actorId: reg.body.actorId as string };
}

describe("orderly stop on SIGTERM", () => {
	let node: NodeProcess | undefined;
	let dataDir: string | undefined;
	afterEach(async () => {
		await node?.stop("SIGKILL");
		if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
		node = dataDir = undefined;
	});

	it("should finish or refuse with 503 every upload under way, refuse new requests, leave no partial file and exit 0", async () => {
		const p = await platformProcess({ SHUTDOWN_GRACE_MS: "8000" });
		({ node, dataDir } = p);
		const uploads = Array.from({ length: 4 }, () => slowUpload(p.baseUrl, p.token, p.actorId));
		await waitFor("all 4 uploads to be writing their files", async () => partialFiles(p.dataDir).length === 4);

		const exited = exitOf(p.node.child);
		p.node.child.kill("SIGTERM");
		let ready!: Answer;
		await waitFor("readiness to report the stop", async () => (ready = await get(p.baseUrl, "/health/ready")).status === 503);
		expect(ready.body).toEqual({ status: "unavailable", checks: { node: "stopping" } });
		expect((await get(p.baseUrl, "/health/live")).status).toBe(200);
		const late = await get(p.baseUrl, `/actors/${p.actorId}`, p.token);
		expect({ status: late.status, code: late.body.code }).toEqual({ status: 503, code: "SHUTTING_DOWN" });
		expect(late.headers["retry-after"]).toBe("5");
		expect(late.headers["content-type"]).toBe("application/problem+json; charset=utf-8");

		// Two clients finish within the grace; the other two stall past it.
		uploads[0].finish();
		uploads[1].finish();
		const answers = await Promise.all(uploads.map(u => u.answer));
		expect(answers.map(a => a.status)).toEqual([201, 201, 503, 503]);
		expect(answers.slice(0, 2).map(a => a.body.contentType)).toEqual(["application/pdf", "application/pdf"]);
		expect(answers.slice(2).map(a => a.body.code)).toEqual(["SHUTTING_DOWN", "SHUTTING_DOWN"]);

		await expect(exited).resolves.toEqual({ code: 0, signal: null });
		expect(partialFiles(p.dataDir)).toEqual([]);
		const stored = answers.slice(0, 2).map(a => a.body.documentId as string);
		const store = new SqliteStore(path.join(p.dataDir, "store.sqlite"));
		try {
			await expect(store.collection("documents").count({})).resolves.toBe(2);
			for (const id of stored) await expect(store.collection("documents").get(id)).resolves.toMatchObject({ candidateId: p.actorId });
		} finally {
			await store.close();
		}
		expect(fs.readdirSync(path.join(p.dataDir, "files"))).toHaveLength(2);
	}, 60000);

	it("should exit at once on a second SIGTERM during the stop", async () => {
		const p = await platformProcess({ SHUTDOWN_GRACE_MS: "600000" });
		({ node, dataDir } = p);
		const upload = slowUpload(p.baseUrl, p.token, p.actorId);
		upload.answer.catch(() => undefined);
		await waitFor("the upload to be writing its file", async () => partialFiles(p.dataDir).length === 1);
		p.node.child.kill("SIGTERM");
		await waitFor("readiness to report the stop", async () => (await get(p.baseUrl, "/health/ready")).status === 503);
		p.node.child.kill("SIGTERM");
		// The grace (ten minutes) is still running: only the second signal can end the process here.
		await expect(exitWithin(p.node.child, 10000)).resolves.toEqual({ code: 1, signal: null });
	}, 60000);
});

describe("partial files at start", () => {
	it("should remove partial files a crash left, and keep finished files and partial files still being written", async () => {
		const dataDir = tempDir();
		const files = path.join(dataDir, "files");
		fs.mkdirSync(files, { recursive: true, mode: 0o700 });
		const crashed = [`${randomUUID()}.part`, `${randomUUID()}.part`];
		const finished = randomUUID();
		const writing = `${randomUUID()}.part`;
		const anHourAgo = new Date(Date.now() - 3600_000);
		for (const name of [...crashed, finished]) {
			fs.writeFileSync(path.join(files, name), "%PDF-1.7\n", { mode: 0o600 });
			fs.utimesSync(path.join(files, name), anHourAgo, anHourAgo);
		}
		// Another node sharing DATA_DIR may be writing this one right now.
		fs.writeFileSync(path.join(files, writing), "%PDF-1.7\n", { mode: 0o600 });

		const p = await startPlatform({ DATA_DIR: dataDir });
		try {
			expect(fs.readdirSync(files).sort()).toEqual([finished, writing].sort());
		} finally {
			await p.stop();
		}
	});
});

/** `npm start` under a supervisor: the supervisor signals npm's pid and waits for it. */
describe("npm start", () => {
	/** Pids of processes whose environment names this DATA_DIR (readable for processes of this user). */
	function processesWith(dataDir: string): number[] {
		const needle = Buffer.from(`\0DATA_DIR=${dataDir}\0`);
		const pids: number[] = [];
		for (const entry of fs.readdirSync("/proc")) {
			if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
			try {
				const env = Buffer.concat([Buffer.from([0]), fs.readFileSync(`/proc/${entry}/environ`)]);
				if (env.includes(needle)) pids.push(Number(entry));
			} catch {
				/* gone, or not ours to read */
			}
		}
		return pids;
	}

	it("should leave no platform process behind when npm's own pid gets SIGTERM", async () => {
		const dataDir = tempDir();
		const port = await freePort();
		// The compiled code is already there (npm test builds it): prestart's compile is skipped, start itself runs as a supervisor would run it.
		const npm = spawn("npm", ["start", "--ignore-scripts", "--silent"], {
			cwd: ROOT,
			env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "warn", DATA_DIR: dataDir, PORT: String(port) },
			stdio: ["ignore", "pipe", "pipe"]
		});
		let output = "";
		npm.stdout!.on("data", d => (output += d));
		npm.stderr!.on("data", d => (output += d));
		try {
			await waitFor("the platform to be live", async () => (await get(`http://127.0.0.1:${port}`, "/health/live")).status === 200, 60000);
			expect(processesWith(dataDir).length).toBeGreaterThan(0);
			npm.kill("SIGTERM");
			await exitWithin(npm, 30000);
			await expect(portOpen(port)).resolves.toBe(false);
			expect(processesWith(dataDir)).toEqual([]);
		} catch (err) {
			throw new Error(`${(err as Error).message}\nnpm start output:\n${output}`);
		} finally {
			npm.kill("SIGKILL");
			for (const pid of processesWith(dataDir)) process.kill(pid, "SIGKILL");
			fs.rmSync(dataDir, { recursive: true, force: true });
		}
	}, 90000);
});

describe("dispatcher stop", () => {
	it("should release the notifications it claimed but did not send, at once, and send none twice", async () => {
		const config = testConfig({ DISPATCHER_CONCURRENCY: "16", NOTIFICATION_LEASE_MS: "600000" });
		const store = createStore(config);
		const kv = createKeyValue(config);
		const notifications = store.collection<NotificationDoc>("notifications");
		const ids: string[] = [];
		for (let i = 0; i < 10; i++) {
			const doc = newNotification({ to: `stop${i}@example.com`, template: { subject: "s", text: "t" } }, { kind: "service", id: "test" });
			await notifications.insert(doc);
			ids.push(doc.id);
		}
		const sent: string[] = [];
		const dispatcherOf = (sender: ChannelSender) => testDispatcher(config, store, kv, sender);

		// A slow provider: the first message it is handed waits until the test lets it go, and
		// the node is told to stop the moment that message arrives.
		let letGo!: () => void;
		const held = new Promise<void>(resolve => (letGo = resolve));
		let stopped: Promise<void> | undefined;
		let firstArrived!: () => void;
		const arrived = new Promise<void>(resolve => (firstArrived = resolve));
		const first: Dispatcher = dispatcherOf({
			channel: "EMAIL",
			async send(id) {
				sent.push(id);
				stopped ??= first.stop();
				firstArrived();
				await held;
				return { messageId: `m-${id}` };
			},
			close: async () => undefined
		});
		first.start();
		try {
			await arrived;
			letGo();
			await stopped;
			// The one handed to the provider finished; the others are QUEUED again, long before their leases (10 minutes) run out.
			const after = await Promise.all(ids.map(id => notifications.get(id)));
			const done = after.filter(n => n!.status === "SENT");
			expect(done.map(n => n!.id)).toEqual(sent);
			expect(done).toEqual([expect.objectContaining({ attempts: 1, providerMessageId: `m-${sent[0]}` })]);
			const released = after.filter(n => n!.status !== "SENT");
			expect(released).toHaveLength(9);
			for (const n of released) {
				expect(n).toMatchObject({ status: "QUEUED", attempts: 0 });
				expect(n).not.toHaveProperty("leaseToken");
				expect(n).not.toHaveProperty("leaseUntil");
			}

			const second = dispatcherOf({
				channel: "EMAIL",
				send: async id => {
					sent.push(id);
					return { messageId: `m-${id}` };
				},
				close: async () => undefined
			});
			second.start();
			await waitFor("another node to send the released ones", async () => (await notifications.count({ status: "SENT" })) === 10);
			await second.stop();
			expect([...sent].sort()).toEqual([...ids].sort());
			await expect(notifications.count({ attempts: 1 })).resolves.toBe(10);
		} finally {
			letGo();
			await first.stop();
			await kv.close();
			await store.close();
			fs.rmSync(config.dataDir, { recursive: true, force: true });
		}
	});
});
