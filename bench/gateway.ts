/**
 * Authenticated GET /actors/{id} through the gateway against a bare node:http
 * server answering the same kind of body, in the same run and on the same
 * machine, so the ratio says what the platform costs per request. The goal in
 * the issue (platform at least 50% of bare) is printed next to the ratio; it is
 * never enforced, because timings depend on the machine.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import {
	formatLoadTable,
	HOST,
	PLATFORM_ENTRY,
	PROJECT_ROOT,
	benchSettings,
	childEnv,
	describeMachine,
	envInt,
	expectStatus,
	freePort,
	isClean,
	makeTempDir,
	measureBare,
	problemsOf,
	profileArgs,
	registerUser,
	removeTempDir,
	runLoad,
	startChild,
	startPlatform,
	withOutput,
	type BenchSettings,
	type Child,
	type LoadOptions,
	type LoadResult,
	type Platform
} from "./lib";
import { sampleActor } from "./workload";
import { DEFAULT_NATS_URL } from "../harness/cluster";

export const GOAL_RATIO = 0.5;
/** Issue 37: the per-request session check may cost at most this share of authenticated GET throughput against today. */
export const SESSION_CHECK_MAX_COST = 0.03;

/**
 * BENCH_BASELINE_ROOT: another checkout, built (`npm ci && npm run build`), e.g. a
 * worktree of the commit before the sid deny list. The same GET then runs against it
 * and against this build in alternating rounds (BENCH_ROUNDS, 3 by default), each in a
 * fresh process, and the medians are compared: what this build costs per request
 * against that one, measured in the same minutes.
 */
export function baselineSettings(): { root: string; rounds: number } | null {
	const root = process.env.BENCH_BASELINE_ROOT?.trim();
	if (!root) return null;
	return { root: path.resolve(root), rounds: envInt("BENCH_ROUNDS", 3, 1) };
}

export interface BaselineRounds {
	root: string;
	/** Per round: this build, then the baseline (or the other way round on odd rounds). */
	current: LoadResult[];
	baseline: LoadResult[];
}

export interface GatewayBenchResult {
	settings: BenchSettings;
	bare: LoadResult;
	platform: LoadResult;
	/** The same request with actors on another node over NATS. */
	split: LoadResult;
	/** With BENCH_BASELINE_ROOT: this build against that one, round by round. */
	baseline: BaselineRounds | null;
	/** platform req/s divided by bare req/s. */
	ratio: number;
	/** Why the numbers cannot be trusted; empty when every response was as expected. */
	problems: string[];
}

/**
 * The platform in one process with a registered user: the authenticated GET of its
 * own profile, with the first answer every later one must equal (a 200 with another
 * body would mean the benchmark measures something else than it claims).
 */
export async function startProfileReader(settings: BenchSettings, root?: string): Promise<{ platform: Platform; load: Pick<LoadOptions, "url" | "headers" | "expectBody" | "serverPid"> }> {
	const platform = await startPlatform(settings, root ? "gateway-baseline" : "gateway", {}, { root });
	try {
		const registered = await registerUser(platform.base);
		const url = `${platform.base}/actors/${registered.actorId}`;
		const headers = { Authorization: `Bearer ${registered.accessToken}` };
		const body = await expectStatus(await fetch(url, { headers }), 200, `GET /actors/${registered.actorId}`);
		return { platform, load: { url, headers, expectBody: body, serverPid: platform.child.process.pid } };
	} catch (err) {
		await platform.close();
		throw withOutput(err, platform.child);
	}
}

export async function measurePlatform(settings: BenchSettings, root?: string): Promise<LoadResult> {
	const { platform, load } = await startProfileReader(settings, root);
	try {
		return await runLoad({ ...load, ...settings });
	} catch (err) {
		throw withOutput(err, platform.child);
	} finally {
		await platform.close();
	}
}

/**
 * The same request with the actors service on another node: the gateway (with auth)
 * in one process, actors in another, over NATS. What a call across nodes costs.
 */
