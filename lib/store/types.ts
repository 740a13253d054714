/**
 * The storage contract. Each collection holds JSON documents keyed by a string `id`.
 * Both backends (embedded SQLite, MongoDB) implement exactly this surface, and one
 * contract suite (test/integration/store.contract.test.ts) runs against each, so data
 * added later is declared once in schema.ts and works on both.
 *
 * Values are plain JSON: timestamps are ISO-8601 strings, which sort correctly.
 */
export type Scalar = string | number | boolean | null;

export interface FieldCondition {
	$in?: Scalar[];
	$nin?: Scalar[];
	$ne?: Scalar;
	$lt?: string | number;
	$lte?: string | number;
	$gt?: string | number;
	$gte?: string | number;
	$exists?: boolean;
}

/**
 * Equality or a condition per field (dot paths reach nested fields); all must hold.
 *
 * Both backends give a stored JSON null and a missing field MongoDB's meanings, so a
 * filter reads the same wherever it runs:
 * - `{ f: null }` and `{ f: { $in: [null, …] } }` match a null or missing `f`;
 * - `{ f: { $exists: true } }` matches a present `f`, null included; `false` only a missing one;
 * - `{ f: { $ne: null } }` matches a present, non-null `f`; `{ f: { $ne: x } }` also matches a missing one;
 * - `{ f: { $nin: [x, …] } }` matches a missing or null `f` too, unless the list holds null.
 * SQLite does not tell `true`/`false` from the numbers 1/0: keep a field one or the other.
 */
export type Filter = Record<string, Scalar | FieldCondition>;

const OPERATORS = new Set(["$in", "$nin", "$ne", "$lt", "$lte", "$gt", "$gte", "$exists"]);

/**
 * Refuses conditions the backends would read differently: an empty object, or one
 * with keys that are not operators (SQLite would match everything, MongoDB would
 * compare whole sub-documents).
 */
export function checkFilter(filter: Filter): void {
	for (const [field, cond] of Object.entries(filter)) {
		if (cond === null || typeof cond !== "object") continue;
		const keys = Object.keys(cond);
		if (Array.isArray(cond) || keys.length === 0 || keys.some(k => !OPERATORS.has(k))) {
			throw new Error(`Invalid condition for "${field}": use one of ${[...OPERATORS].join(", ")}`);
		}
	}
}

export type Sort = Record<string, 1 | -1>;

export interface FindOptions {
	sort?: Sort;
	/** At most this many documents: `0` means none (not MongoDB's "no limit"); absent means all. */
	limit?: number;
	skip?: number;
}

/** Refuses a limit or skip that is not a whole number from 0 up (each backend reads a negative one its own way). */
export function checkFindOptions(opts: FindOptions): void {
	for (const key of ["limit", "skip"] as const) {
		const v = opts[key];
		if (v !== undefined && !(Number.isSafeInteger(v) && v >= 0)) throw new Error(`Invalid ${key} ${v}: use a whole number from 0 up`);
	}
}

/** `$set` fields whose value is undefined are left out, as if not named. */
export interface Update {
	$set?: Record<string, unknown>;
	$inc?: Record<string, number>;
	$unset?: string[];
}

/**
 * Refuses, on both backends, an update MongoDB would refuse: one that changes nothing
 * (no field to set, increment or unset), one that names the id, and one that names a
 * field twice or a field and a part of it (`a` and `a.b`), which SQLite would apply in
 * some order.
 */
export function checkUpdate(update: Update): void {
	const set = Object.entries(update.$set ?? {}).filter(([, v]) => v !== undefined).map(([k]) => k);
	const paths = [...set, ...Object.keys(update.$inc ?? {}), ...new Set(update.$unset ?? [])];
	if (paths.length === 0) throw new Error("An update needs a field to $set, $inc or $unset");
	for (const [i, a] of paths.entries()) {
		if (a === "id") throw new Error("The id of a document cannot change");
		const clash = paths.slice(i + 1).find(b => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`));
		if (clash !== undefined) throw new Error(`An update names "${a}" and "${clash}": name each field once`);
	}
}

export interface Doc {
	id: string;
}

export interface Collection<T extends Doc> {
	/** Inserts a new document; DuplicateKeyError when the id or a unique field is taken. */
	insert(doc: T): Promise<T>;
	get(id: string): Promise<T | null>;
	findOne(filter: Filter, opts?: FindOptions): Promise<T | null>;
	find(filter: Filter, opts?: FindOptions): Promise<T[]>;
	count(filter: Filter): Promise<number>;
	/** Updates the first match (by sort) atomically and returns it as updated, or null. */
	findOneAndUpdate(filter: Filter, update: Update, opts?: { sort?: Sort }): Promise<T | null>;
	/**
	 * Updates up to `limit` matches (first by sort) and returns them as updated, in that
	 * order; each is given to exactly one caller however many claim at once, and a claim
	 * costs a number of round trips that does not grow with `limit`. SQLite claims the
	 * batch in one transaction; MongoDB stamps it with one guarded updateMany, so two
	 * concurrent claims may split the first candidates between them. Queues claim with it.
	 */
	claimMany(filter: Filter, update: Update, opts: { sort?: Sort; limit: number }): Promise<T[]>;
	/** Updates every match; returns how many matched. */
	updateMany(filter: Filter, update: Update): Promise<number>;
	deleteMany(filter: Filter): Promise<number>;
}

export type BatchOp =
	| { op: "insert"; collection: string; doc: Doc }
	| { op: "updateMany"; collection: string; filter: Filter; update: Update };

/** Ops applied in order; the group stops at the first update that changes nothing. */
export type BatchGroup = BatchOp[];

export interface Store {
	readonly kind: "sqlite" | "mongodb";
	collection<T extends Doc>(name: string): Collection<T>;
	/**
	 * Applies the groups in order and tells, per group, whether all its ops applied.
	 * SQLite applies all of them in one transaction; MongoDB one op after another (not
	 * atomic across documents). A DuplicateKeyError aborts the batch.
	 */
	batch(groups: BatchGroup[]): Promise<boolean[]>;
	/** Throws when the backend cannot answer. */
	ping(): Promise<void>;
	/** Makes one small durable write; throws when the storage cannot take it (disk full, read-only). */
	probeWrite(): Promise<void>;
	close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
	constructor(readonly collection: string) {
		super(`Duplicate key in ${collection}`);
		this.name = "DuplicateKeyError";
	}
}

/**
 * A thread that can run the .eml outbox beside its own work (lib/email/outbox-thread.ts,
 * OUTBOX_THREAD=store): it serves lib/email/outbox-serve.ts's loop on `port`. Declared
 * here, with the store that offers it, so the store never imports the email module.
 */
export interface OutboxHost {
	hostOutbox(port: import("node:worker_threads").MessagePort, dir: string, serve: string): void;
}
