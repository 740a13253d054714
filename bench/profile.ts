/**
 * Where the project's CPU time goes. `npm run bench -- profile [accept|get]` runs
 * the project under one load (POST /notifications by default, or the authenticated
 * GET /actors/{id}) with --cpu-prof and summarizes the profile it writes on exit;
 * `npm run bench -- profile <file.cpuprofile>...` summarizes profiles written
 * before (with BENCH_CPU_PROF_DIR, by any benchmark). The summary is self time:
 * by function, by file and by package, as shares of the busy (non-idle) time.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { measurePlatform } from "./gateway";
import { PROJECT_ROOT, benchSettings, envInt, fmtInt, fmtMs, formatLoadTable, formatTable, makeTempDir, removeTempDir, type LoadResult } from "./lib";
import { measureAcceptPlatform } from "./notifications";
import { requestBody } from "./workload";

interface CallFrame {
	functionName: string;
	url: string;
	lineNumber: number;
	columnNumber: number;
}

interface ProfileNode {
	id: number;
	callFrame: CallFrame;
	hitCount?: number;
}

/** The .cpuprofile format V8 writes (the Chrome DevTools Profile object). */
interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples?: number[];
	timeDeltas?: number[];
}

export interface Share {
	name: string;
	ms: number;
}

export interface ProfileSummary {
	wallMs: number;
	idleMs: number;
	busyMs: number;
	byFunction: Share[];
	byFile: Share[];
	byPackage: Share[];
}

/** V8's pseudo-frames: not code of anyone's, each its own line. */
const PSEUDO = new Set(["(idle)", "(program)", "(garbage collector)", "(root)"]);

/** A frame's place without machine paths: "lib/store/sqlite.js", "moleculer/src/...", "node:internal/...". */
function place(url: string): { file: string; pkg: string } {
	if (!url) return { file: "(V8 builtins and native code)", pkg: "(V8 builtins and native code)" };
	if (url.startsWith("node:")) return { file: url, pkg: "node core" };
	const p = url.startsWith("file://") ? decodeURIComponent(new URL(url).pathname) : url;
	const nm = p.lastIndexOf("/node_modules/");
	if (nm >= 0) {
		const rest = p.slice(nm + "/node_modules/".length);
		const parts = rest.split("/");
		const pkg = parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
		return { file: rest, pkg };
	}
	const rel = path.relative(PROJECT_ROOT, p);
	if (!rel.startsWith("..") && !path.isAbsolute(rel)) {
		const file = rel.replace(/^dist\//, "");
		return { file, pkg: `project ${file.split("/").slice(0, file.startsWith("services/") || file.startsWith("lib/") ? 2 : 1).join("/").replace(/\.js$/, "")}` };
	}
	return { file: path.basename(p), pkg: "(other)" };
}

function add(map: Map<string, number>, key: string, ms: number): void {
	map.set(key, (map.get(key) ?? 0) + ms);
}

function top(map: Map<string, number>, n: number): Share[] {
	return [...map.entries()]
		.map(([name, ms]) => ({ name, ms }))
		.sort((a, b) => b.ms - a.ms)
		.slice(0, n);
}

export function summarizeProfile(profile: CpuProfile, n: number): ProfileSummary {
	const byId = new Map(profile.nodes.map(node => [node.id, node]));
	// Self time per node: each sample lasts until the next one (DevTools counts the same way).
	const self = new Map<number, number>();
	const samples = profile.samples ?? [];
	const deltas = profile.timeDeltas ?? [];
	const wallUs = profile.endTime - profile.startTime;
	if (samples.length) {
		const mean = wallUs / samples.length;
		samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i + 1] ?? mean)));
	} else {
		const hits = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
		for (const node of profile.nodes) self.set(node.id, ((node.hitCount ?? 0) * wallUs) / Math.max(1, hits));
	}
	const fns = new Map<string, number>();
	const files = new Map<string, number>();
	const pkgs = new Map<string, number>();
	let idleMs = 0;
	for (const [id, us] of self) {
		const frame = byId.get(id)?.callFrame;
		if (!frame) continue;
		const ms = us / 1000;
		if (frame.functionName === "(idle)") {
			idleMs += ms;
			continue;
		}
		if (PSEUDO.has(frame.functionName)) {
			for (const m of [fns, files, pkgs]) add(m, frame.functionName, ms);
			continue;
		}
		const where = place(frame.url);
		add(fns, `${frame.functionName || "(anonymous)"}  ${where.file}${frame.url ? `:${frame.lineNumber + 1}` : ""}`, ms);
		add(files, where.file, ms);
		add(pkgs, where.pkg, ms);
	}
	const wallMs = wallUs / 1000;
	return { wallMs, idleMs, busyMs: wallMs - idleMs, byFunction: top(fns, n), byFile: top(files, n), byPackage: top(pkgs, n) };
}

