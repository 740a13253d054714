/**
 * One contract for every file storage backend: disk always, GridFS when a MongoDB
 * server is reachable (TEST_MONGODB_URL, or a mongod binary mongodb-memory-server can get).
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { MongoClient } from "mongodb";
import type { FileStorage } from "../../lib/files";
import { DiskFileStorage } from "../../lib/files/disk";
import { GridFsFileStorage } from "../../lib/files/gridfs";
import { mongoSource, startMongo } from "../helpers/mongo";
import { tempDir } from "../helpers/platform";
import { uniqueName } from "../helpers/services";

interface Backend {
	storage: FileStorage;
	/** How many stored objects exist, partial ones included (files on disk; GridFS files and chunks). */
	objects(): Promise<number>;
	cleanup(): Promise<void>;
}

async function collect(stream: Readable): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/** Yields the chunks, then fails: a part whose upload broke off. */
function failingAfter(chunks: Buffer[], error: Error): Readable {
	return Readable.from(
		(async function* () {
			yield* chunks;
			throw error;
		})()
	);
}

function contract(name: string, open: () => Promise<Backend>) {
	describe(`file storage contract: ${name}`, () => {
		let backend: Backend;
		let storage: FileStorage;

		beforeAll(async () => {
			backend = await open();
			storage = backend.storage;
		});
		afterAll(() => backend?.cleanup());

		it("should return the same bytes under a new id when a stream is stored", async () => {
			const bytes = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
			bytes.write("%PDF-1.7");
			const stored = await storage.put(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
			expect(stored.size).toBe(bytes.length);
			const again = await storage.put(Readable.from([bytes]));
			expect(again.fileId).not.toBe(stored.fileId);
			// equals(), not toEqual(): Jest compares a Buffer element by element, slowly.
			expect((await collect((await storage.get(stored.fileId))!)).equals(bytes)).toBe(true);
		});

		it("should rethrow the source's error and keep nothing when the stream fails midway", async () => {
			const before = await backend.objects();
			const error = new Error("cut short");
			await expect(storage.put(failingAfter([Buffer.alloc(512 * 1024, 1), Buffer.alloc(512 * 1024, 2)], error))).rejects.toBe(error);
			await expect(backend.objects()).resolves.toBe(before);
		});

		it("should answer null when no file has the id, however the id looks", async () => {
			for (const id of ["00000000-0000-4000-8000-000000000000", "000000000000000000000000", "../../etc/passwd", "", "a/b"]) {
				await expect(storage.get(id)).resolves.toBeNull();
				await expect(storage.remove(id)).resolves.toBe(false);
			}
		});

		it("should remove a file once when asked twice", async () => {
			const { fileId } = await storage.put(Readable.from([Buffer.from("Ada\n")]));
			await expect(storage.remove(fileId)).resolves.toBe(true);
			await expect(storage.remove(fileId)).resolves.toBe(false);
			await expect(storage.get(fileId)).resolves.toBeNull();
		});

		it("should resolve every concurrent remove of one file, true for exactly one, when they race", async () => {
			const before = await backend.objects();
			const { fileId } = await storage.put(Readable.from([Buffer.alloc(600 * 1024, 3)]));
			const results = await Promise.all(Array.from({ length: 8 }, () => storage.remove(fileId)));
			expect(results.filter(Boolean)).toHaveLength(1);
			await expect(storage.get(fileId)).resolves.toBeNull();
			// GridFS counts the file's chunks too: they go with it.
			await expect(backend.objects()).resolves.toBe(before);
		});
	});
}

contract("disk", async () => {
	const dir = path.join(tempDir(), "files");
	return {
		storage: new DiskFileStorage(dir),
		objects: async () => (fs.existsSync(dir) ? fs.readdirSync(dir).length : 0),
		cleanup: async () => fs.rmSync(path.dirname(dir), { recursive: true, force: true })
	};
});

describe("disk file storage", () => {
	it("should name files by generated ids only when the stream is stored", async () => {
		const dir = path.join(tempDir(), "files");
		const storage = new DiskFileStorage(dir);
		const { fileId } = await storage.put(Readable.from([Buffer.from("Ada\n")]));
		expect(fs.readdirSync(dir)).toEqual([fileId]);
		expect(fileId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(fs.statSync(path.join(dir, fileId)).mode & 0o777).toBe(0o600);
		fs.rmSync(path.dirname(dir), { recursive: true, force: true });
	});
});

const mongo = mongoSource();
if (mongo.reason) {
	console.warn(`Skipping the GridFS file storage contract: ${mongo.reason}`);
	describe.skip("file storage contract: gridfs", () => it("needs a MongoDB server", () => undefined));
} else {
	contract("gridfs", async () => {
		const server = await startMongo(mongo);
		const dbName = uniqueName("files").replace(/[^a-z0-9]/gi, "_");
		const storage = GridFsFileStorage.connect(server.url, dbName);
		const client = await MongoClient.connect(server.url);
		const db = client.db(dbName);
		return {
			storage,
			objects: async () => (await db.collection("files.files").countDocuments()) + (await db.collection("files.chunks").countDocuments()),
			cleanup: async () => {
				await db.dropDatabase();
				await client.close();
				await storage.close();
				await server.stop();
			}
		};
	});
}
