/**
 * A GridFS upload whose source fails midway (lib/files/gridfs.ts): nothing of it may
 * stay behind. No MongoDB server runs here (the GridFS contract in
 * test/integration/files.contract.test.ts skips without one), so a fake Db stands in
 * for the server under the driver's own GridFSBucket and GridFSBucketWriteStream. Like
 * a server reached over several pooled connections, it does not apply operations in
 * the order they were sent: a chunk insert takes a turn of the event loop to land,
 * while a delete applies at once, so a delete sent while an insert is in flight runs
 * ahead of it. That is the ordering under which the abort left orphan chunks.
 */
import { Readable } from "node:stream";
import type { Db } from "mongodb";
import { GridFsFileStorage } from "../../lib/files/gridfs";

interface FakeDoc {
	_id: unknown;
	files_id?: unknown;
	[k: string]: unknown;
}

class FakeCollection {
	readonly docs: FakeDoc[] = [];
	/** Inserts sent but not yet applied. */
	private readonly pending = new Set<Promise<unknown>>();
	/** How many inserts were in flight when each delete was applied. */
	readonly inFlightAtDelete: number[] = [];

	get inFlight(): number {
		return this.pending.size;
	}

	insertOne(doc: FakeDoc): Promise<{ acknowledged: boolean }> {
		const landed = new Promise<{ acknowledged: boolean }>(resolve =>
			setImmediate(() => {
				this.pending.delete(landed);
				this.docs.push(doc);
				resolve({ acknowledged: true });
			})
		);
		this.pending.add(landed);
		return landed;
	}

	/** Every insert sent so far has landed. */
	async idle(): Promise<void> {
		await Promise.all([...this.pending]);
	}

	private matches(doc: FakeDoc, filter: Record<string, unknown>): boolean {
		return Object.entries(filter).every(([k, v]) => {
			const want = v && typeof v === "object" && "$eq" in v ? (v as { $eq: unknown }).$eq : v;
			return String(doc[k]) === String(want);
		});
	}

	async deleteMany(filter: Record<string, unknown>): Promise<{ deletedCount: number }> {
		this.inFlightAtDelete.push(this.inFlight);
		const before = this.docs.length;
		for (let i = this.docs.length - 1; i >= 0; i--) if (this.matches(this.docs[i], filter)) this.docs.splice(i, 1);
		return { deletedCount: before - this.docs.length };
	}

	async deleteOne(filter: Record<string, unknown>): Promise<{ deletedCount: number }> {
		const i = this.docs.findIndex(d => this.matches(d, filter));
		if (i >= 0) this.docs.splice(i, 1);
		return { deletedCount: i >= 0 ? 1 : 0 };
	}

	// What the write stream asks before its first upload, to build the indexes it needs.
	async findOne(): Promise<null> {
		return null;
	}

	listIndexes() {
		return { toArray: async () => [] };
	}

	async createIndex(): Promise<string> {
		return "index";
	}
}

class FakeDb {
	readonly collections = new Map<string, FakeCollection>();

	collection(name: string): FakeCollection {
		let c = this.collections.get(name);
		if (!c) this.collections.set(name, (c = new FakeCollection()));
		return c;
	}
}

/** Yields the pieces, then fails: a part whose upload broke off. */
function failingAfter(pieces: Buffer[], error: Error): Readable {
	return Readable.from(
		(async function* () {
			yield* pieces;
			throw error;
		})()
	);
}

describe("GridFS upload whose source fails midway", () => {
	const open = () => {
		const db = new FakeDb();
		const storage = new GridFsFileStorage(db as unknown as Db, async () => undefined);
		return { storage, chunks: db.collection("files.chunks"), files: db.collection("files.files") };
	};

	it.each([
		["pieces larger than a chunk", [Buffer.alloc(512 * 1024, 1), Buffer.alloc(512 * 1024, 2)]],
		["pieces smaller than a chunk", Array.from({ length: 12 }, (_, i) => Buffer.alloc(64 * 1024, i))],
		["one piece that ends exactly on a chunk", [Buffer.alloc(255 * 1024, 7)]]
	])("should rethrow the error and leave no chunk, having waited for the inserts in flight, with %s", async (_label, pieces) => {
		const { storage, chunks, files } = open();
		const error = new Error("cut short");
		await expect(storage.put(failingAfter(pieces, error))).rejects.toBe(error);
		await chunks.idle();
		expect(chunks.inFlightAtDelete).toEqual([0]);
		expect(chunks.docs.map(d => d.n)).toEqual([]);
		expect(files.docs).toEqual([]);
	});

	it("should store every chunk and the files document when the source ends normally", async () => {
		const { storage, chunks, files } = open();
		const bytes = Buffer.alloc(600 * 1024, 3);
		const stored = await storage.put(Readable.from([bytes.subarray(0, 100), bytes.subarray(100)]));
		expect(stored.size).toBe(bytes.length);
		expect(chunks.docs.map(d => d.n)).toEqual([0, 1, 2]);
		expect(Buffer.concat(chunks.docs.map(d => Buffer.from(d.data as Uint8Array))).equals(bytes)).toBe(true);
		expect(files.docs).toMatchObject([{ length: bytes.length, chunkSize: 255 * 1024 }]);
	});
});
