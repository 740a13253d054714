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
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ServiceBroker } from "moleculer";
import { createChannels, type ChannelSender } from "../../lib/channels";
import { probeDirectory } from "../../lib/files/disk";
import { createKeyValue } from "../../lib/kv";
import { newNotification } from "../../lib/notifications/accept";
import type { EventDoc, NotificationDoc } from "../../lib/notifications/model";
import { SETTLE_BATCHING } from "../../lib/notifications/queue";
import { isStorageFault } from "../../lib/errors/storage-faults";
import { StorageHealth, type WriteProbe } from "../../lib/process/storage-health";
import { createStore, type Store } from "../../lib/store";
import { testDispatcher } from "../helpers/dispatcher";
import { http, newUser, tempDir, testConfig } from "../helpers/platform";
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

/**
 * The platform as its own process with DATA_DIR on a tmpfs of its own, mounted for one
 * describe block and removed after it; start() resolves once the node is ready.
 */
function platformOnTmpfs(prefix: string) {
	const ctx = {
		mountDir: "",
		node: undefined as NodeProcess | undefined,
		async start(env: Record<string, string> = {}) {
			const dataDir = path.join(ctx.mountDir, "data");
			const port = await freePort();
			const baseUrl = `http://127.0.0.1:${port}`;
			const node = startNode({ ...ADMIN_ENV, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "info", ...env });
			ctx.node = node;
			await waitFor("the platform to be ready", async () => (await http(baseUrl, "GET", "/health/ready")).status === 200, 30000);
			return { dataDir, baseUrl, node };
		}
	};
	beforeAll(() => {
		ctx.mountDir = tempDir(prefix);
		mount(ctx.mountDir, "size=8m,mode=0700");
	});
	afterAll(async () => {
		await ctx.node?.stop("SIGKILL");
		unmount(ctx.mountDir);
		fs.rmSync(ctx.mountDir, { recursive: true, force: true });
	});
	return ctx;
}

maybe("a full disk", () => {
	const platform = platformOnTmpfs("an-full-");

	test("answers 503 STORAGE_UNAVAILABLE, turns readiness 503, and recovers without a restart with nothing lost", async () => {
		const { mountDir } = platform;
		const { dataDir, baseUrl, node } = await platform.start();
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
		await waitFor("the recovery to be logged", async () => /Storage takes writes again/.test(node.output()), 5000);

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
			throw new Error(`${(err as Error).message}: ${JSON.stringify(unsent).slice(0, 3000)}\n${node.output().slice(-3000)}`);
		});
		const outbox = fs.readdirSync(path.join(dataDir, "outbox")).filter(f => f.endsWith(".eml"));
		for (const id of accepted) expect(outbox.some(f => f.startsWith(`${id}.`))).toBe(true);
		// Still the same process: recovered without a restart.
		expect(node.child.exitCode).toBeNull();
	}, 120000);
});

