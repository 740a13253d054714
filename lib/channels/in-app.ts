/**
 * IN_APP: the message goes into the inbox of the actor named in `to` (lib/inbox),
 * the template's subject as its title (empty when there is none) and its text as its
 * body, with the notification's `data`. Stored is delivered: the send answers
 * DELIVERED. A retry of a send whose outcome was lost finds the message stored before
 * and stores no second one. Every gateway hears of the new message and the actor's
 * counts (`onChange`), for the inbox's live streams.
 */
import type { TemplateParts } from "../delivery";
import { SendError } from "../errors/send-error";
import { inboxCounts, storeMessage, toMessage, type InboxChange } from "../inbox";
import type { Store } from "../store";
import type { ChannelResult, ChannelSender, SendOptions } from "./types";

export interface InAppChannelDeps {
	store: Store;
	/** Told of each message stored, with the actor's counts once they are read; never awaited. */
	onChange?: (change: InboxChange) => void;
}

export class InAppChannel implements ChannelSender {
	readonly channel = "IN_APP" as const;

	constructor(private readonly deps: InAppChannelDeps) {}

	async send(notificationId: string, to: string, parts: TemplateParts, _signal?: AbortSignal, options: SendOptions = {}): Promise<ChannelResult> {
		// Checked when the notification is accepted; a record from before that check fails here for good.
		if (parts.text == null) throw new SendError("NO_TEXT_PART", true);
		const { doc, created } = await storeMessage(this.deps.store, { notificationId, actorId: to, title: parts.subject, body: parts.text, data: options.data });
		if (created) void this.announce(doc.actorId, toMessage(doc));
		return { messageId: notificationId, delivered: true };
	}

	private async announce(actorId: string, message: InboxChange["message"]): Promise<void> {
		const onChange = this.deps.onChange;
		if (!onChange) return;
		const counts = await inboxCounts(this.deps.store, actorId).catch(() => undefined);
		onChange(counts ? { actorId, message, counts } : { actorId, message });
	}

	async close(): Promise<void> {}
}
