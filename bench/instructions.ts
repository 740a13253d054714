/**
 * `npm run bench -- instructions`: how many instructions the server's main thread
 * runs per request, counted by Valgrind's callgrind: the authenticated GET
 * /actors/{id} of the project and of the moleculer-web floor
 * (bench/peers/moleculer-floor.ts), and the project's POST /notifications (api
 * services only, as the compare bench runs it). BENCH_INSTR_PARTS=get or accept
 * picks one.
 *
 * Why count: on a shared 2-core VM, req/s of the same build swings by a quarter from
 * run to run, so a change worth 2 µs a request cannot be told from noise by timing.
 * Instructions executed do not depend on the neighbours. Each server runs under
 * `valgrind --tool=callgrind --separate-threads=yes`, gets BENCH_INSTR_WARMUP GETs
 * for the JIT to settle (uncounted), then, BENCH_INSTR_REPS times over, the counters
 * are dumped before and after BENCH_INSTR_REQUESTS GETs (`callgrind_control -d`).
 * The main thread's count is the one the event loop pays; every thread's together
 * (the store thread, the GC helpers) is printed beside it. Later repetitions read
 * lower while the JIT still optimizes: the last one is the settled figure.
 *
 * Instructions are not time (cache misses, branch mispredictions and the other core
 * are not in them): the compare bench stays the measure of the goal; this one tells
 * which way a change moves the cost, and by how much, in one run.
 * Under Valgrind V8's optimizing compiler, which works on other threads, falls behind:
 * in one run (2026-11-28) the project's hottest gateway functions were still Maglev
 * code in the last repetition while the floor's were TurboFan code, though both
 * reach TurboFan at full speed. The project's count can read high for that reason;
 * the perf map (BENCH_INSTR_OUT) shows the tier of each function ("*" TurboFan,
 * "+" Maglev, "^" Sparkplug, "~" interpreted).
 * With BENCH_INSTR_OUT=<dir>, the dumps are kept there (one subdirectory per server)
 * and node writes its perf map (/tmp/perf-<pid>.map) to name JIT code for
 * `callgrind_annotate`.
 * Needs `valgrind` (Debian: apt-get install valgrind); runs only when named.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { FLOOR_ENTRY, peerIdentity, requireEntry } from "./compare";
import {
	HOST,
	PLATFORM_ENTRY,
	PROJECT_ROOT,
	childEnv,
	expectStatus,
	fmtInt,
	formatTable,
	freePort,
	makeTempDir,
	registerUser,
	removeTempDir,
	runLoad,
	startChild,
	withOutput,
	DEPLOYMENT_ENV,
	envInt,
	envParts,
	serviceSender,
	type Child,
	type StartOptions
} from "./lib";
import { API_SERVICES } from "../harness/cluster";
import { isAccepted, jsonHeaders, requestBody } from "./workload";
import { floorEnv } from "./peers/common";

const run = promisify(execFile);

const PARTS = ["get", "accept"] as const;
type Part = (typeof PARTS)[number];

export interface InstructionSettings {
	parts: Part[];
	warmup: number;
	requests: number;
	reps: number;
	connections: number;
	startTimeoutMs: number;
	/** Where to keep the dumps; undefined: a temporary directory, removed after. */
	keepIn?: string;
}

export function instructionSettings(): InstructionSettings {
	return {
		parts: envParts("BENCH_INSTR_PARTS", PARTS),
		warmup: envInt("BENCH_INSTR_WARMUP", 10_000, 0),
		requests: envInt("BENCH_INSTR_REQUESTS", 3_000, 100),
		reps: envInt("BENCH_INSTR_REPS", 3, 1),
		connections: 10,
		// Node starts 30 to 60 times slower under Valgrind.
		startTimeoutMs: envInt("BENCH_INSTR_START_TIMEOUT_MS", 600_000, 10_000),
		keepIn: process.env.BENCH_INSTR_OUT?.trim() || undefined
	};
}

/** Instructions per request in one repetition. */
export interface Count {
	mainThread: number;
	allThreads: number;
}

export interface InstructionResult {
	machine: string;
	settings: InstructionSettings;
	get?: { project: Count[]; floor: Count[] };
	accept?: { project: Count[] };
	problems: string[];
}

/**
 * vgdb, behind callgrind_control, finds the process by a pipe named after USER and
 * HOST: the child and the controller must see the same ones.
 */
function valgrindEnv(): Record<string, string> {
	const user = os.userInfo().username;
	return { USER: user, LOGNAME: user, HOST: os.hostname() };
}

