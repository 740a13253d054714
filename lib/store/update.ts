/**
 * Applies an Update to a plain document, with the same meaning MongoDB gives it.
 * Used by backends that store documents as JSON text.
 */
import type { Update } from "./types";

function setPath(doc: Record<string, unknown>, path: string, value: unknown): void {
	const parts = path.split(".");
	let cur = doc;
	for (const p of parts.slice(0, -1)) {
		const next = cur[p];
		if (next == null || typeof next !== "object") cur[p] = {};
		cur = cur[p] as Record<string, unknown>;
	}
	cur[parts[parts.length - 1]] = value;
}

function getPath(doc: Record<string, unknown>, path: string): unknown {
	let cur: unknown = doc;
	for (const p of path.split(".")) {
		if (cur == null || typeof cur !== "object") return undefined;
		cur = (cur as Record<string, unknown>)[p];
	}
	return cur;
}

function unsetPath(doc: Record<string, unknown>, path: string): void {
	const parts = path.split(".");
	const parent = getPath(doc, parts.slice(0, -1).join("."));
	const holder = parts.length === 1 ? doc : parent;
	if (holder && typeof holder === "object") delete (holder as Record<string, unknown>)[parts[parts.length - 1]];
}

export function applyUpdate<T extends object>(doc: T, update: Update): T {
	const out = structuredClone(doc) as Record<string, unknown>;
	for (const [k, v] of Object.entries(update.$set ?? {})) {
		if (k === "id") throw new Error("The id of a document cannot change");
		if (v !== undefined) setPath(out, k, structuredClone(v));
	}
	for (const [k, v] of Object.entries(update.$inc ?? {})) {
		const cur = getPath(out, k);
		setPath(out, k, (typeof cur === "number" ? cur : 0) + v);
	}
	for (const k of update.$unset ?? []) unsetPath(out, k);
	return out as T;
}
