/**
 * MongoDB store on the official driver. Documents keep their `id` as `_id`; indexes
 * come from schema.ts. findOneAndUpdate with a sort is atomic on the server.
 */
import { randomUUID } from "node:crypto";
import { MongoClient, MongoServerError, type Db, type Document, type Filter as MongoFilter } from "mongodb";
import { specOf } from "./schema";
import { DuplicateKeyError, checkFilter, checkFindOptions, checkUpdate } from "./types";
import type { BatchGroup, Collection, Doc, Filter, FindOptions, Sort, Store, Update } from "./types";

/**
 * Where claimMany stamps the token of the claim that took a document, to read back
 * exactly what that claim's updateMany changed. It stays on the document (the next
 * claim overwrites it) and never leaves this module.
 */
const CLAIM_FIELD = "_claim";

function field(f: string): string {
	return f === "id" ? "_id" : f;
}

function toMongoFilter(filter: Filter): MongoFilter<Document> {
	checkFilter(filter);
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(filter)) out[field(k)] = v;
	return out;
}

function toSort(sort?: Sort): Record<string, 1 | -1> | undefined {
	if (!sort) return undefined;
	return Object.fromEntries(Object.entries(sort).map(([k, d]) => [field(k), d]));
}

/** Ids are strings here, where the driver's types expect ObjectIds. */
function byIds(op: "$in" | "$nin", ids: unknown[]): Document {
	return { _id: { [op]: ids } };
}

function toMongoUpdate(update: Update): Document {
	checkUpdate(update);
	const out: Document = {};
	const set = Object.entries(update.$set ?? {}).filter(([, v]) => v !== undefined);
	if (set.length) out.$set = Object.fromEntries(set);
	if (update.$inc && Object.keys(update.$inc).length) out.$inc = update.$inc;
	if (update.$unset?.length) out.$unset = Object.fromEntries(update.$unset.map(k => [k, ""]));
	return out;
}

function fromMongo<T>(d: Document | null): T | null {
	if (!d) return null;
	const { _id, [CLAIM_FIELD]: _claim, ...rest } = d;
	return { id: _id, ...rest } as T;
}

function wrap(name: string, err: unknown): never {
	if (err instanceof MongoServerError && err.code === 11000) throw new DuplicateKeyError(name);
	throw err;
}

/** The server's answer to creating a collection that exists already. */
const NAMESPACE_EXISTS = 48;

/**
 * Creates the collection, then its indexes (schema.ts) in one createIndexes command.
 * Creating indexes on a collection that does not exist yet makes the server create it
 * implicitly, once per index build; run in parallel that is concurrent creation of one
 * namespace, which MongoDB tolerates but a compatible server need not (one deadlocks).
 * So the collection exists before any index is asked for. Another node (or an earlier
 * start) may have created it: that is the NamespaceExists answer, and fine.
 */
export async function prepareCollection(db: Pick<Db, "createCollection" | "collection">, name: string): Promise<void> {
	const spec = specOf(name);
	try {
		await db.createCollection(name);
	} catch (err) {
		if (!(err instanceof MongoServerError && (err.code === NAMESPACE_EXISTS || err.codeName === "NamespaceExists"))) throw err;
	}
	if (spec.indexes.length === 0) return;
	await db.collection(name).createIndexes(
		spec.indexes.map(ix => ({
			key: Object.fromEntries(Object.entries(ix.fields).map(([k, d]) => [field(k), d])),
			unique: !!ix.unique,
			...(ix.sparse ? { partialFilterExpression: Object.fromEntries(Object.keys(ix.fields).map(k => [field(k), { $exists: true }])) } : {})
		}))
	);
}

class MongoCollection<T extends Doc> implements Collection<T> {
	constructor(private readonly db: Db, readonly name: string, private readonly ready: Promise<unknown>) {}

	private get c() {
		return this.db.collection(this.name);
	}

	async insert(doc: T): Promise<T> {
		await this.ready;
		const { id, ...rest } = doc;
		try {
			await this.c.insertOne({ _id: id as unknown as never, ...rest });
		} catch (err) {
			wrap(this.name, err);
		}
		return doc;
	}

	async get(id: string): Promise<T | null> {
		await this.ready;
		return fromMongo<T>(await this.c.findOne({ _id: id as unknown as never }));
	}

	async findOne(filter: Filter, opts: FindOptions = {}): Promise<T | null> {
		return (await this.find(filter, { ...opts, limit: 1 }))[0] ?? null;
	}

	async find(filter: Filter, opts: FindOptions = {}): Promise<T[]> {
		checkFindOptions(opts);
		const query = toMongoFilter(filter);
		// The contract's limit 0 is no documents; the server's would be no limit.
		if (opts.limit === 0) return [];
		await this.ready;
		let cursor = this.c.find(query);
		const sort = toSort(opts.sort);
		if (sort) cursor = cursor.sort(sort);
		if (opts.skip) cursor = cursor.skip(opts.skip);
		if (opts.limit != null) cursor = cursor.limit(opts.limit);
		return (await cursor.toArray()).map(d => fromMongo<T>(d)!);
	}

