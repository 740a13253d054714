/**
 * lib/http/json-text.ts: a result entered once is frozen all the way down and answers with
 * the text it had then; anything else is serialized as JSON.stringify would.
 */
import { immutable, jsonText } from "../../lib/http/json-text";

describe("JSON text of immutable results", () => {
	it("should serialize what was never entered exactly as JSON.stringify does", () => {
		for (const v of [{ a: 1, b: [1, "x", null] }, [1, 2], "text", 3, null, true, { nested: { deep: { x: "é\u2028" } } }]) {
			expect(jsonText(v)).toBe(JSON.stringify(v));
		}
		const plain = { a: 1 };
		expect(jsonText(plain)).toBe('{"a":1}');
		plain.a = 2;
		// Not entered: every answer is serialized afresh.
		expect(jsonText(plain)).toBe('{"a":2}');
	});

	it("should freeze an entered result deeply and answer with its text", () => {
		const actor = immutable({ actorId: "a", tags: ["x"], inner: { n: 1 } });
		expect(jsonText(actor)).toBe('{"actorId":"a","tags":["x"],"inner":{"n":1}}');
		expect(Object.isFrozen(actor)).toBe(true);
		expect(Object.isFrozen(actor.tags)).toBe(true);
		expect(Object.isFrozen(actor.inner)).toBe(true);
		// Nothing can change it, so the kept text stays its text.
		expect(() => {
			(actor as { actorId: string }).actorId = "b";
		}).toThrow(TypeError);
		expect(() => (actor.tags as string[]).push("y")).toThrow(TypeError);
		expect(jsonText(actor)).toBe(JSON.stringify(actor));
	});

	it("should answer a copy of an entered result by serializing the copy", () => {
		const kept = immutable({ actorId: "a" });
		const copy = { ...kept, actorId: "c" };
		expect(jsonText(copy)).toBe('{"actorId":"c"}');
		expect(jsonText(kept)).toBe('{"actorId":"a"}');
	});

	it("should take plain data only, since freezing does not reach inside a Date or a Map", () => {
		expect(() => immutable({ at: new Date(0) })).toThrow(TypeError);
		expect(() => immutable({ m: new Map() })).toThrow(TypeError);
		expect(() => immutable([Buffer.from("x")])).toThrow(TypeError);
		expect(jsonText(immutable(Object.assign(Object.create(null) as object, { a: [{ b: 1 }] })))).toBe('{"a":[{"b":1}]}');
	});
});
