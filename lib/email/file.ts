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
			// Synchronous on purpose: a small local write costs less than the thread-pool
			// round trips of the async calls, and the rename keeps readers from half files.
			if (!this.dirReady) {
				fs.mkdirSync(this.dir, { recursive: true });
				this.dirReady = true;
			}
			fs.writeFileSync(`${file}.tmp`, raw);
			fs.renameSync(`${file}.tmp`, file);
		} catch (err) {
			throw new SendError((err as NodeJS.ErrnoException).code ?? "WRITE_FAILED", false, "Could not write to the outbox");
		}
		return { messageId: id };
	}

	async close(): Promise<void> {}
}
