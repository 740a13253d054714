/**
 * Embedded store on node:sqlite. One table per collection holding JSON text, with
 * expression indexes on the declared fields. WAL mode and IMMEDIATE transactions
 * make read-modify-write atomic across every process that shares the file.
 */
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { specOf } from "./schema";
import {
	DuplicateKeyError,
	checkFilter,
	checkFindOptions,
	checkUpdate,
	type BatchGroup,
	type BatchOp,
	type Collection,
	type Doc,
	type FieldCondition,
	type Filter,
	type FindOptions,
	type Scalar,
	type Sort,
	type Store,
	type Update
} from "./types";

/**
 * An insert as this store writes it: the document already turned into its JSON text.
 * The store thread (sqlite-thread.ts) is sent inserts in this form: a string crosses
 * threads as one copy, where a document is cloned field by field and then turned into
 * JSON on the thread that commits (which every accept waits for).
 */
export interface TextInsert {
	op: "insert";
	collection: string;
	/** The document's id (not `id`: a request to the store thread has its own). */
	docId: string;
	text: string;
}

export type StoredOp = TextInsert | Exclude<BatchOp, { op: "insert" }>;

export function toText(op: BatchOp): StoredOp {
	return op.op === "insert" ? { op: "insert", collection: op.collection, docId: op.doc.id, text: JSON.stringify(op.doc) } : op;
}

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

function column(field: string): string {
	if (!FIELD.test(field)) throw new Error(`Invalid field name "${field}"`);
	return field === "id" ? "id" : `json_extract(doc, '$.${field}')`;
}

/** SQL NULL when the field is missing, the text 'null' when it holds JSON null. */
function present(field: string, exists: boolean): string {
	column(field);
	if (field === "id") return exists ? "1" : "0";
	return `json_type(doc, '$.${field}') IS ${exists ? "NOT " : ""}NULL`;
}

function bind(v: Scalar | undefined): SQLInputValue {
	if (typeof v === "boolean") return v ? 1 : 0;
	return v ?? null;
}

function isCondition(v: unknown): v is FieldCondition {
	return v !== null && typeof v === "object" && !Array.isArray(v);
}

function where(filter: Filter, args: SQLInputValue[]): string {
	checkFilter(filter);
	const parts: string[] = [];
	for (const [field, cond] of Object.entries(filter)) {
		const col = column(field);
		if (!isCondition(cond)) {
			if (cond === null) parts.push(`${col} IS NULL`);
			else {
				parts.push(`${col} = ?`);
				args.push(bind(cond));
			}
			continue;
		}
		for (const [op, v] of Object.entries(cond)) {
			switch (op) {
				case "$in": {
					const list = (v as Scalar[]).filter(x => x !== null);
					// As on MongoDB, a null in the list matches a null or missing field.
					const alternatives = (v as Scalar[]).includes(null) ? [`${col} IS NULL`] : [];
					if (list.length) {
						alternatives.unshift(`${col} IN (${list.map(() => "?").join(",")})`);
						args.push(...list.map(bind));
					}
					parts.push(alternatives.length ? `(${alternatives.join(" OR ")})` : "0");
					break;
				}
				case "$nin": {
					const values = v as Scalar[];
					const list = values.filter(x => x !== null);
					const notListed = list.length ? `${col} NOT IN (${list.map(() => "?").join(",")})` : "1";
					args.push(...list.map(bind));
					// As on MongoDB, a null or missing field is outside the list unless the list holds null.
					parts.push(values.includes(null) ? `(${col} IS NOT NULL AND ${notListed})` : `(${col} IS NULL OR ${notListed})`);
					break;
				}
				case "$ne":
					if (v === null) parts.push(`${col} IS NOT NULL`);
					else {
						parts.push(`(${col} IS NULL OR ${col} != ?)`);
						args.push(bind(v as Scalar));
					}
					break;
				case "$lt":
				case "$lte":
				case "$gt":
				case "$gte": {
					const sql = { $lt: "<", $lte: "<=", $gt: ">", $gte: ">=" }[op];
					parts.push(`${col} ${sql} ?`);
					args.push(bind(v as Scalar));
					break;
				}
				case "$exists":
					parts.push(present(field, v === true));
					break;
				default:
					throw new Error(`Unsupported filter operator ${op}`);
			}
		}
	}
	return parts.length ? parts.join(" AND ") : "1";
}

function orderBy(sort?: Sort): string {
	if (!sort || Object.keys(sort).length === 0) return "";
	return " ORDER BY " + Object.entries(sort).map(([f, d]) => `${column(f)} ${d === -1 ? "DESC" : "ASC"}`).join(", ");
}

