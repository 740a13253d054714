/**
 * MongoDB store on the official driver. Documents keep their `id` as `_id`; indexes
 * come from schema.ts. findOneAndUpdate with a sort is atomic on the server.
 */
import { MongoClient, MongoServerError, type Db, type Document, type Filter as MongoFilter } from "mongodb";
import { specOf } from "./schema";
import { DuplicateKeyError, checkFilter, type BatchGroup, type Collection, type Doc, type Filter, type FindOptions, type Sort, type Store, type Update } from "./types";

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

function toMongoUpdate(update: Update): Document {
	const out: Document = {};
	if (update.$set && Object.keys(update.$set).length) {
		if ("id" in update.$set) throw new Error("The id of a document cannot change");
		out.$set = Object.fromEntries(Object.entries(update.$set).filter(([, v]) => v !== undefined));
	}
	if (update.$inc && Object.keys(update.$inc).length) out.$inc = update.$inc;
	if (update.$unset?.length) out.$unset = Object.fromEntries(update.$unset.map(k => [k, ""]));
	return out;
}

function fromMongo<T>(d: Document | null): T | null {
	if (!d) return null;
	const { _id, ...rest } = d;
	return { id: _id, ...rest } as T;
}

function wrap(name: string, err: unknown): never {
	if (err instanceof MongoServerError && err.code === 11000) throw new DuplicateKeyError(name);
	throw err;
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
		await this.ready;
		let cursor = this.c.find(toMongoFilter(filter));
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

	/** One atomic findOneAndUpdate per document: the server never hands one document to two callers. */
	async claimMany(filter: Filter, update: Update, opts: { sort?: Sort; limit: number }): Promise<T[]> {
		const out: T[] = [];
		while (out.length < opts.limit) {
			const doc = await this.findOneAndUpdate(filter, update, { sort: opts.sort });
			if (!doc) break;
			out.push(doc);
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
			const spec = specOf(name);
			const ready = Promise.all(
				spec.indexes.map(ix =>
					this.db.collection(name).createIndex(
						Object.fromEntries(Object.entries(ix.fields).map(([k, d]) => [field(k), d])),
						ix.sparse
							? { unique: !!ix.unique, partialFilterExpression: Object.fromEntries(Object.keys(ix.fields).map(k => [field(k), { $exists: true }])) }
							: { unique: !!ix.unique }
					)
				)
			);
			// A failed index build (MongoDB not up yet, say) must not poison the collection
			// for the life of the process: forget it, so the next use tries again.
			ready.catch(() => this.collections.delete(name));
			c = new MongoCollection<Doc>(this.db, name, ready);
			this.collections.set(name, c);
		}
		return c as unknown as Collection<T>;
	}

	async batch(groups: BatchGroup[]): Promise<boolean[]> {
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

	async close(): Promise<void> {
		await this.client.close();
	}
}
