/**
 * The embedded store as the platform runs it: a worker thread (sqlite-worker.ts)
 * owns the write connection and commits there, so the fsync of synchronous = FULL
 * never blocks this thread's event loop, and one commit covers every write that
 * arrived meanwhile. Writes, claims and batches are posted to it and resolve once
 * committed. Reads run here, on a read-only connection to the same file: in WAL mode a
 * read sees every commit made before it starts, so a write is visible to any read
 * made after it resolved, and a read never waits behind a commit.
 *
 * If the worker dies, the calls it held fail (code STORE_WORKER_EXITED; whether their
 * writes were committed is unknown, as after a crash) and the next call starts a new
 * one; ping fails while none can start.
 */
import fs from "node:fs";
import path from "node:path";
import { Worker, type MessagePort } from "node:worker_threads";
import type { OutboxHost } from "./types";
import { LiveSet } from "../live-set";
import { isStorageFault } from "../errors/storage-faults";
import { specOf } from "./schema";
import { SqliteStore, toText } from "./sqlite";
import { fromWire, packBatch, type Op, type Reply, type WorkerData } from "./sqlite-protocol";
import type { BatchGroup, Collection, Doc, Filter, FindOptions, Sort, Store, Update } from "./types";

// Compiled, the worker is beside this module. Jest runs the TypeScript sources, which a
// thread cannot load: there it is the build's (`npm test` builds first).
const WORKER_FILE = __filename.endsWith(".ts") ? path.resolve(__dirname, "../../dist/lib/store/sqlite-worker.js") : path.join(__dirname, "sqlite-worker.js");

/**
 * The worker's young generation, in MB. Left to V8, a thread's may grow to 192 MB on a
 * machine with 24 GB (three times its 64 MB semi-space). In a 15-minute soak the store
 * thread kept up to 149 MB committed around 7 to 10 MB of live objects, which showed
 * as resident memory. 48 MB (16 MB semi-spaces) still holds many batches. By an
 * interleaved A/B of the accept load (5 rounds) it was within noise of the default:
 * 1.013 of its req/s and 1.012 of its CPU per accept. Issue 39 (peak RSS <= 150 MB in
 * the soak) took it to 12 MB (4 MB semi-spaces): docs/benchmarks.md has the figures.
 */
export const WORKER_YOUNG_GENERATION_MB = 12;

/**
 * The worker's old generation limit, in MB. Not a budget the store thread comes near (it
 * holds 7 to 10 MB of live objects: rows on their way to the main thread) but what sets
 * how far V8 lets it grow between full collections: with the default limit (a quarter
 * of the machine's memory) V8 may grow a heap to four times what survived the last one,
 * and at 256 MB or less it keeps to 1.3 times (heap-controller.cc, MaxGrowingFactor). In
 * a 60 s soak the thread's heap peaked at 41 MB committed around 9 MB live with the
 * default, and at 29 MB with this. A thread that ran out anyway exits and is restarted
 * at the next operation, failing only what it held (STORE_WORKER_EXITED).
 */
export const WORKER_OLD_GENERATION_MB = 256;

export interface SqliteWorkerStoreOptions {
	/** Lets tests make the worker exit at once (crashWorker). */
	testHooks?: boolean;
	/** Hears of each write the disk could not take (lib/process/storage-health.ts). */
	onStorageFault?: (err: Error) => void;
}

interface Pending {
	resolve: (value: unknown) => void;
	reject: (err: Error) => void;
}

class WorkerCollection<T extends Doc> implements Collection<T> {
	private ensured = false;
	private ensuring: Promise<void> | null = null;

	constructor(private readonly store: SqliteWorkerStore, readonly name: string) {
		void this.ensure().catch(() => undefined);
	}

	/** The worker creates the table and its indexes; reads wait for that once. */
	private ensure(): Promise<void> {
		this.ensuring ??= this.store.request({ op: "ensure", collection: this.name }).then(
			() => {
				this.ensured = true;
			},
			err => {
				this.ensuring = null;
				throw err;
			}
		);
		return this.ensuring;
	}

	private async reader(): Promise<Collection<T>> {
		if (!this.ensured) await this.ensure();
		return this.store.reader().collection<T>(this.name);
	}

	async insert(doc: T): Promise<T> {
		await this.store.request(toText({ op: "insert", collection: this.name, doc }));
		return doc;
	}

	async get(id: string): Promise<T | null> {
		return (await this.reader()).get(id);
	}

	async findOne(filter: Filter, opts?: FindOptions): Promise<T | null> {
		return (await this.reader()).findOne(filter, opts);
	}

	async find(filter: Filter, opts?: FindOptions): Promise<T[]> {
		return (await this.reader()).find(filter, opts);
	}

	async count(filter: Filter): Promise<number> {
		return (await this.reader()).count(filter);
	}

	findOneAndUpdate(filter: Filter, update: Update, opts: { sort?: Sort } = {}): Promise<T | null> {
		return this.store.request({ op: "findOneAndUpdate", collection: this.name, filter, update, sort: opts.sort });
	}

