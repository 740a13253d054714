/**
 * DATA_DIR at start-up: it must exist (it is made, owner-only, when missing), be a
 * directory, and take a write, or the node does not start, with a message that names
 * the path, the variable and the cause. Everything the platform keeps there (store,
 * keys, outbox, uploads) holds personal data or secrets, so it is owner-only whatever
 * mode the directory was created with (a Dockerfile's mkdir or a volume mount makes it
 * 0755): the process's umask is 077, every file is created 0600 and every directory
 * 0700, and a store or key file, or a directory of ours, that others can read is made
 * owner-only here, with a warning that says so.
 */
import fs from "node:fs";
import path from "node:path";
import { ConfigError, type Config } from "../config";
import { LEGACY_KEY_FILE } from "../idp/keys";

export const STORE_FILE = "store.sqlite";
/** The store and its journal files, and the key file of versions before the store kept keys. */
const SECRET_FILES = [STORE_FILE, `${STORE_FILE}-wal`, `${STORE_FILE}-shm`, LEGACY_KEY_FILE];
/** Directories the platform makes under DATA_DIR. */
const OWN_DIRS = ["", "files", "outbox", path.join("outbox", "sms"), "keys"];

const CAUSES: Record<string, string> = {
	EACCES: "permission denied",
	EPERM: "operation not permitted",
	EROFS: "read-only file system",
	ENOSPC: "no space left on device",
	EDQUOT: "disk quota exceeded",
	ENOTDIR: "a path component is not a directory",
	EEXIST: "it exists and is not a directory",
	ELOOP: "too many symbolic links"
};

function cause(err: unknown): string {
	const code = (err as NodeJS.ErrnoException).code ?? "";
	return CAUSES[code] ? `${code}, ${CAUSES[code]}` : ((err as Error).message ?? String(err));
}

function unusable(dir: string, why: string): ConfigError {
	return new ConfigError("DATA_DIR", `(${dir}) cannot be used: ${why}. Point DATA_DIR at a directory this process (uid ${process.getuid?.() ?? "?"}) can write.`);
}

/**
 * Whether this node keeps anything under DATA_DIR: the embedded store and its files,
 * or a dispatcher writing to the file outboxes. A gateway-only node, or one on MongoDB
 * with real providers, never touches it.
 */
export function usesDataDir(config: Config): boolean {
	const storeful = config.services.some(s => s !== "api-gateway");
	return (storeful && !config.mongodbUrl) || fileOutboxes(config).length > 0;
}

/** The file outboxes this node's dispatcher writes messages to (lib/email/file.ts, lib/sms/file.ts). */
export function fileOutboxes(config: Config): string[] {
	if (!config.services.includes("dispatcher")) return [];
	const { emailProviders, sms } = config.notifications;
	return [
		...(emailProviders.includes("file") ? [path.join(config.dataDir, "outbox")] : []),
		...(sms.providers.includes("file") ? [path.join(config.dataDir, "outbox", "sms")] : [])
	];
}

/**
 * A recursive mkdir on a read-only file system says ENOENT; making the first missing
 * directory alone tells the real cause (EROFS, EACCES, ...).
 */
function whyNotCreated(dir: string, err: unknown): unknown {
	if ((err as NodeJS.ErrnoException).code !== "ENOENT") return err;
	let first = path.resolve(dir);
	while (!fs.existsSync(path.dirname(first)) && path.dirname(first) !== first) first = path.dirname(first);
	try {
		fs.mkdirSync(first);
		fs.rmdirSync(first);
	} catch (real) {
		return real;
	}
	return err;
}

export interface Repair {
	path: string;
	from: number;
	to: number;
}

/**
 * Makes DATA_DIR usable or throws a ConfigError naming it; returns what it made
 * owner-only (the caller logs each).
 */
export function prepareDataDir(dir: string): Repair[] {
	try {
		fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	} catch (err) {
		throw unusable(dir, `it cannot be created (${cause(whyNotCreated(dir, err))})`);
	}
	const stat = fs.statSync(dir);
	if (!stat.isDirectory()) throw unusable(dir, "it is not a directory");
	// Access checks can lie (root, ACLs, read-only mounts): a real write tells.
	const probe = path.join(dir, `.write-test-${process.pid}`);
	try {
		fs.writeFileSync(probe, "", { mode: 0o600 });
	} catch (err) {
		throw unusable(dir, `it does not take writes (${cause(err)})`);
	} finally {
		fs.rmSync(probe, { force: true });
	}
	const repairs: Repair[] = [];
	const tighten = (p: string, want: number) => {
		let s: fs.Stats;
		try {
			s = fs.lstatSync(p);
		} catch {
			return;
		}
		const mode = s.mode & 0o777;
		if (s.isSymbolicLink() || (mode & 0o077) === 0) return;
		if (s.uid !== process.getuid?.()) {
			// A directory someone else made (a mount point, say) is theirs to set; what we keep in it is 0600 anyway.
			if (s.isDirectory()) return;
			throw unusable(dir, `${p} belongs to another user and can be read by others (mode ${mode.toString(8)})`);
		}
		try {
			fs.chmodSync(p, want);
		} catch (err) {
			throw unusable(dir, `${p} can be read by others (mode ${mode.toString(8)}) and cannot be made owner-only (${cause(err)})`);
		}
		repairs.push({ path: p, from: mode, to: want });
	};
	for (const d of OWN_DIRS) tighten(path.join(dir, d), 0o700);
	for (const f of SECRET_FILES) tighten(path.join(dir, f), 0o600);
	return repairs;
}
