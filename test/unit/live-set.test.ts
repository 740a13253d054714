/**
 * The set of things under way (lib/live-set.ts): a Set's behaviour for the uses it
 * replaces, and the property it exists for: an entry that has left points at nothing.
 */
import { LiveSet } from "../../lib/live-set";

interface Item {
	name: string;
}

const item = (name: string): Item => ({ name });
const names = (set: LiveSet<Item>) => [...set].map(i => i.name);

/** The link the set keeps on an item, read the way the garbage collector sees it. */
function linkOf(i: Item): { item: Item; owner: unknown; prev: unknown; next: unknown } | null | undefined {
	const key = Object.getOwnPropertySymbols(i)[0];
	return key ? (i as unknown as Record<symbol, never>)[key] : undefined;
}

describe("LiveSet", () => {
	it("keeps items in the order they came, once each, and counts them", () => {
		const set = new LiveSet<Item>();
		const [a, b, c] = [item("a"), item("b"), item("c")];
		set.add(a);
		set.add(b);
		set.add(a);
		set.add(c);
		expect(names(set)).toEqual(["a", "b", "c"]);
		expect(set.size).toBe(3);
		expect(set.has(b)).toBe(true);
		expect(set.has(item("b"))).toBe(false);
	});

	it("removes from the head, the middle and the tail, and says whether it removed anything", () => {
		const set = new LiveSet<Item>();
		const [a, b, c, d] = [item("a"), item("b"), item("c"), item("d")];
		for (const i of [a, b, c, d]) set.add(i);
		expect(set.delete(b)).toBe(true);
		expect(names(set)).toEqual(["a", "c", "d"]);
		expect(set.delete(a)).toBe(true);
		expect(set.delete(d)).toBe(true);
		expect(names(set)).toEqual(["c"]);
		expect(set.delete(b)).toBe(false);
		expect(set.delete(item("x"))).toBe(false);
		expect(set.size).toBe(1);
		expect(set.delete(c)).toBe(true);
		expect(set.size).toBe(0);
		expect(names(set)).toEqual([]);
		// Empty again, it takes items as a new set does.
		set.add(d);
		set.add(a);
		expect(names(set)).toEqual(["d", "a"]);
	});

	it("leaves an entry that has gone pointing at nothing, and its neighbours not pointing at it", () => {
		const set = new LiveSet<Item>();
		const [a, b, c] = [item("a"), item("b"), item("c")];
		for (const i of [a, b, c]) set.add(i);
		const link = linkOf(b)!;
		expect(link.prev).toBe(linkOf(a));
		expect(link.next).toBe(linkOf(c));
		set.delete(b);
		expect(link).toMatchObject({ owner: null, prev: null, next: null });
		expect(linkOf(b)).toBeNull();
		expect(linkOf(a)!.next).toBe(linkOf(c));
		expect(linkOf(c)!.prev).toBe(linkOf(a));
	});

	it("does not touch an item that belongs to another set", () => {
		const one = new LiveSet<Item>();
		const two = new LiveSet<Item>();
		const [a, b] = [item("a"), item("b")];
		one.add(a);
		one.add(b);
		expect(two.delete(b)).toBe(false);
		expect(two.has(b)).toBe(false);
		two.add(b);
		expect(two.size).toBe(0);
		expect(names(one)).toEqual(["a", "b"]);
	});

	it("may lose the item it is on while iterating, takes the oldest match, and clears in order", () => {
		const set = new LiveSet<Item>();
		const items = ["a", "b", "c", "d"].map(item);
		for (const i of items) set.add(i);
		const seen: string[] = [];
		for (const i of set) {
			seen.push(i.name);
			if (i.name !== "c") set.delete(i);
		}
		expect(seen).toEqual(["a", "b", "c", "d"]);
		expect(names(set)).toEqual(["c"]);
		const second = item("c");
		set.add(second);
		set.add(item("e"));
		expect(set.take(i => i.name === "c")).toBe(items[2]);
		expect(set.has(items[2])).toBe(false);
		expect(names(set)).toEqual(["c", "e"]);
		expect(set.take(i => i.name === "z")).toBeUndefined();
		expect(set.clear().map(i => i.name)).toEqual(["c", "e"]);
		expect(set.size).toBe(0);
		expect(set.has(second)).toBe(false);
		expect(names(set)).toEqual([]);
	});
});