	async count(filter: Filter): Promise<number> {
		await this.ready;
		return this.c.countDocuments(toMongoFilter(filter));
	}

	async findOneAndUpdate(filter: Filter, update: Update, opts: { sort?: Sort } = {}): Promise<T | null> {
		await this.ready;
		try {
			const r = await this.c.findOneAndUpdate(toMongoFilter(filter), toMongoUpdate(update), {
				sort: toSort(opts.sort),
				returnDocument: "after"
			});
			return fromMongo<T>(r);
		} catch (err) {
			wrap(this.name, err);
		}
	}

	/**
	 * Three round trips however large the batch: the candidates' ids in claim order,
	 * one updateMany that takes those still matching the filter (each document's update
	 * is atomic, so none goes to two claims) and stamps them with this claim's token,
	 * and a read of what carries the token. Candidates another claim took meanwhile are
	 * made up for by another round, which only contention causes.
	 */
	async claimMany(filter: Filter, update: Update, opts: { sort?: Sort; limit: number }): Promise<T[]> {
		checkFindOptions(opts);
		const query = toMongoFilter(filter);
		const stamp = toMongoUpdate(update);
		const sort = toSort(opts.sort);
		await this.ready;
		const out: T[] = [];
		const taken: unknown[] = [];
		while (out.length < opts.limit) {
			const want = opts.limit - out.length;
			const candidates = await this.c
				.find(taken.length ? { $and: [query, byIds("$nin", taken)] } : query, { projection: { _id: 1 }, sort, limit: want })
				.toArray();
			if (candidates.length === 0) break;
			const ids = candidates.map(d => d._id);
			const token = randomUUID();
			try {
				await this.c.updateMany({ $and: [query, byIds("$in", ids)] }, { ...stamp, $set: { ...stamp.$set, [CLAIM_FIELD]: token } });
			} catch (err) {
				wrap(this.name, err);
			}
			const claimed = await this.c.find({ ...byIds("$in", ids), [CLAIM_FIELD]: token }, { sort }).toArray();
			for (const d of claimed) {
				taken.push(d._id);
				out.push(fromMongo<T>(d)!);
			}
			// Fewer candidates than asked for: nothing else matched.
			if (candidates.length < want) break;
		}
		return out;
	}

	async updateMany(filter: Filter, update: Update): Promise<number> {
		await this.ready;
		try {
			const r = await this.c.updateMany(toMongoFilter(filter), toMongoUpdate(update));
			return r.matchedCount;
		} catch (err) {
			wrap(this.name, err);
		}
	}

	async deleteMany(filter: Filter): Promise<number> {
		await this.ready;
		const r = await this.c.deleteMany(toMongoFilter(filter));
		return r.deletedCount;
	}
}

export class MongoStore implements Store {
	readonly kind = "mongodb" as const;
	private readonly client: MongoClient;
	private readonly db: Db;
	private readonly collections = new Map<string, MongoCollection<Doc>>();

	constructor(url: string, dbName?: string) {
		this.client = new MongoClient(url, { serverSelectionTimeoutMS: 5000, ignoreUndefined: true });
		this.db = this.client.db(dbName);
	}

	collection<T extends Doc>(name: string): Collection<T> {
		let c = this.collections.get(name);
		if (!c) {
			const ready = prepareCollection(this.db, name);
			// A failed preparation (MongoDB not up yet, say) must not poison the collection
			// for the life of the process: forget it, so the next use tries again.
			ready.catch(() => this.collections.delete(name));
			c = new MongoCollection<Doc>(this.db, name, ready);
			this.collections.set(name, c);
		}
		return c as unknown as Collection<T>;
	}

	async batch(groups: BatchGroup[]): Promise<boolean[]> {
		// Refused before anything is written, as SQLite's transaction would leave nothing written.
		for (const op of groups.flat()) {
			if (op.op === "updateMany") {
				checkFilter(op.filter);
				checkUpdate(op.update);
			}
		}
		const results: boolean[] = [];
		for (const group of groups) {
			let applied = true;
			for (const op of group) {
				const c = this.collection(op.collection);
				if (op.op === "insert") await c.insert(op.doc);
				else if ((await c.updateMany(op.filter, op.update)) === 0) {
					applied = false;
					break;
				}
			}
			results.push(applied);
		}
		return results;
	}

	async ping(): Promise<void> {
		await this.db.command({ ping: 1 });
	}

	/** A real, journaled write: readiness's proof that the server takes writes again. */
	async probeWrite(): Promise<void> {
		await this.db
			.collection<{ _id: string; at: Date }>("_probe")
			.updateOne({ _id: "probe" }, { $set: { at: new Date() } }, { upsert: true, writeConcern: { w: "majority", journal: true } });
	}

	async close(): Promise<void> {
		await this.client.close();
	}
}
