import { uuidv7, uuidv7Floor } from "../../lib/crypto";

describe("uuidv7", () => {
	it("should be a version 7 RFC 9562 UUID that starts with its creation millisecond", () => {
		const now = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
		const id = uuidv7(now);
		expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(now);
	});

	it("should sort ids of later milliseconds after earlier ones and never repeat", () => {
		const ids = Array.from({ length: 1000 }, (_, i) => uuidv7(1_700_000_000_000 + Math.floor(i / 10)));
		expect(new Set(ids).size).toBe(1000);
		for (let i = 10; i < ids.length; i += 10) expect(ids[i]! > ids[i - 1]!).toBe(true);
	});

	it("should sort ids made in the same millisecond in the order they were made", () => {
		const shape = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
		for (let round = 0; round < 50; round++) {
			const ms = 1_800_000_000_000 + round;
			const ids = Array.from({ length: 2048 }, () => uuidv7(ms));
			expect(new Set(ids).size).toBe(ids.length);
			expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
			expect(ids.filter(id => !shape.test(id))).toEqual([]);
		}
		// Past the counter's top the ids stay distinct and in their millisecond.
		const ms = 1_800_000_001_000;
		const many = Array.from({ length: 5000 }, () => uuidv7(ms));
		expect(new Set(many).size).toBe(5000);
		for (const id of many) expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(ms);
	});

	it("should put the floor of a millisecond after every id made before it and before every id made at it or later", () => {
		const ms = 1_795_517_678_880;
		for (let i = 0; i < 200; i++) {
			expect(uuidv7(ms - 1) < uuidv7Floor(ms)).toBe(true);
			expect(uuidv7(ms) > uuidv7Floor(ms)).toBe(true);
			expect(uuidv7(ms + 1) > uuidv7Floor(ms)).toBe(true);
		}
		// Across a change in the number of hex digits too.
		expect(uuidv7(0xfffffffffff) < uuidv7Floor(0x100000000000)).toBe(true);
	});
});
