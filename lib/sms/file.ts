/**
 * Writes each message as a JSON file under DATA_DIR/outbox/sms: the default
 * provider, so SMS goes somewhere real with no account. The file holds exactly
 * `{ notificationId, to, from, text }` (`from` null when no sender is configured);
 * every send is its own file, named by the notification and a per-send id, written
 * to a temporary name and renamed so a reader never sees half a message.
 */
import { randomUUID } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { SendError } from "../errors/send-error";
import { countSegments } from "./segments";
import type { SmsMessage, SmsProvider, SmsResult } from "./types";

export class FileSmsProvider implements SmsProvider {
	readonly kind = "file" as const;
	private dirReady: Promise<unknown> | null = null;

	constructor(readonly dir: string) {}

	async send(message: SmsMessage): Promise<SmsResult> {
		const id = randomUUID();
		const file = path.join(this.dir, `${message.notificationId}.${id}.json`);
		const body = JSON.stringify({ notificationId: message.notificationId, to: message.to, from: message.from ?? null, text: message.text });
		try {
			this.dirReady ??= mkdir(this.dir, { recursive: true, mode: 0o700 });
			await this.dirReady;
			await writeFile(`${file}.tmp`, body, { mode: 0o600 });
			await rename(`${file}.tmp`, file);
		} catch (err) {
			this.dirReady = null;
			// A full disk leaves part of the file: it would only hold space the next try needs.
			await rm(`${file}.tmp`, { force: true }).catch(() => undefined);
			throw new SendError((err as NodeJS.ErrnoException).code ?? "WRITE_FAILED", false, "Could not write to the SMS outbox");
		}
		return { messageId: id, segments: countSegments(message.text) };
	}

	async close(): Promise<void> {}
}