/**
 * The new document as one SQL expression over the old: json_set for $set and $inc,
 * json_remove for $unset. Strings bind as text (stored as JSON strings); every other
 * value binds as JSON text, so numbers, booleans, null and objects keep their type.
 */
function updateExpression(update: Update, args: SQLInputValue[]): string {
	checkUpdate(update);
	let expr = "doc";
	const parts: string[] = [];
	for (const [field, value] of Object.entries(update.$set ?? {})) {
		if (value === undefined) continue;
		column(field);
		if (typeof value === "string") {
			parts.push(`'$.${field}', ?`);
			args.push(value);
		} else {
			parts.push(`'$.${field}', json(?)`);
			args.push(JSON.stringify(value));
		}
	}
	for (const [field, by] of Object.entries(update.$inc ?? {})) {
		const col = column(field);
		parts.push(`'$.${field}', coalesce(${col}, 0) + json(?)`);
		args.push(JSON.stringify(by));
	}
	if (parts.length) expr = `json_set(${expr}, ${parts.join(", ")})`;
	const unset = (update.$unset ?? []).map(field => {
		column(field);
		return `'$.${field}'`;
	});
	if (unset.length) expr = `json_remove(${expr}, ${unset.join(", ")})`;
	return expr;
}

const SQLITE_BUSY = 5;

