/**
 * Sign-in and refresh per core (issue 39): the platform in one process (every service,
 * the default configuration) pinned with all its threads to one CPU (`taskset -a -c`),
 * the load generator on the other ones. Printed beside Keycloak's published sizing
 * (https://www.keycloak.org/high-availability/concepts-memory-and-cpu-sizing: 15 password
 * sign-ins and 120 refresh-token grants per second per vCPU).
 *  - POST /auth/login closed loop: each sign-in hashes the password once (scrypt,
 *    lib/idp/password.ts); the hash's own limit on that core is measured in a child
 *    pinned the same way, and the share of the server's time spent outside hashing is
 *    1 - sign-ins/s × the time of one hash.
 *  - POST /auth/tokens/refresh closed loop: refresh tokens rotate, so every connection
 *    keeps its own session and presents the token it was last given.
 * The rate limits are turned off for the run (RATE_LIMIT_*=0): they bound an attacker, not this.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { describeMachine, envInt, envIntQuick, expectStatus, fmtInt, formatTable, startPlatform, type BenchSettings } from "./lib";

export const KEYCLOAK_SIGNIN_PER_VCPU = 15;
export const KEYCLOAK_REFRESH_PER_VCPU = 120;
export const GOAL_REFRESH_PER_CORE = 1200;
export const GOAL_OUTSIDE_HASH = 0.1;

export interface AuthSettings {
	load: BenchSettings;
	/** The CPU the server is pinned to. */
	cpu: number;
	durationSec: number;
	connections: number;
}

export function authSettings(load: BenchSettings): AuthSettings {
	return {
		load,
		cpu: envInt("BENCH_AUTH_CPU", 0, 0),
		durationSec: envIntQuick("BENCH_AUTH_SEC", 10, 3, 1),
		connections: envInt("BENCH_AUTH_CONNECTIONS", 16, 1)
	};
}

export interface AuthResult {
	settings: AuthSettings;
	hashParams: string;
	/** scrypt hashes per second, one at a time, on the pinned CPU. */
	hashPerSec: number;
	signInPerSec: number;
	refreshPerSec: number;
	problems: string[];
}

const NO_LIMITS = {
	RATE_LIMIT_LOGIN_PER_IP: "0",
	RATE_LIMIT_LOGIN_PER_USER: "0",
	RATE_LIMIT_REGISTER_PER_IP: "0",
	RATE_LIMIT_REGISTER_PER_USER: "0",
	RATE_LIMIT_REFRESH_PER_IP: "0"
};

/** The hash the platform uses, timed in a child pinned like the server: `hashPassword` once to learn its parameters, then verifies in a loop. */
function measureHash(cpu: number, seconds: number): { perSec: number; params: string } {
	const script = `
const { hashPassword, verifyPassword } = require(${JSON.stringify(require.resolve("../lib/idp/password"))});
(async () => {
	const h = await hashPassword("Bench-Passw0rd");
	await verifyPassword("Bench-Passw0rd", h);
	let n = 0; const t0 = performance.now();
	while (performance.now() - t0 < ${seconds * 1000}) { await verifyPassword("Bench-Passw0rd", h); n++; }
	console.log(JSON.stringify({ perSec: n / ((performance.now() - t0) / 1000), params: h.split("$").slice(0, 4).join("$") }));
})();`;
	const out = execFileSync("taskset", ["-c", String(cpu), process.execPath, "-e", script], { encoding: "utf8" });
	return JSON.parse(out.trim().split("\n").pop()!) as { perSec: number; params: string };
}

function pin(pid: number, cpu: number): void {
	const r = spawnSync("taskset", ["-a", "-p", "-c", String(cpu), String(pid)], { encoding: "utf8" });
	if (r.status !== 0) throw new Error(`taskset could not pin the platform to CPU ${cpu}: ${r.stderr}`);
}

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
	const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
	const text = await res.text();
	return { status: res.status, json: res.status < 300 ? (JSON.parse(text) as Record<string, unknown>) : { error: text.slice(0, 200) } };
}

/** `connections` loops for `seconds`; each call returns false on a wrong answer. */
async function closedLoop(connections: number, seconds: number, step: (i: number) => Promise<boolean>): Promise<{ perSec: number; bad: number }> {
	let ok = 0;
	let bad = 0;
	const t0 = performance.now();
	const end = t0 + seconds * 1000;
	await Promise.all(
		Array.from({ length: connections }, async (_, i) => {
			while (performance.now() < end) (await step(i)) ? ok++ : bad++;
		})
	);
	return { perSec: ok / ((performance.now() - t0) / 1000), bad };
}

