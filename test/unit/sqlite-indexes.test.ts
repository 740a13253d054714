/**
 * Partial indexes in the embedded store (lib/store/sqlite.ts): an index declared
 * sparse or partial holds only the rows that have its fields, the queries that compare
 * those fields still use it, a unique one still refuses duplicates, and a file made
 * before (with the full index under the plain name) gets the partial one instead.
 */
import { DatabaseSync } from "node:sqlite";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SqliteStore } from "../../lib/store/sqlite";
import { DuplicateKeyError, type Doc } from "../../lib/store/types";

type Row = Doc & Record<string, unknown>;

describe("partial indexes in the SQLite store", () => {
	let dir: string;
	let file: string;

	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlite-indexes-"));
		file = path.join(dir, "store.sqlite");
	});

	afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

	const indexes = (db: DatabaseSync, table: string) =>
		Object.fromEntries(
			db
				.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
				.all(table)
				.map(r => [r.name as string, r.sql as string])
		);

	const plan = (db: DatabaseSync, sql: string, args: string[]) =>
		db
			.prepare(`EXPLAIN QUERY PLAN ${sql}`)
			.all(...args)
			.map(r => r.detail as string)
			.join(" | ");

	it("indexes only the rows that have the fields, and the queries on them still use the index", async () => {
		const store = new SqliteStore(file);
		try {
			const notifications = store.collection<Row>("notifications");
			const ix = indexes(store.db, "c_notifications");
			expect(ix.ix_notifications_providerMessageId_present).toMatch(/WHERE json_extract\(doc, '\$\.providerMessageId'\) IS NOT NULL$/);
			expect(ix.ix_notifications_status_leaseUntil_present).toMatch(/WHERE .*'\$\.status'\) IS NOT NULL AND .*'\$\.leaseUntil'\) IS NOT NULL$/);
			expect(ix.ix_notifications_idempotencyScope_present).toMatch(/^CREATE UNIQUE INDEX .* WHERE /);
			expect(ix.ix_notifications_providerMessageId).toBeUndefined();
			// A full index stays full.
			expect(ix.ix_notifications_to_id).not.toMatch(/WHERE/);

			await notifications.insert({ id: "a", status: "QUEUED" });
			await notifications.insert({ id: "b", status: "PROCESSING", leaseUntil: "2000-01-01T00:00:00.000Z", providerMessageId: "pm-b" });
			expect((await notifications.findOne({ providerMessageId: "pm-b" }))?.id).toBe("b");
			expect((await notifications.find({ status: { $in: ["PROCESSING", "SENDING"] }, leaseUntil: { $lt: new Date().toISOString() } })).map(d => d.id)).toEqual(["b"]);
			const entries = (name: string) => Number(store.db.prepare(`SELECT count(*) AS n FROM "c_notifications" INDEXED BY "${name}" WHERE json_extract(doc, '$.providerMessageId') IS NOT NULL`).get()!.n);
			expect(entries("ix_notifications_providerMessageId_present")).toBe(1);

			expect(plan(store.db, `SELECT id FROM "c_notifications" WHERE json_extract(doc, '$.providerMessageId') = ?`, ["pm-b"])).toContain("USING INDEX ix_notifications_providerMessageId_present");
			expect(
				plan(store.db, `SELECT id FROM "c_notifications" WHERE json_extract(doc, '$.leaseUntil') < ? AND (json_extract(doc, '$.status') IN (?,?))`, ["x", "PROCESSING", "SENDING"])
			).toContain("USING INDEX ix_notifications_status_leaseUntil_present");
			expect(plan(store.db, `SELECT id FROM "c_notifications" WHERE json_extract(doc, '$.idempotencyScope') = ?`, ["k"])).toContain("USING INDEX ix_notifications_idempotencyScope_present");
		} finally {
			await store.close();
		}
	});

	it("answers the inbox's pages and counts from its indexes, sorted by the index, without a temporary sort", async () => {
		const store = new SqliteStore(file);
		try {
			store.collection<Row>("inbox");
			const x = (f: string) => `json_extract(doc, '$.${f}')`;
			const page = plan(store.db, `SELECT doc FROM "c_inbox" WHERE ${x("actorId")} = ? AND ${x("state")} = ? AND ${x("seq")} < ? ORDER BY ${x("seq")} DESC LIMIT 21`, ["a", "unread", "z"]);
			expect(page).toContain("USING INDEX ix_inbox_actorId_state_seq");
			expect(page).not.toContain("TEMP B-TREE");
			const all = plan(store.db, `SELECT doc FROM "c_inbox" WHERE ${x("actorId")} = ? ORDER BY ${x("seq")} DESC LIMIT 21`, ["a"]);
			expect(all).toContain("USING INDEX ix_inbox_actorId_seq");
			expect(all).not.toContain("TEMP B-TREE");
			expect(plan(store.db, `SELECT count(*) AS n FROM "c_inbox" WHERE ${x("actorId")} = ? AND ${x("state")} = ?`, ["a", "unread"])).toMatch(/USING (COVERING )?INDEX ix_inbox_actorId_state/);
			expect(plan(store.db, `SELECT count(*) AS n FROM "c_inbox" WHERE ${x("actorId")} = ? AND (${x("state")} IN (?,?)) AND ${x("seenAt")} IS NULL`, ["a", "unread", "read"])).toContain(
				"ix_inbox_actorId_state_seenAt"
			);
		} finally {
			await store.close();
		}
	});

	it("replaces a full index from a file made before, and a unique one still refuses duplicates", async () => {
		const old = new DatabaseSync(file);
		old.exec(`CREATE TABLE "c_notifications" (id TEXT PRIMARY KEY, doc TEXT NOT NULL) STRICT`);
		old.exec(`CREATE UNIQUE INDEX "ix_notifications_idempotencyScope" ON "c_notifications" (json_extract(doc, '$.idempotencyScope') ASC)`);
		old.exec(`CREATE INDEX "ix_notifications_providerMessageId" ON "c_notifications" (json_extract(doc, '$.providerMessageId') ASC)`);
		old.prepare(`INSERT INTO "c_notifications" (id, doc) VALUES (?, ?)`).run("before", JSON.stringify({ id: "before", status: "SENT", idempotencyScope: "svc:s:k1" }));
		old.close();

		const store = new SqliteStore(file);
		try {
			const notifications = store.collection<Row>("notifications");
			const ix = indexes(store.db, "c_notifications");
			expect(ix.ix_notifications_idempotencyScope).toBeUndefined();
			expect(ix.ix_notifications_providerMessageId).toBeUndefined();
			expect(ix.ix_notifications_idempotencyScope_present).toMatch(/^CREATE UNIQUE INDEX .* WHERE /);
			expect(ix.ix_notifications_providerMessageId_present).toMatch(/ WHERE /);

			await expect(notifications.insert({ id: "again", status: "QUEUED", idempotencyScope: "svc:s:k1" })).rejects.toBeInstanceOf(DuplicateKeyError);
			// Rows without the field are not in the index: any number of them.
			await notifications.insert({ id: "x", status: "QUEUED" });
			await notifications.insert({ id: "y", status: "QUEUED" });
			expect((await notifications.findOne({ idempotencyScope: "svc:s:k1" }))?.id).toBe("before");
			expect(await notifications.count({})).toBe(3);
		} finally {
			await store.close();
		}

		// Opening the file again changes nothing.
		const again = new SqliteStore(file);
		try {
			again.collection("notifications");
			expect(Object.keys(indexes(again.db, "c_notifications")).filter(n => n.includes("idempotencyScope"))).toEqual(["ix_notifications_idempotencyScope_present"]);
		} finally {
			await again.close();
		}
	});
});