export function formatProfileSummary(label: string, s: ProfileSummary): string {
	const pct = (ms: number) => `${((ms / s.busyMs) * 100).toFixed(1)}%`;
	const table = (title: string, shares: Share[]) => formatTable([[title, "self", "of busy"], ...shares.map(x => [x.name, fmtMs(x.ms), pct(x.ms)])]);
	return [
		`${label}: ${fmtMs(s.wallMs)} profiled, ${fmtMs(s.busyMs)} busy, ${fmtMs(s.idleMs)} idle`,
		"",
		table("by package", s.byPackage),
		"",
		table("by file", s.byFile),
		"",
		table("by function", s.byFunction)
	].join("\n");
}

function summarizeFiles(files: string[], n: number): string {
	return files.map(f => formatProfileSummary(path.basename(f), summarizeProfile(JSON.parse(readFileSync(f, "utf8")) as CpuProfile, n))).join("\n\n");
}

const LOADS = ["accept", "get"] as const;

/**
 * The project under the load, profiled: one process, the same one the accept or
 * gateway benchmark starts. The profile covers start-up and warm-up too; under
 * load they are a small part of it.
 */
async function profileLoad(load: (typeof LOADS)[number], n: number): Promise<string> {
	const keep = process.env.BENCH_CPU_PROF_DIR?.trim();
	const dir = keep ? path.resolve(keep) : await makeTempDir("bench-cpuprof-");
	// profileArgs() reads it when the child starts.
	process.env.BENCH_CPU_PROF_DIR = dir;
	const before = new Set(readdirSync(dir));
	try {
		const settings = benchSettings();
		let result: LoadResult;
		let what: string;
		if (load === "accept") {
			result = (await measureAcceptPlatform(settings, requestBody("NORMAL"))).load;
			what = "POST /notifications (api services, no dispatcher)";
		} else {
			result = await measurePlatform(settings);
			what = "authenticated GET /actors/{id} (every service)";
		}
		const written = readdirSync(dir).filter(f => f.endsWith(".cpuprofile") && !before.has(f));
		if (written.length === 0) throw new Error("The project wrote no CPU profile (did it exit cleanly on SIGTERM?)");
		return [
			`${what}: ${settings.durationSec} s at ${settings.connections} connections after a ${settings.warmupSec} s warm-up, under --cpu-prof`,
			formatLoadTable([["project, profiled", result]]),
			`(${fmtInt(result.total)} requests; profiling slows the process, so these numbers are not comparable with the others)`,
			"",
			summarizeFiles(
				written.map(f => path.join(dir, f)),
				n
			),
			...(keep ? ["", `profiles kept in BENCH_CPU_PROF_DIR: ${written.join(", ")}`] : [])
		].join("\n");
	} finally {
		if (!keep) {
			removeTempDir(dir);
			delete process.env.BENCH_CPU_PROF_DIR;
		}
	}
}

/** `profile`, `profile get`, or `profile a.cpuprofile b.cpuprofile`. */
export async function runProfile(args: string[]): Promise<string> {
	const n = envInt("BENCH_PROFILE_TOP", 20, 1);
	const files = args.filter(a => a.endsWith(".cpuprofile"));
	if (files.length) return summarizeFiles(files, n);
	const load = args[0] ?? "accept";
	if (!(LOADS as readonly string[]).includes(load)) throw new Error(`profile: unknown load "${load}" (known: ${LOADS.join(", ")}, or .cpuprofile files)`);
	return profileLoad(load as (typeof LOADS)[number], n);
}
