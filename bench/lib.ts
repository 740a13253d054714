/**
 * Shared pieces of the benchmarks: free ports, child processes that are always
 * cleaned up, readiness polling with a deadline, and one load run with autocannon.
 * Benchmarks report numbers; nothing here judges them.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:net";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { createHistogram } from "node:perf_hooks";
import autocannon from "autocannon";

export const HOST = "127.0.0.1";

const POLL_INTERVAL_MS = 50;
const PROBE_TIMEOUT_MS = 1000;
const STOP_GRACE_MS = 5000;
const OUTPUT_KEEP_CHARS = 16384;

export interface BenchSettings {
	durationSec: number;
	warmupSec: number;
	connections: number;
	startTimeoutMs: number;
}

function envInt(name: string, def: number, min: number): number {
	const v = process.env[name]?.trim();
	if (!v) return def;
	if (!/^\d+$/.test(v) || Number(v) < min) throw new Error(`${name} must be a whole number >= ${min} (got "${v}")`);
	return Number(v);
}

export function benchSettings(): BenchSettings {
	return {
		durationSec: envInt("BENCH_DURATION", 10, 1),
		warmupSec: envInt("BENCH_WARMUP", 2, 0),
		connections: envInt("BENCH_CONNECTIONS", 50, 1),
		startTimeoutMs: envInt("BENCH_START_TIMEOUT", 30, 1) * 1000
	};
}

/** One line describing where the numbers come from; they mean little without it. */
export function describeMachine(): string {
	const c = cpus();
	return `Node ${process.version}, ${c.length} CPU(s) (${c[0]?.model.trim() ?? "unknown"}), load generator in the same machine`;
}

// ---- cleanup: children and temp dirs must not outlive the bench, whatever way it ends

const liveChildren = new Set<ChildProcess>();
const tempDirs = new Set<string>();
let exitHooksInstalled = false;

function installExitHooks(): void {
	if (exitHooksInstalled) return;
	exitHooksInstalled = true;
	// "exit" handlers must be synchronous, so children get SIGKILL here; an orderly
	// stop (SIGTERM, wait) is what Child.stop() does on the normal path.
	process.on("exit", () => {
		for (const child of liveChildren) child.kill("SIGKILL");
		for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
	});
	for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
		process.once(signal, () => {
			process.stderr.write(`\n${signal} received: stopping the benchmark children.\n`);
			process.exit(130);
		});
	}
}

export async function makeTempDir(prefix: string): Promise<string> {
	installExitHooks();
	const dir = await mkdtemp(path.join(tmpdir(), prefix));
	tempDirs.add(dir);
	return dir;
}

export function removeTempDir(dir: string): void {
	rmSync(dir, { recursive: true, force: true });
	tempDirs.delete(dir);
}

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, HOST, () => {
			const address = server.address();
			server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port"))));
		});
	});
}

// ---- child processes

export interface Child {
	readonly name: string;
	readonly process: ChildProcess;
	/** The last part of its stdout and stderr, for error reports. */
	output(): string;
	stop(): Promise<void>;
}

export interface StartOptions {
	name: string;
	/** Arguments after the node binary, e.g. ["dist/index.js"] or ["-e", source]. */
	args: string[];
	env: NodeJS.ProcessEnv;
	cwd?: string;
	/** Polled with GET until it answers 200. */
	readyUrl: string;
	deadlineMs: number;
}

function exited(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise(resolve => child.once("exit", () => resolve()));
}