maybe("a disk that fills while notifications are accepted and sent", () => {
	const platform = platformOnTmpfs("an-filling-");

	test("sends every notification it accepted exactly once, within seconds of the space returning", async () => {
		const { dataDir, baseUrl, node } = await platform.start({
			// Leases and retries as deployed (60 s, 30 s): neither an expiring lease nor a due retry may be what ends the wait below.
			NOTIFICATION_LEASE_MS: "60000",
			NOTIFICATION_RETRY_BASE_MS: "30000",
			DISPATCHER_POLL_MS: "200",
			// Two sends at a time: the four clients below accept faster than that, so there is always a send in flight
			// (claimed, not yet recorded) when the disk fills, however fast the machine is.
			DISPATCHER_CONCURRENCY: "2"
		});
		const { mountDir } = platform;
		const admin = await adminToken(baseUrl);
		const filler = path.join(mountDir, "filler");
		const accepted: string[] = [];
		let requests = 0;
		// The dispatcher met the full disk once a batch of outcomes failed every try, or the outbox refused a message
		// (SQLite may still have room in pages it holds when the outbox has none).
		const dispatcherMetFullDisk = () =>
			(node.output().match(/Recording outcomes failed; trying again/g) ?? []).length >= SETTLE_BATCHING.attempts! || /Could not write to the outbox/.test(node.output());
		const deadline = Date.now() + 60000;
		// The disk fills after 30 accepted requests. If the dispatcher had still sent all of them by then, nothing of
		// its meets the full disk: after 3 s (longer than a batch's tries take) the space returns, 30 more are accepted,
		// and the disk fills again.
		let fullSince = 0;
		let acceptedSinceFree = 0;
		const accept = async () => {
			while (!dispatcherMetFullDisk()) {
				if (Date.now() > deadline) throw new Error(`The dispatcher never met the full disk:\n${node.output().slice(-3000)}`);
				if (!fullSince && acceptedSinceFree >= 30) {
					fullSince = Date.now();
					fill(filler);
				} else if (fullSince && Date.now() - fullSince > 3000) {
					fs.rmSync(filler, { force: true });
					fullSince = 0;
					acceptedSinceFree = 0;
				}
				const i = requests++;
				const r = await http(baseUrl, "POST", "/notifications", { token: admin, json: { to: `filling-${i}@example.com`, template: { subject: `s${i}`, text: `t${i}` } } });
				expect([201, 503]).toContain(r.status);
				if (r.status === 201) {
					accepted.push(r.body.notificationId);
					acceptedSinceFree++;
				} else await new Promise(resolve => setTimeout(resolve, 20));
			}
		};
		await Promise.all(Array.from({ length: 4 }, accept));
		fs.rmSync(filler, { force: true });

		let unsent: unknown[] = [];
		await waitFor(
			"every accepted notification to be sent",
			async () => {
				const states = await Promise.all(accepted.map(id => http(baseUrl, "GET", `/notifications/${id}`, { token: admin })));
				unsent = states.filter(s => s.body.status !== "SENT").map(s => ({ id: s.body.notificationId, status: s.body.status }));
				return unsent.length === 0;
			},
			20000,
			250
		).catch(err => {
			throw new Error(`${(err as Error).message}: ${unsent.length} of ${accepted.length} are not: ${JSON.stringify(unsent).slice(0, 2000)}\n${node.output().slice(-3000)}`);
		});
		const files = new Map<string, number>();
		for (const f of fs.readdirSync(path.join(dataDir, "outbox")).filter(name => name.endsWith(".eml"))) {
			const id = f.slice(0, f.indexOf("."));
			files.set(id, (files.get(id) ?? 0) + 1);
		}
		expect(accepted.filter(id => files.get(id) !== 1).map(id => ({ id, files: files.get(id) ?? 0 }))).toEqual([]);
	}, 120000);
});

