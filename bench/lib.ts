/**
 * Shared pieces of the benchmarks: free ports, child processes that are always
 * cleaned up, readiness polling with a deadline, and one load run with autocannon.
 * Benchmarks report numbers; nothing here judges them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { cpus } from "node:os";
import { createHistogram } from "node:perf_hooks";
import autocannon from "autocannon";

import { HOST, PLATFORM_ENTRY, PLATFORM_NODE_ARGS, PLATFORM_PROCESS_ENV, PROJECT_ROOT, childEnv, expectStatus, freePort, makeTempDir, profileArgs, removeTempDir, removeTempDirAtExit, startChild, type Child } from "../harness/processes";

export * from "../harness/processes";

export interface BenchSettings {
	durationSec: number;
	warmupSec: number;
	connections: number;
	startTimeoutMs: number;
}

export function envInt(name: string, def: number, min: number): number {
	const v = process.env[name]?.trim();
	if (!v) return def;
	if (!/^\d+$/.test(v) || Number(v) < min) throw new Error(`${name} must be a whole number >= ${min} (got "${v}")`);
	return Number(v);
}

/** A comma-separated choice among `known` (all of them when unset), e.g. BENCH_NOTIFICATION_PARTS. */
export function envParts<T extends string>(name: string, known: readonly T[]): T[] {
	const parts = (process.env[name]?.trim() || known.join(","))
		.split(",")
		.map(p => p.trim())
		.filter(Boolean);
	for (const p of parts) {
		if (!(known as readonly string[]).includes(p)) throw new Error(`${name}: unknown part "${p}" (known: ${known.join(", ")})`);
	}
	return parts as T[];
}

/**
 * BENCH_QUICK=1 (or `--quick`): short runs with the same code paths, to check a
 * benchmark works before spending minutes on it; the numbers mean little.
 */
export function isQuick(): boolean {
	return process.env.BENCH_QUICK === "1";
}

/** A default that BENCH_QUICK shrinks; a variable set explicitly wins either way. */
export function envIntQuick(name: string, full: number, quick: number, min: number): number {
	return envInt(name, isQuick() ? quick : full, min);
}

export function benchSettings(): BenchSettings {
	return {
		durationSec: envIntQuick("BENCH_DURATION", 10, 2, 1),
		warmupSec: envIntQuick("BENCH_WARMUP", 2, 1, 0),
		connections: envInt("BENCH_CONNECTIONS", 50, 1),
		startTimeoutMs: envInt("BENCH_START_TIMEOUT", 30, 1) * 1000
	};
}

/** One line describing where the numbers come from; they mean little without it. */
export function describeMachine(note = "load generator in the same machine"): string {
	const c = cpus();
	return `Node ${process.version}, ${c.length} CPU(s) (${c[0]?.model.trim() ?? "unknown"}), ${note}`;
}

/**
 * The bare server: node:http and nothing else, one fixed status and body whatever
 * the request. It runs in its own process, like the platform, so both share the
 * machine with the load generator in the same way.
 */
const BARE_SERVER = `
const http = require("node:http");
const body = Buffer.from(process.env.BENCH_BODY, "utf8");
const status = Number(process.env.BENCH_STATUS);
http.createServer((req, res) => {
	res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.length });
	res.end(body);
}).listen(Number(process.env.PORT), process.env.HOST);
`;

export interface BareOptions {
	/** What the bare server answers, status and body, to every request. */
	status: number;
	responseBody: string;
	/** The request, as the platform gets it. */
	path: string;
	method?: "GET" | "POST";
	headers?: Record<string, string>;
	requestBody?: string;
	/** Checks every response instead of comparing it with responseBody. */
	verifyBody?: (body: string) => boolean;
}

/** The bare server, started: it answers every request with `bare`'s status and body. */
export async function startBare(settings: BenchSettings, bare: Pick<BareOptions, "status" | "responseBody">): Promise<{ base: string; child: Child }> {
	const port = await freePort();
	const child = await startChild({
		name: "bare node:http server",
		args: ["-e", BARE_SERVER],
		env: childEnv({ PORT: String(port), HOST, BENCH_BODY: bare.responseBody, BENCH_STATUS: String(bare.status) }),
		// Its one answer is the sign it listens, whatever status that answer has.
		ready: async () => {
			const res = await fetch(`http://${HOST}:${port}/ready`, { signal: AbortSignal.timeout(1000) });
			await res.arrayBuffer();
			return res.status === bare.status;
		},
		deadlineMs: settings.startTimeoutMs
	});
	return { base: `http://${HOST}:${port}`, child };
}

