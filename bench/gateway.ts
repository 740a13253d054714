/**
 * Authenticated GET /actors/{id} through the gateway against a bare node:http
 * server answering the same kind of body, in the same run and on the same
 * machine, so the ratio says what the platform costs per request. The goal in
 * the issue (platform at least 50% of bare) is printed next to the ratio; it is
 * never enforced, because timings depend on the machine.
 */
import { randomUUID } from "node:crypto";
import {
	formatLoadTable,
	HOST,
	PLATFORM_ENTRY,
	PROJECT_ROOT,
	benchSettings,
	childEnv,
	describeMachine,
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

export interface GatewayBenchResult {
	settings: BenchSettings;
	bare: LoadResult;
	platform: LoadResult;
	/** The same request with actors on another node over NATS. */
	split: LoadResult;
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
/** `root`: another built checkout to run instead of this one (compare's baseline, BENCH_BASELINE_ROOT). */
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

export async function measurePlatform(settings: BenchSettings): Promise<LoadResult> {
	const { platform, load } = await startProfileReader(settings);
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
	const problems = [...problemsOf("bare", bare), ...problemsOf("platform", platform), ...problemsOf("split", split)];
	if (!isClean(bare) || !isClean(platform) || !isClean(split)) problems.push("THE NUMBERS ABOVE ARE MEANINGLESS: not every request got the expected 2xx response.");
	return { settings, bare, platform, split, ratio: platform.reqPerSec / bare.reqPerSec, problems };
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
		...(r.problems.length ? ["", ...r.problems.map(p => `!!! ${p}`)] : [])
	].join("\n");
}
