/**
 * The platform as real OS processes: free ports, children that are always cleaned
 * up (whatever way the parent ends), readiness polling with a deadline, and a fresh
 * user through the gateway. Used by the tests (test/integration/*-multiprocess) and
 * by bench/.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const HOST = "127.0.0.1";

const POLL_INTERVAL_MS = 50;
const PROBE_TIMEOUT_MS = 1000;
const STOP_GRACE_MS = 5000;
const OUTPUT_KEEP_CHARS = 16384;

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
			process.stderr.write(`\n${signal} received: stopping the child processes.\n`);
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

/**
 * Leaves a temp dir made by makeTempDir for the exit hook to remove. For the benches
 * whose samples each write tens of thousands of .eml files: ext4 without a journal (the
 * benchmark VM's disk) will not reuse an inode freed in the last 60 s (300 s while its
 * table block is dirty), and finding a free one reads the table block of every such
 * inode it passes. Deleting a sample's files right after it made every file the next
 * samples created cost that scan: the delivery rate of the mixed load fell from about
 * 1,500 to about 900 a second from the third sample on, whichever side ran.
 */
export function removeTempDirAtExit(dir: string): void {
	if (!tempDirs.has(dir)) throw new Error(`${dir} was not made by makeTempDir`);
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

export interface StartOptions extends SpawnOptions {
	/** Polled with GET until it answers 200. */
	readyUrl?: string;
	/** For children without HTTP (e.g. a dispatcher node): polled until it resolves true. */
	ready?: () => Promise<boolean>;
	deadlineMs: number;
}

function exited(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise(resolve => child.once("exit", () => resolve()));
}

function describeExit(child: ChildProcess): string {
	return child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`;
}

export interface SpawnOptions {
	name: string;
	/** Another program than this node binary (e.g. redis-server for a benchmark's peer). */
	command?: string;
	/** Arguments after the node binary (or `command`), e.g. ["dist/index.js"] or ["-e", source]. */
	args: string[];
	env: NodeJS.ProcessEnv;
	cwd?: string;
	/** How much of the end of its output to keep. */
	keepChars?: number;
}

/** A child process whose output is always drained and kept (its tail), and which is killed if this process exits. */
export interface Spawned {
	readonly process: ChildProcess;
	output(): string;
	/** Its exit code (null after a signal), once it has exited. */
	readonly exited: Promise<number | null>;
	/** Sends the signal (unless it has exited already) and waits for the exit. */
	stop(signal?: NodeJS.Signals): Promise<number | null>;
	/** Set when it could not be started at all. */
	spawnError(): Error | undefined;
}

/** The one launcher for processes of tests, the harness and the benchmarks. */
export function spawnProcess(opts: SpawnOptions): Spawned {
	const proc = spawn(opts.command ?? process.execPath, opts.args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
	liveChildren.add(proc);
	// Profiles are named by pid only; this says which child each one is.
	if (opts.args.includes("--cpu-prof")) process.stderr.write(`CPU profile of ${opts.name}: pid ${proc.pid}\n`);
	const done = new Promise<number | null>(resolve => proc.once("exit", code => resolve(code)));
	proc.once("exit", () => liveChildren.delete(proc));
	const keepChars = opts.keepChars ?? OUTPUT_KEEP_CHARS;
	let output = "";
	// Always drained: a child writing into a full pipe would stall.
	const keep = (chunk: Buffer) => {
		output = (output + chunk.toString("utf8")).slice(-keepChars);
	};
	proc.stdout!.on("data", keep);
	proc.stderr!.on("data", keep);
	let failed: Error | undefined;
	proc.once("error", err => {
		failed = err;
	});
	return {
		process: proc,
		output: () => output,
		exited: done,
		async stop(signal = "SIGTERM") {
			if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
			return done;
		},
		spawnError: () => failed
	};
}

/**
 * Starts `node <args>` with this very node binary (the project pins its version),
 * or `command`, and resolves once readyUrl answers 200 (or ready() says true); rejects, with the child's output, if it
 * exits or the deadline passes first.
 */
export async function startChild(opts: StartOptions): Promise<Child> {
	const readyUrl = opts.readyUrl;
	const ready = opts.ready;
	if (!readyUrl === !ready) throw new Error(`${opts.name}: give exactly one of readyUrl and ready`);
	installExitHooks();
	const spawned = spawnProcess(opts);
	const proc = spawned.process;
	const output = spawned.output;

	const child: Child = {
		name: opts.name,
		process: proc,
		output,
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
			const spawnError = spawned.spawnError();
			if (spawnError) throw new Error(`${opts.name} could not be started: ${spawnError.message}`);
			if (proc.exitCode !== null || proc.signalCode !== null) {
				throw new Error(`${opts.name} exited (${describeExit(proc)}) before it was ready`);
			}
			try {
				if (readyUrl) {
					const res = await fetch(readyUrl, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
					await res.arrayBuffer();
					if (res.status === 200) return child;
					lastProblem = `${readyUrl}: status ${res.status}`;
				} else {
					if (await ready!()) return child;
					lastProblem = "the readiness check said no";
				}
			} catch (err) {
				lastProblem = (err as Error).message;
			}
			if (Date.now() >= deadline) {
				throw new Error(`${opts.name} was not ready within ${opts.deadlineMs} ms (${lastProblem})`);
			}
			await new Promise(resolve => setTimeout(resolve, POLL_INTERVAL_MS));
		}
	} catch (err) {
		await child.stop();
		const tail = output().trim() ? `\n--- ${opts.name} output (tail) ---\n${output().trim()}\n---` : "";
		throw new Error(`${(err as Error).message}${tail}`, { cause: err });
	}
}

// ---- the platform and its bare counterpart

/** The compiled entry: from dist/harness when compiled, from harness/ when run from source (tests). */
const COMPILED = path.basename(path.resolve(__dirname, "..")) === "dist";
export const PROJECT_ROOT = path.resolve(__dirname, COMPILED ? "../.." : "..");
/**
 * How the platform's process is started wherever it runs (Dockerfile, npm start, the
 * benchmarks): V8's young generation capped at 8 MB semi-spaces (left to V8, the
 * 15-minute soak's RSS reached 203 MB in its first 100 s and peaked at 208 MB, against
 * 180 MB with the cap; capped at 4 MB, the soak peaked at 166 MB, but the mixed load
 * accepted and delivered a tenth to a quarter less; 8 MB costs 6 to 9 % against V8's
 * own size by the median of seven rounds, still past issue 39's 5 %); glibc's mmap
 * threshold fixed, so the 16 MiB of each password hash goes back to the system when
 * freed instead of raising the threshold and staying in a thread's arena; and two malloc
 * arenas instead of up to sixteen, one per thread that allocated, where V8's compiler
 * and GC helper threads each kept 2 to 6 MB of freed memory (docs/benchmarks.md,
 * seventh pass).
 * Leaner settings (docs/operations.md, memory) trade throughput for memory.
 */
export const PLATFORM_NODE_ARGS = ["--max-semi-space-size=8"];
export const PLATFORM_PROCESS_ENV: Record<string, string> = { MALLOC_MMAP_THRESHOLD_: "1048576", MALLOC_ARENA_MAX: "2" };

export const PLATFORM_ENTRY = path.join(PROJECT_ROOT, "dist", "index.js");

export function requireBuild(): void {
	if (!existsSync(PLATFORM_ENTRY)) throw new Error(`${PLATFORM_ENTRY} is missing: run "npm run build" first (npm test and npm run bench do)`);
}

/**
 * Settings that would turn a child into one node of a cluster or point it at
 * outside infrastructure; a bench sets the ones it wants itself.
 */
const CLUSTER_ENV = /^(SERVICES|NATS_URL|NAMESPACE|NODE_ID|REDIS_URL|MONGODB_URL|IDP_.*|NODE_OPTIONS)$/;

export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!CLUSTER_ENV.test(k)) env[k] = v;
	return { ...env, ...extra };
}

/**
 * Node flags for a platform child: with BENCH_CPU_PROF_DIR set, it writes a CPU
 * profile there when it stops, for finding out where the time goes.
 */
export function profileArgs(): string[] {
	const dir = process.env.BENCH_CPU_PROF_DIR?.trim();
	return dir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(dir)}`] : [];
}