maybe("a dispatcher whose disk fills under a send", () => {
	const dirs: string[] = [];
	const mounted = (options: string, dir = tempDir("an-dispatch-full-")) => {
		fs.mkdirSync(dir, { recursive: true });
		mount(dir, options);
		dirs.push(dir);
		return dir;
	};
	let stop: () => Promise<void> = async () => undefined;

	afterEach(async () => {
		await stop();
		for (const dir of dirs.splice(0).reverse()) {
			unmount(dir);
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});

	/** Fills the disk, then the room SQLite keeps in its own files, until not even a small write fits. */
	async function fillStore(store: Store, filler: string): Promise<void> {
		fill(filler);
		const junk = store.collection<{ id: string; junk: string }>("suppressions");
		for (let size = 64 * 1024; size >= 16; ) await junk.insert({ id: randomUUID(), junk: "x".repeat(size) }).catch(() => (size /= 2));
	}

	/** A dispatcher as a node runs it, on a store whose storage faults reach its health, with one queued notification. */
	async function scene(dataDir: string, sender: (store: Store) => ChannelSender, probes: (store: Store) => WriteProbe[]) {
		// Leases and retries as deployed: neither an expiring lease nor a due retry may be what sends the notification.
		const config = testConfig({ DATA_DIR: dataDir, NOTIFICATION_LEASE_MS: "60000", NOTIFICATION_RETRY_BASE_MS: "30000", DISPATCHER_POLL_MS: "100" });
		const health = new StorageHealth();
		const store = createStore(config, err => health.failed(err, "store"));
		const kv = createKeyValue(config);
		const warnings: string[] = [];
		const logger = { ...new ServiceBroker({ logger: false }).getLogger("dispatcher"), warn: (msg: string) => void warnings.push(msg) };
		const notification = newNotification({ to: "full@example.com", template: { subject: "s", text: "t" } }, { kind: "service", id: "test" });
		await store.collection<NotificationDoc>("notifications").insert(notification);
		// Every table the dispatcher and the filler write to exists before the disk fills.
		await store.collection("notification_events").count({});
		await store.collection("suppressions").count({});
		const dispatcher = testDispatcher(config, store, kv, sender(store), { health, logger, probeStorage: () => health.check(probes(store)) });
		stop = async () => {
			stop = async () => undefined;
			await dispatcher.stop();
			await store.close();
			await kv.close();
		};
		const stored = async () => (await store.collection<NotificationDoc>("notifications").get(notification.id))!;
		const events = async () => (await store.collection<EventDoc>("notification_events").find({ notificationId: notification.id })).map(e => e.event);
		return { dispatcher, health, warnings, stored, events, store };
	}

	test("records the outcome the full disk refused once it has room, within seconds and without sending again", async () => {
		const dataDir = mounted("size=4m,mode=0700");
		const filler = path.join(dataDir, "filler");
		const sends: string[] = [];
		// The provider takes the message; meanwhile the disk fills, to the last page SQLite keeps for itself.
		const provider = (store: Store): ChannelSender => ({
			channel: "EMAIL",
			async send(id) {
				sends.push(id);
				await fillStore(store, filler);
				return { messageId: `m-${id}` };
			},
			close: async () => undefined
		});
		const s = await scene(path.join(dataDir, "data"), provider, store => [store]);
		s.dispatcher.start();
		await waitFor("the dispatcher to hold the outcome the disk refused", async () => s.warnings.some(w => /The storage refused a notification's outcome/.test(w)), 20000);
		expect(s.health.failing).toBe(true);

		fs.rmSync(filler);
		await waitFor("the notification to be SENT", async () => (await s.stored()).status === "SENT", 10000);

		expect(sends).toHaveLength(1);
		expect(await s.stored()).toMatchObject({ status: "SENT", attempts: 1, providerMessageId: `m-${sends[0]}` });
		expect(s.health.failing).toBe(false);
	}, 60000);

	test("gives a notification whose outbox file the full disk refused back to the queue without an attempt, and sends it once there is room", async () => {
		const dataDir = tempDir("an-outbox-full-");
		dirs.push(dataDir);
		const outbox = mounted("size=1m,mode=0700", path.join(dataDir, "outbox"));
		const filler = path.join(outbox, ".filler");
		fill(filler);
		const config = testConfig({ DATA_DIR: dataDir });
		const s = await scene(dataDir, () => createChannels(config).get("EMAIL")!, store => [store, { probeWrite: () => probeDirectory(outbox) }]);
		s.dispatcher.start();
		await waitFor("the outbox to refuse the message", async () => s.health.failing, 10000);
		await waitFor("the notification to be queued again", async () => (await s.stored()).status === "QUEUED", 10000);
		expect(await s.stored()).toMatchObject({ status: "QUEUED", attempts: 0 });
		expect(await s.events()).toEqual([]);

		fs.rmSync(filler);
		await waitFor("the notification to be SENT", async () => (await s.stored()).status === "SENT", 10000);

		expect(fs.readdirSync(outbox).filter(f => f.endsWith(".eml"))).toHaveLength(1);
		expect(await s.stored()).toMatchObject({ status: "SENT", attempts: 1 });
		expect(s.health.failing).toBe(false);
	}, 60000);

	test("makes a collection first used while the disk was full once it has room", async () => {
		const dataDir = mounted("size=4m,mode=0700");
		const filler = path.join(dataDir, "filler");
		const store = createStore(testConfig({ DATA_DIR: path.join(dataDir, "data") }));
		stop = () => store.close();
		await store.collection("suppressions").count({});
		await fillStore(store, filler);
		const templates = store.collection<{ id: string; name: string }>("templates");
		const refused: unknown = await templates.insert({ id: "t1", name: "first" }).then(() => "stored", err => err);
		expect(isStorageFault(refused)).toBe(true);

		fs.rmSync(filler);

		await expect(templates.insert({ id: "t1", name: "first" })).resolves.toMatchObject({ id: "t1" });
		await expect(templates.get("t1")).resolves.toMatchObject({ name: "first" });
	}, 60000);
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