export async function benchAuth(s: AuthSettings): Promise<AuthResult> {
	if (s.cpu >= cpus().length) throw new Error(`BENCH_AUTH_CPU=${s.cpu}, but this machine has ${cpus().length} CPU(s)`);
	const problems: string[] = [];
	const hash = measureHash(s.cpu, Math.max(2, Math.min(5, s.durationSec)));
	const platform = await startPlatform(s.load, "auth", NO_LIMITS);
	try {
		pin(platform.child.process.pid!, s.cpu);
		const email = `auth-bench-${Date.now()}@example.com`;
		const password = "Bench-Passw0rd-1";
		await expectStatus(
			await fetch(`${platform.base}/auth/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password, firstName: "Bench", lastName: "User" }) }),
			201,
			"POST /auth/register"
		);
		const login = `${platform.base}/auth/login`;
		const signIn = async () => {
			const r = await post(login, { username: email, password });
			return r.status === 200 && typeof r.json.refreshToken === "string" ? String(r.json.refreshToken) : undefined;
		};
		// A short warm-up, uncounted; then the measured sign-ins.
		await closedLoop(s.connections, 1, async () => (await signIn()) !== undefined);
		const signIns = await closedLoop(s.connections, s.durationSec, async () => (await signIn()) !== undefined);
		if (signIns.bad) problems.push(`sign-in: ${fmtInt(signIns.bad)} answers were not 200 with tokens`);

		// One session per connection, each presenting the token it was last given.
		const tokens: string[] = [];
		for (let i = 0; i < s.connections; i++) {
			const t = await signIn();
			if (!t) throw new Error("POST /auth/login answered without a refreshToken");
			tokens.push(t);
		}
		const refresh = `${platform.base}/auth/tokens/refresh`;
		const step = async (i: number) => {
			const r = await post(refresh, { refreshToken: tokens[i] });
			if (r.status !== 200 || typeof r.json.refreshToken !== "string") return false;
			tokens[i] = r.json.refreshToken;
			return true;
		};
		await closedLoop(s.connections, 1, step);
		const refreshes = await closedLoop(s.connections, s.durationSec, step);
		if (refreshes.bad) problems.push(`refresh: ${fmtInt(refreshes.bad)} answers were not 200 with a new refresh token`);
		return { settings: s, hashParams: hash.params, hashPerSec: hash.perSec, signInPerSec: signIns.perSec, refreshPerSec: refreshes.perSec, problems };
	} finally {
		await platform.close();
	}
}

export function formatAuthResult(r: AuthResult): string {
	const s = r.settings;
	const outside = 1 - r.signInPerSec / r.hashPerSec;
	const [, n, rr, p] = r.hashParams.split("$");
	const rows = [
		["measure (server on 1 core)", "project", "Keycloak per vCPU", "project/Keycloak", "goal", "result"],
		["password sign-in, /s", r.signInPerSec.toFixed(1), String(KEYCLOAK_SIGNIN_PER_VCPU), (r.signInPerSec / KEYCLOAK_SIGNIN_PER_VCPU).toFixed(1), "the hash's own limit", "-"],
		["  the hash alone on that core, /s", r.hashPerSec.toFixed(1), "-", "-", "reference", "-"],
		["  share of sign-in time outside the hash", `${(outside * 100).toFixed(1)} %`, "-", "-", `< ${GOAL_OUTSIDE_HASH * 100} %`, outside < GOAL_OUTSIDE_HASH ? "met" : "NOT met"],
		["refresh, /s", fmtInt(r.refreshPerSec), String(KEYCLOAK_REFRESH_PER_VCPU), (r.refreshPerSec / KEYCLOAK_REFRESH_PER_VCPU).toFixed(1), `>= ${fmtInt(GOAL_REFRESH_PER_CORE)}`, r.refreshPerSec >= GOAL_REFRESH_PER_CORE ? "met" : "NOT met"]
	];
	return [
		describeMachine(),
		`auth per core: the platform (one process, default configuration) pinned to CPU ${s.cpu} with all its threads (taskset -a), the load generator unpinned; ${s.connections} connections, ${s.durationSec} s per measure after 1 s of warm-up, rate limits off`,
		`password hash: scrypt N=${n}, r=${rr}, p=${p}, 16-byte salt, 32-byte key (lib/idp/password.ts; OWASP's minimum for scrypt lists N=2^14, r=8, p=5 beside N=2^17, r=8, p=1)`,
		"Keycloak: https://www.keycloak.org/high-availability/concepts-memory-and-cpu-sizing (15 password sign-ins and 120 refresh grants per vCPU per second)",
		"",
		formatTable(rows),
		...r.problems.map(p => `!!! ${p}`)
	].join("\n");
}
