/**
 * How long `npm start` takes to serve (GET /health/ready answering 200) on a checkout
 * nobody has changed, beside the scripts it replaced. Before issue 35 every start
 * compiled the four TypeScript projects from scratch (`tsc -p` each, then
 * `node dist/index.js`); now `npm install` compiles once (`prepare`) and a start only
 * checks the build (`tsc -b` with incremental build info), compiling what changed.
 *
 * Two copies of this checkout's files (what git tracks or would track, uncommitted
 * edits included) share its node_modules: one as it is, one with the old scripts and
 * tsconfig files without incremental builds. The new copy first runs what
 * `npm install` adds after the dependencies (`npm run prepare`), then each round
 * starts, in turns: the new scripts on the unchanged copy, the old scripts, the new
 * ones after touching one source file (its time only), after editing it (a comment
 * appended), and `node dist/index.js` with no build step at all (the floor). Every
 * start gets a fresh DATA_DIR, so each does the same first-start work.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import {
	HOST,
	PROJECT_ROOT,
	childEnv,
	describeMachine,
	envIntQuick,
	formatTable,
	freePort,
	makeTempDir,
	median,
	removeTempDir,
	spawnProcess,
	startChild,
	type BenchSettings
} from "./lib";

/** The scripts every start ran before issue 35 (package.json at commit d04c50a). */
const OLD_SCRIPTS = {
	build: "tsc -p tsconfig.json && tsc -p client/tsconfig.json && tsc -p examples/web/tsconfig.json && tsc -p console/tsconfig.json",
	prestart: "npm run build --silent",
	start: "exec node dist/index.js"
};

const PROJECTS = ["tsconfig.json", "client/tsconfig.json", "examples/web/tsconfig.json", "console/tsconfig.json"];

/** What made the builds incremental; the old copy's tsconfig files go without it. */
const INCREMENTAL_OPTIONS = ["incremental", "composite", "tsBuildInfoFile"];

/** On top of BENCH_START_TIMEOUT: a start that compiles four projects on a busy 2-core machine takes over a minute. */
const COMPILE_ALLOWANCE_MS = 240_000;

const VARIANTS = ["old", "unchanged", "touched", "edited", "floor"] as const;
type Variant = (typeof VARIANTS)[number];

export interface StartSettings {
	rounds: number;
	/** The source file touched and edited, relative to the checkout. */
	file: string;
	deadlineMs: number;
}

export interface StartResult {
	machine: string;
	settings: StartSettings;
	/** `npm run prepare` on the fresh copy: what `npm install` compiles, once. */
	installMs: number;
	/** Milliseconds from spawn to the first 200 from /health/ready, one per round. */
	samples: Record<Variant, number[]>;
	problems: string[];
}

export function startSettings(settings: BenchSettings): StartSettings {
	return {
		rounds: envIntQuick("BENCH_START_ROUNDS", 3, 1, 1),
		file: process.env.BENCH_START_FILE?.trim() || "lib/config.ts",
		deadlineMs: settings.startTimeoutMs + COMPILE_ALLOWANCE_MS
	};
}

/** The children's environment: none of the calling npm's settings, which would point the inner npm elsewhere. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
	const env = childEnv(extra);
	for (const key of Object.keys(env)) if (/^npm_/i.test(key)) delete env[key];
	return env;
}

/** The checkout's files as a fresh clone has them (plus uncommitted edits), sharing its node_modules. */
function copyCheckout(dir: string): void {
	const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: PROJECT_ROOT, encoding: "utf8", maxBuffer: 64 << 20 });
	for (const file of listed.split("\0").filter(Boolean)) {
		const from = path.join(PROJECT_ROOT, file);
		// Deleted but not yet committed: a clone would have it, the working tree does not.
		if (!statSync(from, { throwIfNoEntry: false })?.isFile()) continue;
		mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
		copyFileSync(from, path.join(dir, file));
	}
	symlinkSync(realpathSync(path.join(PROJECT_ROOT, "node_modules")), path.join(dir, "node_modules"), "dir");
}

function readJson(file: string): Record<string, any> {
	return JSON.parse(readFileSync(file, "utf8")) as Record<string, any>;
}

/** Turns a copy back into the pre-issue-35 set-up: the old scripts, full compiles. */
function useOldScripts(dir: string): void {
	const pkgFile = path.join(dir, "package.json");
	const pkg = readJson(pkgFile);
	writeFileSync(pkgFile, JSON.stringify({ ...pkg, scripts: { ...pkg.scripts, ...OLD_SCRIPTS } }, null, 2));
	for (const project of PROJECTS) {
		const file = path.join(dir, project);
		const { references: _references, ...config } = readJson(file);
		for (const option of INCREMENTAL_OPTIONS) delete config.compilerOptions[option];
		writeFileSync(file, JSON.stringify(config, null, 2));
	}
}