async function measureSplit(settings: BenchSettings): Promise<LoadResult> {
	const port = await freePort();
	const dataDir = await makeTempDir("bench-gateway-split-");
	const base = `http://${HOST}:${port}`;
	const env = childEnv({ DATA_DIR: dataDir, LOG_LEVEL: "warn", NATS_URL: BENCH_NATS_URL, NAMESPACE: `bench-split-${process.pid}-${Date.now().toString(36)}`, PUBLIC_URL: base });
	const children: Child[] = [];
	try {
		children.push(
			await startChild({
				name: "gateway node",
				args: [...profileArgs(), PLATFORM_ENTRY],
				cwd: PROJECT_ROOT,
				env: { ...env, SERVICES: "api-gateway,auth", PORT: String(port), NODE_ID: "gateway" },
				readyUrl: `${base}/health/ready`,
				deadlineMs: settings.startTimeoutMs
			})
		);
		children.push(
			await startChild({
				name: "actors node",
				args: [...profileArgs(), PLATFORM_ENTRY],
				cwd: PROJECT_ROOT,
				env: { ...env, SERVICES: "actors", NODE_ID: "actors" },
				// Until the gateway knows the actors node it answers 503; then 401 (the token check comes after).
				ready: async () => (await fetch(`${base}/actors/${randomUUID()}`)).status === 401,
				deadlineMs: settings.startTimeoutMs
			})
		);
		const registered = await registerUser(base);
		const url = `${base}/actors/${registered.actorId}`;
		const headers = { Authorization: `Bearer ${registered.accessToken}` };
		const body = await expectStatus(await fetch(url, { headers }), 200, `GET /actors/${registered.actorId} across nodes`);
		return await runLoad({ url, headers, expectBody: body, serverPid: children[0].process.pid, ...settings });
	} catch (err) {
		throw children.length ? withOutput(err, children[children.length - 1]) : err;
	} finally {
		for (const c of children.reverse()) await c.stop();
		removeTempDir(dataDir);
	}
}

const BENCH_NATS_URL = process.env.BENCH_NATS_URL?.trim() || DEFAULT_NATS_URL;

export async function benchGateway(settings: BenchSettings = benchSettings()): Promise<GatewayBenchResult> {
	const bare = await measureBare(settings, { status: 200, responseBody: JSON.stringify(sampleActor()), path: `/actors/${randomUUID()}` });
	const platform = await measurePlatform(settings);
	const split = await measureSplit(settings);
	const b = baselineSettings();
	let baseline: BaselineRounds | null = null;
	if (b) {
		baseline = { root: b.root, current: [], baseline: [] };
		for (let round = 0; round < b.rounds; round++) {
			const sides = [() => measurePlatform(settings).then(x => baseline!.current.push(x)), () => measurePlatform(settings, b.root).then(x => baseline!.baseline.push(x))];
			for (const side of round % 2 === 0 ? sides : sides.reverse()) await side();
		}
	}
	const runs = [bare, platform, split, ...(baseline ? [...baseline.current, ...baseline.baseline] : [])];
	const problems = [...problemsOf("bare", bare), ...problemsOf("platform", platform), ...problemsOf("split", split)];
	if (baseline) baseline.baseline.forEach((x, i) => problems.push(...problemsOf(`baseline, round ${i + 1}`, x)));
	if (!runs.every(isClean)) problems.push("THE NUMBERS ABOVE ARE MEANINGLESS: not every request got the expected 2xx response.");
	return { settings, bare, platform, split, baseline, ratio: platform.reqPerSec / bare.reqPerSec, problems };
}

const medianOf = (xs: number[]) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function baselineLines(b: BaselineRounds): string[] {
	const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
	const rps = medianOf(b.current.map(x => x.reqPerSec)) / medianOf(b.baseline.map(x => x.reqPerSec));
	const cpu = medianOf(b.baseline.map(x => x.serverCpuUsPerReq)) / medianOf(b.current.map(x => x.serverCpuUsPerReq));
	const goal = 1 - SESSION_CHECK_MAX_COST;
	return [
		"",
		`against the baseline build at ${b.root}, ${b.current.length} alternating round(s), a fresh process each:`,
		formatLoadTable([...b.current.map((x, i) => [`this build, round ${i + 1}`, x] as [string, LoadResult]), ...b.baseline.map((x, i) => [`baseline, round ${i + 1}`, x] as [string, LoadResult])]),
		`this build / baseline, medians: req/s ${pct(rps)}, server CPU per request (baseline/this) ${pct(cpu)}  (goal, issue 37: >= ${pct(goal)}: ${rps >= goal ? "met" : "NOT met"})`
	];
}

export function formatGatewayResult(r: GatewayBenchResult): string {
	const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : "-");
	const verdict = r.ratio >= GOAL_RATIO ? "meets the goal" : "below the goal";
	const s = r.settings;
	return [
		`Authenticated GET /actors/{id}: ${s.durationSec} s at ${s.connections} connections after a ${s.warmupSec} s warm-up`,
		describeMachine(),
		"",
		formatLoadTable([
			["bare node:http", r.bare],
			["platform (1 process)", r.platform],
			["platform, actors on another node", r.split]
		]),
		"",
		`ratio platform/bare: ${pct(r.ratio)}  (goal: >= ${pct(GOAL_RATIO)}, ${verdict})`,
		`across nodes / one process: ${pct(r.split.reqPerSec / r.platform.reqPerSec)}  (the gateway node's CPU per request is the column above)`,
		// The servers' own cost, apart from the load generator that shares their CPUs.
		`server CPU per request, bare/platform: ${pct(r.bare.serverCpuUsPerReq / r.platform.serverCpuUsPerReq)}`,
		...(r.baseline ? baselineLines(r.baseline) : []),
		...(r.problems.length ? ["", ...r.problems.map(p => `!!! ${p}`)] : [])
	].join("\n");
}
