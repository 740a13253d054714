/**
 * One contract for every store backend: SQLite always, MongoDB when a server is
 * reachable (TEST_MONGODB_URL, or a mongod binary mongodb-memory-server can get).
 */
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { SqliteStore } from "../../lib/store/sqlite";
import { SqliteWorkerStore } from "../../lib/store/sqlite-thread";
import { MongoStore } from "../../lib/store/mongo";
import { DuplicateKeyError, type Store } from "../../lib/store";
import { SessionRecords } from "../../lib/sessions/records";
import type { TemplateDoc } from "../../lib/notifications/model";
import { createTemplate, findTemplate, findTemplateVersion, listTemplateVersions, replaceTemplate, restoreTemplateVersion } from "../../lib/notifications/templates";
import { SCHEMA } from "../../lib/store/schema";
import { AuditLog } from "../../lib/audit";
import { AuthSessions, MfaRecords, Passkeys } from "../../lib/mfa";
import type { FactorRecord } from "../../lib/mfa/records";
import { TracedStore } from "../../lib/store/traced";
import { inboxCounts, listInbox, markMessage, messagesAfter, newestSeq, readAll, storeMessage } from "../../lib/inbox";
import { findUsers } from "../../lib/accounts/directory";
import { AccountLocks } from "../../lib/accounts/locks";
import { mongoSource, startMongo } from "../helpers/mongo";
import { tempDir } from "../helpers/platform";
import { uniqueName } from "../helpers/services";

interface Item {
	id: string;
	email?: string;
	pool?: string;
	username?: string;
	n?: number;
	flag?: boolean;
	tag?: string | null;
	nested?: { a?: number };
}