function describeExit(child: ChildProcess): string {
	return child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`;
}

/**
 * Starts `node <args>` with this very node binary (the project pins its version)
 * and resolves once readyUrl answers 200; rejects, with the child's output, if it
 * exits or the deadline passes first.
 */
export async function startChild(opts: StartOptions): Promise<Child> {
	installExitHooks();
	const proc = spawn(process.execPath, opts.args, {
		cwd: opts.cwd,
		env: opts.env,
		stdio: ["ignore", "pipe", "pipe"]
	});
	liveChildren.add(proc);
	proc.once("exit", () => liveChildren.delete(proc));
	let output = "";
	// Always drained: a child writing into a full pipe would stall mid-benchmark.
	const keep = (chunk: Buffer) => {
		output = (output + chunk.toString("utf8")).slice(-OUTPUT_KEEP_CHARS);
	};
	proc.stdout!.on("data", keep);
	proc.stderr!.on("data", keep);
	let spawnError: Error | undefined;
	proc.once("error", err => {
		spawnError = err;
	});

	const child: Child = {
		name: opts.name,
		process: proc,
		output: () => output,
		async stop() {
			if (proc.exitCode !== null || proc.signalCode !== null) return;
			proc.kill("SIGTERM");
			const grace = new Promise<"timeout">(resolve => setTimeout(() => resolve("timeout"), STOP_GRACE_MS).unref());
			if ((await Promise.race([exited(proc), grace])) === "timeout") {
				proc.kill("SIGKILL");
				await exited(proc);
			}
		}
	};

	const deadline = Date.now() + opts.deadlineMs;
	let lastProblem = "no answer yet";
	try {
		for (;;) {
			if (spawnError) throw new Error(`${opts.name} could not be started: ${spawnError.message}`);
			if (proc.exitCode !== null || proc.signalCode !== null) {
				throw new Error(`${opts.name} exited (${describeExit(proc)}) before it was ready`);
			}
			try {
				const res = await fetch(opts.readyUrl, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
				await res.arrayBuffer();
				if (res.status === 200) return child;
				lastProblem = `status ${res.status}`;
			} catch (err) {
				lastProblem = (err as Error).message;
			}
			if (Date.now() >= deadline) {
				throw new Error(`${opts.name} was not ready within ${opts.deadlineMs} ms (${opts.readyUrl}: ${lastProblem})`);
			}
			await new Promise(resolve => setTimeout(resolve, POLL_INTERVAL_MS));
		}
	} catch (err) {
		await child.stop();
		const tail = output.trim() ? `\n--- ${opts.name} output (tail) ---\n${output.trim()}\n---` : "";
		throw new Error(`${(err as Error).message}${tail}`, { cause: err });
	}
}

// ---- load

export interface LoadOptions {
	url: string;
	headers?: Record<string, string>;
	/** When given, every response body must equal it; others count as mismatches. */
	expectBody?: string;
	durationSec: number;
	warmupSec: number;
	connections: number;
	/** The server process, when it is a child: its CPU time per request is reported too. */
	serverPid?: number;
}

export interface LoadResult {
	/** Mean of autocannon's per-second request counts, all status codes included. */
	reqPerSec: number;
	/** Latency percentiles in milliseconds over every response (not only 2xx). */
	p50Ms: number;
	p99Ms: number;
	total: number;
	non2xx: number;
	/** Connection errors, timeouts included. */
	errors: number;
	timeouts: number;
	mismatches: number;
	/** Count per status code, e.g. { "200": 51234 }. */
	statusCodes: Record<string, number>;
	durationSec: number;
	/** Server CPU time (user + system) per response in microseconds; NaN where unknown. */
	serverCpuUsPerReq: number;
}

/**
 * CPU time a process has used so far, in microseconds, from /proc (Linux only;
 * undefined elsewhere). With the load generator on the same machine, req/s mixes
 * the server's cost with the client's; CPU per request is the server's alone.
 */
function processCpuUs(pid: number | undefined): number | undefined {
	if (pid === undefined) return undefined;
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		// The command name (field 2) may hold spaces, so count fields after its ")".
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		const ticks = Number(fields[11]) + Number(fields[12]);
		return Number.isFinite(ticks) ? (ticks * 1e6) / CLOCK_TICKS_PER_SEC : undefined;
	} catch {
		return undefined;
	}
}

/** USER_HZ: 100 on every Linux architecture Node supports. */
const CLOCK_TICKS_PER_SEC = 100;

/** Whether the numbers can be trusted: every request answered 2xx with the expected body. */
export function isClean(r: LoadResult): boolean {
	return r.non2xx === 0 && r.errors === 0 && r.timeouts === 0 && r.mismatches === 0 && r.total > 0;
}

function cannon(opts: autocannon.Options, onResponse?: (statusCode: number, ms: number) => void): Promise<autocannon.Result> {
	return new Promise((resolve, reject) => {
		const instance = autocannon(opts, (err: unknown, result: autocannon.Result) => (err ? reject(err) : resolve(result)));
		if (onResponse) instance.on("response", (_client, statusCode, _bytes, ms) => onResponse(statusCode, ms));
	});
}

/**
 * A warm-up run (discarded: JIT, caches, connection setup), then the measured
 * run at the same concurrency. Latencies are kept in microseconds by us, because
 * autocannon's own histogram rounds to whole milliseconds, which flattens a fast
 * server's p50 to 0 or 1.
 */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
	const base: autocannon.Options = {
		url: opts.url,
		method: "GET",
		headers: opts.headers ?? {},
		connections: opts.connections,
		pipelining: 1,
		timeout: 10,
		...(opts.expectBody !== undefined ? { expectBody: opts.expectBody } : {})
	};
	if (opts.warmupSec > 0) await cannon({ ...base, duration: opts.warmupSec });
	const hist = createHistogram();
	const cpuBefore = processCpuUs(opts.serverPid);
	const result = await cannon({ ...base, duration: opts.durationSec }, (_status, ms) => {
		hist.record(Math.max(1, Math.round(ms * 1000)));
	});
	const cpuAfter = processCpuUs(opts.serverPid);
	const statusCodes: Record<string, number> = {};
	for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
	const total = Object.values(statusCodes).reduce((a, b) => a + b, 0);
	return {
		reqPerSec: result.requests.average,
		p50Ms: hist.count ? hist.percentile(50) / 1000 : NaN,
		p99Ms: hist.count ? hist.percentile(99) / 1000 : NaN,
		total,
		non2xx: result.non2xx,
		errors: result.errors,
		timeouts: result.timeouts,
		mismatches: result.mismatches,
		statusCodes,
		durationSec: result.duration,
		serverCpuUsPerReq: cpuBefore !== undefined && cpuAfter !== undefined && total > 0 ? (cpuAfter - cpuBefore) / total : NaN
	};
}

// ---- output

/** Left-aligned first column, the rest right-aligned. */
export function formatTable(rows: string[][]): string {
	const widths = rows[0]!.map((_, i) => Math.max(...rows.map(r => (r[i] ?? "").length)));
	return rows
		.map(r => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "))
		.join("\n");
}

export function fmtInt(n: number): string {
	return Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "-";
}

export function fmtMs(n: number): string {
	return Number.isFinite(n) ? `${n.toFixed(2)} ms` : "-";
}
