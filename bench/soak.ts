/**
 * A soak: the platform in one process (every service, the dispatcher included) under a
 * moderate mixed load for a bounded time: POST /notifications and authenticated GET
 * /actors/{id} at fixed rates, on loopback. It samples the process's RSS as it goes
 * and reports whether it levelled off after the warm-up: memory that keeps growing
 * under a steady load is a leak (an unbounded cache, a queue that never drains).
 * It fails the run only when the load itself broke (a non-2xx, a notification not sent).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import type { NotificationDoc } from "../lib/notifications";
import { SqliteStore } from "../lib/store/sqlite";
import {
	DEPLOYMENT_ENV,
	HOST,
	PLATFORM_ENTRY,
	PLATFORM_NODE_ARGS,
	PLATFORM_PROCESS_ENV,
	PROJECT_ROOT,
	childEnv,
	describeMachine,
	envInt,
	fmtInt,
	formatTable,
	freePort,
	makeTempDir,
	profileArgs,
	registerUser,
	removeTempDir,
	serviceSender,
	startChild,
	withOutput
} from "./lib";

/** Issue 39: peak RSS of the default configuration under the soak. */
export const GOAL_PEAK_RSS_MB = 150;

export interface SoakSettings {
	durationSec: number;
	/** Samples before this are the warm-up; growth is measured from its end. */
	warmupSec: number;
	sampleSec: number;
	postRate: number;
	getRate: number;
	startTimeoutMs: number;
}

export function soakSettings(): SoakSettings {
	return {
		durationSec: envInt("BENCH_SOAK_SEC", 300, 10),
		warmupSec: envInt("BENCH_SOAK_WARMUP_SEC", 60, 0),
		sampleSec: envInt("BENCH_SOAK_SAMPLE_SEC", 10, 1),
		postRate: envInt("BENCH_SOAK_POST_RATE", 40, 1),
		getRate: envInt("BENCH_SOAK_GET_RATE", 200, 1),
		startTimeoutMs: envInt("BENCH_START_TIMEOUT", 30, 1) * 1000
	};
}

export interface RssSample {
	atSec: number;
	rssMb: number;
}

export interface SoakResult {
	settings: SoakSettings;
	samples: RssSample[];
	/** memoryByKind at the highest sample. */
	peakByKind: Record<string, number>;
	posted: number;
	gets: number;
	sent: number;
	problems: string[];
}

/** Resident set size of a process in MB, from /proc (Linux). */
function rssMb(pid: number): number {
	const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
	return m ? Number(m[1]) / 1024 : NaN;
}

/**
 * Where a process's resident memory is, from the text of /proc/<pid>/smaps: the V8 heaps'
 * 256 KiB pages (every isolate's: the main thread's, the store's and the outbox's);
 * malloc's main arena ([heap]) with the anonymous mappings of 1 to 64 MiB, which are
 * mostly the other arenas and blocks over the mmap threshold (also V8's large objects and
 * thread stacks); the node binary's pages; other files; and the rest. In MB, by kind.
 */
export function memoryByKind(smaps: string): Record<string, number> {
	const kinds: Record<string, number> = {};
	let kind = "";
	for (const line of smaps.split("\n")) {
		const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
		if (m) {
			const size = parseInt(m[2]!, 16) - parseInt(m[1]!, 16);
			const name = m[3]!;
			if (name === "[heap]") kind = "malloc and large blocks";
			else if (name === "") kind = size === 256 * 1024 ? "V8 heap pages" : size >= 1024 * 1024 && size <= 64 * 1024 * 1024 ? "malloc and large blocks" : "other anonymous";
			else if (/\/node$/.test(name)) kind = "node binary";
			else if (name.startsWith("[")) kind = "other anonymous";
			else kind = "other files";
			continue;
		}
		const rss = /^Rss:\s+(\d+) kB/.exec(line);
		if (rss && kind) kinds[kind] = (kinds[kind] ?? 0) + Number(rss[1]) / 1024;
	}
	return kinds;
}