	claimMany(filter: Filter, update: Update, opts: { sort?: Sort; limit: number }): Promise<T[]> {
		return this.store.request({ op: "claimMany", collection: this.name, filter, update, sort: opts.sort, limit: opts.limit });
	}

	updateMany(filter: Filter, update: Update): Promise<number> {
		return this.store.request({ op: "updateMany", collection: this.name, filter, update });
	}

	deleteMany(filter: Filter): Promise<number> {
		return this.store.request({ op: "deleteMany", collection: this.name, filter });
	}
}

export class SqliteWorkerStore implements Store, OutboxHost {
	readonly kind = "sqlite" as const;
	private worker: Worker | null = null;
	// Not a Map keyed by id: an entry per batch comes and goes (lib/live-set.ts says why
	// that matters). The worker answers in order, so the one answered is the first.
	private readonly pending = new LiveSet<Pending & { id: number }>();
	private nextId = 1;
	private readConnection: SqliteStore | null = null;
	private readonly collections = new Map<string, WorkerCollection<Doc>>();
	private closing: Promise<void> | null = null;

	constructor(readonly file: string, private readonly options: SqliteWorkerStoreOptions = {}) {
		fs.mkdirSync(path.dirname(file), { recursive: true });
	}

	collection<T extends Doc>(name: string): Collection<T> {
		let c = this.collections.get(name);
		if (!c) {
			specOf(name);
			c = new WorkerCollection<Doc>(this, name);
			this.collections.set(name, c);
		}
		return c as unknown as Collection<T>;
	}

	async batch(groups: BatchGroup[]): Promise<boolean[]> {
		// Turned into JSON here: the thread that commits, which every accept waits for, gets text.
		return this.request({ op: "batch", batch: packBatch(groups) });
	}

	async ping(): Promise<void> {
		await this.request({ op: "ping" });
	}

	async probeWrite(): Promise<void> {
		await this.request({ op: "probe" });
	}

	/** Opened once the worker has made the file (a collection's first reply says so). */
	reader(): SqliteStore {
		if (this.closing) throw new Error("The store is closed");
		this.readConnection ??= new SqliteStore(this.file, true);
		return this.readConnection;
	}

	/** Posts one request to the worker (starting it if none runs) and resolves with its answer. */
	request<R>(op: Op): Promise<R> {
		if (this.closing) return Promise.reject(new Error("The store is closed"));
		const worker = this.worker ?? this.start();
		const id = this.nextId++;
		return new Promise<R>((resolve, reject) => {
			// Held calls keep the process alive, as pending I/O does; an idle worker does not.
			if (this.pending.size === 0) worker.ref();
			this.pending.add({ id, resolve: resolve as (value: unknown) => void, reject });
			worker.postMessage({ ...op, id });
		});
	}

	/**
	 * Runs the .eml outbox on this store's thread (lib/email/outbox-thread.ts says why):
	 * it answers on `port`, and that port closes when the thread ends.
	 */
	hostOutbox(port: MessagePort, dir: string, serve: string): void {
		if (this.closing) {
			port.close();
			return;
		}
		const worker = this.worker ?? this.start();
		worker.postMessage({ op: "hostOutbox", id: 0, port, dir, serve }, [port]);
	}

	/** Test hook: the worker exits at once, as if it had crashed, with whatever it holds. */
	crashWorker(): void {
		if (!this.options.testHooks) throw new Error("crashWorker needs the testHooks option");
		this.worker?.postMessage({ op: "exit", id: 0 });
	}

	private start(): Worker {
		const data: WorkerData = { file: this.file, testHooks: this.options.testHooks === true };
		const worker = new Worker(WORKER_FILE, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB, maxOldGenerationSizeMb: WORKER_OLD_GENERATION_MB } });
		worker.unref();
		let failure: Error | null = null;
		worker.on("message", (replies: Reply[]) => this.answer(replies));
		worker.on("error", err => (failure = err));
		worker.on("exit", code => {
			this.worker = null;
			const err = Object.assign(new Error(`The store's SQLite worker stopped (exit code ${code})${failure ? `: ${failure.message}` : ""}`), {
				code: "STORE_WORKER_EXITED"
			});
			const held = this.pending.clear();
			for (const p of held) p.reject(err);
		});
		this.worker = worker;
		return worker;
	}

	private answer(replies: Reply[]): void {
		for (const r of replies) {
			const p = this.pending.take(q => q.id === r.id);
			if (!p) continue;
			if (r.error) {
				const err = fromWire(r.error);
				if (this.options.onStorageFault && isStorageFault(err)) this.options.onStorageFault(err);
				p.reject(err);
			} else p.resolve(r.value);
		}
		// While closing, the worker's exit is awaited: it must keep the process alive until then.
		if (this.pending.size === 0 && !this.closing) this.worker?.unref();
	}

	/** Work already posted is committed and answered first; then the worker closes the file and exits. */
	close(): Promise<void> {
		this.closing ??= (async () => {
			this.readConnection?.db.close();
			this.readConnection = null;
			const worker = this.worker;
			if (!worker) return;
			const exited = new Promise<void>(resolve => worker.once("exit", () => resolve()));
			worker.ref();
			worker.postMessage({ op: "close", id: 0 });
			await exited;
		})();
		return this.closing;
	}
}
