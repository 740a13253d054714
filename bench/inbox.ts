/**
 * The in-app inbox of one actor holding BENCH_INBOX_MESSAGES messages (10,000): the
 * authenticated reads a bell and its page make, through the gateway of the platform
 * in one process (SQLite), with their p50 and p99. The messages are written straight
 * into the platform's store before the load (what thousands of IN_APP sends would
 * leave, without waiting for them): every tenth archived, every third of the others
 * read (and seen), the rest unread and unseen, so the counts walk thousands of
 * entries. Measured: the first page (all states), the first page of the unread, a page
 * from the middle (by cursor), and the counts.
 */
import path from "node:path";
import { uuidv7 } from "../lib/crypto";
import { INBOX, type InboxDoc } from "../lib/inbox";
import { SqliteStore } from "../lib/store/sqlite";
import { registerUser } from "../harness/processes";
import {
	benchSettings,
	describeMachine,
	envInt,
	expectStatus,
	formatLoadTable,
	isClean,
	problemsOf,
	runLoad,
	startPlatform,
	withOutput,
	type BenchSettings,
	type LoadResult
} from "./lib";

export interface InboxBenchResult {
	settings: BenchSettings;
	messages: number;
	counts: { unread: number; unseen: number };
	rows: [string, LoadResult][];
	problems: string[];
}

export function inboxMessages(): number {
	return envInt("BENCH_INBOX_MESSAGES", 10_000, 1);
}

/** The messages, oldest first, a millisecond apart, written in batches of 500 (one transaction each). */
async function seed(dataDir: string, actorId: string, count: number): Promise<string[]> {
	const store = new SqliteStore(path.join(dataDir, "store.sqlite"));
	const seqs: string[] = [];
	try {
		const start = Date.now() - count;
		for (let i = 0; i < count; i += 500) {
			const group = [];
			for (let j = i; j < Math.min(count, i + 500); j++) {
				const at = start + j;
				const iso = new Date(at).toISOString();
				const state = j % 10 === 0 ? "archived" : j % 3 === 0 ? "read" : "unread";
				const doc: InboxDoc = {
					id: uuidv7(at),
					actorId,
					state,
					title: `Order A-${j} shipped`,
					body: `Hello Ada, order A-${j} is on its way.`,
					data: { url: `/orders/A-${j}` },
					createdAt: iso,
					seq: uuidv7(at),
					...(state === "read" ? { seenAt: iso, readAt: iso } : state === "archived" ? { archivedAt: iso } : {})
				};
				seqs.push(doc.seq);
				group.push({ op: "insert" as const, collection: INBOX, doc });
			}
			await store.batch([group]);
		}
	} finally {
		await store.close();
	}
	return seqs;
}

export async function benchInbox(settings: BenchSettings = benchSettings()): Promise<InboxBenchResult> {
	const messages = inboxMessages();
	const platform = await startPlatform(settings, "inbox");
	try {
		const user = await registerUser(platform.base);
		const seqs = await seed(platform.dataDir, user.actorId, messages);
		const headers = { Authorization: `Bearer ${user.accessToken}` };
		const base = `${platform.base}/actors/${user.actorId}/inbox`;
		const middle = seqs[Math.floor(seqs.length / 2)];
		const reads: [string, string][] = [
			["GET inbox (first page, all)", base],
			["GET inbox?state=unread", `${base}?state=unread`],
			["GET inbox?cursor= (middle page)", `${base}?cursor=${middle}`],
			["GET inbox/count", `${base}/count`]
		];
		const counts = JSON.parse(await expectStatus(await fetch(`${base}/count`, { headers }), 200, "GET inbox/count")) as InboxBenchResult["counts"];
		const rows: [string, LoadResult][] = [];
		for (const [label, url] of reads) {
			// Every answer must be the first one: the same page, the same counts.
			const body = await expectStatus(await fetch(url, { headers }), 200, label);
			rows.push([label, await runLoad({ url, headers, expectBody: body, serverPid: platform.child.process.pid, ...settings })]);
		}
		const problems = rows.flatMap(([label, r]) => problemsOf(label, r));
		if (rows.some(([, r]) => !isClean(r))) problems.push("THE NUMBERS ABOVE ARE MEANINGLESS: not every request got the expected 2xx response.");
		return { settings, messages, counts, rows, problems };
	} catch (err) {
		throw withOutput(err, platform.child);
	} finally {
		await platform.close();
	}
}

export function formatInboxResult(r: InboxBenchResult): string {
	const s = r.settings;
	return [
		`One actor's inbox of ${r.messages} messages (${r.counts.unread} unread, ${r.counts.unseen} unseen), SQLite, the platform in one process: ${s.durationSec} s at ${s.connections} connections after a ${s.warmupSec} s warm-up`,
		describeMachine(),
		"",
		formatLoadTable(r.rows),
		...(r.problems.length ? ["", ...r.problems.map(p => `!!! ${p}`)] : [])
	].join("\n");
}
