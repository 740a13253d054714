/**
 * What the main thread and the SQLite worker (sqlite-worker.ts) say to each other:
 * every write is a request with an id; the worker answers each with its value or its
 * error, all answers of one transaction in one message.
 */
import type { MessagePort } from "node:worker_threads";
import type { StoredOp, TextInsert } from "./sqlite";
import { DuplicateKeyError, type BatchGroup, type BatchOp, type Filter, type Sort, type Update } from "./types";

type UpdateOp = Exclude<BatchOp, { op: "insert" }>;

/**
 * A batch as it crosses to the store thread. Structured cloning writes every key of
 * every object it copies, so a batch of accepts sent as groups of insert objects spent
 * half of its postMessage on their keys; here the inserts' JSON texts are one array
 * of strings and the rest a flat list: per group its op count, then per op either
 * the insert's collection and document id (its text the next in `texts`) or the
 * update op as it is. The order of ops and groups is kept.
 */
export interface PackedBatch {
	texts: string[];
	shape: (number | string | UpdateOp)[];
}

/** The documents turned into their JSON text here (TextInsert in sqlite.ts says why). */
export function packBatch(groups: BatchGroup[]): PackedBatch {
	const texts: string[] = [];
	const shape: PackedBatch["shape"] = [];
	for (const group of groups) {
		shape.push(group.length);
		for (const op of group) {
			if (op.op === "insert") {
				shape.push(op.collection, op.doc.id);
				texts.push(JSON.stringify(op.doc));
			} else shape.push(op);
		}
	}
	return { texts, shape };
}

export function unpackBatch(b: PackedBatch): StoredOp[][] {
	const groups: StoredOp[][] = [];
	let at = 0;
	let text = 0;
	while (at < b.shape.length) {
		const count = b.shape[at++] as number;
		const group: StoredOp[] = [];
		for (let i = 0; i < count; i++) {
			const head = b.shape[at++]!;
			if (typeof head === "string") group.push({ op: "insert", collection: head, docId: b.shape[at++] as string, text: b.texts[text++]! });
			else group.push(head as UpdateOp);
		}
		groups.push(group);
	}
	return groups;
}

export type Op =
	| { op: "ensure"; collection: string }
	/** Documents travel as their JSON text (TextInsert in sqlite.ts says why). */
	| TextInsert
	| { op: "findOneAndUpdate"; collection: string; filter: Filter; update: Update; sort?: Sort }
	| { op: "claimMany"; collection: string; filter: Filter; update: Update; sort?: Sort; limit: number }
	| { op: "updateMany"; collection: string; filter: Filter; update: Update }
	| { op: "deleteMany"; collection: string; filter: Filter }
	| { op: "batch"; batch: PackedBatch }
	| { op: "ping" }
	| { op: "probe" }
	| { op: "close" }
	/** Serve the .eml outbox on this port too (lib/email/outbox-thread.ts). */
	| { op: "hostOutbox"; port: MessagePort; dir: string; serve: string }
	/** Test hook, honoured only when the worker was started with testHooks: the thread exits at once. */
	| { op: "exit" };

export type Request = Op & { id: number };

/** An error as it crosses the thread: its class by name, and SQLite's codes. */
export interface WireError {
	name: string;
	message: string;
	collection?: string;
	code?: string;
	errcode?: number;
	errstr?: string;
	/** A failed ROLLBACK after this error: logged beside it, never instead of it. */
	rollbackError?: string;
}

export type Reply = { id: number; value?: unknown; error?: WireError };

export interface WorkerData {
	file: string;
	testHooks: boolean;
}

export function toWire(err: unknown): WireError {
	if (err instanceof DuplicateKeyError) return { name: err.name, message: err.message, collection: err.collection };
	const e = err as Partial<WireError> & { message?: unknown };
	const rollback = (err as { rollbackError?: unknown } | null)?.rollbackError;
	return {
		name: typeof e?.name === "string" ? e.name : "Error",
		message: typeof e?.message === "string" ? e.message : String(err),
		...(typeof e?.code === "string" ? { code: e.code } : {}),
		...(typeof e?.errcode === "number" ? { errcode: e.errcode } : {}),
		...(typeof e?.errstr === "string" ? { errstr: e.errstr } : {}),
		...(rollback !== undefined ? { rollbackError: rollback instanceof Error ? rollback.message : String(rollback) } : {})
	};
}

/** DuplicateKeyError comes back as that class; any other error keeps its message and codes. */
export function fromWire(w: WireError): Error {
	if (w.name === "DuplicateKeyError" && w.collection !== undefined) return new DuplicateKeyError(w.collection);
	const err = new Error(w.message) as Error & Omit<WireError, "name" | "message">;
	err.name = w.name;
	if (w.code !== undefined) err.code = w.code;
	if (w.errcode !== undefined) err.errcode = w.errcode;
	if (w.errstr !== undefined) err.errstr = w.errstr;
	if (w.rollbackError !== undefined) err.rollbackError = w.rollbackError;
	return err;
}
