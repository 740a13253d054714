/**
 * PUSH in development (PUSH_PROVIDER=file): each message is written as a JSON file
 * under DATA_DIR/outbox/push, `{ notificationId, to, payload }` with the payload a
 * push service would get (`{ notificationId, title, body }`, as lib/channels/push.ts
 * sends), whether or not the actor has a subscription, so it shows in the dev inbox
 * (lib/outbox). Named and written like the file SMS provider's: the notification's id
 * and a per-send id, renamed into place so a reader never sees half a message.
 */
import { randomUUID } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { TemplateParts } from "../delivery";
import { SendError } from "../errors/send-error";
import type { ChannelResult, ChannelSender } from "./types";

export class FilePushChannel implements ChannelSender {
	readonly channel = "PUSH" as const;
	private dirReady: Promise<unknown> | null = null;

	constructor(readonly dir: string) {}

	async send(notificationId: string, to: string, parts: TemplateParts): Promise<ChannelResult> {
		if (parts.subject == null) throw new SendError("NO_SUBJECT", true);
		const id = randomUUID();
		const file = path.join(this.dir, `${notificationId}.${id}.json`);
		const payload = { notificationId, title: parts.subject, body: parts.text ?? "" };
		try {
			this.dirReady ??= mkdir(this.dir, { recursive: true, mode: 0o700 });
			await this.dirReady;
			await writeFile(`${file}.tmp`, JSON.stringify({ notificationId, to, payload }), { mode: 0o600 });
			await rename(`${file}.tmp`, file);
		} catch (err) {
			this.dirReady = null;
			await rm(`${file}.tmp`, { force: true }).catch(() => undefined);
			throw new SendError((err as NodeJS.ErrnoException).code ?? "WRITE_FAILED", false, "Could not write to the push outbox");
		}
		return { messageId: id };
	}

	async close(): Promise<void> {}
}