export async function measureBare(settings: BenchSettings, bare: BareOptions): Promise<LoadResult> {
	const { base, child } = await startBare(settings, bare);
	try {
		return await runLoad({
			url: `${base}${bare.path}`,
			method: bare.method ?? "GET",
			headers: bare.headers ?? {},
			...(bare.requestBody !== undefined ? { body: bare.requestBody } : {}),
			...(bare.verifyBody ? { verifyBody: bare.verifyBody } : { expectBody: bare.responseBody }),
			serverPid: child.process.pid,
			...settings
		});
	} finally {
		await child.stop();
	}
}

/** The administrator every benchmarked platform starts with; it only creates the service account that sends. */
const BENCH_ADMIN = { email: "bench-admin@example.com", password: "Bench-Admin-Passw0rd-1" };

/**
 * What a benchmarked platform runs with: a real deployment's rule for who may send
 * (users only to themselves, the defaults in lib/config.ts), set explicitly so no
 * harness default for tests applies, and a bootstrap administrator. The benchmarks
 * send the way a backend does, with a service account's token (serviceSender).
 */
export const DEPLOYMENT_ENV: Record<string, string> = {
	NOTIFICATIONS_USER_SEND: "self",
	NOTIFICATIONS_QUOTA_PER_HOUR: "100",
	BOOTSTRAP_ADMIN_EMAIL: BENCH_ADMIN.email,
	BOOTSTRAP_ADMIN_PASSWORD: BENCH_ADMIN.password
};

/** The service account the benchmarks send as. */
export const SENDER_SERVICE_ID = "bench-sender";

async function postJson(base: string, path: string, body: unknown, status: number, token?: string): Promise<Record<string, unknown>> {
	const res = await fetch(`${base}${path}`, {
		method: "POST",
		headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
		body: JSON.stringify(body)
	});
	return JSON.parse(await expectStatus(res, status, `POST ${path}`)) as Record<string, unknown>;
}

/**
 * A service token, got the way a team's backend gets one: the administrator creates a
 * service account, and the service signs in with it (docs/accounts.md, "Service accounts").
 * Services send to any recipient, without the users' hourly quota.
 */
export async function serviceSender(base: string, adminToken?: string, serviceId = SENDER_SERVICE_ID): Promise<string> {
	// A platform started with DEPLOYMENT_ENV has BENCH_ADMIN; a cluster (harness/cluster.ts) its own, whose token it hands in.
	const admin = adminToken ?? String((await postJson(base, "/auth/login", { username: BENCH_ADMIN.email, password: BENCH_ADMIN.password }, 200)).accessToken);
	const account = await postJson(base, "/admin/service-accounts", { serviceId }, 201, admin);
	const tokens = await postJson(base, "/auth/services/token", { username: account.username, password: account.password }, 200);
	if (typeof tokens.idToken !== "string") throw new Error("POST /auth/services/token answered without an idToken");
	return tokens.idToken;
}

export interface Platform {
	child: Child;
	base: string;
	dataDir: string;
	/** Stops the process (if still running) and removes its DATA_DIR. */
	close(): Promise<void>;
}

/**
 * `node dist/index.js` in a fresh DATA_DIR on a free port, ready once
 * /health/ready answers 200; `env` adds settings (SERVICES, EMAIL_PROVIDER...).
 */
export interface PlatformOptions {
	/**
	 * False: V8's and glibc's defaults instead of PLATFORM_NODE_ARGS and
	 * PLATFORM_PROCESS_ENV, to measure what those settings cost (compare's mixed part, issue 39).
	 */
	memorySettings?: boolean;
	/** Another built checkout to run instead of this one (BENCH_BASELINE_ROOT: the gateway benchmark's "against today"). */
	root?: string;
}

