/**
 * Embedded store on node:sqlite. One table per collection holding JSON text, with
 * expression indexes on the declared fields. WAL mode and IMMEDIATE transactions
 * make read-modify-write atomic across every process that shares the file.
 */
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { applyUpdate } from "./update";
import { specOf } from "./schema";
import {
	DuplicateKeyError,
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

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

function column(field: string): string {
	if (!FIELD.test(field)) throw new Error(`Invalid field name "${field}"`);
	return field === "id" ? "id" : `json_extract(doc, '$.${field}')`;
}

function bind(v: Scalar | undefined): SQLInputValue {
	if (typeof v === "boolean") return v ? 1 : 0;
	return v ?? null;
}

function isCondition(v: unknown): v is FieldCondition {
	return v !== null && typeof v === "object" && !Array.isArray(v);
}

function where(filter: Filter, args: SQLInputValue[]): string {
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
					const list = v as Scalar[];
					if (list.length === 0) parts.push("0");
					else {
						parts.push(`${col} IN (${list.map(() => "?").join(",")})`);
						args.push(...list.map(bind));
					}
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
					parts.push(v ? `${col} IS NOT NULL` : `${col} IS NULL`);
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
		db.exec(`CREATE TABLE IF NOT EXISTS "${this.table}" (id TEXT PRIMARY KEY, doc TEXT NOT NULL) STRICT`);
		spec.indexes.forEach(ix => {
			const fields = Object.keys(ix.fields);
			const cols = Object.entries(ix.fields).map(([f, d]) => `${column(f)} ${d === -1 ? "DESC" : "ASC"}`);
			const ixName = `ix_${name}_${fields.join("_").replace(/\./g, "_")}`;
			db.exec(`CREATE ${ix.unique ? "UNIQUE " : ""}INDEX IF NOT EXISTS "${ixName}" ON "${this.table}" (${cols.join(", ")})`);
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
		const args: SQLInputValue[] = [];
		let sql = `SELECT doc FROM "${this.table}" WHERE ${where(filter, args)}${orderBy(opts.sort)}`;
		if (opts.limit != null || opts.skip != null) {
			sql += " LIMIT ? OFFSET ?";
			args.push(opts.limit ?? -1, opts.skip ?? 0);
		}
		return this.stmt(sql).all(...args).map(r => JSON.parse(r.doc as string) as T);
	}

	async insert(doc: T): Promise<T> {
		try {
			this.stmt(`INSERT INTO "${this.table}" (id, doc) VALUES (?, ?)`).run(doc.id, JSON.stringify(doc));
		} catch (err) {
			if (isUniqueViolation(err)) throw new DuplicateKeyError(this.name);
			throw err;
		}
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

	private write(docs: T[], update: Update): T[] {
		const out = docs.map(d => applyUpdate(d, update));
		const stmt = this.stmt(`UPDATE "${this.table}" SET doc = ? WHERE id = ?`);
		for (const d of out) stmt.run(JSON.stringify(d), d.id);
		return out;
	}

	async findOneAndUpdate(filter: Filter, update: Update, opts: { sort?: Sort } = {}): Promise<T | null> {
		return this.store.transaction(() => {
			const found = this.select(filter, { sort: opts.sort, limit: 1 });
			return found.length ? this.write(found, update)[0] : null;
		}, this.name);
	}

	async claimMany(filter: Filter, update: Update, opts: { sort?: Sort; limit: number }): Promise<T[]> {
		return this.store.transaction(() => this.write(this.select(filter, { sort: opts.sort, limit: opts.limit }), update), this.name);
	}

	async updateMany(filter: Filter, update: Update): Promise<number> {
		return this.store.transaction(() => this.write(this.select(filter), update).length, this.name);
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

	constructor(readonly file: string) {
		fs.mkdirSync(path.dirname(file), { recursive: true });
		this.db = new DatabaseSync(file, { timeout: 5000 });
		this.db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;");
	}

	collection<T extends Doc>(name: string): Collection<T> {
		let c = this.collections.get(name);
		if (!c) {
			c = new SqliteCollection<Doc>(this, name);
			this.collections.set(name, c);
		}
		return c as unknown as Collection<T>;
	}

	/** Runs fn in one IMMEDIATE transaction: it holds the write lock across processes. */
	transaction<R>(fn: () => R, collection: string): R {
		this.db.exec("BEGIN IMMEDIATE");
		try {
			const r = fn();
			this.db.exec("COMMIT");
			return r;
		} catch (err) {
			this.db.exec("ROLLBACK");
			if (isUniqueViolation(err)) throw new DuplicateKeyError(collection);
			throw err;
		}
	}

	async ping(): Promise<void> {
		this.db.prepare("SELECT 1").get();
	}

	async close(): Promise<void> {
		if (this.db.isOpen) this.db.close();
	}
}
