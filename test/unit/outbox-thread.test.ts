/**
 * The .eml outbox on its own thread: the same files as the synchronous provider, and
 * the most urgent message waiting is written next (the thread is the build's:
 * `npm test` builds first).
 */
import fs from "node:fs";
import path from "node:path";
import { ThreadedFileEmailProvider } from "../../lib/email/outbox-thread";
import type { EmailMessage } from "../../lib/email";
import { tempDir } from "../helpers/platform";

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