export async function startPlatform(settings: BenchSettings, label: string, env: Record<string, string> = {}, options: PlatformOptions = {}): Promise<Platform> {
	const memorySettings = options.memorySettings ?? true;
	const root = options.root ?? PROJECT_ROOT;
	const port = await freePort();
	const dataDir = await makeTempDir(`bench-${label}-`);
	const base = `http://${HOST}:${port}`;
	try {
		const child = await startChild({
			name: `platform (${label})`,
			args: [...profileArgs(), ...(memorySettings ? PLATFORM_NODE_ARGS : []), root === PROJECT_ROOT ? PLATFORM_ENTRY : path.join(root, "dist", "index.js")],
			cwd: root,
			env: childEnv({ ...(memorySettings ? PLATFORM_PROCESS_ENV : {}), PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", ...DEPLOYMENT_ENV, ...env }),
			readyUrl: `${base}/health/ready`,
			deadlineMs: settings.startTimeoutMs
		});
		return {
			child,
			base,
			dataDir,
			async close() {
				await child.stop();
				removeTempDirAtExit(dataDir);
			}
		};
	} catch (err) {
		removeTempDir(dataDir);
		throw err;
	}
}

/** Appends a child's last output to an error, since that is where the cause usually is. */
export function withOutput(err: unknown, child: Child): Error {
	const e = err instanceof Error ? err : new Error(String(err));
	const out = child.output().trim();
	if (out) e.message += `\n--- ${child.name} output (tail) ---\n${out}\n---`;
	return e;
}

// ---- load

export interface LoadOptions {
	url: string;
	method?: "GET" | "POST";
	headers?: Record<string, string>;
	/** Sent with every request (the same one each time). */
	body?: string;
	/** When given, every response body must equal it; others count as mismatches. */
	expectBody?: string;
	/** For bodies that differ per response (new ids): false counts as a mismatch. */
	verifyBody?: (body: string) => boolean;
	durationSec: number;
	/** When given, the measured run sends exactly this many requests and durationSec is ignored. */
	amount?: number;
	warmupSec: number;
	connections: number;
	/** The server process, when it is a child: its CPU time per request and its RSS are reported too. */
	serverPid?: number;
	/** Processes the server cannot work without (its Redis): counted into CPU per request and total RSS. */
	companionPids?: number[];
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
	/** Server CPU time (user + system, companions included) per response in microseconds; NaN where unknown. */
	serverCpuUsPerReq: number;
	/** Highest resident set size of the server process during the measured run; NaN where unknown. */
	serverRssPeakBytes: number;
	/** Highest RSS of the server and its companions together; equals serverRssPeakBytes without companions. */
	totalRssPeakBytes: number;
	/** 2xx responses of the discarded warm-up, for checks on what the server stored. */
	warmup2xx: number;
}

/**
 * CPU time a process has used so far, in microseconds, from /proc (Linux only;
 * undefined elsewhere). With the load generator on the same machine, req/s mixes
 * the server's cost with the client's; CPU per request is the server's alone.
 */
export function processCpuUs(pid: number | undefined): number | undefined {
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

/** CPU time of several processes together; undefined when one of them cannot be read. */
function cpuUsOf(pids: number[]): number | undefined {
	let sum = 0;
	for (const pid of pids) {
		const us = processCpuUs(pid);
		if (us === undefined) return undefined;
		sum += us;
	}
	return sum;
}

/** Resident set size of a process in bytes, from /proc (Linux only; undefined elsewhere). */
export function processRssBytes(pid: number | undefined): number | undefined {
	if (pid === undefined) return undefined;
	try {
		const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
		return m ? Number(m[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

/** How often RSS is read during a measured run: often enough for a peak, cheap enough not to matter. */
const RSS_SAMPLE_MS = 250;

/** Peak RSS of one process and of a group, sampled until stop() is called. */
function sampleRss(serverPid: number | undefined, companions: number[]): { stop(): { server: number; total: number } } {
	let server = NaN;
	let total = NaN;
	const sample = () => {
		const own = processRssBytes(serverPid);
		if (own === undefined) return;
		let sum = own;
		for (const pid of companions) sum += processRssBytes(pid) ?? NaN;
		server = Number.isNaN(server) ? own : Math.max(server, own);
		total = Number.isNaN(total) ? sum : Math.max(total, sum);
	};
	sample();
	const timer = setInterval(sample, RSS_SAMPLE_MS);
	return {
		stop() {
			clearInterval(timer);
			sample();
			return { server, total };
		}
	};
}

/** Whether the numbers can be trusted: every request answered 2xx with the expected body. */
export function isClean(r: LoadResult): boolean {
	return r.non2xx === 0 && r.errors === 0 && r.timeouts === 0 && r.mismatches === 0 && r.total > 0;
}

/** Why a load run's numbers cannot be trusted; empty when every response was as expected. */
export function problemsOf(label: string, r: LoadResult): string[] {
	const p: string[] = [];
	if (r.total === 0) p.push(`${label}: no response at all`);
	if (r.non2xx > 0) {
		const codes = Object.entries(r.statusCodes)
			.filter(([code]) => !code.startsWith("2"))
			.map(([code, n]) => `${n} x ${code}`)
			.join(", ");
		p.push(`${label}: ${fmtInt(r.non2xx)} of ${fmtInt(r.total)} responses were not 2xx (${codes})`);
	}
	if (r.mismatches > 0) p.push(`${label}: ${fmtInt(r.mismatches)} responses had another body than expected`);
	if (r.errors > 0) p.push(`${label}: ${fmtInt(r.errors)} connection errors (${fmtInt(r.timeouts)} of them timeouts)`);
	return p;
}

function cannon(opts: autocannon.Options, onResponse?: (statusCode: number, ms: number) => void): Promise<autocannon.Result> {
	return new Promise((resolve, reject) => {
		const instance = autocannon(opts, (err: unknown, result: autocannon.Result) => (err ? reject(err) : resolve(result)));
		if (onResponse) instance.on("response", (_client, statusCode, _bytes, ms) => onResponse(statusCode, ms));
	});
}

/**
 * One server's measured runs added up: latencies into one histogram (kept in
 * microseconds by us, because autocannon's own rounds to whole milliseconds, which
 * flattens a fast server's p50 to 0 or 1), requests and status codes counted, the
 * server's CPU time taken over each run, its RSS sampled during each.
 */
class LoadTally {
	private readonly base: autocannon.Options;
	private readonly pids: number[];
	private readonly hist = createHistogram();
	private readonly statusCodes: Record<string, number> = {};
	private requestsTimesSec = 0;
	private durationSec = 0;
	private non2xx = 0;
	private errors = 0;
	private timeouts = 0;
	private mismatches = 0;
	private cpuUs: number | undefined = 0;
	private rssServer = NaN;
	private rssTotal = NaN;
	private warmup2xx = 0;

	constructor(private readonly opts: LoadOptions) {
		this.base = {
			url: opts.url,
			method: opts.method ?? "GET",
			headers: opts.headers ?? {},
			...(opts.body !== undefined ? { body: opts.body } : {}),
			connections: opts.connections,
			pipelining: 1,
			timeout: 10,
			...(opts.expectBody !== undefined ? { expectBody: opts.expectBody } : {}),
			...(opts.verifyBody !== undefined ? { verifyBody: opts.verifyBody as (body: unknown) => boolean } : {})
		};
		this.pids = opts.serverPid === undefined ? [] : [opts.serverPid, ...(opts.companionPids ?? [])];
	}

	/** Discarded: JIT, caches, connection setup. */
	async warmUp(durationSec: number): Promise<void> {
		const warmup = await cannon({ ...this.base, duration: durationSec });
		this.warmup2xx += warmup["2xx"] ?? 0;
	}

	async measure(measured: { duration: number } | { amount: number }): Promise<void> {
		const cpuBefore = cpuUsOf(this.pids);
		const rss = sampleRss(this.opts.serverPid, this.opts.companionPids ?? []);
		let result: autocannon.Result;
		try {
			result = await cannon({ ...this.base, ...measured }, (_status, ms) => {
				this.hist.record(Math.max(1, Math.round(ms * 1000)));
			});
		} finally {
			const peak = rss.stop();
			this.rssServer = Number.isNaN(this.rssServer) ? peak.server : Math.max(this.rssServer, peak.server);
			this.rssTotal = Number.isNaN(this.rssTotal) ? peak.total : Math.max(this.rssTotal, peak.total);
		}
		const cpuAfter = cpuUsOf(this.pids);
		this.cpuUs = this.cpuUs !== undefined && cpuBefore !== undefined && cpuAfter !== undefined ? this.cpuUs + cpuAfter - cpuBefore : undefined;
		for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) this.statusCodes[code] = (this.statusCodes[code] ?? 0) + (stat.count ?? 0);
		this.requestsTimesSec += result.requests.average * result.duration;
		this.durationSec += result.duration;
		this.non2xx += result.non2xx;
		this.errors += result.errors;
		this.timeouts += result.timeouts;
		this.mismatches += result.mismatches;
	}

	result(): LoadResult {
		const total = Object.values(this.statusCodes).reduce((a, b) => a + b, 0);
		return {
			// With one run, autocannon's mean of its per-second counts; with several, their mean weighted by duration.
			reqPerSec: this.durationSec > 0 ? this.requestsTimesSec / this.durationSec : NaN,
			p50Ms: this.hist.count ? this.hist.percentile(50) / 1000 : NaN,
			p99Ms: this.hist.count ? this.hist.percentile(99) / 1000 : NaN,
			total,
			non2xx: this.non2xx,
			errors: this.errors,
			timeouts: this.timeouts,
			mismatches: this.mismatches,
			statusCodes: { ...this.statusCodes },
			durationSec: this.durationSec,
			serverCpuUsPerReq: this.cpuUs !== undefined && this.pids.length > 0 && total > 0 ? this.cpuUs / total : NaN,
			serverRssPeakBytes: this.rssServer,
			totalRssPeakBytes: this.rssTotal,
			warmup2xx: this.warmup2xx
		};
	}
}

/** A warm-up run (discarded), then the measured run at the same concurrency. */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
	const tally = new LoadTally(opts);
	if (opts.warmupSec > 0) await tally.warmUp(opts.warmupSec);
	await tally.measure(opts.amount !== undefined ? { amount: opts.amount } : { duration: opts.durationSec });
	return tally.result();
}

/**
 * Several servers, all running, measured in turns: each is warmed up, then the load
 * moves from one to the next in slices of `sliceSec` (A B C, then C B A, ...) until
 * each has had its `durationSec`. On a machine whose speed drifts from one minute to
 * the next (a shared VM), servers measured one after the other see different
 * machines; in slices of a few seconds they see the same one. A server that waited
 * while the others ran comes back with cold caches (theirs filled them), so each
 * slice begins with `sliceWarmupSec` of load that is not counted, as each run does.
 * Each server's result adds up its slices (one latency histogram, CPU time summed).
 */
export async function runInterleaved(targets: LoadOptions[], sliceSec: number, sliceWarmupSec: number): Promise<LoadResult[]> {
	const tallies = targets.map(t => new LoadTally(t));
	for (const [i, t] of tallies.entries()) if (targets[i]!.warmupSec > 0) await t.warmUp(targets[i]!.warmupSec);
	const slices = Math.max(1, ...targets.map(t => Math.ceil(t.durationSec / sliceSec)));
	const order = tallies.map((_, i) => i);
	for (let slice = 0; slice < slices; slice++) {
		for (const i of slice % 2 === 0 ? order : [...order].reverse()) {
			const seconds = Math.min(sliceSec, targets[i]!.durationSec - slice * sliceSec);
			if (seconds <= 0) continue;
			if (sliceWarmupSec > 0) await tallies[i]!.warmUp(sliceWarmupSec);
			await tallies[i]!.measure({ duration: seconds });
		}
	}
	return tallies.map(t => t.result());
}

// ---- output

/** One table row for a load result: req/s, p50, p99, server CPU per request, peak RSS, totals. */
function loadRow(label: string, l: LoadResult): string[] {
	return [
		label,
		fmtInt(l.reqPerSec),
		fmtMs(l.p50Ms),
		fmtMs(l.p99Ms),
		Number.isFinite(l.serverCpuUsPerReq) ? `${l.serverCpuUsPerReq.toFixed(1)} us` : "-",
		fmtMb(l.serverRssPeakBytes),
		fmtInt(l.total),
		fmtInt(l.non2xx),
		fmtInt(l.errors + l.mismatches)
	];
}

/** The table of load results every HTTP benchmark prints. */
export function formatLoadTable(rows: [string, LoadResult][]): string {
	return formatTable([["", "req/s", "p50", "p99", "server CPU/req", "server RSS", "requests", "non-2xx", "errors"], ...rows.map(([label, l]) => loadRow(label, l))]);
}

/** Left-aligned first column, the rest right-aligned. */
export function formatTable(rows: string[][]): string {
	const widths = rows[0]!.map((_, i) => Math.max(...rows.map(r => (r[i] ?? "").length)));
	return rows
		.map(r => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "))
		.join("\n");
}

/** The middle value (the mean of the two middle ones for an even count), NaN values left out. */
export function median(xs: number[]): number {
	const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
	if (v.length === 0) return NaN;
	const mid = Math.floor(v.length / 2);
	return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

export function fmtInt(n: number): string {
	return Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "-";
}

export function fmtMs(n: number): string {
	return Number.isFinite(n) ? `${n.toFixed(2)} ms` : "-";
}

export function fmtMb(bytes: number): string {
	return Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : "-";
}
