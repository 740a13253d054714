/**
 * Writes each message as an .eml file under DATA_DIR/outbox: the default provider,
 * so the platform delivers somewhere real with no account. Every send is its own
 * file (named by the notification and a per-send id), so a duplicate send shows as
 * two files; both carry the notification's one Message-ID.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { compose } from "./mime";
import { SendError, type EmailMessage, type EmailProvider, type SendResult } from "./types";

export class FileEmailProvider implements EmailProvider {
	readonly kind = "file" as const;
	private dirReady = false;

	constructor(readonly dir: string) {}

	async send(message: EmailMessage): Promise<SendResult> {
		const id = randomUUID();
		const raw = await compose(message);
		const file = path.join(this.dir, `${message.notificationId}.${id}.eml`);
		try {
			// Synchronous on purpose, though creating a file can cost 250-500 us of kernel
			// time: on the thread pool the writes of all sends in flight queue up, and a
			// CRITICAL send waited behind the LOW ones for no gain in throughput (see
			// docs/benchmarks.md). The rename keeps readers from half files. Messages
			// hold personal data: owner only.
			if (!this.dirReady) {
				fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
				this.dirReady = true;
			}
			fs.writeFileSync(`${file}.tmp`, raw, { mode: 0o600 });
			fs.renameSync(`${file}.tmp`, file);
		} catch (err) {
			// A full disk leaves part of the file: it would only hold space the next try needs.
			fs.rmSync(`${file}.tmp`, { force: true });
			throw new SendError((err as NodeJS.ErrnoException).code ?? "WRITE_FAILED", false, "Could not write to the outbox");
		}
		return { messageId: id };
	}

	async close(): Promise<void> {}
}