async function runNpm(dir: string, args: string[]): Promise<number> {
	const started = performance.now();
	const child = spawnProcess({ name: `npm ${args.join(" ")}`, command: "npm", args, cwd: dir, env: cleanEnv({}) });
	const code = await child.exited;
	if (code !== 0) throw new Error(`npm ${args.join(" ")} in ${dir} exited with ${code}:\n${child.output().trim()}`);
	return performance.now() - started;
}

/** Spawn to the first 200 from /health/ready; the platform is stopped again before it returns. */
async function timeStart(label: string, dir: string, command: "npm" | "node", deadlineMs: number): Promise<number> {
	const port = await freePort();
	const dataDir = await makeTempDir("bench-start-");
	try {
		const started = performance.now();
		const child = await startChild({
			name: label,
			...(command === "npm" ? { command: "npm", args: ["start"] } : { args: ["dist/index.js"] }),
			cwd: dir,
			env: cleanEnv({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn" }),
			readyUrl: `http://${HOST}:${port}/health/ready`,
			deadlineMs
		});
		const ms = performance.now() - started;
		await child.stop();
		return ms;
	} finally {
		removeTempDir(dataDir);
	}
}

function mtimeMs(file: string): number {
	return statSync(file).mtimeMs;
}

export async function benchStart(settings: StartSettings): Promise<StartResult> {
	const samples = Object.fromEntries(VARIANTS.map(v => [v, [] as number[]])) as Record<Variant, number[]>;
	const problems: string[] = [];
	const newDir = await makeTempDir("bench-start-new-");
	const oldDir = await makeTempDir("bench-start-old-");
	try {
		copyCheckout(newDir);
		copyCheckout(oldDir);
		useOldScripts(oldDir);
		const source = path.join(newDir, settings.file);
		const compiled = path.join(newDir, "dist", settings.file.replace(/\.ts$/, ".js"));
		const entry = path.join(newDir, "dist", "index.js");
		const installMs = await runNpm(newDir, ["run", "prepare", "--silent"]);
		for (let round = 1; round <= settings.rounds; round++) {
			const before = mtimeMs(entry);
			samples.unchanged.push(await timeStart("npm start (unchanged)", newDir, "npm", settings.deadlineMs));
			if (mtimeMs(entry) !== before) problems.push(`round ${round}: npm start on the unchanged copy rewrote dist/index.js`);
			samples.old.push(await timeStart("npm start (old scripts)", oldDir, "npm", settings.deadlineMs));
			const now = new Date();
			utimesSync(source, now, now);
			samples.touched.push(await timeStart(`npm start (${settings.file} touched)`, newDir, "npm", settings.deadlineMs));
			const marker = `// bench/start.ts: edit ${round} ${Date.now()}`;
			appendFileSync(source, `\n${marker}\n`);
			samples.edited.push(await timeStart(`npm start (${settings.file} edited)`, newDir, "npm", settings.deadlineMs));
			if (!readFileSync(compiled, "utf8").includes(marker)) problems.push(`round ${round}: the edit of ${settings.file} did not reach ${path.relative(newDir, compiled)}`);
			samples.floor.push(await timeStart("node dist/index.js", newDir, "node", settings.deadlineMs));
		}
		return { machine: describeMachine("one start at a time"), settings, installMs, samples, problems };
	} finally {
		removeTempDir(newDir);
		removeTempDir(oldDir);
	}
}

const seconds = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : "-");

export function formatStartResult(r: StartResult): string {
	const { file, rounds } = r.settings;
	const labels: Record<Variant, string> = {
		old: "old scripts: tsc -p x4, then node",
		unchanged: "npm start, unchanged checkout",
		touched: `npm start, ${file} touched`,
		edited: `npm start, ${file} edited`,
		floor: "node dist/index.js (no build step)"
	};
	const rows = VARIANTS.map(v => [labels[v], seconds(median(r.samples[v])), seconds(Math.min(...r.samples[v])), seconds(Math.max(...r.samples[v]))]);
	const ratio = median(r.samples.old) / median(r.samples.unchanged);
	return [
		`Start to GET /health/ready = 200 on a copy of this checkout, ${rounds} round(s) in turns; ${r.machine}`,
		formatTable([["", "median", "min", "max"], ...rows]),
		`old / new on the unchanged checkout: ${Number.isFinite(ratio) ? ratio.toFixed(1) : "-"}x (${seconds(median(r.samples.old))} -> ${seconds(median(r.samples.unchanged))})`,
		`compiled once by npm install (npm run prepare): ${seconds(r.installMs)}`,
		...(r.problems.length ? ["", "!!! BROKEN RUN, the numbers are meaningless:", ...r.problems.map(p => `  - ${p}`)] : [])
	].join("\n");
}
