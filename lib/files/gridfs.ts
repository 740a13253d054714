/**
 * Files in MongoDB GridFS (bucket "files") on the official driver. GridFS writes the
 * files document only after the last chunk, so an unfinished upload is never visible;
 * a failed one has its chunks deleted.
 */
import type { Readable, Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { GridFSBucket, MongoClient, ObjectId, type Collection, type Db, type GridFSBucketWriteStream, type GridFSChunk, type GridFSFile } from "mongodb";
import type { FileStorage, StoredFile } from "./types";

const FILE_ID = /^[0-9a-f]{24}$/;
const BUCKET = "files";

function write(upload: Writable, bytes: Buffer): Promise<void> {
	return new Promise((resolve, reject) => upload.write(bytes, err => (err ? reject(err) : resolve())));
}

/**
 * Writes the source into the upload and ends it, each write at most one chunk long and
 * awaited before the next. GridFSBucketWriteStream (node_modules/mongodb/lib/gridfs/
 * upload.js) inserts a chunk whenever its buffer fills; a write of at most a chunk
 * fills it at most once, and its callback comes only when that insert has settled.
 * So when this returns or throws, no chunk insert is in flight, and removing a failed
 * upload's chunks cannot run ahead of one that lands later as an orphan. pipeline()
 * does not give that: on a source error it destroys the upload at once, without
 * waiting for the insert under way, and a larger write starts several inserts at once
 * whose callback comes early when one fails.
 */
async function feed(source: Readable, upload: GridFSBucketWriteStream): Promise<void> {
	const size = upload.chunkSizeBytes;
	for await (const data of source) {
		const bytes = typeof data === "string" ? Buffer.from(data) : (data as Buffer);
		for (let at = 0; at < bytes.length; at += size) await write(upload, bytes.subarray(at, at + size));
	}
	upload.end();
	await finished(upload);
}

export class GridFsFileStorage implements FileStorage {
	readonly kind = "gridfs" as const;
	private readonly bucket: GridFSBucket;
	private readonly files: Collection<GridFSFile>;
	private readonly chunks: Collection<GridFSChunk>;
	private readonly probes: Collection<{ _id: string; at: Date }>;

	/** Over the database in the URL's path (or dbName), on a client of its own that close() ends. */
	static connect(url: string, dbName?: string): GridFsFileStorage {
		const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
		return new GridFsFileStorage(client.db(dbName), () => client.close());
	}

	constructor(
		db: Db,
		private readonly closeClient: () => Promise<void>
	) {
		this.bucket = new GridFSBucket(db, { bucketName: BUCKET });
		// The collection names the GridFS specification gives a bucket.
		this.files = db.collection<GridFSFile>(`${BUCKET}.files`);
		this.chunks = db.collection<GridFSChunk>(`${BUCKET}.chunks`);
		this.probes = db.collection<{ _id: string; at: Date }>("_probe");
	}

	/** A journaled write to the bucket's database (the store's probe document): it refuses what an upload would be refused. */
	async probeWrite(): Promise<void> {
		await this.probes.updateOne({ _id: "probe" }, { $set: { at: new Date() } }, { upsert: true, writeConcern: { w: "majority", journal: true } });
	}

	private idOf(fileId: string): ObjectId | null {
		return FILE_ID.test(fileId) ? ObjectId.createFromHexString(fileId) : null;
	}

	async put(source: Readable): Promise<StoredFile> {
		const id = new ObjectId();
		const upload = this.bucket.openUploadStreamWithId(id, id.toHexString());
		// Its failures reach feed() through the write and finish callbacks; without a listener an 'error' event would end the process.
		upload.on("error", () => undefined);
		try {
			await feed(source, upload);
		} catch (err) {
			await this.discard(upload);
			throw err;
		}
		return { fileId: id.toHexString(), size: upload.length };
	}

	/**
	 * Best effort: when even this fails (the server is gone), the chunks left behind have
	 * no files document, so get() cannot reach them.
	 */
	private async discard(upload: GridFSBucketWriteStream): Promise<void> {
		try {
			if (upload.state.streamEnd) await this.bucket.delete(upload.id);
			else if (!upload.state.aborted) await upload.abort();
		} catch {
			// See above: nothing reachable remains.
		}
	}

	async get(fileId: string): Promise<Readable | null> {
		const id = this.idOf(fileId);
		if (!id) return null;
		const found = await this.bucket.find({ _id: id }, { limit: 1 }).toArray();
		return found.length ? this.bucket.openDownloadStream(id) : null;
	}

	/**
	 * What GridFSBucket.delete does, files document first so no reader finds a file
	 * without its chunks, but answering "there was none" instead of throwing: of two
	 * concurrent removes exactly one deletes the files document, and the other resolves false.
	 */
	async remove(fileId: string): Promise<boolean> {
		const id = this.idOf(fileId);
		if (!id) return false;
		const { deletedCount } = await this.files.deleteOne({ _id: id });
		await this.chunks.deleteMany({ files_id: id });
		return deletedCount === 1;
	}

	close(): Promise<void> {
		return this.closeClient();
	}
}