function valgrindArgs(s: InstructionSettings, outDir: string, nodeArgs: string[]): string[] {
	const named = s.keepIn ? ["--perf-basic-prof", "--interpreted-frames-native-stack"] : [];
	return [
		"--tool=callgrind",
		"--fair-sched=yes",
		"--separate-threads=yes",
		`--callgrind-out-file=${path.join(outDir, "callgrind.out.%p")}`,
		process.execPath,
		...named,
		...nodeArgs
	];
}

async function requireValgrind(): Promise<void> {
	try {
		await run("valgrind", ["--version"]);
		await run("callgrind_control", ["--help"], { env: { ...process.env, ...valgrindEnv() } }).catch((err: { code?: unknown }) => {
			// It prints its usage and exits 0 or 1 depending on the version; only a missing program matters.
			if (err.code === "ENOENT") throw err;
		});
	} catch {
		throw new Error("the instructions bench needs valgrind and callgrind_control on PATH (Debian: apt-get install valgrind)");
	}
}

async function dumpDir(s: InstructionSettings, server: string): Promise<string> {
	if (!s.keepIn) return makeTempDir("bench-instr-cg-");
	const dir = path.resolve(s.keepIn, server);
	await mkdir(dir, { recursive: true });
	return dir;
}

/** Per-thread dump files: callgrind.out.<pid>.<dump>-<thread>. */
function dumpFiles(dir: string): Set<string> {
	return new Set(readdirSync(dir).filter(f => f.startsWith("callgrind.out.")));
}

/** The `totals:` (or, without it, `summary:`) line of one dump, in instructions. */
function totalOf(file: string): number {
	const text = readFileSync(file, "latin1");
	const m = /^totals:\s+(\d+)/m.exec(text) ?? /^summary:\s+(\d+)/m.exec(text);
	if (!m) throw new Error(`${file} has no totals line`);
	return Number(m[1]);
}

async function dump(pid: number): Promise<void> {
	await run("callgrind_control", ["-d", String(pid)], { env: { ...process.env, ...valgrindEnv() }, timeout: 120_000 });
}

/** One request, sent over and over; every answer is checked. */
interface Target {
	what: string;
	url: string;
	method: "GET" | "POST";
	headers: Record<string, string>;
	body?: string;
	/** The status of the first answer, whose body every later GET must equal. */
	status: number;
	/** For bodies that differ per answer (new ids). */
	verifyBody?: (body: string) => boolean;
}

async function loadOf(s: InstructionSettings, child: Child, t: Target, expectBody: string | undefined, amount: number): Promise<void> {
	const load = await runLoad({ url: t.url, method: t.method, headers: t.headers, body: t.body, expectBody, verifyBody: t.verifyBody, amount, durationSec: 0, warmupSec: 0, connections: s.connections });
	if (load.total !== amount || load.non2xx + load.errors + load.mismatches > 0) {
		throw new Error(`${child.name}: ${load.total} answers to ${amount} requests (${t.what}), ${load.non2xx} not 2xx, ${load.errors + load.mismatches} errors or wrong bodies`);
	}
}

/** Dumps, runs the requests, dumps again: the counts of the second dump, per request. */
async function countOnce(s: InstructionSettings, child: Child, dir: string, t: Target, expectBody: string | undefined): Promise<Count> {
	const pid = child.process.pid!;
	await dump(pid);
	const before = dumpFiles(dir);
	await loadOf(s, child, t, expectBody, s.requests);
	await dump(pid);
	const fresh = [...dumpFiles(dir)].filter(f => !before.has(f));
	const main = fresh.filter(f => f.endsWith("-01"));
	if (main.length !== 1) throw new Error(`${child.name}: expected one new main-thread dump, found ${fresh.join(", ") || "none"}`);
	const all = fresh.reduce((sum, f) => sum + totalOf(path.join(dir, f)), 0);
	return { mainThread: totalOf(path.join(dir, main[0])) / s.requests, allThreads: all / s.requests };
}

async function countServer(s: InstructionSettings, child: Child, dir: string, t: Target): Promise<Count[]> {
	const first = await expectStatus(await fetch(t.url, { method: t.method, headers: t.headers, body: t.body }), t.status, `${child.name}: ${t.what}`);
	if (t.verifyBody && !t.verifyBody(first)) throw new Error(`${child.name}: ${t.what} answered ${first.slice(0, 300)}`);
	const expectBody = t.verifyBody ? undefined : first;
	if (s.warmup > 0) await loadOf(s, child, t, expectBody, s.warmup);
	const counts: Count[] = [];
	for (let i = 0; i < s.reps; i++) {
		counts.push(await countOnce(s, child, dir, t, expectBody));
		console.error(`instructions: ${child.name}, ${t.what}, repetition ${i + 1}: ${fmtInt(counts[i].mainThread)} main thread, ${fmtInt(counts[i].allThreads)} all threads per request`);
	}
	return counts;
}

