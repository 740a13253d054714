/**
 * The thread that owns a process's SQLite write connection (see sqlite-thread.ts).
 * Every request that arrived while the last transaction committed is applied in one
 * IMMEDIATE transaction with synchronous = FULL: one fsync for all of them, and the
 * main thread's event loop never waits for it. Each caller still hears only after
 * the commit, with its own value or its own error: a failing statement undoes only
 * itself, and a request of several statements (batch, claim) runs in a savepoint.
 */
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { SqliteStore, whileBusy } from "./sqlite";
import { toWire, unpackBatch, type Reply, type Request, type WorkerData } from "./sqlite-protocol";
import type { Doc } from "./types";

const { file, testHooks } = workerData as WorkerData;
const port = parentPort!;
const store = new SqliteStore(file);

/**
 * Another process on the same file (nodes sharing DATA_DIR) may hold the write lock.
 * SQLite's own busy handler sleeps 1, 2, 5, 10... up to 100 ms between attempts, so a
 * waiter under steady contention wakes long after the lock is free: behind a
 * dispatcher node's claims and results, a CRITICAL accept waited up to ~100 ms. This
 * thread asks again after 0.2 ms, then 0.4, 0.8, then every millisecond, within the
 * same 5 s. (Asking every 0.2 ms throughout cost the lock's holders their CPU: with
 * an api node and two dispatcher nodes on one file, 20 % less throughput.)
 */
const WRITE_LOCK_WAIT_MS = 5000;
const WRITE_LOCK_FIRST_RETRY_MS = 0.2;
const WRITE_LOCK_MAX_RETRY_MS = 1;
// Only BEGIN IMMEDIATE below waits for the lock; everything else on this connection runs inside its transaction.
store.db.exec("PRAGMA busy_timeout = 0");

function beginImmediate(): void {
	// A worker thread may block: nothing else runs here, and requests queue meanwhile.
	whileBusy(() => store.db.exec("BEGIN IMMEDIATE"), WRITE_LOCK_WAIT_MS, WRITE_LOCK_FIRST_RETRY_MS, WRITE_LOCK_MAX_RETRY_MS);
}

let queue: Request[] = [];
let scheduled = false;

function apply(r: Request): unknown {
	switch (r.op) {
		case "ensure":
			store.collection(r.collection);
			return undefined;
		case "ping":
			return store.ping();
		case "probe":
			return store.probeWrite();
		case "batch":
			return store.batchStored(unpackBatch(r.batch));
		case "insert":
			// The caller has the document already: only the outcome crosses back.
			store.insertStored(r);
			return undefined;
		case "findOneAndUpdate":
			return store.collection<Doc>(r.collection).findOneAndUpdate(r.filter, r.update, { sort: r.sort });
		case "claimMany":
			return store.collection<Doc>(r.collection).claimMany(r.filter, r.update, { sort: r.sort, limit: r.limit });
		case "updateMany":
			return store.collection(r.collection).updateMany(r.filter, r.update);
		case "deleteMany":
			return store.collection(r.collection).deleteMany(r.filter);
		default:
			throw new Error(`Unknown store request ${r.op}`);
	}
}

function rollBack(cause: unknown): void {
	try {
		store.db.exec("ROLLBACK");
	} catch (err) {
		if (cause && typeof cause === "object") (cause as { rollbackError?: unknown }).rollbackError = err;
	}
}

/**
 * The store's methods are async in name only: their statements run when called, so
 * the awaits below resolve as microtasks and no other message is taken in between.
 */
async function flush(): Promise<void> {
	scheduled = false;
	const requests = queue;
	queue = [];
	const closing = requests.find(r => r.op === "close");
	const work = requests.filter(r => r.op !== "close");
	const replies: Reply[] = [];
	const known = new Set(store.collectionNames());
	let lost: unknown = null;
	try {
		beginImmediate();
	} catch (err) {
		lost = err;
	}
	for (const r of work) {
		if (lost) break;
		try {
			replies.push({ id: r.id, value: await apply(r) });
		} catch (err) {
			replies.push({ id: r.id, error: toWire(err) });
			// SQLITE_FULL, I/O errors and the like end the transaction: nothing of it stands.
			if (!store.db.isTransaction) lost = err;
		}
	}
	if (!lost) {
		try {
			store.db.exec("COMMIT");
		} catch (err) {
			lost = err;
		}
	}
	// A failed ROLLBACK (a full disk can refuse it too) travels beside the first error, never instead of it.
	if (lost && store.db.isTransaction) rollBack(lost);
	if (lost) {
		store.forgetCollections(store.collectionNames().filter(name => !known.has(name)));
		const error = toWire(lost);
		const answered = new Map(replies.map(r => [r.id, r]));
		port.postMessage(work.map(r => ({ id: r.id, error: answered.get(r.id)?.error ?? error })));
	} else {
		port.postMessage(replies);
	}
	if (closing) {
		for (const outbox of hosted) outbox.close();
		await store.close();
		port.postMessage([{ id: closing.id }]);
		port.close();
	}
}

/** Outboxes this thread serves (lib/email/outbox-thread.ts): closed with the store, or the thread would outlive it. */
const hosted = new Set<MessagePort>();

function hostOutbox(outbox: MessagePort, dir: string, serve: string): void {
	hosted.add(outbox);
	outbox.on("close", () => hosted.delete(outbox));
	// Loaded with the first outbox: nodemailer's composer is a few MB this thread need not hold otherwise.
	// The module's path comes with the request: the store imports nothing of the email module.
	(require(serve) as { serveOutbox(port: MessagePort, dir: string): void }).serveOutbox(outbox, dir);
}

port.on("message", (r: Request) => {
	if (r.op === "exit" && testHooks) process.exit(1);
	if (r.op === "hostOutbox") {
		hostOutbox(r.port, r.dir, r.serve);
		return;
	}
	queue.push(r);
	if (!scheduled) {
		scheduled = true;
		setImmediate(() => void flush());
	}
});
