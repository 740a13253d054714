/**
 * The in-app inbox routes of an actor: list (by state, newest first), counts, marks
 * (seen, read, archived), mark all read, and what a live stream of it begins with.
 * Only the actor itself or a service may use them: an inbox is private, so an
 * administrator's user token is refused like any other user's (403 FORBIDDEN). Every
 * change is announced with the counts read after it, so the actor's streams on any
 * gateway node follow. Mixed into services/notifications/notifications.service.ts, so
 * the actions are notifications.*; the messages themselves are lib/inbox's.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { ClientError } from "../../lib/errors";
import type { HttpMeta } from "../../lib/http/meta";
import {
	INBOX_PAGE_MAX,
	INBOX_SEQ,
	INBOX_STATES,
	inboxCounts,
	listInbox,
	markMessage,
	messagesAfter,
	readAll,
	toItem,
	type InboxCounts,
	type InboxFilterState,
	type InboxItem,
	type InboxMark,
	type InboxMessage,
	type InboxPage
} from "../../lib/inbox";
import { ref } from "../../lib/openapi/schemas";
import { principalOf } from "../../middlewares/auth.middleware";
import { RuntimeMixin, type RuntimeMethods } from "../../mixins/runtime.mixin";

export type { InboxCounts, InboxItem, InboxPage };

export interface InboxListParams {
	id: string;
	state?: InboxFilterState;
	cursor?: string;
	limit?: number;
}

export interface InboxMarkParams extends InboxMark {
	id: string;
	notificationId: string;
}

/** What an inbox stream begins with: the messages after Last-Event-ID (none without it), oldest first, and the counts. */
export interface InboxSnapshot {
	items: InboxMessage[];
	counts: InboxCounts;
}

/** The most messages a stream is sent at its start or at one catch-up; more wait for the next heartbeat. */
export const INBOX_STREAM_BATCH = 100;

interface InboxMethods extends RuntimeMethods {
	/** 403 FORBIDDEN unless the caller is the actor itself or a service. */
	requireInboxOwner(ctx: Context, actorId: string): void;
	/** Reads the counts and tells every gateway node; a failure is only logged (streams read the counts again). */
	announceCounts(actorId: string): Promise<InboxCounts | null>;
}

const actorId = { type: "uuid" } as const;

export const InboxMixin: ServiceSchema<ServiceSettingSchema, InboxMethods> = {
	name: "inbox",
	mixins: [RuntimeMixin],
	actions: {
		listInbox: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "List an actor's in-app messages, newest first",
				description: "`state`: unread (neither read nor archived), read (read, not archived), archived, or all (every message, archived ones too; the default).",
				success: { status: 200, description: "A page of messages.", schema: ref("InboxPage") },
				problems: ["FORBIDDEN"]
			},
			params: {
				id: actorId,
				state: { type: "enum", values: [...INBOX_STATES], optional: true },
				cursor: { type: "string", pattern: INBOX_SEQ, optional: true },
				limit: { type: "number", integer: true, min: 1, max: INBOX_PAGE_MAX, convert: true, optional: true },
				$$strict: true
			},
			handler(ctx: Context<InboxListParams>): Promise<InboxPage> {
				const { id, ...q } = ctx.params;
				this.requireInboxOwner(ctx, id);
				return listInbox(this.runtime().store(), id.toLowerCase(), q);
			}
		},
		inboxCount: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Count an actor's unread and unseen in-app messages",
				success: { status: 200, description: "The counts.", schema: ref("InboxCounts") },
				problems: ["FORBIDDEN"]
			},
			params: { id: actorId, $$strict: true },
			handler(ctx: Context<{ id: string }>): Promise<InboxCounts> {
				this.requireInboxOwner(ctx, ctx.params.id);
				return inboxCounts(this.runtime().store(), ctx.params.id.toLowerCase());
			}
		},
		markInbox: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Mark an in-app message seen, read or archived (or not)",
				description: "Each flag given sets (true) or clears (false) its time; reading marks the message seen too. Archived messages leave the unread and unseen counts.",
				success: { status: 200, description: "The message as marked.", schema: ref("InboxItem") },
				problems: ["FORBIDDEN", "NOT_FOUND"],
				example: { read: true }
			},
			params: {
				id: actorId,
				notificationId: { type: "uuid" },
				seen: { type: "boolean", optional: true },
				read: { type: "boolean", optional: true },
				archived: { type: "boolean", optional: true },
				$$strict: true
			},
			async handler(ctx: Context<InboxMarkParams>): Promise<InboxItem> {
				const { id, notificationId, ...mark } = ctx.params;
				this.requireInboxOwner(ctx, id);
				const doc = await markMessage(this.runtime().store(), id.toLowerCase(), notificationId.toLowerCase(), mark);
				await this.announceCounts(doc.actorId);
				return toItem(doc);
			}
		},
		readAllInbox: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Mark every unread in-app message of an actor read",
				description: "Archived messages stay as they are.",
				success: { status: 204, description: "Done." },
				problems: ["FORBIDDEN"]
			},
			params: { id: actorId, $$strict: true },
			async handler(ctx: Context<{ id: string }, HttpMeta>): Promise<null> {
				this.requireInboxOwner(ctx, ctx.params.id);
				const id = ctx.params.id.toLowerCase();
				if ((await readAll(this.runtime().store(), id)) > 0) await this.announceCounts(id);
				ctx.meta.$statusCode = 204;
				return null;
			}
		},
		inboxStream: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "A live stream of an actor's inbox",
				description:
					"With `Accept: text/event-stream`, server-sent events: `message` (a new message, `id:` its place, data the message) and `count` (data `{ unread, unseen }`, sent at the start and whenever they change), from whichever node stored or changed them; " +
					"a comment line every 15 s. `Last-Event-ID` resumes after a message: those stored since are sent first. Otherwise what the stream would begin with, as JSON. Open streams are bounded per caller and per node (429).",
				success: { status: 200, description: "The messages after Last-Event-ID and the counts.", schema: ref("InboxSnapshot"), contentType: ["application/json", "text/event-stream"] },
				problems: ["FORBIDDEN", "RATE_LIMITED"]
			},
			params: { id: actorId, after: { type: "string", pattern: INBOX_SEQ, optional: true }, $$strict: true },
			async handler(ctx: Context<{ id: string; after?: string }>): Promise<InboxSnapshot> {
				this.requireInboxOwner(ctx, ctx.params.id);
				const store = this.runtime().store();
				const id = ctx.params.id.toLowerCase();
				const [items, counts] = await Promise.all([ctx.params.after ? messagesAfter(store, id, ctx.params.after, INBOX_STREAM_BATCH) : [], inboxCounts(store, id)]);
				return { items, counts };
			}
		}
	},
	methods: {
		requireInboxOwner(ctx: Context, id: string) {
			const p = principalOf(ctx)!;
			if (p.kind === "service" || p.sub.toLowerCase() === id.toLowerCase()) return;
			throw new ClientError(403, "FORBIDDEN", "Only the actor itself or a service may read or change its inbox.");
		},
		async announceCounts(id: string): Promise<InboxCounts | null> {
			try {
				const counts = await inboxCounts(this.runtime().store(), id);
				this.runtime().announceInbox({ actorId: id, counts });
				return counts;
			} catch (err) {
				this.logger.warn("Reading an inbox's counts after a change failed; its streams read them again", { actorId: id, error: (err as Error).message });
				return null;
			}
		}
	}
};
