/**
 * A batch as it crosses to the store thread (lib/store/sqlite-protocol.ts): packed
 * and unpacked, it is the batch the store would have written from the groups.
 */
import { toText } from "../../lib/store/sqlite";
import { packBatch, unpackBatch } from "../../lib/store/sqlite-protocol";
import type { BatchGroup, Doc } from "../../lib/store/types";

/** A document with fields besides its id. */
const doc = (fields: Record<string, unknown> & { id: string }): Doc => fields;

describe("packBatch and unpackBatch", () => {
	it("give back every group's ops in order, inserts as their JSON text, updates as they were", () => {
		const groups: BatchGroup[] = [
			[
				{ op: "insert", collection: "notifications", doc: doc({ id: "n1", to: "a@example.com", nested: { line: "two\nlines", quote: '"' } }) },
				{ op: "insert", collection: "notification_events", doc: doc({ id: "e1", status: "QUEUED" }) }
			],
			[{ op: "updateMany", collection: "notifications", filter: { id: "n0", status: "SENDING" }, update: { $set: { status: "SENT" } } }],
			[],
			[
				{ op: "updateMany", collection: "notifications", filter: { id: "n2" }, update: { $inc: { attempts: 1 } } },
				{ op: "insert", collection: "notification_events", doc: doc({ id: "e2", status: "SENDING", émoji: "✉️" }) }
			]
		];
		const packed = packBatch(groups);
		expect(packed.texts).toHaveLength(3);
		expect(packed.shape.every(x => typeof x !== "object" || (x as { op: string }).op === "updateMany")).toBe(true);
		// What crosses the thread is a structured clone of it.
		expect(unpackBatch(structuredClone(packed))).toEqual(groups.map(group => group.map(toText)));
	});

	it("packs no batch as nothing", () => {
		expect(unpackBatch(packBatch([]))).toEqual([]);
	});
});
