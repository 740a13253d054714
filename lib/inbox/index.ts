/**
 * The in-app inbox: one message per IN_APP notification, kept per actor with when it
 * was seen, read and archived. The IN_APP channel (lib/channels/in-app.ts) stores
 * messages here; the inbox routes (services/notifications/inbox.ts) list, count and
 * mark them. A message's `state` is what the listing filters on: archived wins over
 * read, read over unread; seenAt, readAt and archivedAt say when. It imports only
 * the store and the shared vocabulary, so the transports may use it.
 */
import { uuidv7 } from "../crypto";
import { notFound } from "../errors";
import { DuplicateKeyError, type Filter, type Store } from "../store";

export const INBOX = "inbox";

export const INBOX_STATES = ["unread", "read", "archived", "all"] as const;
export type InboxFilterState = (typeof INBOX_STATES)[number];
export type InboxState = Exclude<InboxFilterState, "all">;

export const INBOX_PAGE_DEFAULT = 20;
export const INBOX_PAGE_MAX = 100;

export interface InboxDoc {
	/** The notification's id: a retried send finds the message it stored before. */
	id: string;
	actorId: string;
	state: InboxState;
	title: string;
	body: string;
	data: Record<string, unknown>;
	createdAt: string;
	/**
	 * Arrival order, a UUIDv7 of createdAt: the listing's order and cursor, and the id of
	 * the live stream's `message` event (a client resumes after it with Last-Event-ID).
	 */
	seq: string;
	seenAt?: string;
	readAt?: string;
	archivedAt?: string;
}

export interface InboxItem {
	notificationId: string;
	title: string;
	body: string;
	data: Record<string, unknown>;
	createdAt: string;
	seenAt?: string;
	readAt?: string;
	archivedAt?: string;
}

/** An item with its place in the arrival order, as live streams carry it. */
export interface InboxMessage extends InboxItem {
	seq: string;
}

export interface InboxCounts {
	/** Messages neither read nor archived. */
	unread: number;
	/** Messages not archived that were never marked seen (reading one marks it seen). */
	unseen: number;
}

export interface InboxPage {
	items: InboxItem[];
	nextCursor?: string;
}

export interface InboxMark {
	seen?: boolean;
	read?: boolean;
	archived?: boolean;
}

/**
 * The broker event that tells every gateway node of a change to one actor's inbox (a
 * message stored, marks changed), with the counts read after it: the inbox streams of
 * that actor on any node pass it on.
 */
export const INBOX_CHANGED = "inbox.changed";

export interface InboxChange {
	actorId: string;
	/** The message stored, when the change is a new one. */
	message?: InboxMessage;
	/** The counts read after the change; absent when they could not be read (the streams read them again). */
	counts?: InboxCounts;
}

/** The cursor and the Last-Event-ID a client sends back: a message's seq. */
export const INBOX_SEQ = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const messages = (store: Store) => store.collection<InboxDoc>(INBOX);

export function toItem({ id, title, body, data, createdAt, seenAt, readAt, archivedAt }: InboxDoc): InboxItem {
	const item: InboxItem = { notificationId: id, title, body, data, createdAt };
	if (seenAt) item.seenAt = seenAt;
	if (readAt) item.readAt = readAt;
	if (archivedAt) item.archivedAt = archivedAt;
	return item;
}

export function toMessage(doc: InboxDoc): InboxMessage {
	return { ...toItem(doc), seq: doc.seq };
}

export interface NewMessage {
	notificationId: string;
	actorId: string;
	title?: string;
	body?: string;
	data?: Record<string, unknown>;
}

/**
 * Stores the message (DELIVERED from then on). A retry of the same notification finds
 * the one it stored before and answers it with `created: false`.
 */
export async function storeMessage(store: Store, m: NewMessage, now = Date.now()): Promise<{ doc: InboxDoc; created: boolean }> {
	const doc: InboxDoc = {
		id: m.notificationId,
		actorId: m.actorId,
		state: "unread",
		title: m.title ?? "",
		body: m.body ?? "",
		data: m.data ?? {},
		createdAt: new Date(now).toISOString(),
		seq: uuidv7(now)
	};
	try {
		return { doc: await messages(store).insert(doc), created: true };
	} catch (err) {
		if (!(err instanceof DuplicateKeyError)) throw err;
		const earlier = await messages(store).get(doc.id);
		if (!earlier) throw err;
		return { doc: earlier, created: false };
	}
}