export async function expectStatus(res: Response, status: number, what: string): Promise<string> {
	const text = await res.text();
	if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${text.slice(0, 500)}`);
	return text;
}

export interface Registered {
	accessToken: string;
	actorId: string;
}

/** A fresh user through POST /auth/register: the token every authenticated request carries. */
export async function registerUser(base: string): Promise<Registered> {
	const registered = JSON.parse(
		await expectStatus(
			await fetch(`${base}/auth/register`, {
				method: "POST",
				headers: { "Content-Type": "application/json" },
				body: JSON.stringify({
					email: `bench-${randomUUID().slice(0, 8)}@example.com`,
					password: `Bench-${randomUUID().slice(0, 8)}-Aa1`,
					firstName: "Bench",
					lastName: "User"
				})
			}),
			201,
			"POST /auth/register"
		)
	) as { accessToken?: unknown; actorId?: unknown };
	if (typeof registered.accessToken !== "string" || typeof registered.actorId !== "string") {
		throw new Error("POST /auth/register answered without accessToken or actorId");
	}
	return { accessToken: registered.accessToken, actorId: registered.actorId };
}

/** POST /auth/login: the access token of an existing user. */
export async function logIn(base: string, username: string, password: string): Promise<string> {
	const res = await fetch(`${base}/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ username, password }) });
	const { accessToken } = JSON.parse(await expectStatus(res, 200, "POST /auth/login")) as { accessToken?: unknown };
	if (typeof accessToken !== "string") throw new Error("POST /auth/login answered without accessToken");
	return accessToken;
}
