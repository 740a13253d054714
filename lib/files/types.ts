/**
 * Where uploaded files live: under DATA_DIR/files with the embedded store, in GridFS
 * with MongoDB. Every file is named by an id this module generates; nothing a client
 * sends ever becomes part of a path or a key.
 */
import type { Readable } from "node:stream";

export interface StoredFile {
	fileId: string;
	size: number;
}

export interface FileStorage {
	readonly kind: "disk" | "gridfs";
	/**
	 * Stores the stream under a new id and resolves once it is complete and durable.
	 * The source is attached before put() first yields, so its errors always have a
	 * listener. When the source fails, nothing of it stays reachable and its error is
	 * rethrown.
	 */
	put(source: Readable): Promise<StoredFile>;
	/** The file's bytes, or null when no file has this id. */
	get(fileId: string): Promise<Readable | null>;
	/**
	 * Removes the file; false when there was none. Idempotent: of concurrent removes of
	 * one file exactly one resolves true, and none throws for the file being gone.
	 */
	remove(fileId: string): Promise<boolean>;
	/**
	 * Storage that writes a partial file beside the final one (disk) removes those no
	 * write has touched for `idleMs`: what a crash cut off. Returns how many went.
	 */
	removeAbandoned?(idleMs: number): Promise<number>;
	/** Makes one small durable write and removes it; throws when the storage cannot take it. */
	probeWrite(): Promise<void>;
	close(): Promise<void>;
}