/** A page of the actor's messages in one state (or all), newest first; the cursor is the last one's seq. */
export async function listInbox(store: Store, actorId: string, q: { state?: InboxFilterState; cursor?: string; limit?: number } = {}): Promise<InboxPage> {
	const limit = Math.min(Math.max(q.limit ?? INBOX_PAGE_DEFAULT, 1), INBOX_PAGE_MAX);
	const filter: Filter = { actorId };
	if (q.state && q.state !== "all") filter.state = q.state;
	if (q.cursor) filter.seq = { $lt: q.cursor };
	const docs = await messages(store).find(filter, { sort: { seq: -1 }, limit: limit + 1 });
	const page: InboxPage = { items: docs.slice(0, limit).map(toItem) };
	if (docs.length > limit) page.nextCursor = docs[limit - 1]!.seq;
	return page;
}

/** The actor's messages that arrived after `after` (a seq), oldest first: what a live stream has not sent yet. */
export async function messagesAfter(store: Store, actorId: string, after: string, limit: number): Promise<InboxMessage[]> {
	const docs = await messages(store).find({ actorId, seq: { $gt: after } }, { sort: { seq: 1 }, limit });
	return docs.map(toMessage);
}

/** The seq of the actor's newest message, or null when the inbox is empty. */
export async function newestSeq(store: Store, actorId: string): Promise<string | null> {
	return (await messages(store).findOne({ actorId }, { sort: { seq: -1 } }))?.seq ?? null;
}

export async function inboxCounts(store: Store, actorId: string): Promise<InboxCounts> {
	const [unread, unseen] = await Promise.all([
		messages(store).count({ actorId, state: "unread" }),
		messages(store).count({ actorId, state: { $in: ["unread", "read"] }, seenAt: null })
	]);
	return { unread, unseen };
}

const stateOf = (archivedAt: string | undefined, readAt: string | undefined): InboxState => (archivedAt ? "archived" : readAt ? "read" : "unread");

/** Writes lost to a concurrent change of the same message are tried again this often. */
const MARK_ATTEMPTS = 5;

/**
 * Sets or clears seen, read and archived on one of the actor's messages; reading marks
 * it seen too. Each write names the fields it read, so two marks at once never leave a
 * state that disagrees with the times (the loser reads again). 404 NOT_FOUND when the
 * actor has no such message.
 */
export async function markMessage(store: Store, actorId: string, notificationId: string, mark: InboxMark, now = Date.now()): Promise<InboxDoc> {
	const iso = new Date(now).toISOString();
	for (let attempt = 0; attempt < MARK_ATTEMPTS; attempt++) {
		const doc = await messages(store).get(notificationId);
		if (!doc || doc.actorId !== actorId) break;
		const next = { seenAt: doc.seenAt, readAt: doc.readAt, archivedAt: doc.archivedAt };
		if (mark.read === true) next.readAt ??= iso;
		if (mark.read === false) next.readAt = undefined;
		if (mark.seen === true || mark.read === true) next.seenAt ??= iso;
		if (mark.seen === false) next.seenAt = undefined;
		if (mark.archived === true) next.archivedAt ??= iso;
		if (mark.archived === false) next.archivedAt = undefined;
		const state = stateOf(next.archivedAt, next.readAt);
		const set: Record<string, unknown> = { state };
		const unset: string[] = [];
		for (const f of ["seenAt", "readAt", "archivedAt"] as const) {
			if (next[f] === doc[f]) continue;
			if (next[f] === undefined) unset.push(f);
			else set[f] = next[f];
		}
		const guard: Filter = { id: doc.id, actorId, state: doc.state, seenAt: doc.seenAt ?? null, readAt: doc.readAt ?? null, archivedAt: doc.archivedAt ?? null };
		const updated = await messages(store).findOneAndUpdate(guard, { $set: set, ...(unset.length ? { $unset: unset } : {}) });
		if (updated) return updated;
	}
	throw notFound("NOT_FOUND", "This inbox has no message with this id.");
}

/** Marks every unread message of the actor read (and seen); archived ones stay as they are. Answers how many it read. */
export async function readAll(store: Store, actorId: string, now = Date.now()): Promise<number> {
	const iso = new Date(now).toISOString();
	const read = await messages(store).updateMany({ actorId, state: "unread" }, { $set: { state: "read", readAt: iso } });
	// Those it read now and nobody had marked seen; a message arriving meanwhile stays unread and unseen.
	if (read > 0) await messages(store).updateMany({ actorId, state: "read", readAt: iso, seenAt: null }, { $set: { seenAt: iso } });
	return read;
}
