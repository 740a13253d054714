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
	$ne?: Scalar;
	$lt?: string | number;
	$lte?: string | number;
	$gt?: string | number;
	$gte?: string | number;
	$exists?: boolean;
}

/**
 * Equality or a condition per field (dot paths reach nested fields); all must hold.
 * Backends differ on stored JSON null under $exists and $in, so fields that are
 * filtered that way are left out rather than set to null.
 */
export type Filter = Record<string, Scalar | FieldCondition>;

const OPERATORS = new Set(["$in", "$ne", "$lt", "$lte", "$gt", "$gte", "$exists"]);

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
	limit?: number;
	skip?: number;
}

export interface Update {
	$set?: Record<string, unknown>;
	$inc?: Record<string, number>;
	$unset?: string[];
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
	 * Updates up to `limit` matches (first by sort) and returns them as updated; each
	 * is given to exactly one caller however many claim at once. Queues claim with it.
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
	close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
	constructor(readonly collection: string) {
		super(`Duplicate key in ${collection}`);
		this.name = "DuplicateKeyError";
	}
}
