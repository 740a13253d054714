/**
 * Files on local disk, for the embedded store: DATA_DIR/files/<uuid>. A file is written
 * as <uuid>.part and renamed once complete, so a reader never sees a partial file; the
 * .part is removed when the write fails, and one a crash left is removed later
 * (removeAbandoned).
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FileStorage, StoredFile } from "./types";

const FILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PARTIAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.part$/;

/** What the probe writes: a few file-system blocks, so a disk with no free block refuses it. */
const PROBE_BYTES = 16 * 1024;

function isMissing(err: unknown): boolean {
	return (err as NodeJS.ErrnoException).code === "ENOENT";
}

export class DiskFileStorage implements FileStorage {
	readonly kind = "disk" as const;
	private ready = false;

	constructor(readonly dir: string) {}

	/** Only ids this class generated map to a path; anything else names no file. */
	private pathOf(fileId: string): string | null {
		return FILE_ID.test(fileId) ? path.join(this.dir, fileId) : null;
	}

	async put(source: Readable): Promise<StoredFile> {
		// Synchronous, so the pipeline below is attached before this call first yields.
		if (!this.ready) {
			fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
			this.ready = true;
		}
		const fileId = randomUUID();
		const final = path.join(this.dir, fileId);
		const partial = `${final}.part`;
		// flush: fsync before close, so the rename below never publishes an empty file after a crash.
		const out = fs.createWriteStream(partial, { flags: "wx", mode: 0o600, flush: true });
		try {
			await pipeline(source, out);
			await fs.promises.rename(partial, final);
		} catch (err) {
			await fs.promises.rm(partial, { force: true });
			throw err;
		}
		return { fileId, size: out.bytesWritten };
	}

	async get(fileId: string): Promise<Readable | null> {
		const file = this.pathOf(fileId);
		if (!file) return null;
		try {
			// Opening first (rather than checking, then streaming) leaves no gap for a removal.
			const handle = await fs.promises.open(file, "r");
			return handle.createReadStream();
		} catch (err) {
			if (isMissing(err)) return null;
			throw err;
		}
	}

	async remove(fileId: string): Promise<boolean> {
		const file = this.pathOf(fileId);
		if (!file) return false;
		try {
			await fs.promises.unlink(file);
			return true;
		} catch (err) {
			if (isMissing(err)) return false;
			throw err;
		}
	}

	/**
	 * Several nodes may share this directory, so a partial file counts as abandoned only
	 * by its age: a write under way touches it at least once per `idleMs`.
	 */
	async removeAbandoned(idleMs: number): Promise<number> {
		let names: string[];
		try {
			names = await fs.promises.readdir(this.dir);
		} catch (err) {
			if (isMissing(err)) return 0;
			throw err;
		}
		const touchedBefore = Date.now() - idleMs;
		let removed = 0;
		for (const name of names.filter(n => PARTIAL.test(n))) {
			const file = path.join(this.dir, name);
			const stat = await fs.promises.stat(file).catch(() => null);
			if (!stat || stat.mtimeMs >= touchedBefore) continue;
			await fs.promises.rm(file, { force: true });
			removed++;
		}
		return removed;
	}

	/** A full or read-only disk refuses this as it would refuse an upload. */
	probeWrite(): Promise<void> {
		return probeDirectory(this.dir);
	}

	async close(): Promise<void> {}
}

/**
 * Writes a few blocks to a file of its own in `dir`, flushes them to the disk, and
 * removes it: proof that the disk under `dir` takes writes (lib/storage-health.ts).
 */
export async function probeDirectory(dir: string): Promise<void> {
	await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
	const file = path.join(dir, `.probe-${process.pid}-${randomUUID()}`);
	try {
		await fs.promises.writeFile(file, Buffer.alloc(PROBE_BYTES), { mode: 0o600, flush: true });
	} finally {
		await fs.promises.rm(file, { force: true });
	}
}