/** `node <entry>` under callgrind, once it is ready. */
function underCallgrind(s: InstructionSettings, name: string, outDir: string, entry: string, env: Record<string, string>, readiness: Pick<StartOptions, "readyUrl" | "ready">): Promise<Child> {
	return startChild({
		name: `${name} under callgrind`,
		command: "valgrind",
		args: valgrindArgs(s, outDir, [entry]),
		cwd: PROJECT_ROOT,
		env: childEnv({ ...env, ...valgrindEnv() }),
		deadlineMs: s.startTimeoutMs,
		...readiness
	});
}

async function countProject(s: InstructionSettings, part: Part): Promise<Count[]> {
	const port = await freePort();
	const dataDir = await makeTempDir("bench-instr-project-");
	const outDir = await dumpDir(s, `project-${part}`);
	const base = `http://${HOST}:${port}`;
	let child: Child | undefined;
	try {
		const env = { PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", ...DEPLOYMENT_ENV, ...(part === "accept" ? { SERVICES: API_SERVICES } : {}) };
		child = await underCallgrind(s, "project", outDir, PLATFORM_ENTRY, env, { readyUrl: `${base}/health/ready` });
		if (part === "accept") {
			const headers = jsonHeaders(await serviceSender(base));
			return await countServer(s, child, outDir, { what: "POST /notifications", url: `${base}/notifications`, method: "POST", headers, body: requestBody("NORMAL"), status: 201, verifyBody: isAccepted });
		}
		const user = await registerUser(base);
		const headers = { Authorization: `Bearer ${user.accessToken}` };
		return await countServer(s, child, outDir, { what: "GET /actors/{id}", url: `${base}/actors/${user.actorId}`, method: "GET", headers, status: 200 });
	} catch (err) {
		throw child ? withOutput(err, child) : err;
	} finally {
		await child?.stop();
		removeTempDir(dataDir);
		if (!s.keepIn) removeTempDir(outDir);
	}
}

async function countFloor(s: InstructionSettings): Promise<Count[]> {
	requireEntry(FLOOR_ENTRY);
	const id = await peerIdentity();
	const port = await freePort();
	const outDir = await dumpDir(s, "floor");
	const base = `http://${HOST}:${port}`;
	const url = `${base}/actors/${id.actor.actorId}`;
	const headers = { Authorization: `Bearer ${id.token}` };
	let child: Child | undefined;
	try {
		const env = floorEnv({ port, host: HOST, token: id.token, body: JSON.stringify(id.actor) });
		child = await underCallgrind(s, "moleculer-web floor", outDir, FLOOR_ENTRY, env, {
			ready: async () => {
				const res = await fetch(url, { headers, signal: AbortSignal.timeout(5000) });
				await res.arrayBuffer();
				return res.status === 200;
			}
		});
		return await countServer(s, child, outDir, { what: "GET /actors/{id}", url, method: "GET", headers, status: 200 });
	} catch (err) {
		throw child ? withOutput(err, child) : err;
	} finally {
		await child?.stop();
		if (!s.keepIn) removeTempDir(outDir);
	}
}

export async function benchInstructions(s: InstructionSettings, machine: string): Promise<InstructionResult> {
	await requireValgrind();
	// One at a time: Valgrind runs a process's threads on one core, and the load generator needs the other.
	const r: InstructionResult = { machine, settings: s, problems: [] };
	if (s.parts.includes("get")) r.get = { project: await countProject(s, "get"), floor: await countFloor(s) };
	if (s.parts.includes("accept")) r.accept = { project: await countProject(s, "accept") };
	return r;
}

export function formatInstructionResult(r: InstructionResult): string {
	const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
	const rows = [["instructions per request", ...Array.from({ length: r.settings.reps }, (_, i) => `repetition ${i + 1}`)]];
	const add = (label: string, xs: Count[]) => {
		rows.push([`${label}, main thread`, ...xs.map(c => k(c.mainThread))]);
		rows.push([`${label}, all threads`, ...xs.map(c => k(c.allThreads))]);
	};
	if (r.get) {
		add("GET, project", r.get.project);
		add("GET, moleculer-web floor", r.get.floor);
	}
	if (r.accept) add("POST /notifications, project", r.accept.project);
	const lines = [
		`machine: ${r.machine}`,
		`${fmtInt(r.settings.warmup)} requests to warm up, then ${r.settings.reps} x ${fmtInt(r.settings.requests)} counted, ${r.settings.connections} connections`,
		formatTable(rows)
	];
	if (r.get) {
		const last = (xs: Count[]) => xs[xs.length - 1].mainThread;
		lines.push(`GET, floor / project, main thread, last repetition: ${(last(r.get.floor) / last(r.get.project)).toFixed(2)} (the goal, in req/s, is >= 0.9 of the floor)`);
	}
	return lines.join("\n");
}