function smapsOf(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/smaps`, "utf8");
	} catch {
		return "";
	}
}

const sleep = (ms: number) => new Promise<void>(resolve => setTimeout(resolve, ms));

/** A steady stream at a fixed rate for the whole run; counts answers by status. */
function stream(opts: autocannon.Options): Promise<autocannon.Result> {
	return new Promise((resolve, reject) => {
		autocannon({ connections: 4, pipelining: 1, timeout: 10, ...opts }, (err: unknown, r: autocannon.Result) => (err ? reject(err) : resolve(r)));
	});
}

export async function benchSoak(s: SoakSettings = soakSettings()): Promise<SoakResult> {
	const port = await freePort();
	const dataDir = await makeTempDir("bench-soak-");
	const base = `http://${HOST}:${port}`;
	const problems: string[] = [];
	try {
		const child = await startChild({
			name: "platform",
			args: [...profileArgs(), ...PLATFORM_NODE_ARGS, PLATFORM_ENTRY],
			cwd: PROJECT_ROOT,
			env: childEnv({ ...PLATFORM_PROCESS_ENV, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", ...DEPLOYMENT_ENV }),
			readyUrl: `${base}/health/ready`,
			deadlineMs: s.startTimeoutMs
		});
		const pid = child.process.pid!;
		let result: Omit<SoakResult, "sent" | "settings" | "problems">;
		let peakByKind: Record<string, number> = {};
		let peakRss = 0;
		const sample = (atSec: number): RssSample => {
			const taken = { atSec, rssMb: rssMb(pid) };
			if (taken.rssMb > peakRss) {
				peakRss = taken.rssMb;
				peakByKind = memoryByKind(smapsOf(pid));
			}
			return taken;
		};
		try {
			// A user reads its own profile; a backend service sends (to anyone, as services may).
			const user = await registerUser(base);
			const headers = { "Content-Type": "application/json", Authorization: `Bearer ${await serviceSender(base)}` };
			const body = JSON.stringify({
				to: "soak.recipient@example.com",
				template: { subject: "Hello {{name}}", text: "Hello {{name}}, your code is 428913.", html: "<p>Hello {{name}}, your code is <b>428913</b>.</p>" },
				variables: { name: "Soak" }
			});
			const samples: RssSample[] = [sample(0)];
			const t0 = Date.now();
			const sampler = setInterval(() => samples.push(sample(Math.round((Date.now() - t0) / 1000))), s.sampleSec * 1000);
			try {
				const [post, get] = await Promise.all([
					stream({ url: `${base}/notifications`, method: "POST", headers, body, overallRate: s.postRate, duration: s.durationSec }),
					stream({ url: `${base}/actors/${user.actorId}`, headers: { Authorization: `Bearer ${user.accessToken}` }, overallRate: s.getRate, duration: s.durationSec })
				]);
				for (const [what, r] of [["POST /notifications", post], ["GET /actors/{id}", get]] as const) {
					if (r.non2xx || r.errors) problems.push(`${what}: ${fmtInt(r.non2xx)} non-2xx answers and ${fmtInt(r.errors)} errors of ${fmtInt(r.requests.total)}`);
				}
				result = { samples, peakByKind, posted: post["2xx"], gets: get["2xx"] };
			} finally {
				clearInterval(sampler);
			}
			samples.push(sample(Math.round((Date.now() - t0) / 1000)));
			result.peakByKind = peakByKind;
			// Everything accepted must go out: a soak that leaves a backlog measured something else.
			const store = new SqliteStore(path.join(dataDir, "store.sqlite"));
			try {
				const notifications = store.collection<NotificationDoc>("notifications");
				const deadline = Date.now() + 30_000;
				while ((await notifications.count({ status: "SENT" })) < result.posted && Date.now() < deadline) await sleep(200);
				const sent = await notifications.count({ status: "SENT" });
				if (sent < result.posted) problems.push(`only ${fmtInt(sent)} of ${fmtInt(result.posted)} accepted notifications were SENT 30 s after the load`);
				return { settings: s, ...result, sent, problems };
			} finally {
				await store.close();
			}
		} catch (err) {
			throw withOutput(err, child);
		} finally {
			await child.stop();
		}
	} finally {
		removeTempDir(dataDir);
	}
}

export function formatSoakResult(r: SoakResult): string {
	const s = r.settings;
	const after = r.samples.filter(x => x.atSec >= s.warmupSec);
	const first = after[0];
	const last = after[after.length - 1];
	const peak = Math.max(...r.samples.map(x => x.rssMb));
	const growth = first && last && last !== first ? ((last.rssMb - first.rssMb) / (last.atSec - first.atSec)) * 60 : NaN;
	const rows = [["at", "RSS"], ...r.samples.map(x => [`${x.atSec} s`, `${x.rssMb.toFixed(1)} MB`])];
	return [
		describeMachine(),
		`soak: one platform process (all services, EMAIL_PROVIDER=file), ${s.durationSec} s of POST /notifications at ${s.postRate}/s and GET /actors/{id} at ${s.getRate}/s`,
		"",
		formatTable(rows),
		"",
		`accepted ${fmtInt(r.posted)} (${(r.posted / s.durationSec).toFixed(1)}/s), sent ${fmtInt(r.sent)}, GETs ${fmtInt(r.gets)} (${(r.gets / s.durationSec).toFixed(1)}/s); peak RSS ${peak.toFixed(1)} MB (goal, issue 39: <= ${GOAL_PEAK_RSS_MB} MB: ${peak <= GOAL_PEAK_RSS_MB ? "met" : "NOT met"})`,
		`at the peak, by kind (/proc/<pid>/smaps): ${Object.entries(r.peakByKind)
			.sort((a, b) => b[1] - a[1])
			.map(([kind, mb]) => `${kind} ${mb.toFixed(1)} MB`)
			.join(", ")}`,
		`RSS after the ${s.warmupSec} s warm-up: ${first?.rssMb.toFixed(1) ?? "-"} MB -> ${last?.rssMb.toFixed(1) ?? "-"} MB (${Number.isFinite(growth) ? `${growth >= 0 ? "+" : ""}${growth.toFixed(2)}` : "-"} MB/min)`,
		...r.problems.map(p => `!!! ${p}`)
	].join("\n");
}