/** SQLITE_BUSY and its extended codes (BUSY_RECOVERY, BUSY_SNAPSHOT...). */
export function isBusy(err: unknown): boolean {
	const code = (err as { errcode?: unknown } | null)?.errcode;
	return typeof code === "number" && (code & 0xff) === SQLITE_BUSY;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs fn again while SQLite answers SQLITE_BUSY, until it succeeds or `waitMs` have
 * passed (then the last error is thrown), sleeping `firstRetryMs`, then twice as
 * long each time up to `maxRetryMs`. The thread sleeps: use it where nothing else
 * could run in between anyway (opening a store, a worker's BEGIN).
 */
export function whileBusy<R>(fn: () => R, waitMs: number, firstRetryMs: number, maxRetryMs: number): R {
	const deadline = Date.now() + waitMs;
	let retryMs = firstRetryMs;
	for (;;) {
		try {
			return fn();
		} catch (err) {
			if (!isBusy(err) || Date.now() >= deadline) throw err;
			Atomics.wait(pause, 0, 0, retryMs);
			retryMs = Math.min(retryMs * 2, maxRetryMs);
		}
	}
}

/** How long opening a store may wait for another connection on the same file. */
const OPEN_WAIT_MS = 5000;

function isUniqueViolation(err: unknown): boolean {
	const e = err as { code?: string; errcode?: number; message?: string };
	return e?.errcode === 2067 || e?.errcode === 1555 || /UNIQUE constraint failed/.test(e?.message ?? "");
}

class SqliteCollection<T extends Doc> implements Collection<T> {
	private readonly table: string;
	private readonly stmts = new Map<string, StatementSync>();

	constructor(private readonly store: SqliteStore, readonly name: string) {
		this.table = `c_${name}`;
		const spec = specOf(name);
		const db = store.db;
		// A reader finds the tables its store's writer made (see sqlite-thread.ts).
		if (store.readOnly) return;
		db.exec(`CREATE TABLE IF NOT EXISTS "${this.table}" (id TEXT PRIMARY KEY, doc TEXT NOT NULL) STRICT`);
		spec.indexes.forEach(ix => {
			const fields = Object.keys(ix.fields);
			const cols = Object.entries(ix.fields).map(([f, d]) => `${column(f)} ${d === -1 ? "DESC" : "ASC"}`);
			const fullName = `ix_${name}_${fields.join("_").replace(/\./g, "_")}`;
			const create = (ixName: string, where: string) =>
				`CREATE ${ix.unique ? "UNIQUE " : ""}INDEX IF NOT EXISTS "${ixName}" ON "${this.table}" (${cols.join(", ")})${where}`;
			if (!ix.sparse && !ix.partial) {
				db.exec(create(fullName, ""));
				return;
			}
			// Only the rows that have the fields: an insert without them touches no page of
			// this index (for the accept path, 3 of the notification's 8 indexes and 1 of its
			// first event's 3). A file made before had the full index under the plain name; it
			// is replaced in one step (a savepoint works inside the store thread's transaction
			// too), so no moment passes without a unique index.
			db.exec("SAVEPOINT ix");
			try {
				db.exec(`DROP INDEX IF EXISTS "${fullName}"`);
				db.exec(create(`${fullName}_present`, ` WHERE ${fields.map(f => `${column(f)} IS NOT NULL`).join(" AND ")}`));
				db.exec("RELEASE ix");
			} catch (err) {
				if (db.isTransaction) db.exec("ROLLBACK TO ix; RELEASE ix");
				throw err;
			}
		});
	}

	private stmt(sql: string): StatementSync {
		let s = this.stmts.get(sql);
		if (!s) {
			s = this.store.db.prepare(sql);
			this.stmts.set(sql, s);
		}
		return s;
	}

	private select(filter: Filter, opts: FindOptions = {}): T[] {
		checkFindOptions(opts);
		const args: SQLInputValue[] = [];
		let sql = `SELECT doc FROM "${this.table}" WHERE ${where(filter, args)}${orderBy(opts.sort)}`;
		if (opts.limit != null || opts.skip != null) {
			sql += " LIMIT ? OFFSET ?";
			args.push(opts.limit ?? -1, opts.skip ?? 0);
		}
		return this.stmt(sql).all(...args).map(r => JSON.parse(r.doc as string) as T);
	}

	async insert(doc: T): Promise<T> {
		this.insertNow(doc);
		return doc;
	}

	async get(id: string): Promise<T | null> {
		const row = this.stmt(`SELECT doc FROM "${this.table}" WHERE id = ?`).get(id);
		return row ? (JSON.parse(row.doc as string) as T) : null;
	}

	async findOne(filter: Filter, opts: FindOptions = {}): Promise<T | null> {
		return this.select(filter, { ...opts, limit: 1 })[0] ?? null;
	}

	async find(filter: Filter, opts?: FindOptions): Promise<T[]> {
		return this.select(filter, opts);
	}

	async count(filter: Filter): Promise<number> {
		const args: SQLInputValue[] = [];
		const row = this.stmt(`SELECT count(*) AS n FROM "${this.table}" WHERE ${where(filter, args)}`).get(...args);
		return Number(row?.n ?? 0);
	}

	/** Updates the rows with these ids in one statement and returns them as updated, in the given order. */
	private updateIds(ids: string[], update: Update): T[] {
		// Built first, so an update the contract refuses is refused even when nothing matches.
		const args: SQLInputValue[] = [];
		const expr = updateExpression(update, args);
		if (ids.length === 0) return [];
		const rows = this.stmt(`UPDATE "${this.table}" SET doc = ${expr} WHERE id IN (${ids.map(() => "?").join(",")}) RETURNING id, doc`).all(...args, ...ids);
		const byId = new Map(rows.map(r => [r.id as string, JSON.parse(r.doc as string) as T]));
		return ids.map(id => byId.get(id)!).filter(Boolean);
	}

	private selectIds(filter: Filter, sort: Sort | undefined, limit: number): string[] {
		const args: SQLInputValue[] = [];
		const sql = `SELECT id FROM "${this.table}" WHERE ${where(filter, args)}${orderBy(sort)} LIMIT ?`;
		return this.stmt(sql).all(...args, limit).map(r => r.id as string);
	}

	async findOneAndUpdate(filter: Filter, update: Update, opts: { sort?: Sort } = {}): Promise<T | null> {
		return this.store.transaction(() => this.updateIds(this.selectIds(filter, opts.sort, 1), update)[0] ?? null, this.name);
	}

	async claimMany(filter: Filter, update: Update, opts: { sort?: Sort; limit: number }): Promise<T[]> {
		checkFindOptions(opts);
		return this.store.transaction(() => this.updateIds(this.selectIds(filter, opts.sort, opts.limit), update), this.name);
	}

	/** One statement: atomic on its own, inside or outside a batch. */
	updateManyNow(filter: Filter, update: Update): number {
		const args: SQLInputValue[] = [];
		const expr = updateExpression(update, args);
		try {
			return Number(this.stmt(`UPDATE "${this.table}" SET doc = ${expr} WHERE ${where(filter, args)}`).run(...args).changes);
		} catch (err) {
			if (isUniqueViolation(err)) throw new DuplicateKeyError(this.name);
			throw err;
		}
	}

	insertNow(doc: T): void {
		this.insertText(doc.id, JSON.stringify(doc));
	}

	/** Inserts a document given as its JSON text (with `id` its id). */
	insertText(id: string, text: string): void {
		try {
			this.stmt(`INSERT INTO "${this.table}" (id, doc) VALUES (?, ?)`).run(id, text);
		} catch (err) {
			if (isUniqueViolation(err)) throw new DuplicateKeyError(this.name);
			throw err;
		}
	}

	async updateMany(filter: Filter, update: Update): Promise<number> {
		return this.updateManyNow(filter, update);
	}

	async deleteMany(filter: Filter): Promise<number> {
		const args: SQLInputValue[] = [];
		const r = this.stmt(`DELETE FROM "${this.table}" WHERE ${where(filter, args)}`).run(...args);
		return Number(r.changes);
	}
}

export class SqliteStore implements Store {
	readonly kind = "sqlite" as const;
	readonly db: DatabaseSync;
	private readonly collections = new Map<string, SqliteCollection<Doc>>();

	/** With readOnly, a connection that only reads a file another connection set up. */
	constructor(readonly file: string, readonly readOnly = false) {
		if (readOnly) {
			this.db = new DatabaseSync(file, { timeout: 5000, readOnly: true });
			return;
		}
		fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
		// Created owner-only before SQLite opens it: its -wal and -shm files take the same
		// mode, and the store holds password hashes and tokens (umask and DATA_DIR's mode aside).
		fs.closeSync(fs.openSync(file, "a", 0o600));
		this.db = new DatabaseSync(file, { timeout: OPEN_WAIT_MS });
		// FULL: every commit reaches the disk before it returns, so a notification answered
		// with 201 survives a power loss too (NORMAL would only survive a process crash).
		// While another connection writes, the switch to WAL can answer SQLITE_BUSY at once,
		// without the busy handler (a second node or store opening the file; it happened in
		// CI): it is asked again within the same 5 s. Once the file is in WAL, it is a no-op.
		whileBusy(() => this.db.exec("PRAGMA journal_mode = WAL"), OPEN_WAIT_MS, 1, 50);
		this.db.exec("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;");
	}

	collection<T extends Doc>(name: string): Collection<T> {
		let c = this.collections.get(name);
		if (!c) {
			c = new SqliteCollection<Doc>(this, name);
			this.collections.set(name, c);
		}
		return c as unknown as Collection<T>;
	}

	/** The collections this connection has made (or found) the tables of. */
	collectionNames(): string[] {
		return [...this.collections.keys()];
	}

	/**
	 * Forgets collections whose tables were made in a transaction that was then rolled
	 * back (a full disk refused its commit): the tables are gone again, and the next use
	 * makes them, rather than failing with "no such table" until a restart.
	 */
	forgetCollections(names: Iterable<string>): void {
		for (const name of names) this.collections.delete(name);
	}

	async batch(groups: BatchGroup[]): Promise<boolean[]> {
		return this.batchStored(groups.map(group => group.map(toText)));
	}

	private sqliteCollection(name: string): SqliteCollection<Doc> {
		return this.collection(name) as unknown as SqliteCollection<Doc>;
	}

	/** An insert given as JSON text (see TextInsert); DuplicateKeyError as insert. */
	insertStored(op: TextInsert): void {
		this.sqliteCollection(op.collection).insertText(op.docId, op.text);
	}

	/** batch with the inserts as JSON text already (see TextInsert). */
	batchStored(groups: StoredOp[][]): boolean[] {
		return this.transaction(
			() =>
				groups.map(group => {
					for (const op of group) {
						if (op.op === "insert") this.insertStored(op);
						else if (this.sqliteCollection(op.collection).updateManyNow(op.filter, op.update) === 0) return false;
					}
					return true;
				}),
			"batch"
		);
	}

	/**
	 * Runs fn (synchronous: nothing else may write in between) in one IMMEDIATE
	 * transaction, which holds the write lock across processes. Inside a transaction
	 * already open (the worker's group commit), it is a savepoint: fn's writes still
	 * stand or fall together, without ending the enclosing transaction.
	 */
	transaction<R>(fn: () => R, collection: string): R {
		const nested = this.db.isTransaction;
		this.db.exec(nested ? "SAVEPOINT op" : "BEGIN IMMEDIATE");
		try {
			const r = fn();
			this.db.exec(nested ? "RELEASE op" : "COMMIT");
			return r;
		} catch (err) {
			// Some errors (SQLITE_FULL, I/O) have rolled the whole transaction back already. A
			// rollback that fails too is kept beside the first error, which is the one thrown.
			if (this.db.isTransaction) {
				try {
					this.db.exec(nested ? "ROLLBACK TO op; RELEASE op" : "ROLLBACK");
				} catch (rollbackError) {
					if (err && typeof err === "object") (err as { rollbackError?: unknown }).rollbackError = rollbackError;
				}
			}
			if (isUniqueViolation(err)) throw new DuplicateKeyError(collection);
			throw err;
		}
	}

	async ping(): Promise<void> {
		this.db.prepare("SELECT 1").get();
	}

	/** A real write (made durable by the commit around it, or its own): readiness's proof that the disk takes writes again. */
	async probeWrite(): Promise<void> {
		this.db.exec("CREATE TABLE IF NOT EXISTS _probe (id INTEGER PRIMARY KEY, at INTEGER NOT NULL)");
		this.db.prepare("INSERT OR REPLACE INTO _probe (id, at) VALUES (1, ?)").run(Date.now());
	}

	async close(): Promise<void> {
		if (this.db.isOpen) this.db.close();
	}
}