// The contract runs on the idp_users collection's shape (unique pool+username) and on
// actors (unique email); the test data follow those indexes.
function contract(name: string, open: () => Promise<{ store: Store; cleanup: () => Promise<void> }>) {
	describe(`store contract: ${name}`, () => {
		let store: Store;
		let cleanup: () => Promise<void>;

		beforeAll(async () => {
			({ store, cleanup } = await open());
		});
		afterAll(async () => {
			await cleanup?.();
		});
		beforeEach(async () => {
			for (const c of Object.keys(SCHEMA)) await store.collection(c).deleteMany({});
		});

		it("should return an inserted document by id when it exists", async () => {
			const c = store.collection<Item>("actors");
			await c.insert({ id: "a1", email: "x@example.com", n: 1, nested: { a: 2 } });
			await expect(c.get("a1")).resolves.toEqual({ id: "a1", email: "x@example.com", n: 1, nested: { a: 2 } });
			await expect(c.get("missing")).resolves.toBeNull();
		});

		it("should throw DuplicateKeyError when the id or a unique field is taken", async () => {
			const c = store.collection<Item>("actors");
			await c.insert({ id: "a1", email: "x@example.com" });
			await expect(c.insert({ id: "a1", email: "y@example.com" })).rejects.toBeInstanceOf(DuplicateKeyError);
			await expect(c.insert({ id: "a2", email: "x@example.com" })).rejects.toBeInstanceOf(DuplicateKeyError);
			await expect(c.count({})).resolves.toBe(1);
		});

		it("should enforce compound unique indexes when all fields match", async () => {
			const c = store.collection<Item>("idp_users");
			await c.insert({ id: "u1", pool: "actors", username: "a" });
			await c.insert({ id: "u2", pool: "services", username: "a" });
			await expect(c.insert({ id: "u3", pool: "actors", username: "a" })).rejects.toBeInstanceOf(DuplicateKeyError);
		});

		it("should filter with equality, $in, $nin, $ne, ranges, $exists, booleans and nulls", async () => {
			const c = store.collection<Item>("actors");
			await c.insert({ id: "1", email: "1@x", n: 1, flag: true, tag: "a" });
			await c.insert({ id: "2", email: "2@x", n: 2, flag: false, tag: null });
			await c.insert({ id: "3", email: "3@x", n: 3, flag: true });
			const ids = async (f: object) => (await c.find(f as never, { sort: { id: 1 } })).map(d => d.id);
			await expect(ids({ n: 2 })).resolves.toEqual(["2"]);
			await expect(ids({ flag: true })).resolves.toEqual(["1", "3"]);
			await expect(ids({ flag: false })).resolves.toEqual(["2"]);
			await expect(ids({ n: { $in: [1, 3] } })).resolves.toEqual(["1", "3"]);
			await expect(ids({ n: { $in: [] } })).resolves.toEqual([]);
			await expect(ids({ n: { $nin: [1, 3] } })).resolves.toEqual(["2"]);
			await expect(ids({ n: { $nin: [] } })).resolves.toEqual(["1", "2", "3"]);
			await expect(ids({ id: { $nin: ["1", "2"] } })).resolves.toEqual(["3"]);
			await expect(ids({ n: { $ne: 2 } })).resolves.toEqual(["1", "3"]);
			await expect(ids({ n: { $gt: 1, $lte: 3 } })).resolves.toEqual(["2", "3"]);
			await expect(ids({ n: { $gte: 2, $lt: 3 } })).resolves.toEqual(["2"]);
			await expect(ids({ tag: null })).resolves.toEqual(["2", "3"]);
			await expect(ids({ tag: { $exists: true } })).resolves.toEqual(["1", "2"]);
			await expect(ids({ tag: { $ne: "a" } })).resolves.toEqual(["2", "3"]);
			await expect(ids({ id: { $in: ["1", "2"] } })).resolves.toEqual(["1", "2"]);
		});

		describe("one meaning of a stored null and a missing field on every backend", () => {
			beforeEach(async () => {
				const c = store.collection<Item>("actors");
				await c.insert({ id: "p", email: "p@x", tag: "a" });
				await c.insert({ id: "q", email: "q@x", tag: null, nested: {} });
				await c.insert({ id: "r", email: "r@x" });
				await c.insert({ id: "s", email: "s@x", tag: "b", nested: { a: null } as never });
			});

			it.each([
				["equality with null: null or missing", { tag: null }, ["q", "r"]],
				["$exists true: present, null included (MongoDB's meaning)", { tag: { $exists: true } }, ["p", "q", "s"]],
				["$exists false: missing only", { tag: { $exists: false } }, ["r"]],
				["$exists on a nested field holding null", { "nested.a": { $exists: true } }, ["s"]],
				["$exists on the id", { id: { $exists: true } }, ["p", "q", "r", "s"]],
				["$exists false on the id", { id: { $exists: false } }, []],
				["$ne null: present and not null", { tag: { $ne: null } }, ["p", "s"]],
				["$ne a value: missing and null too", { tag: { $ne: "a" } }, ["q", "r", "s"]],
				["$in with null: null or missing", { tag: { $in: [null] } }, ["q", "r"]],
				["$in with a value and null", { tag: { $in: ["a", null] } }, ["p", "q", "r"]],
				["$in with values only", { tag: { $in: ["a", "b"] } }, ["p", "s"]],
				["$nin with values only: missing and null too", { tag: { $nin: ["a"] } }, ["q", "r", "s"]],
				["$nin with null: present, not null, not listed", { tag: { $nin: ["a", null] } }, ["s"]],
				["$nin with null only: present and not null", { tag: { $nin: [null] } }, ["p", "s"]],
				["nested equality with null: null or missing, parent missing too", { "nested.a": null }, ["p", "q", "r", "s"]]
			])("should match %s", async (_what, filter, expected) => {
				const c = store.collection<Item>("actors");
				await expect(c.find(filter as never, { sort: { id: 1 } }).then(d => d.map(x => x.id))).resolves.toEqual(expected);
				await expect(c.count(filter as never)).resolves.toBe(expected.length);
			});
		});

		describe("one meaning of limit and skip on every backend", () => {
			beforeEach(async () => {
				const c = store.collection<Item>("actors");
				for (const id of ["a", "b", "c"]) await c.insert({ id, email: `${id}@x`, tag: "free" });
			});

			it.each([
				["no limit: every match", {}, ["a", "b", "c"]],
				["limit 0: no documents (not MongoDB's no limit)", { limit: 0 }, []],
				["limit 0 with a skip", { limit: 0, skip: 1 }, []],
				["a skip alone", { skip: 1 }, ["b", "c"]],
				["a skip past the end", { skip: 5, limit: 2 }, []]
			])("should return %s", async (_what, opts, expected) => {
				const c = store.collection<Item>("actors");
				await expect(c.find({}, { sort: { id: 1 }, ...opts }).then(d => d.map(x => x.id))).resolves.toEqual(expected);
			});

			it.each([
				["a negative limit", { limit: -1 }, /Invalid limit/],
				["a fractional limit", { limit: 1.5 }, /Invalid limit/],
				["a negative skip", { skip: -1 }, /Invalid skip/]
			])("should refuse %s", async (_what, opts, error) => {
				await expect(store.collection<Item>("actors").find({}, opts)).rejects.toThrow(error);
			});

			it("should claim nothing and change nothing when the claim's limit is 0, and refuse a negative one", async () => {
				const c = store.collection<Item>("actors");
				await expect(c.claimMany({ tag: "free" }, { $set: { tag: "taken" } }, { limit: 0 })).resolves.toEqual([]);
				await expect(c.claimMany({ tag: "free" }, { $set: { tag: "taken" } }, { limit: -1 })).rejects.toThrow(/Invalid limit/);
				await expect(c.count({ tag: "free" })).resolves.toBe(3);
			});
		});

		describe("one refusal of updates MongoDB would refuse, on every backend", () => {
			const refused: [string, object, RegExp][] = [
				["no operator at all", {}, /needs a field/],
				["an empty $set", { $set: {} }, /needs a field/],
				["a $set whose only value is undefined", { $set: { tag: undefined } }, /needs a field/],
				["an empty $unset", { $unset: [] }, /needs a field/],
				["a $set of the id", { $set: { id: "other" } }, /id of a document/],
				["an $inc of the id", { $inc: { id: 1 } }, /id of a document/],
				["one field set and unset", { $set: { tag: "x" }, $unset: ["tag"] }, /names "tag" and "tag"/],
				["a field and a part of it", { $set: { nested: {} }, $inc: { "nested.a": 1 } }, /names "nested" and "nested.a"/]
			];

			beforeEach(async () => {
				await store.collection<Item>("actors").insert({ id: "u1", email: "u1@x", tag: "free", n: 1 });
			});

			it.each(refused)("should refuse %s through every update method, whether or not anything matches", async (_what, update, error) => {
				const c = store.collection<Item>("actors");
				for (const filter of [{ id: "u1" }, { id: "none" }]) {
					await expect(c.updateMany(filter, update as never)).rejects.toThrow(error);
					await expect(c.findOneAndUpdate(filter, update as never)).rejects.toThrow(error);
					await expect(c.claimMany(filter, update as never, { limit: 5 })).rejects.toThrow(error);
				}
				await expect(
					store.batch([[{ op: "insert", collection: "actors", doc: { id: "u2", email: "u2@x" } as Item }, { op: "updateMany", collection: "actors", filter: { id: "u1" }, update: update as never }]])
				).rejects.toThrow(error);
				// Nothing was written, the batch's insert included.
				await expect(c.find({}, { sort: { id: 1 } })).resolves.toEqual([{ id: "u1", email: "u1@x", tag: "free", n: 1 }]);
			});
		});

		it("should sort, skip and limit when asked", async () => {
			const c = store.collection<Item>("actors");
			for (const [id, n] of [["a", 3], ["b", 1], ["c", 2], ["d", 2]] as const) await c.insert({ id, email: `${id}@x`, n });
			const asc = await c.find({}, { sort: { n: 1, id: 1 } });
			expect(asc.map(d => d.id)).toEqual(["b", "c", "d", "a"]);
			const desc = await c.find({}, { sort: { n: -1, id: -1 }, skip: 1, limit: 2 });
			expect(desc.map(d => d.id)).toEqual(["d", "c"]);
			await expect(c.findOne({ n: 2 }, { sort: { id: -1 } })).resolves.toMatchObject({ id: "d" });
			await expect(c.count({ n: 2 })).resolves.toBe(2);
		});

		it("should apply $set, $inc and $unset when updating many", async () => {
			const c = store.collection<Item>("actors");
			await c.insert({ id: "1", email: "1@x", n: 1, tag: "t" });
			await c.insert({ id: "2", email: "2@x", n: 5, tag: "t" });
			await expect(c.updateMany({ tag: "t" }, { $set: { "nested.a": 7 }, $inc: { n: 2 }, $unset: ["tag"] })).resolves.toBe(2);
			await expect(c.get("1")).resolves.toEqual({ id: "1", email: "1@x", n: 3, nested: { a: 7 } });
			await expect(c.updateMany({ n: 100 }, { $set: { tag: "x" } })).resolves.toBe(0);
		});

		it("should refuse an update when it would break a unique index", async () => {
			const c = store.collection<Item>("actors");
			await c.insert({ id: "1", email: "1@x" });
			await c.insert({ id: "2", email: "2@x" });
			await expect(c.updateMany({ id: "2" }, { $set: { email: "1@x" } })).rejects.toBeInstanceOf(DuplicateKeyError);
			await expect(c.get("2")).resolves.toMatchObject({ email: "2@x" });
		});

		it("should update only the first match by sort when using findOneAndUpdate", async () => {
			const c = store.collection<Item>("actors");
			for (const [id, n] of [["a", 2], ["b", 1], ["c", 3]] as const) await c.insert({ id, email: `${id}@x`, n, tag: "free" });
			const got = await c.findOneAndUpdate({ tag: "free" }, { $set: { tag: "taken" } }, { sort: { n: 1 } });
			expect(got).toMatchObject({ id: "b", tag: "taken" });
			await expect(c.count({ tag: "free" })).resolves.toBe(2);
			await expect(c.findOneAndUpdate({ tag: "nope" }, { $set: { tag: "x" } })).resolves.toBeNull();
		});

		it("should give each document to exactly one caller when claims race", async () => {
			const c = store.collection<Item>("actors");
			for (let i = 0; i < 20; i++) await c.insert({ id: `d${i}`, email: `${i}@x`, n: i, tag: "free" });
			const claims = await Promise.all(
				Array.from({ length: 40 }, (_, i) => c.findOneAndUpdate({ tag: "free" }, { $set: { tag: `w${i}` } }, { sort: { n: 1 } }))
			);
			const won = claims.filter(Boolean).map(d => d!.id);
			expect(won).toHaveLength(20);
			expect(new Set(won).size).toBe(20);
		});

		it("should claim up to the limit in sort order, each document once, when claiming in batches", async () => {
			const c = store.collection<Item>("actors");
			for (let i = 0; i < 12; i++) await c.insert({ id: `b${i}`, email: `b${i}@x`, n: 12 - i, tag: "free" });
			const claim = (w: number) => c.claimMany({ tag: "free" }, { $set: { tag: `w${w}` }, $inc: { n: 100 } }, { sort: { n: 1 }, limit: 4 });
			const first = await claim(0);
			expect(first.map(d => d.id)).toEqual(["b11", "b10", "b9", "b8"]);
			// Concurrent claims may split candidates (MongoDB), but never share one or skip one.
			const batches = await Promise.all([1, 2, 3].map(claim));
			const all = [first, ...batches].flat();
			expect(all).toHaveLength(12);
			expect(new Set(all.map(d => d.id)).size).toBe(12);
			for (const batch of batches) expect(batch.map(d => d.n)).toEqual(batch.map(d => d.n!).sort((a, b) => a - b));
			for (const d of all) {
				expect(Object.keys(d).sort()).toEqual(["email", "id", "n", "tag"]);
				expect(d.n! > 100 && d.tag!.startsWith("w")).toBe(true);
				await expect(c.get(d.id)).resolves.toEqual(d);
			}
			await expect(c.claimMany({ tag: "free" }, { $set: { tag: "x" } }, { limit: 5 })).resolves.toEqual([]);
		});

		it("should claim past the documents a $nin list leaves out, in sort order, when they come first", async () => {
			const c = store.collection<Item>("actors");
			for (let i = 0; i < 6; i++) await c.insert({ id: `k${i}`, email: `k${i}@x`, n: i, tag: i < 4 ? "busy" : "idle" });
			const claimed = await c.claimMany({ email: { $nin: ["k0@x", "k1@x", "k2@x", "k3@x"] } }, { $set: { tag: "taken" } }, { sort: { n: 1 }, limit: 2 });
			expect(claimed.map(d => d.id)).toEqual(["k4", "k5"]);
			await expect(c.count({ tag: "busy" })).resolves.toBe(4);
		});

		it("should allow many documents without a sparse unique field and refuse duplicates of it", async () => {
			const c = store.collection<{ id: string; notificationId?: string; dedupeKey?: string; seq?: string }>("notification_events");
			await c.insert({ id: "e1", notificationId: "n" });
			await c.insert({ id: "e2", notificationId: "n" });
			await c.insert({ id: "e3", notificationId: "n", dedupeKey: "k" });
			await expect(c.insert({ id: "e4", notificationId: "n", dedupeKey: "k" })).rejects.toBeInstanceOf(DuplicateKeyError);
		});

		it("should apply batch groups in order and stop a group at an update that changes nothing", async () => {
			const c = store.collection<Item>("actors");
			await c.insert({ id: "g1", email: "g1@x", tag: "held", n: 1 });
			const results = await store.batch([
				[
					{ op: "updateMany", collection: "actors", filter: { id: "g1", tag: "held" }, update: { $set: { tag: "done" }, $inc: { n: 1 } } },
					{ op: "insert", collection: "actors", doc: { id: "g2", email: "g2@x" } as Item }
				],
				[
					{ op: "updateMany", collection: "actors", filter: { id: "g1", tag: "held" }, update: { $set: { tag: "again" } } },
					{ op: "insert", collection: "actors", doc: { id: "g3", email: "g3@x" } as Item }
				]
			]);
			expect(results).toEqual([true, false]);
			await expect(c.get("g1")).resolves.toMatchObject({ tag: "done", n: 2 });
			await expect(c.get("g2")).resolves.not.toBeNull();
			await expect(c.get("g3")).resolves.toBeNull();
		});

		it("should keep value types when updating: strings, numbers, booleans, null, objects", async () => {
			const c = store.collection<Item & { obj?: object; flag2?: boolean }>("actors");
			await c.insert({ id: "t1", email: "t1@x", n: 1 });
			await c.updateMany({ id: "t1" }, { $set: { tag: 'quote " and \\ back', flag: false, nested: { a: 3 }, obj: { deep: [1, "x", null] } }, $inc: { n: 1.5 } });
			await expect(c.get("t1")).resolves.toEqual({ id: "t1", email: "t1@x", tag: 'quote " and \\ back', flag: false, nested: { a: 3 }, obj: { deep: [1, "x", null] }, n: 2.5 });
			await expect(c.count({ flag: false })).resolves.toBe(1);
			await c.updateMany({ id: "t1" }, { $set: { tag: null } });
			await expect(c.count({ tag: null })).resolves.toBe(1);
		});

		it("should count a matched document as updated even when nothing changes", async () => {
			const c = store.collection<Item>("actors");
			await c.insert({ id: "s1", email: "s1@x", tag: "same" });
			await expect(c.updateMany({ id: "s1" }, { $set: { tag: "same" } })).resolves.toBe(1);
		});

		it("should refuse conditions the backends would read differently", async () => {
			const c = store.collection<Item>("actors");
			await expect(c.find({ nested: {} } as never)).rejects.toThrow(/Invalid condition/);
			await expect(c.count({ nested: { a: 1 } } as never)).rejects.toThrow(/Invalid condition/);
			await expect(c.updateMany({ n: { $regex: "x" } } as never, { $set: { tag: "x" } })).rejects.toThrow(/Invalid condition/);
		});

		it("should delete matching documents and report how many", async () => {
			const c = store.collection<Item>("actors");
			await c.insert({ id: "1", email: "1@x", n: 1 });
			await c.insert({ id: "2", email: "2@x", n: 2 });
			await expect(c.deleteMany({ n: { $lt: 2 } })).resolves.toBe(1);
			await expect(c.count({})).resolves.toBe(1);
		});

		it("should reject an unknown collection when it is not declared in the schema", () => {
			expect(() => store.collection("no_such_collection")).toThrow(/declare it/);
		});

		it("should number template versions once each when changes race, restore one as the next, and list them newest first", async () => {
			const owner = { kind: "service", id: "t" } as const;
			const t = await createTemplate(store, { name: "v", text: "one" }, owner);
			// A template made before versions: a record without a version and no version rows.
			await store.collection<TemplateDoc>("templates").insert({ id: "legacy", name: "old", text: "zero", createdBy: owner, createdAt: "2025-01-01T00:00:00.000Z", updatedAt: "2025-01-01T00:00:00.000Z" });
			const changes = await Promise.all([2, 3, 4, 5].map(n => replaceTemplate(store, t.id, { name: "v", text: `change ${n}` }, () => true)));
			expect(new Set(changes.map(c => c.version)).size).toBe(4);
			const versions = await listTemplateVersions(store, t.id);
			expect(versions.map(v => v.version)).toEqual([5, 4, 3, 2, 1]);
			expect((await findTemplate(store, t.id))!.version).toBe(5);
			expect((await findTemplate(store, t.id))!.text).toBe(versions[0]!.text);
			const restored = await restoreTemplateVersion(store, t.id, 1, () => true);
			expect(restored).toMatchObject({ version: 6, text: "one" });
			expect((await listTemplateVersions(store, t.id))[0]).toMatchObject({ version: 6, text: "one", restoredFrom: 1 });

			await expect(listTemplateVersions(store, "legacy")).resolves.toEqual([expect.objectContaining({ version: 1, text: "zero" })]);
			await expect(replaceTemplate(store, "legacy", { name: "old", subject: "s", text: "new" }, () => true)).resolves.toMatchObject({ version: 2, subject: "s", text: "new" });
			expect((await listTemplateVersions(store, "legacy")).map(v => [v.version, v.text])).toEqual([[2, "new"], [1, "zero"]]);
			await expect(findTemplateVersion(store, "legacy", 1)).resolves.toMatchObject({ text: "zero" });
			await expect(restoreTemplateVersion(store, "legacy", 7, () => true)).rejects.toMatchObject({ type: "NOT_FOUND" });
			// Every field at once: nothing to unset.
			const full = { name: "v", defaultLocale: "en", subject: "s", html: "<p>h</p>", text: "t", locales: { de: { text: "d" } } };
			await expect(replaceTemplate(store, t.id, full, () => true)).resolves.toMatchObject({ ...full, version: 7 });
		});

		it("should keep an inbox: one message per notification, pages newest first by state, counts, marks and read-all", async () => {
			const actor = "0190a000-0000-7000-8000-0000000000aa";
			const other = "0190a000-0000-7000-8000-0000000000bb";
			const ids = ["n1", "n2", "n3", "n4", "n5"];
			for (const [i, id] of ids.entries()) await storeMessage(store, { notificationId: id, actorId: actor, title: `t${i}`, body: "b", data: { i } }, 1_700_000_000_000 + i);
			await storeMessage(store, { notificationId: "o1", actorId: other, body: "x" }, 1_700_000_000_100);
			// A retried send stores no second message.
			const again = await storeMessage(store, { notificationId: "n1", actorId: actor, body: "changed" }, 1_700_000_009_000);
			expect(again).toMatchObject({ created: false, doc: { id: "n1", body: "b", title: "t0" } });

			const first = await listInbox(store, actor, { limit: 2 });
			expect(first.items.map(i => i.notificationId)).toEqual(["n5", "n4"]);
			expect(first.items[0]).toEqual({ notificationId: "n5", title: "t4", body: "b", data: { i: 4 }, createdAt: new Date(1_700_000_000_004).toISOString() });
			const second = await listInbox(store, actor, { limit: 2, cursor: first.nextCursor });
			const third = await listInbox(store, actor, { limit: 2, cursor: second.nextCursor });
			expect([second, third].map(p => p.items.map(i => i.notificationId))).toEqual([["n3", "n2"], ["n1"]]);
			expect(third.nextCursor).toBeUndefined();
			await expect(inboxCounts(store, actor)).resolves.toEqual({ unread: 5, unseen: 5 });

			await markMessage(store, actor, "n1", { seen: true }, 1_700_000_001_000);
			await expect(markMessage(store, actor, "n2", { read: true }, 1_700_000_001_000)).resolves.toMatchObject({ state: "read", readAt: expect.any(String), seenAt: expect.any(String) });
			await markMessage(store, actor, "n3", { archived: true }, 1_700_000_001_000);
			await expect(markMessage(store, other, "n4", { read: true })).rejects.toMatchObject({ code: 404, type: "NOT_FOUND" });
			await expect(inboxCounts(store, actor)).resolves.toEqual({ unread: 3, unseen: 2 });
			const state = async (s: "unread" | "read" | "archived" | "all") => (await listInbox(store, actor, { state: s })).items.map(i => i.notificationId);
			await expect(Promise.all([state("unread"), state("read"), state("archived"), state("all")])).resolves.toEqual([
				["n5", "n4", "n1"],
				["n2"],
				["n3"],
				["n5", "n4", "n3", "n2", "n1"]
			]);
			// Unarchived and unread again: back where it was, its times gone.
			const back = await markMessage(store, actor, "n3", { archived: false });
			expect(back.state).toBe("unread");
			expect(back.archivedAt).toBeUndefined();
			const unread = await markMessage(store, actor, "n2", { read: false });
			expect([unread.state, unread.readAt, typeof unread.seenAt]).toEqual(["unread", undefined, "string"]);

			await expect(readAll(store, actor, 1_700_000_002_000)).resolves.toBe(5);
			await expect(inboxCounts(store, actor)).resolves.toEqual({ unread: 0, unseen: 0 });
			await expect(inboxCounts(store, other)).resolves.toEqual({ unread: 1, unseen: 1 });
			await expect(readAll(store, actor)).resolves.toBe(0);

			const newest = (await newestSeq(store, actor))!;
			expect((await messagesAfter(store, actor, newest, 10))).toEqual([]);
			expect((await messagesAfter(store, actor, first.nextCursor!, 10)).map(m => m.notificationId)).toEqual(["n5"]);
			await expect(newestSeq(store, "0190a000-0000-7000-8000-0000000000cc")).resolves.toBeNull();
		});

		it("should answer ping when the backend is up", async () => {
			await expect(store.ping()).resolves.toBeUndefined();
		});

		// The administrators' user routes (services/auth/admin-users.ts) on every backend.
		it("should find accounts by email prefix or id, a page at a time in email order", async () => {
			const actors = store.collection<{ id: string; email: string; firstName: string; lastName: string; createdAt: string }>("actors");
			const ids = ["0190a0a0-0000-4000-8000-00000000000", "0190a0a0-0000-4000-8000-10000000000"];
			const emails = ["ada@x.test", "adam@x.test", "adb@x.test", "bob@x.test", "ad@y.test"];
			for (const [i, email] of emails.entries()) await actors.insert({ id: `${ids[0]}${i}`, email, firstName: "F", lastName: "L", createdAt: "2026-01-01T00:00:00.000Z" });
			const emailsOf = (page: { items: { email: string }[] }) => page.items.map(u => u.email);

			const first = await findUsers(store, { query: "AD", limit: 2 });
			expect(emailsOf(first)).toEqual(["ad@y.test", "ada@x.test"]);
			const second = await findUsers(store, { query: "ad", cursor: first.nextCursor, limit: 2 });
			expect(emailsOf(second)).toEqual(["adam@x.test", "adb@x.test"]);
			expect(second.nextCursor).toBeUndefined();
			await expect(findUsers(store, { query: "ada@" })).resolves.toMatchObject({ items: [{ email: "ada@x.test", actorId: `${ids[0]}0` }] });
			expect(emailsOf(await findUsers(store, {}))).toEqual(["ad@y.test", "ada@x.test", "adam@x.test", "adb@x.test", "bob@x.test"]);
			expect(emailsOf(await findUsers(store, { query: `${ids[0]}3` }))).toEqual(["bob@x.test"]);
			expect(emailsOf(await findUsers(store, { query: `${ids[1]}3` }))).toEqual([]);
			await expect(findUsers(store, { cursor: "not a cursor" })).rejects.toMatchObject({ code: 400, type: "VALIDATION_ERROR" });
		});

		it("should lock an account once, tell locks among many, and unlock it", async () => {
			const locks = new AccountLocks(() => store);
			const first = await locks.lock("a1", "admin-1", new Date("2026-01-01T00:00:00.000Z"));
			// Locking again keeps the first record.
			await expect(locks.lock("a1", "admin-2")).resolves.toEqual(first);
			await locks.lock("a2", "cli");
			await expect(locks.get("a1")).resolves.toEqual({ id: "a1", lockedAt: "2026-01-01T00:00:00.000Z", lockedBy: "admin-1" });
			expect([...(await locks.among(["a1", "a2", "a3"])).keys()].sort()).toEqual(["a1", "a2"]);
			await expect(locks.among([])).resolves.toEqual(new Map());
			await expect(locks.unlock("a1")).resolves.toBe(true);
			await expect(locks.unlock("a1")).resolves.toBe(false);
			await expect(locks.get("a1")).resolves.toBeNull();
		});

		// The second-factor records (lib/mfa) rely on these operations being atomic on every backend.
		describe("session records", () => {
			const jwt = (claims: object) => `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;
			const token = (sub: string, sid: string) => ({ accessToken: jwt({ sub, sid, amr: ["pwd", "otp"] }) });

			it("should record sessions, move lastUsedAt on use, list the open ones newest first and end them once", async () => {
				let now = Date.parse("2026-01-01T00:00:00Z");
				const records = new SessionRecords(() => store, 3600, () => now);
				await records.opened(token("u1", "s1"), { ip: "203.0.113.7", userAgent: "Phone" });
				now += 1000;
				await records.opened(token("u1", "s2"), { userAgent: "Laptop" });
				await records.opened(token("u2", "s3"), {});
				// A second opening of one sid (a retried sign-in answer) keeps the first record.
				await records.opened(token("u1", "s1"), { userAgent: "Other" });
				now += 1000;
				await records.used(token("u1", "s1"));
				const listed = await records.list("u1", "s2");
				expect(listed.map(s => [s.sessionId, s.current, s.userAgent])).toEqual([
					["s2", true, "Laptop"],
					["s1", false, "Phone"]
				]);
				expect(listed[1]).toMatchObject({ ip: "203.0.113.7", amr: ["pwd", "otp"], createdAt: "2026-01-01T00:00:00.000Z", lastUsedAt: "2026-01-01T00:00:02.000Z" });
				// The provider's live families narrow the list.
				expect((await records.list("u1", undefined, new Set(["s1"]))).map(s => s.sessionId)).toEqual(["s1"]);
				await expect(records.openIds("u1", "s2")).resolves.toEqual(["s1"]);
				// Another user's session is never found, nor ended.
				await expect(records.find("u2", "s1")).resolves.toBeNull();
				await expect(records.ended("u2", ["s1"])).resolves.toBe(0);
				await expect(records.ended("u1", ["s1", "s3"])).resolves.toBe(1);
				await expect(records.ended("u1", ["s1"])).resolves.toBe(0);
				expect((await records.list("u1", undefined)).map(s => s.sessionId)).toEqual(["s2"]);
				// Past their lifetime they are neither listed nor kept by a sweep.
				now += 3600_000;
				await expect(records.list("u1", undefined)).resolves.toEqual([]);
				await expect(records.sweep()).resolves.toBe(3);
			});
		});

		describe("second-factor records", () => {
			const kek = randomBytes(32);
			const tokens = { accessToken: "a", idToken: "i", refreshToken: "r", expiresAt: 1, expiresIn: 1, tokenType: "Bearer" as const };
			const first = { userSub: "u1", username: "u1@example.com", groups: [], amr: ["pwd"], authTime: 1 };

			it("should spend a TOTP time step once, however many race, and never an earlier one", async () => {
				const records = new MfaRecords(store, kek);
				const f = await records.addPendingTotp("u1", "Phone", "JBSWY3DPEHPK3PXP");
				expect(records.seedOf((await records.factor("u1", f.id))!)).toBe("JBSWY3DPEHPK3PXP");
				await expect(records.factor("u2", f.id)).resolves.toBeNull();
				// Confirming activates it; the confirming step is spent with it.
				const confirms = await Promise.all([records.spendCounter(f, 100, true), records.spendCounter(f, 100, true)]);
				expect(confirms.filter(Boolean)).toHaveLength(1);
				await expect(records.countActive("u1")).resolves.toBe(1);
				const active = (await records.factor("u1", f.id))!;
				const wins = await Promise.all(Array.from({ length: 5 }, () => records.spendCounter(active, 101, false)));
				expect(wins.filter(Boolean)).toHaveLength(1);
				await expect(records.spendCounter(active, 100, false)).resolves.toBe(false);
				await expect(records.spendCounter(active, 102, false)).resolves.toBe(true);
			});

			it("should seal stored seeds in place once a key-encryption key is configured", async () => {
				const clear = new MfaRecords(store, undefined);
				const f = await clear.addPendingTotp("u1", "Phone", "JBSWY3DPEHPK3PXP");
				expect((await clear.factor("u1", f.id))!.seed).toBe("JBSWY3DPEHPK3PXP");
				const sealed = new MfaRecords(store, kek);
				await sealed.sealStoredSeeds();
				const doc = (await sealed.factor("u1", f.id))!;
				expect(doc.seed).toBeUndefined();
				expect(sealed.seedOf(doc)).toBe("JBSWY3DPEHPK3PXP");
				expect(() => clear.seedOf(doc)).toThrow(/IDP_KEY_ENCRYPTION_KEY/);
			});

			it("should spend a WebAuthn challenge once, however many race, and none past its lifetime", async () => {
				let now = Date.parse("2026-01-01T00:00:00Z");
				const passkeys = new Passkeys(store, { rpId: "localhost", rpName: "t", origins: ["http://localhost"] }, () => now);
				const options = await passkeys.authenticationOptions(undefined);
				const stored = (await passkeys.challenges.get(options.challengeId))!;
				expect(stored).toMatchObject({ purpose: "authentication", usedAt: null });
				expect(JSON.stringify(stored)).not.toContain(options.challenge);
				const spent = await Promise.all(Array.from({ length: 5 }, () => passkeys.spendChallenge({ id: options.challengeId, purpose: "authentication" })));
				expect(spent.filter(Boolean)).toHaveLength(1);
				const late = await passkeys.authenticationOptions("u1");
				now += 301_000;
				await expect(passkeys.spendChallenge({ id: late.challengeId, purpose: "authentication" })).resolves.toBeNull();
				await expect(passkeys.sweep()).resolves.toBe(2);
			});

			it("should keep one credential id once, list a user's passkeys, and advance a counter for one of two racing uses", async () => {
				const passkeys = new Passkeys(store, { rpId: "localhost", rpName: "t", origins: ["http://localhost"] });
				const factors = store.collection<FactorRecord>("mfa_factors");
				const base = { userSub: "u1", type: "webauthn" as const, name: "Key", status: "active" as const, lastCounter: -1, publicKey: "pk", counter: 5, createdAt: new Date().toISOString(), lastUsedAt: null };
				const f = await factors.insert({ ...base, id: "f1", credentialId: "cred-1" });
				await expect(factors.insert({ ...base, id: "f2", credentialId: "cred-1" })).rejects.toBeInstanceOf(DuplicateKeyError);
				// TOTP factors have no credential id: many of them share the sparse index.
				await factors.insert({ ...base, id: "t1", type: "totp" });
				await factors.insert({ ...base, id: "t2", type: "totp" });
				expect((await passkeys.userPasskeys("u1")).map(p => p.id)).toEqual(["f1"]);
				const uses = await Promise.all([passkeys.advanceCounter(f, 5, 6, { deviceType: "singleDevice" }), passkeys.advanceCounter(f, 5, 6, { deviceType: "singleDevice" })]);
				expect(uses.filter(Boolean)).toHaveLength(1);
				expect(uses.find(Boolean)).toMatchObject({ counter: 6, deviceType: "singleDevice" });
				await expect(passkeys.advanceCounter(f, 5, 7, {})).resolves.toBeNull();
			});

			it("should spend a recovery code once and replace the whole set on regeneration", async () => {
				const records = new MfaRecords(store, kek);
				const codes = await records.replaceRecoveryCodes("u1");
				expect(codes).toHaveLength(10);
				const spent = await Promise.all([records.spendRecoveryCode("u1", codes[0]), records.spendRecoveryCode("u1", codes[0].toUpperCase())]);
				expect(spent.filter(Boolean)).toHaveLength(1);
				await expect(records.spendRecoveryCode("u2", codes[1])).resolves.toBe(false);
				await expect(records.recoveryCodesLeft("u1")).resolves.toBe(9);
				const next = await records.replaceRecoveryCodes("u1");
				await expect(records.spendRecoveryCode("u1", codes[1])).resolves.toBe(false);
				await expect(records.recoveryCodesLeft("u1")).resolves.toBe(10);
				await expect(records.spendRecoveryCode("u1", next[9].replace("-", " "))).resolves.toBe(true);
			});

			it("should give an mfaToken five tries, spend it once, and keep held tokens only for its holder", async () => {
				const records = new MfaRecords(store, kek);
				const token = await records.issueToken({ ...first, purpose: "verify" }, tokens);
				await expect(records.liveToken(token, "enrol")).resolves.toBeNull();
				const tries = await Promise.all(Array.from({ length: 7 }, () => records.takeAttempt(token, "verify")));
				expect(tries.filter(t => t !== null)).toHaveLength(5);
				await expect(records.liveToken(token, "verify")).resolves.toBeNull();

				const other = await records.issueToken({ ...first, purpose: "verify" }, tokens);
				const rec = (await records.takeAttempt(other, "verify"))!;
				expect(records.heldTokens(other, rec)).toEqual(tokens);
				expect(records.heldTokens(token, { ...rec })).toBeNull();
				const spends = await Promise.all([records.spendToken(rec), records.spendToken(rec)]);
				expect(spends.filter(Boolean)).toHaveLength(1);
				await expect(records.takeAttempt(other, "verify")).resolves.toBeNull();
				expect((await records.tokens.get(rec.id))!.sealedTokens).toBeUndefined();
			});

			it("should find a Cognito session from its refresh token and from each access token's jti", async () => {
				const sessions = new AuthSessions(store);
				const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;
				const sid = await sessions.open("u1", { ...tokens, accessToken: jwt({ jti: "j1", exp: 2e9 }), refreshToken: "wrapped~rt" }, { authTime: 42, amr: ["pwd", "otp", "mfa"] });
				await sessions.refreshed("wrapped~rt", { ...tokens, accessToken: jwt({ jti: "j2", exp: 2e9 }) });
				await expect(sessions.of("j1")).resolves.toMatchObject({ id: sid, authTime: 42, amr: ["pwd", "otp", "mfa"] });
				await expect(sessions.of("j2")).resolves.toMatchObject({ id: sid });
				await expect(sessions.of("j3")).resolves.toBeNull();
			});

			it("should list an actor's audit events newest first", async () => {
				// Ids order events by their millisecond: the clock moves on between them.
				let ms = Date.UTC(2026, 0, 1);
				const log = new AuditLog(() => store, () => undefined, () => (ms += 1));
				await log.record("auth.mfa_enrolled", "u1", { ip: "192.0.2.1", userAgent: "ua" });
				await log.record("auth.recovery_code_used", "u1", {});
				await log.record("auth.mfa_removed", "u2", {});
				const events = await log.list("u1");
				expect(events.map(e => e.type)).toEqual(["auth.recovery_code_used", "auth.mfa_enrolled"]);
				expect(events[1]).toMatchObject({ actorId: "u1", ip: "192.0.2.1", userAgent: "ua", sessionId: null });
			});
		});
	});
}

contract("sqlite", async () => {
	const dir = tempDir();
	const store = new SqliteStore(path.join(dir, "store.sqlite"));
	return { store, cleanup: async () => { await store.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
});

// With tracing on, every store is wrapped (lib/store/traced.ts): the wrapper must change nothing.
contract("sqlite through the tracing wrapper", async () => {
	const dir = tempDir();
	const store = new TracedStore(new SqliteStore(path.join(dir, "store.sqlite")));
	return { store, cleanup: async () => { await store.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
});
contract("sqlite in a worker thread", async () => {
	const dir = tempDir();
	const store = new SqliteWorkerStore(path.join(dir, "store.sqlite"));
	return { store, cleanup: async () => { await store.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
});

describe("sqlite store across handles", () => {
	it("should see one handle's writes from another when both open the same file", async () => {
		const dir = tempDir();
		const a = new SqliteStore(path.join(dir, "s.sqlite"));
		const b = new SqliteStore(path.join(dir, "s.sqlite"));
		await a.collection<Item>("actors").insert({ id: "1", email: "1@x", tag: "free" });
		await expect(b.collection<Item>("actors").findOneAndUpdate({ tag: "free" }, { $set: { tag: "b" } })).resolves.toMatchObject({ id: "1" });
		await expect(a.collection<Item>("actors").findOneAndUpdate({ tag: "free" }, { $set: { tag: "a" } })).resolves.toBeNull();
		await a.close();
		await b.close();
		fs.rmSync(dir, { recursive: true, force: true });
	});
});

const mongo = mongoSource();
if (mongo.reason) {
	console.warn(`Skipping the MongoDB store contract: ${mongo.reason}`);
	describe.skip("store contract: mongodb", () => it("needs a MongoDB server", () => undefined));
} else {
	contract("mongodb", async () => {
		const server = await startMongo(mongo);
		const store = new MongoStore(server.url, uniqueName("contract").replace(/[^a-z0-9]/gi, "_"));
		return { store, cleanup: async () => { await store.close(); await server.stop(); } };
	});
}
