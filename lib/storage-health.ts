/**
 * Whether this node's storage takes writes. A write that fails because the disk is
 * full, read-only or gone (ENOSPC, SQLITE_FULL, MongoDB's OutOfDiskSpace, ...) is a
 * storage fault, not a bug: the request is answered 503 STORAGE_UNAVAILABLE with
 * Retry-After, readiness turns 503, and the first such error is logged once (with a
 * rollback's own failure beside it). Readiness then probes with a real write; the
 * first one that succeeds ends the fault, without a restart.
 */
import type { Logger } from "moleculer";
import { Errors } from "moleculer";
import type { ErrorData } from "./errors";

/** Seconds a client is asked to wait after STORAGE_UNAVAILABLE. */
export const STORAGE_RETRY_AFTER_SECONDS = 30;

// errno codes of a file system that cannot take the write.
const ERRNO = new Set(["ENOSPC", "EDQUOT", "EROFS", "EIO", "EACCES", "EPERM"]);
// SQLite's primary result codes: SQLITE_PERM 3, SQLITE_READONLY 8, SQLITE_IOERR 10, SQLITE_FULL 13, SQLITE_CANTOPEN 14.
const SQLITE = new Set([3, 8, 10, 13, 14]);
// MongoDB: OutOfDiskSpace (14031), and the server's own message for a full disk.
const MONGO_CODES = new Set([14031]);
const MONGO_MESSAGE = /no space left on device|out of disk space/i;

interface StorageErrorShape {
	code?: unknown;
	errcode?: unknown;
	message?: unknown;
	name?: unknown;
}

/** Whether err says the storage could not take a write (rather than the write being wrong). */
export function isStorageFault(err: unknown): boolean {
	if (!err || typeof err !== "object") return false;
	const e = err as StorageErrorShape;
	if (typeof e.code === "string" && ERRNO.has(e.code)) return true;
	// node:sqlite: code ERR_SQLITE_ERROR, errcode the (extended) SQLite result code.
	if (typeof e.errcode === "number" && SQLITE.has(e.errcode & 0xff)) return true;
	if (typeof e.name === "string" && e.name.startsWith("Mongo")) {
		if (typeof e.code === "number" && MONGO_CODES.has(e.code)) return true;
		if (typeof e.message === "string" && MONGO_MESSAGE.test(e.message)) return true;
	}
	return false;
}

/** The answer to a request whose write the storage could not take: safe to retry later. */
export const storageUnavailable = () =>
	new Errors.MoleculerRetryableError("The platform cannot store data right now. Try again shortly.", 503, "STORAGE_UNAVAILABLE", {
		retryAfter: STORAGE_RETRY_AFTER_SECONDS
	} satisfies ErrorData);

/** What a store or file storage offers readiness to find out whether a write succeeds again. */
export interface WriteProbe {
	/** Writes (and makes durable) something small; throws when it cannot. */
	probeWrite(): Promise<void>;
}

export class StorageHealth {
	private fault: { since: number; code: string } | null = null;

	/** log: the logger to use, looked up when needed (the broker is attached after this is made). */
	constructor(private readonly log: () => Pick<Logger, "error" | "info"> | undefined = () => undefined) {}

	/** Whether the last storage fault has not yet been followed by a successful write. */
	get failing(): boolean {
		return this.fault !== null;
	}

	/**
	 * Records a storage fault. The first of a run is logged in full, with the rollback's
	 * failure beside it when one was attached; the rest only count until a write succeeds.
	 */
	failed(err: unknown, where: string): void {
		if (this.fault) return;
		const e = err as StorageErrorShape & { rollbackError?: unknown };
		const code = typeof e.code === "string" ? e.code : typeof e.errcode === "number" ? `SQLITE ${e.errcode}` : String(e.name ?? "Error");
		this.fault = { since: Date.now(), code };
		this.log()?.error(`Storage cannot take writes (${where}): ${String(e.message ?? err)}; answering 503 STORAGE_UNAVAILABLE until a write succeeds`, {
			err,
			...(e.rollbackError ? { rollbackError: e.rollbackError } : {})
		});
	}

	/** A write succeeded: the fault, if any, is over. */
	succeeded(): void {
		if (!this.fault) return;
		this.log()?.info(`Storage takes writes again after ${Math.round((Date.now() - this.fault.since) / 1000)} s (${this.fault.code})`);
		this.fault = null;
	}

	/**
	 * Readiness: healthy unless a fault was seen; then each probe must write for real
	 * before the node reports ready again.
	 */
	async check(probes: WriteProbe[]): Promise<void> {
		if (!this.fault) return;
		for (const p of probes) await p.probeWrite();
		this.succeeded();
	}
}
