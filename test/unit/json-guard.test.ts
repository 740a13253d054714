/**
 * The checks on raw and parsed JSON bodies that run before any parameter validator.
 */
import { checkJsonText, nestsDeeperThan, unsafeKey } from "../../lib/http/json-guard";

const text = (s: string) => Buffer.from(s, "utf8");

describe("nestsDeeperThan", () => {
	it("should count arrays and objects alike", () => {
		expect(nestsDeeperThan(text('{"a":[{"b":[1]}]}'), 4)).toBe(false);
		expect(nestsDeeperThan(text('{"a":[{"b":[1]}]}'), 3)).toBe(true);
	});

	it("should not count brackets inside strings, escaped quotes included", () => {
		expect(nestsDeeperThan(text(JSON.stringify({ a: '[[[{{{"\\' })), 1)).toBe(false);
	});

	it("should count depth, not the number of brackets", () => {
		expect(nestsDeeperThan(text(JSON.stringify(Array.from({ length: 1000 }, () => [[1]]))), 3)).toBe(false);
	});
});

describe("checkJsonText", () => {
	it("should pass UTF-8 JSON within the depth limit", () => {
		expect(() => checkJsonText(text('{"name":"Zoë ✓ 😀"}'))).not.toThrow();
	});

	it.each([
		["a byte that never starts a character", [0xff]],
		["an overlong encoding", [0xc0, 0xaf]],
		["a lone surrogate", [0xed, 0xa0, 0x80]],
		["a character cut short", [0xe2, 0x82]]
	])("should refuse %s as MALFORMED_JSON", (_label, bytes) => {
		expect(() => checkJsonText(Buffer.concat([text('{"a":"'), Buffer.from(bytes), text('"}')]))).toThrow(expect.objectContaining({ code: 400, type: "MALFORMED_JSON" }));
	});

	it("should refuse nesting past the limit as VALIDATION_ERROR", () => {
		expect(() => checkJsonText(text("[".repeat(10_000)))).toThrow(expect.objectContaining({ code: 400, type: "VALIDATION_ERROR" }));
	});
});

describe("unsafeKey", () => {
	it.each([
		["__proto__ at the top", '{"__proto__":{"admin":true}}', "__proto__"],
		["__proto__ written with an escape", '{"\\u005f_proto__":{}}', "__proto__"],
		["constructor inside an array", '{"a":[{"b":{"constructor":{"prototype":{}}}}]}', "constructor"]
	])("should find %s", (_label, body, key) => {
		expect(unsafeKey(JSON.parse(body))).toBe(key);
	});

	it("should find nothing in an ordinary body, nor in a value that merely says __proto__", () => {
		expect(unsafeKey(JSON.parse('{"a":[1,{"b":"__proto__"}],"prototype":1}'))).toBeUndefined();
		expect(unsafeKey("x")).toBeUndefined();
	});
});
