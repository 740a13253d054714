/**
 * Listing notifications, newest first, a page at a time. The order is the record's
 * id (a UUIDv7: its creation time, then random bits), so a cursor is the last id of a
 * page and the next page is everything older: new notifications only ever appear
 * before the first page, never between pages, and no page repeats or skips one. The
 * cursor is opaque to clients (base64url) and checked when it comes back.
 */
import type { Principal } from "../auth/rules";
import { badRequest } from "../errors";
import type { Filter, Store } from "../store";
import type { Channel, NotificationDoc, Status } from "./model";
import { toSummary, type NotificationSummary } from "./view";

export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 100;

export interface ListQuery {
	status?: Status;
	to?: string;
	channel?: Channel;
	limit?: number;
	cursor?: string;
}

export interface ListPage {
	items: NotificationSummary[];
	nextCursor?: string;
}

const CURSOR_PREFIX = "n1:";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeCursor(id: string): string {
	return Buffer.from(CURSOR_PREFIX + id, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): string {
	const text = /^[A-Za-z0-9_-]{1,96}$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
	const id = text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : "";
	if (!UUID.test(id)) throw badRequest("The 'cursor' is not one this API gave out.", [{ field: "cursor", message: "is not a cursor from a previous page" }]);
	return id;
}

/**
 * One page for this caller: services and administrators see every notification,
 * a user only those it created.
 */
export async function listNotifications(store: Store, caller: Principal, q: ListQuery): Promise<ListPage> {
	const limit = q.limit ?? LIST_DEFAULT_LIMIT;
	const filter: Filter = {};
	if (caller.kind === "user" && !caller.isAdmin) {
		filter["createdBy.kind"] = "user";
		filter["createdBy.id"] = caller.sub;
	}
	if (q.status) filter.status = q.status;
	if (q.channel) filter.channel = q.channel;
	if (q.to) filter.to = q.to.trim();
	if (q.cursor) filter.id = { $lt: decodeCursor(q.cursor) };
	// One more than the page: whether there is a next page, without a count.
	const docs = await store.collection<NotificationDoc>("notifications").find(filter, { sort: { id: -1 }, limit: limit + 1 });
	const page = docs.slice(0, limit);
	const result: ListPage = { items: page.map(toSummary) };
	if (docs.length > limit) result.nextCursor = encodeCursor(page[page.length - 1].id);
	return result;
}
