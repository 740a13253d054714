/**
 * The .eml outbox on its own thread: the same files as the synchronous provider, and
 * the most urgent message waiting is written next (the thread is the build's:
 * `npm test` builds first).
 */
import fs from "node:fs";
import path from "node:path";
import type { Worker } from "node:worker_threads";
import { OUTBOX_OLD_GENERATION_MB, OUTBOX_YOUNG_GENERATION_MB, ThreadedFileEmailProvider } from "../../lib/email/outbox-thread";
import { SqliteWorkerStore } from "../../lib/store/sqlite-thread";
import type { EmailMessage } from "../../lib/email";
import { tempDir } from "../helpers/platform";
import { threadNiceValues } from "../helpers/processes";

const message = (notificationId: string, priority?: EmailMessage["priority"]): EmailMessage => ({
	notificationId,
	priority,
	from: "platform@example.com",
	to: "ada@example.com",
	subject: "Hi",
	text: "Hello"
});

describe("threaded file email provider", () => {
	let root: string;
	let provider: ThreadedFileEmailProvider;

	beforeEach(() => {
		root = tempDir();
		provider = new ThreadedFileEmailProvider(path.join(root, "outbox"));
	});

	afterEach(async () => {
		await provider.close();
		fs.rmSync(root, { recursive: true, force: true });
	});

	it("should write each message as an owner-only .eml file named by the notification and the returned id", async () => {
		const sent = await Promise.all(["n1", "n2", "n3"].map(id => provider.send(message(id))));
		const dir = path.join(root, "outbox");
		expect(fs.readdirSync(dir).sort()).toEqual(["n1", "n2", "n3"].map((id, i) => `${id}.${sent[i]!.messageId}.eml`).sort());
		expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
		for (const f of fs.readdirSync(dir)) {
			expect(fs.statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
			const raw = fs.readFileSync(path.join(dir, f), "utf8");
			expect(raw).toMatch(/^Subject: Hi$/m);
			// The priority orders the writes; it is not part of the mail.
			expect(raw).not.toMatch(/priority/i);
		}
	});

	it("should run its thread with bounded young and old generations, not V8's defaults for a thread", async () => {
		await provider.send(message("n1"));
		const worker = (provider as unknown as { line: Worker | null }).line;
		expect(worker?.resourceLimits?.maxYoungGenerationSizeMb).toBe(OUTBOX_YOUNG_GENERATION_MB);
		// At 256 MB or less V8 grows the heap by 1.3 times what survived a full collection, not 4.
		expect(worker?.resourceLimits?.maxOldGenerationSizeMb).toBe(OUTBOX_OLD_GENERATION_MB);
		expect(OUTBOX_OLD_GENERATION_MB).toBeLessThanOrEqual(256);
	});

	it("should run its own thread at the nice value it was given and leave the others at theirs", async () => {
		const niceOf = () => [...threadNiceValues().values()];
		await provider.send(message("plain"));
		expect(niceOf().filter(n => n !== 0)).toEqual([]);
		const niced = new ThreadedFileEmailProvider(path.join(root, "outbox"), undefined, { nice: 10 });
		try {
			await niced.send(message("niced"));
			// One thread more, at 10; this one and every other still at 0.
			expect(niceOf().filter(n => n !== 0)).toEqual([10]);
		} finally {
			await niced.close();
		}
	});

	it("should hand the sends of one turn to the thread in one message", async () => {
		const first = ["b1", "b2", "b3", "b4", "b5"].map(id => provider.send(message(id)));
		const worker = (provider as unknown as { line: Worker | null }).line!;
		const posted = jest.spyOn(worker, "postMessage");
		const sent = await Promise.all(first);
		expect(posted).toHaveBeenCalledTimes(1);
		expect((posted.mock.calls[0]![0] as { message: EmailMessage }[]).map(r => r.message.notificationId)).toEqual(["b1", "b2", "b3", "b4", "b5"]);
		expect(fs.readdirSync(path.join(root, "outbox")).sort()).toEqual(["b1", "b2", "b3", "b4", "b5"].map((id, i) => `${id}.${sent[i]!.messageId}.eml`).sort());
		// A later turn is a message of its own.
		await provider.send(message("b6"));
		expect(posted).toHaveBeenCalledTimes(2);
	});

	it("should hand a new thread what was sent after the old one was lost in the same turn", async () => {
		await provider.send(message("warm"));
		const p = provider as unknown as { line: Worker; lost(line: Worker, why: string): void };
		const old = p.line;
		const a = provider.send(message("a")).then(
			() => "written",
			(err: unknown) => err
		);
		p.lost(old, "lost in a test");
		const b = provider.send(message("b"));
		await expect(a).resolves.toMatchObject({ code: "OUTBOX_WORKER_EXITED" });
		await expect(b).resolves.toMatchObject({ messageId: expect.any(String) });
		expect(p.line).not.toBe(old);
		await old.terminate();
	});

	it("should fail only the sends the lost thread held, not those of a thread started before its exit came", async () => {
		await provider.send(message("warm"));
		const p = provider as unknown as { line: Worker | null };
		const old = p.line!;
		// close() lets the line go at once; its thread's exit comes while "after" is on a new one.
		const closing = provider.close();
		const after = provider.send(message("after"));
		expect(p.line).not.toBe(old);
		await closing;
		await expect(after).resolves.toMatchObject({ messageId: expect.any(String) });
	});

	it("should write a CRITICAL message before the LOW ones handed over earlier and still waiting", async () => {
		const done: string[] = [];
		const track = (id: string, p: Promise<unknown>) => p.then(() => done.push(id));
		const lows = Array.from({ length: 20 }, (_, i) => track(`low${i}`, provider.send(message(`low${i}`, "LOW"))));
		const critical = track("critical", provider.send(message("critical", "CRITICAL")));
		await Promise.all([...lows, critical]);
		// At most the LOW write under way when the CRITICAL one arrived goes first.
		expect(done.indexOf("critical")).toBeLessThanOrEqual(1);
		expect(done.filter(id => id.startsWith("low"))).toEqual(Array.from({ length: 20 }, (_, i) => `low${i}`));
	});

	it("should fail a send with a retryable SendError when the outbox cannot be written", async () => {
		const file = path.join(root, "not-a-dir");
		fs.writeFileSync(file, "");
		const blocked = new ThreadedFileEmailProvider(path.join(file, "outbox"));
		try {
			await expect(blocked.send(message("n1"))).rejects.toMatchObject({ name: "SendError", permanent: false });
		} finally {
			await blocked.close();
		}
	});
});

describe("file email provider hosted on the store's thread", () => {
	let root: string;
	let store: SqliteWorkerStore;
	let provider: ThreadedFileEmailProvider;

	beforeEach(() => {
		root = tempDir();
		store = new SqliteWorkerStore(path.join(root, "store.sqlite"), { testHooks: true });
		provider = new ThreadedFileEmailProvider(path.join(root, "outbox"), store);
	});

	afterEach(async () => {
		await provider.close();
		await store.close();
		fs.rmSync(root, { recursive: true, force: true });
	});

	it("should write the messages from the store's thread while the store commits, the CRITICAL one first", async () => {
		const done: string[] = [];
		const track = (id: string, p: Promise<unknown>) => p.then(() => done.push(id));
		const writes = store.collection<{ id: string; email: string }>("actors");
		const lows = Array.from({ length: 20 }, (_, i) => track(`low${i}`, provider.send(message(`low${i}`, "LOW"))));
		const inserts = Array.from({ length: 20 }, (_, i) => writes.insert({ id: `doc${i}`, email: `doc${i}@example.com` }));
		const critical = track("critical", provider.send(message("critical", "CRITICAL")));
		await Promise.all([...lows, critical, ...inserts]);
		expect(done.indexOf("critical")).toBeLessThanOrEqual(1);
		expect(fs.readdirSync(path.join(root, "outbox")).filter(f => f.endsWith(".eml"))).toHaveLength(21);
		expect(await writes.count({})).toBe(20);
	});

	it("should fail the sends it held, retryably, when the store's thread dies, and write again on a new one", async () => {
		await provider.send(message("before"));
		const held = Array.from({ length: 50 }, (_, i) => provider.send(message(`held${i}`)).then(() => "written", (err: unknown) => err));
		store.crashWorker();
		const outcomes = await Promise.all(held);
		const failed = outcomes.filter(o => o !== "written");
		expect(failed.length).toBeGreaterThan(0);
		for (const err of failed) expect(err).toMatchObject({ name: "SendError", code: "OUTBOX_WORKER_EXITED", permanent: false });
		// As the dispatcher's retry does, later: once the store has seen its thread exit, it starts another.
		for (let tries = 0; ; tries++) {
			try {
				await store.ping();
				break;
			} catch (err) {
				expect(err).toMatchObject({ code: "STORE_WORKER_EXITED" });
				expect(tries).toBeLessThan(5);
			}
		}
		await expect(provider.send(message("after"))).resolves.toMatchObject({ messageId: expect.any(String) });
		expect(fs.readdirSync(path.join(root, "outbox")).some(f => f.startsWith("after."))).toBe(true);
	});

	it("should let the store close (its thread exits) with an outbox still on it", async () => {
		await provider.send(message("n1"));
		await store.close();
		await expect(provider.send(message("n2"))).rejects.toMatchObject({ code: "OUTBOX_WORKER_EXITED" });
	});
});
