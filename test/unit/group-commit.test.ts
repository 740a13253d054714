import fs from "node:fs";
import path from "node:path";
import { DuplicateKeyError } from "../../lib/store";
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
});
