/**
 * The administrators' view of the accounts (GET /admin/users): actor profiles found by
 * an email prefix or an exact actor id, in email order, a page at a time. The cursor is
 * the last email of a page (emails are unique in `actors`), so a page stays right while
 * accounts come and go.
 */
import { badRequest } from "../errors";
import type { Filter, Store } from "../store";

export interface DirectoryEntry {
	actorId: string;
	email: string;
	firstName: string;
	lastName: string;
	createdAt: string;
}

interface ActorDoc {
	id: string;
	email: string;
	firstName: string;
	lastName: string;
	createdAt: string;
}

export const USERS_PAGE_SIZE = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Above every character an email holds: the end of a prefix's range. */
const PREFIX_END = "\uffff";

export const toEntry = (d: ActorDoc): DirectoryEntry => ({ actorId: d.id, email: d.email, firstName: d.firstName, lastName: d.lastName, createdAt: d.createdAt });

function decodeCursor(cursor: string): string {
	const email = Buffer.from(cursor, "base64url").toString("utf8");
	if (!email || Buffer.from(email, "utf8").toString("base64url") !== cursor) throw badRequest("The cursor is not one this route answered.", [{ field: "cursor", message: "is not valid" }]);
	return email;
}

/** One page of accounts whose email starts with `query` (case-insensitive), or whose id is `query`; all without one. */
export async function findUsers(
	store: Store,
	opts: { query?: string; cursor?: string; limit?: number }
): Promise<{ items: DirectoryEntry[]; nextCursor?: string }> {
	const actors = store.collection<ActorDoc>("actors");
	const query = opts.query?.trim().toLowerCase() ?? "";
	if (UUID.test(query)) {
		const doc = await actors.get(query);
		return { items: doc ? [toEntry(doc)] : [] };
	}
	const limit = opts.limit ?? USERS_PAGE_SIZE;
	const after = opts.cursor ? decodeCursor(opts.cursor) : undefined;
	const range: { $gte?: string; $gt?: string; $lt?: string } = {};
	if (query) {
		range.$gte = query;
		range.$lt = query + PREFIX_END;
	}
	if (after !== undefined && (range.$gte === undefined || after >= range.$gte)) {
		delete range.$gte;
		range.$gt = after;
	}
	const filter: Filter = Object.keys(range).length > 0 ? { email: range } : {};
	const docs = await actors.find(filter, { sort: { email: 1 }, limit: limit + 1 });
	const items = docs.slice(0, limit).map(toEntry);
	return docs.length > limit ? { items, nextCursor: Buffer.from(items[items.length - 1].email, "utf8").toString("base64url") } : { items };
}
