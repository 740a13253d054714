/**
 * How the MongoDB store prepares a collection (lib/store/mongo.ts prepareCollection):
 * the collection is created first, then its indexes. No MongoDB server runs here, so a
 * recording fake Db stands in for one: it refuses an index build on a collection that
 * does not exist, as a server that does not create collections implicitly would (one
 * MongoDB-compatible server deadlocks on concurrent implicit creation instead; a
 * refusal shows the same order without a hang), and answers NamespaceExists (code 48)
 * for a collection that exists, as MongoDB does.
 */
import { MongoServerError, type Db } from "mongodb";
import { prepareCollection } from "../../lib/store/mongo";
import { SCHEMA } from "../../lib/store/schema";

interface IndexCall {
	collection: string;
	key: Record<string, number>;
	unique?: boolean;
	partialFilterExpression?: object;
}

class FakeDb {
	readonly log: string[] = [];
	readonly indexes: IndexCall[] = [];
	readonly existing = new Set<string>();

	async createCollection(name: string): Promise<void> {
		this.log.push(`create ${name}`);
		// Answered a turn later, as a server would: index builds sent meanwhile find no collection.
		await new Promise(resolve => setImmediate(resolve));
		if (this.existing.has(name)) throw new MongoServerError({ message: `Collection ${name} already exists.`, code: 48, codeName: "NamespaceExists" });
		this.existing.add(name);
	}

	collection(name: string) {
		const build = async (specs: { key: Record<string, number>; unique?: boolean; partialFilterExpression?: object }[]) => {
			this.log.push(`indexes ${name}`);
			if (!this.existing.has(name)) throw new MongoServerError({ message: `ns does not exist: ${name}`, code: 26, codeName: "NamespaceNotFound" });
			for (const s of specs) this.indexes.push({ collection: name, ...s });
			return specs.map(s => Object.entries(s.key).flat().join("_"));
		};
		return {
			createIndexes: build,
			createIndex: (key: Record<string, number>, opts: { unique?: boolean; partialFilterExpression?: object } = {}) => build([{ key, ...opts }]).then(names => names[0])
		};
	}
}

const asDb = (fake: FakeDb) => fake as unknown as Pick<Db, "createCollection" | "collection">;

describe("preparing a MongoDB collection", () => {
	it("should create every collection before any of its indexes, when all are prepared at once", async () => {
		const db = new FakeDb();
		const names = Object.keys(SCHEMA);
		await Promise.all(names.map(name => prepareCollection(asDb(db), name)));
		for (const name of names) {
			const created = db.log.indexOf(`create ${name}`);
			expect(created).toBeGreaterThanOrEqual(0);
			const builds = db.log.flatMap((entry, i) => (entry === `indexes ${name}` ? [i] : []));
			expect(builds.every(i => i > created)).toBe(true);
			expect(builds.length).toBe(SCHEMA[name].indexes.length === 0 ? 0 : 1);
		}
	});

	it("should ask for each declared index with the same key, uniqueness and partial filter as before", async () => {
		const db = new FakeDb();
		await prepareCollection(asDb(db), "notifications");
		expect(db.indexes).toContainEqual({ collection: "notifications", key: { "createdBy.id": 1, _id: -1 }, unique: false });
		expect(db.indexes).toContainEqual({ collection: "notifications", key: { idempotencyScope: 1 }, unique: true, partialFilterExpression: { idempotencyScope: { $exists: true } } });
		expect(db.indexes.length).toBe(SCHEMA.notifications.indexes.length);
	});

	it("should build the indexes of a collection that exists already (NamespaceExists is no failure)", async () => {
		const db = new FakeDb();
		db.existing.add("actors");
		await expect(prepareCollection(asDb(db), "actors")).resolves.toBeUndefined();
		expect(db.indexes).toEqual([{ collection: "actors", key: { email: 1 }, unique: true }]);
	});

	it("should fail when creating the collection fails for another reason", async () => {
		const db = new FakeDb();
		db.createCollection = async () => {
			throw new MongoServerError({ message: "not authorized", code: 13, codeName: "Unauthorized" });
		};
		await expect(prepareCollection(asDb(db), "actors")).rejects.toMatchObject({ code: 13 });
		expect(db.indexes).toEqual([]);
	});
});
