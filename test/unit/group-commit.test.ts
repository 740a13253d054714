import fs from "node:fs";
import path from "node:path";
import { DuplicateKeyError, type BatchGroup, type Store } from "../../lib/store";
import { GroupCommit } from "../../lib/store/group-commit";
import { SqliteStore } from "../../lib/store/sqlite";
import { tempDir } from "../helpers/platform";

describe("group commit", () => {
	let dir: string;
	let store: SqliteStore;
	beforeEach(() => {
		dir = tempDir();
		store = new SqliteStore(path.join(dir, "s.sqlite"));
	});
	afterEach(async () => {
		await store.close();
		fs.rmSync(dir, { recursive: true, force: true });
	});

	const insert = (id: string, email: string) => [{ op: "insert" as const, collection: "actors", doc: { id, email } as never }];

	it("should write what is submitted in one turn together and answer each caller", async () => {
		const gc = new GroupCommit(store);
		const results = await Promise.all([gc.submit([insert("a", "a@x")]), gc.submit([insert("b", "b@x"), insert("c", "c@x")])]);
		expect(results).toEqual([[true], [true, true]]);
		await expect(store.collection("actors").count({})).resolves.toBe(3);
	});

	it("should fail only the caller whose write conflicts when a shared batch fails", async () => {
		await store.collection("actors").insert({ id: "taken", email: "taken@x" } as never);
		const gc = new GroupCommit(store);
		const [ok, clash, ok2] = await Promise.allSettled([
			gc.submit([insert("d", "d@x")]),
			gc.submit([insert("taken", "other@x")]),
			gc.submit([insert("e", "e@x")])
		]);
		expect(ok).toEqual({ status: "fulfilled", value: [true] });
		expect(ok2).toEqual({ status: "fulfilled", value: [true] });
		expect(clash.status).toBe("rejected");
		expect((clash as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateKeyError);
		await expect(store.collection("actors").count({})).resolves.toBe(3);
	});

	it("should answer false for a group whose update matched nothing, and true for the others", async () => {
		await store.collection("actors").insert({ id: "here", email: "here@x" } as never);
		const update = (id: string) => [{ op: "updateMany" as const, collection: "actors", filter: { id }, update: { $set: { name: id } } }];
		const gc = new GroupCommit(store, { delayMs: 5 });
		await expect(Promise.all([gc.submit([update("here")]), gc.submit([update("gone"), insert("f", "f@x")])])).resolves.toEqual([[true], [false, true]]);
		await expect(store.collection("actors").get("here")).resolves.toMatchObject({ name: "here" });
	});

	/**
	 * A store whose shared batches fail for the first `failures` calls: a stand-in for a
	 * transient failure (a busy or briefly unavailable store), which a real SQLite file
	 * cannot be made to produce on demand. Everything it does write goes to SQLite.
	 */
	function flaky(failures: number): Store & { calls: number[] } {
		let left = failures;
		const calls: number[] = [];
		return Object.assign(Object.create(store) as Store, {
			calls,
			async batch(groups: BatchGroup[]) {
				calls.push(groups.length);
				if (left-- > 0) throw new Error("store unavailable");
				return store.batch(groups);
			}
		});
	}

	it("should try a failed batch again as configured and write it whole once a try succeeds", async () => {
		const s = flaky(2);
		const errors: number[] = [];
		const gc = new GroupCommit(s, { attempts: 4, backoffMs: 1, onBatchError: (_err, groups) => errors.push(groups) });
		await expect(Promise.all([gc.submit([insert("g", "g@x")]), gc.submit([insert("h", "h@x")])])).resolves.toEqual([[true], [true]]);
		expect(s.calls).toEqual([2, 2, 2]);
		expect(errors).toEqual([2, 2]);
		await expect(store.collection("actors").count({})).resolves.toBe(2);
	});

	it("should write each caller's groups on their own after the last try fails", async () => {
		const s = flaky(3);
		const gc = new GroupCommit(s, { attempts: 3, backoffMs: 1 });
		await expect(Promise.all([gc.submit([insert("i", "i@x")]), gc.submit([insert("j", "j@x"), insert("k", "k@x")])])).resolves.toEqual([[true], [true, true]]);
		expect(s.calls).toEqual([3, 3, 3, 1, 2]);
		await expect(store.collection("actors").count({})).resolves.toBe(3);
	});

	/** A store whose batches are answered only when the test says so; the groups of each batch call are kept. */
	function held(): Store & { calls: string[][]; answer(): void } {
		const calls: string[][] = [];
		const waiting: (() => void)[] = [];
		return Object.assign(Object.create(store) as Store, {
			calls,
			answer: () => waiting.shift()!(),
			async batch(groups: BatchGroup[]) {
				calls.push(groups.map(g => (g[0] as { doc: { id: string } }).doc.id));
				await new Promise<void>(resolve => waiting.push(resolve));
				return store.batch(groups);
			}
		});
	}
	const turn = () => new Promise(resolve => setImmediate(resolve));

	it("should hold writes while a batch is under way when maxInFlight is 1, and send them together once it is answered", async () => {
		const s = held();
		const gc = new GroupCommit(s, { maxInFlight: 1 });
		const first = gc.submit([insert("n1", "n1@x")]);
		await turn();
		const later = [gc.submit([insert("n2", "n2@x")]), gc.submit([insert("n3", "n3@x")])];
		await turn();
		const another = gc.submit([insert("n4", "n4@x")]);
		await turn();
		expect(s.calls).toEqual([["n1"]]);

		s.answer();
		await expect(first).resolves.toEqual([true]);
		await turn();
		expect(s.calls).toEqual([["n1"], ["n2", "n3", "n4"]]);
		s.answer();
		await expect(Promise.all([...later, another])).resolves.toEqual([[true], [true], [true]]);
		await expect(store.collection("actors").count({})).resolves.toBe(4);
	});

	it("should send the writes of each turn as they come without a limit (the default)", async () => {
		const s = held();
		const gc = new GroupCommit(s);
		const all = [gc.submit([insert("o1", "o1@x")])];
		await turn();
		all.push(gc.submit([insert("o2", "o2@x")]));
		await turn();
		expect(s.calls).toEqual([["o1"], ["o2"]]);
		s.answer();
		s.answer();
		await expect(Promise.all(all)).resolves.toEqual([[true], [true]]);
	});

	it("should write each caller on its own when a batch under the limit fails, then take new writes", async () => {
		const s = flaky(1);
		const gc = new GroupCommit(s, { maxInFlight: 1 });
		const results = Promise.all([gc.submit([insert("p1", "p1@x")]), gc.submit([insert("p2", "p2@x")])]);
		await expect(results).resolves.toEqual([[true], [true]]);
		await expect(gc.submit([insert("p3", "p3@x")])).resolves.toEqual([true]);
		expect(s.calls).toEqual([2, 1, 1, 1]);
		await expect(store.collection("actors").count({})).resolves.toBe(3);
	});

	it("should write at once, without waiting, when a batch reaches its size", async () => {
		const s = flaky(0);
		const gc = new GroupCommit(s, { maxGroups: 2, delayMs: 60000 });
		await expect(Promise.all([gc.submit([insert("l", "l@x")]), gc.submit([insert("m", "m@x")])])).resolves.toEqual([[true], [true]]);
		expect(s.calls).toEqual([2]);
	});
});
