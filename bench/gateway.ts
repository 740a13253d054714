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
	HOST,
	benchSettings,
	describeMachine,
	fmtInt,
	fmtMs,
	formatTable,
	freePort,
	isClean,
	makeTempDir,
	removeTempDir,
	runLoad,
	startChild,
	type BenchSettings,
	type LoadResult
} from "./lib";

export const GOAL_RATIO = 0.5;

/** The platform's entry, relative to this file once compiled (dist/bench/gateway.js). */
const PLATFORM_ENTRY = path.resolve(__dirname, "..", "index.js");
const PROJECT_ROOT = path.resolve(__dirname, "..", "..");

/**
 * Settings that would turn the single process into one node of a cluster or point
 * it at outside infrastructure; the figure here is for one self-contained process.
 */
const CLUSTER_ENV = /^(SERVICES|NATS_URL|NAMESPACE|NODE_ID|REDIS_URL|MONGODB_URL|IDP_.*|NODE_OPTIONS)$/;

/**
 * The bare server: node:http and nothing else, one fixed JSON body. It runs in
 * its own process, like the platform, so both share the machine with the load
 * generator in the same way.
 */
const BARE_SERVER = `
const http = require("node:http");
const body = Buffer.from(process.env.BENCH_BODY, "utf8");
http.createServer((req, res) => {
	res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.length });
	res.end(body);
}).listen(Number(process.env.PORT), process.env.HOST);
`;

export interface GatewayBenchResult {
	settings: BenchSettings;
	bare: LoadResult;
	platform: LoadResult;
	/** platform req/s divided by bare req/s. */
	ratio: number;
	/** Why the numbers cannot be trusted; empty when every response was as expected. */
	problems: string[];
}

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!CLUSTER_ENV.test(k)) env[k] = v;
	return { ...env, ...extra };
}

/** Shaped like an actor from the actors service, so both servers send bodies of about the same size. */
function sampleActorBody(): string {
	const now = new Date().toISOString();
	return JSON.stringify({
		actorId: randomUUID(),
		email: `bench-${randomUUID().slice(0, 8)}@example.com`,
		firstName: "Bench",
		lastName: "User",
		createdAt: now,
		updatedAt: now
	});
}

async function measureBare(settings: BenchSettings): Promise<LoadResult> {
	const port = await freePort();
	const body = sampleActorBody();
	const child = await startChild({
		name: "bare node:http server",
		args: ["-e", BARE_SERVER],
		env: childEnv({ PORT: String(port), HOST, BENCH_BODY: body }),
		readyUrl: `http://${HOST}:${port}/ready`,
		deadlineMs: settings.startTimeoutMs
	});
	try {
		return await runLoad({
			url: `http://${HOST}:${port}/actors/${randomUUID()}`,
			expectBody: body,
			serverPid: child.process.pid,
			...settings
		});
	} finally {
		await child.stop();
	}
}

async function expectStatus(res: Response, status: number, what: string): Promise<string> {
	const text = await res.text();
	if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${text.slice(0, 500)}`);
	return text;
}

async function measurePlatform(settings: BenchSettings): Promise<LoadResult> {
	const port = await freePort();
	const dataDir = await makeTempDir("bench-gateway-");
	const base = `http://${HOST}:${port}`;
	// A CPU profile of the platform under load, for finding out where the time goes.
	const profDir = process.env.BENCH_CPU_PROF_DIR?.trim();
	const child = await startChild({
		name: "platform",
		args: [...(profDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profDir)}`] : []), PLATFORM_ENTRY],
		cwd: PROJECT_ROOT,
		env: childEnv({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn" }),
		readyUrl: `${base}/health/ready`,
		deadlineMs: settings.startTimeoutMs
	});
	try {
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
		const url = `${base}/actors/${registered.actorId}`;
		const headers = { Authorization: `Bearer ${registered.accessToken}` };
		// Every measured response must equal this one; a 200 with another body would
		// mean the benchmark measures something else than it claims.
		const body = await expectStatus(await fetch(url, { headers }), 200, `GET /actors/${registered.actorId}`);
		return await runLoad({ url, headers, expectBody: body, serverPid: child.process.pid, ...settings });
	} catch (err) {
		const out = child.output().trim();
		if (out) (err as Error).message += `\n--- platform output (tail) ---\n${out}\n---`;
		throw err;
	} finally {
		await child.stop();
		removeTempDir(dataDir);
	}
}

function problemsOf(label: string, r: LoadResult): string[] {
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

export async function benchGateway(settings: BenchSettings = benchSettings()): Promise<GatewayBenchResult> {
	const bare = await measureBare(settings);
	const platform = await measurePlatform(settings);
	const problems = [...problemsOf("bare", bare), ...problemsOf("platform", platform)];
	if (!isClean(bare) || !isClean(platform)) problems.push("THE NUMBERS ABOVE ARE MEANINGLESS: not every request got the expected 2xx response.");
	return { settings, bare, platform, ratio: platform.reqPerSec / bare.reqPerSec, problems };
}

export function formatGatewayResult(r: GatewayBenchResult): string {
	const row = (label: string, l: LoadResult) => [
		label,
		fmtInt(l.reqPerSec),
		fmtMs(l.p50Ms),
		fmtMs(l.p99Ms),
		Number.isFinite(l.serverCpuUsPerReq) ? `${l.serverCpuUsPerReq.toFixed(1)} us` : "-",
		fmtInt(l.total),
		fmtInt(l.non2xx),
		fmtInt(l.errors + l.mismatches)
	];
	const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : "-");
	const verdict = r.ratio >= GOAL_RATIO ? "meets the goal" : "below the goal";
	const s = r.settings;
	return [
		`Authenticated GET /actors/{id}: ${s.durationSec} s at ${s.connections} connections after a ${s.warmupSec} s warm-up`,
		describeMachine(),
		"",
		formatTable([
			["", "req/s", "p50", "p99", "server CPU/req", "requests", "non-2xx", "errors"],
			row("bare node:http", r.bare),
			row("platform (1 process)", r.platform)
		]),
		"",
		`ratio platform/bare: ${pct(r.ratio)}  (goal: >= ${pct(GOAL_RATIO)}, ${verdict})`,
		// The servers' own cost, apart from the load generator that shares their CPUs.
		`server CPU per request, bare/platform: ${pct(r.bare.serverCpuUsPerReq / r.platform.serverCpuUsPerReq)}`,
		...(r.problems.length ? ["", ...r.problems.map(p => `!!! ${p}`)] : [])
	].join("\n");
}
