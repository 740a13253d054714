/**
 * A write that fails because the disk is full, read-only or gone (ENOSPC, SQLITE_FULL,
 * MongoDB's OutOfDiskSpace, ...) is a storage fault, not a bug: the request is answered
 * 503 STORAGE_UNAVAILABLE with Retry-After (lib/process/storage-health.ts tracks when it ends).
 */
import { Errors } from "moleculer";
import type { ErrorData } from "./index";

/** Seconds a client is asked to wait after STORAGE_UNAVAILABLE. */
export const STORAGE_RETRY_AFTER_SECONDS = 30;

// errno codes of a file system that cannot take the write.
const ERRNO = new Set(["ENOSPC", "EDQUOT", "EROFS", "EIO", "EACCES", "EPERM"]);
// SQLite's primary result codes: SQLITE_PERM 3, SQLITE_READONLY 8, SQLITE_IOERR 10, SQLITE_FULL 13, SQLITE_CANTOPEN 14.
const SQLITE = new Set([3, 8, 10, 13, 14]);
// MongoDB: OutOfDiskSpace (14031), and the server's own message for a full disk.
const MONGO_CODES = new Set([14031]);
const MONGO_MESSAGE = /no space left on device|out of disk space/i;

export interface StorageErrorShape {
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

