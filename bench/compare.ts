/**
 * The project next to what a team would build instead of it, and next to the floor
 * of the framework it stands on, in one run on one machine, one process each:
 *  - POST /notifications accepted: the project (api services, no dispatcher) against
 *    fastify + BullMQ on a private Redis with `appendfsync always` (worker off), and
 *    the RSS of each under that load;
 *  - accepted → .eml written, end to end: the project in one process (every service,
 *    dispatcher included) against fastify with a BullMQ worker in the same process,
 *    both writing one .eml per message through the project's file provider;
 *  - mixed (issue 39): accepting and delivering at once, as users run it: the project in
 *    one process with the default configuration (file outbox) against fastify with its
 *    BullMQ worker in the same process, each under the same closed-loop POST load for
 *    BENCH_DURATION s; the accept rate, the accepted → written rate (until the last of
 *    them is written) and that every accepted notification was written once;
 *  - authenticated GET /actors/{id}: the project against fastify + jose (verified
 *    once, cached) + node:sqlite, the moleculer-web floor and bare node:http.
 * Sides alternate (A/B, then B/A next round, so a drifting machine favours neither)
 * under the same autocannon settings; each figure is the median of the rounds and each
 * ratio the median of the rounds' own ratios (pairedRatio). In the
 * accept and GET parts the sides of a round all run at once and take the load in
 * turns of a few seconds (bench/lib.ts runInterleaved): on a shared VM a server's
 * speed drifts by a third within a minute, more than the differences measured, so
 * runs of 12 s one after the other each met another machine. Only
 * the ratios mean something, since the load generator shares the machine.
 * Goals are printed next to the ratios and never enforced; a broken run (a wrong
 * answer, a message lost or written twice) fails.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { Queue } from "bullmq";
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair } from "jose";
import { loadConfig } from "../lib/config";
import {
	HOST,
	PROJECT_ROOT,
	benchSettings,
	childEnv,
	describeMachine,
	envInt,
	envIntQuick,
	envParts,
	expectStatus,
	fmtInt,
	fmtMb,
	fmtMs,
	formatLoadTable,
	formatTable,
	freePort,
	makeTempDir,
	median,
	runInterleaved,
	startBare,
	problemsOf,
	profileArgs,
	removeTempDir,
	removeTempDirAtExit,
	serviceSender,
	runLoad,
	startChild,
	startPlatform,
	withOutput,
	type BenchSettings,
	type Child,
	type LoadOptions,
	type LoadResult
} from "./lib";
import { startProfileReader } from "./gateway";
import { cpuSum, describeShortfall, e2eLoad, outboxCount, startAcceptPlatform, storedNotifications, storedProblems, waitUntil, warmUpDrained } from "./notifications";
import { PEER_ALG, PEER_CLIENT_ID, PEER_ISSUER, PEER_QUEUE, floorEnv, peerEnv } from "./peers/common";
import { redisServerVersion, startPrivateRedis, type PrivateRedis } from "./redis";
import { isAccepted, isActorBody, jsonHeaders, requestBody, sampleActor, type ActorBody } from "./workload";

export const GOAL_ACCEPT = 1.0;
export const STRETCH_ACCEPT = 1.5;
export const GOAL_E2E = 1.0;
/** Issue 39: the memory settings may cost the mixed load at most this share of its throughput. */
export const MEMORY_SETTINGS_MAX_COST = 0.05;
export const STRETCH_GET = 0.85;
export const GOAL_FLOOR = 0.9;
/** Issue 37: the per-request session check may cost at most this share of the authenticated GET against the build before it. */
export const SESSION_CHECK_MAX_COST = 0.03;

const PARTS = ["accept", "get", "e2e", "mixed"] as const;
type Part = (typeof PARTS)[number];

const PEER_ENTRY = path.join(__dirname, "peers", "fastify-api.js");
export const FLOOR_ENTRY = path.join(__dirname, "peers", "moleculer-floor.js");
/** Long enough for any run; the project's own tokens are fresh for every process. */
const PEER_TOKEN_TTL_SEC = 12 * 3600;

export interface CompareSettings {
	load: BenchSettings;
	parts: Part[];
	rounds: number;
	/** Accept and GET: seconds of load a server gets before the load moves to the next (runInterleaved). */
	sliceSec: number;
	/** Seconds of uncounted load at the start of each slice. */
	sliceWarmupSec: number;
	e2eCount: number;
	e2eWarmup: number;
	stallMs: number;
	/** Jobs the peer's worker runs at a time: as many as a project dispatcher sends. */
	concurrency: number;
	/** BENCH_BASELINE_ROOT: another build of the project the GET part also measures (issue 37's "against today"). */
	baselineRoot?: string;
	mailFrom: string;
}

export function compareSettings(load: BenchSettings = benchSettings()): CompareSettings {
	const notifications = loadConfig(childEnv({})).notifications;
	return {
		load,
		parts: envParts("BENCH_COMPARE_PARTS", PARTS),
		// Another built checkout (`npm ci && npm run build` there), e.g. a worktree of an earlier commit: the GET part measures it beside this one.
		baselineRoot: process.env.BENCH_BASELINE_ROOT?.trim() ? path.resolve(process.env.BENCH_BASELINE_ROOT.trim()) : undefined,
		rounds: envIntQuick("BENCH_ROUNDS", 3, 1, 1),
		sliceSec: envIntQuick("BENCH_SLICE_SEC", 2, 1, 1),
		sliceWarmupSec: envIntQuick("BENCH_SLICE_WARMUP_MS", 500, 250, 0) / 1000,
		e2eCount: envIntQuick("BENCH_E2E_COUNT", 20000, 1000, 1),
		e2eWarmup: envIntQuick("BENCH_E2E_WARMUP", 1000, 100, 0),
		stallMs: envInt("BENCH_STALL_SEC", 30, 1) * 1000,
		concurrency: notifications.concurrency,
		mailFrom: notifications.fromEmail
	};
}

// ---- the peer's identity: a signing key and one access token shaped like the project's

export interface PeerIdentity {
	publicJwk: string;
	token: string;
	/** The actor the token belongs to; the peer stores it, the floor and bare answer it. */
	actor: ActorBody;
}

export async function peerIdentity(): Promise<PeerIdentity> {
	const { publicKey, privateKey } = await generateKeyPair(PEER_ALG, { crv: "Ed25519", extractable: true });
	const jwk = await exportJWK(publicKey);
	const kid = await calculateJwkThumbprint(jwk);
	const actor = sampleActor();
	const now = Math.floor(Date.now() / 1000);
	const token = await new SignJWT({ client_id: PEER_CLIENT_ID, token_use: "access", scope: "openid email profile", auth_time: now, username: actor.email })
		.setProtectedHeader({ alg: PEER_ALG, kid, typ: "JWT" })
		.setSubject(actor.actorId)
		.setIssuer(PEER_ISSUER)
		.setIssuedAt(now)
		.setExpirationTime(now + PEER_TOKEN_TTL_SEC)
		.setJti(randomUUID())
		.sign(privateKey);
	return { publicJwk: JSON.stringify({ ...jwk, kid, alg: PEER_ALG }), token, actor };
}

// ---- processes

interface RunningPeer {
	base: string;
	dataDir: string;
	child: Child;
	redis: PrivateRedis;
	/** Stops the peer, then its Redis, and removes both their dirs. */
	close(): Promise<void>;
}

export function requireEntry(entry: string): void {
	if (!existsSync(entry)) throw new Error(`${entry} is missing: run "npm run build" first (npm run bench does)`);
}

/** A fresh peer on a fresh private Redis, as the project gets a fresh DATA_DIR every run. */
async function startPeer(s: CompareSettings, id: PeerIdentity, worker: boolean): Promise<RunningPeer> {
	requireEntry(PEER_ENTRY);
	const redis = await startPrivateRedis(s.load.startTimeoutMs);
	const dataDir = await makeTempDir("bench-peer-");
	try {
		const port = await freePort();
		const base = `http://${HOST}:${port}`;
		const env = peerEnv({
			port,
			host: HOST,
			dataDir,
			redisPort: redis.port,
			publicJwk: id.publicJwk,
			seedActor: JSON.stringify(id.actor),
			worker,
			concurrency: s.concurrency,
			mailFrom: s.mailFrom
		});
		const child = await startChild({
			name: worker ? "fastify + BullMQ peer with its worker" : "fastify + BullMQ peer",
			args: [...profileArgs(), PEER_ENTRY],
			cwd: PROJECT_ROOT,
			env: childEnv(env),
			readyUrl: `${base}/health`,
			deadlineMs: s.load.startTimeoutMs
		});
		return {
			base,
			dataDir,
			child,
			redis,
			async close() {
				await child.stop();
				await redis.stop();
				removeTempDirAtExit(dataDir);
			}
		};
	} catch (err) {
		await redis.stop();
		removeTempDir(dataDir);
		throw err;
	}
}

/** Jobs in the peer's queue not yet taken: what it accepted with its worker off. */
async function queuedJobs(redisPort: number): Promise<number> {
	const queue = new Queue(PEER_QUEUE, { connection: { host: HOST, port: redisPort } });
	try {
		return await queue.getJobCountByTypes("prioritized", "waiting");
	} finally {
		await queue.close();
	}
}

// ---- 1. POST /notifications accepted

export interface HttpSample {
	load: LoadResult;
	problems: string[];
}

/** A server ready for a load: what to send it, and how to stop it; `stored` counts what it kept, once stopped. */
interface Target {
	label: string;
	load: Omit<LoadOptions, keyof BenchSettings>;
	/** The child whose output explains a failure. */
	child?: Child;
	/** Stops the server (requests still under way land first) and counts what it stored. */
	stored?: () => Promise<number>;
	close(): Promise<void>;
}

async function acceptProjectTarget(s: CompareSettings): Promise<Target> {
	const { platform, headers } = await startAcceptPlatform(s.load);
	return {
		label: "project",
		load: { url: `${platform.base}/notifications`, method: "POST", headers, body: requestBody("NORMAL"), verifyBody: isAccepted, serverPid: platform.child.process.pid },
		child: platform.child,
		async stored() {
			await platform.child.stop();
			return storedNotifications(platform);
		},
		close: () => platform.close()
	};
}

async function acceptPeerTarget(s: CompareSettings, id: PeerIdentity): Promise<Target> {
	const peer = await startPeer(s, id, false);
	return {
		label: "peer",
		load: {
			url: `${peer.base}/notifications`,
			method: "POST",
			headers: jsonHeaders(id.token),
			body: requestBody("NORMAL"),
			verifyBody: isAccepted,
			serverPid: peer.child.process.pid,
			companionPids: [peer.redis.pid]
		},
		child: peer.child,
		async stored() {
			await peer.child.stop();
			return queuedJobs(peer.redis.port);
		},
		close: () => peer.close()
	};
}

/**
 * One round of a part: every side started, then measured in turns of BENCH_SLICE_SEC
 * (bench/lib.ts runInterleaved), the side that begins alternating from round to
 * round; then what each stored is counted and all are stopped.
 */
async function interleavedRound<K extends string>(s: CompareSettings, round: number, part: string, starts: Record<K, () => Promise<Target>>): Promise<Record<K, HttpSample>> {
	const targets: Target[] = [];
	try {
		for (const start of Object.values<() => Promise<Target>>(starts)) targets.push(await start());
		const ordered = round % 2 === 0 ? targets : [...targets].reverse();
		const loads = await runInterleaved(ordered.map(t => ({ ...t.load, ...s.load })), s.sliceSec, s.sliceWarmupSec).catch((err: unknown) => {
			throw targets.reduce((e, t) => (t.child ? withOutput(e, t.child) : e), err instanceof Error ? err : new Error(String(err)));
		});
		const slices = Math.ceil(s.load.durationSec / s.sliceSec);
		const out = {} as Record<K, HttpSample>;
		for (const [i, t] of ordered.entries()) {
			const load = loads[i]!;
			const problems = problemsOf(`${part}, ${t.label}`, load);
			// Each warm-up and each measured slice may end with requests under way.
			if (t.stored) problems.push(...storedProblems(`${part}, ${t.label}`, load, await t.stored(), s.load.connections, 1 + slices * (s.sliceWarmupSec > 0 ? 2 : 1)));
			out[t.label as K] = { load, problems };
		}
		return out;
	} finally {
		for (const t of targets.reverse()) await t.close();
	}
}

// ---- 2. authenticated GET /actors/{id}

/** The first answer must be an actor shaped as the project's; every later one must equal it. */
async function actorTarget(label: string, base: string, id: PeerIdentity, pids: number[], close: () => Promise<void>, child?: Child): Promise<Target> {
	const url = `${base}/actors/${id.actor.actorId}`;
	const headers = { Authorization: `Bearer ${id.token}` };
	const body = await expectStatus(await fetch(url, { headers }), 200, `${label}: GET /actors/${id.actor.actorId}`);
	if (!isActorBody(body)) throw new Error(`${label} answered ${body.slice(0, 300)}, not an actor shaped as the project's`);
	return { label, load: { url, headers, expectBody: body, serverPid: pids[0], companionPids: pids.slice(1) }, child, close };
}

async function projectTarget(s: CompareSettings, root?: string): Promise<Target> {
	const { platform, load } = await startProfileReader(s.load, root);
	return { label: root ? "baseline" : "project", load, child: platform.child, close: () => platform.close() };
}

async function peerTarget(s: CompareSettings, id: PeerIdentity): Promise<Target> {
	// With its worker, idle: the project's process runs its dispatcher too.
	const peer = await startPeer(s, id, true);
	try {
		return await actorTarget("peer", peer.base, id, [peer.child.process.pid!, peer.redis.pid], () => peer.close(), peer.child);
	} catch (err) {
		await peer.close();
		throw withOutput(err, peer.child);
	}
}

async function floorTarget(s: CompareSettings, id: PeerIdentity): Promise<Target> {
	requireEntry(FLOOR_ENTRY);
	const port = await freePort();
	const base = `http://${HOST}:${port}`;
	const child = await startChild({
		name: "moleculer-web floor",
		args: [...profileArgs(), FLOOR_ENTRY],
		cwd: PROJECT_ROOT,
		env: childEnv(floorEnv({ port, host: HOST, token: id.token, body: JSON.stringify(id.actor) })),
		ready: async () => {
			const res = await fetch(`${base}/actors/${id.actor.actorId}`, { headers: { Authorization: `Bearer ${id.token}` }, signal: AbortSignal.timeout(1000) });
			await res.arrayBuffer();
			return res.status === 200;
		},
		deadlineMs: s.load.startTimeoutMs
	});
	try {
		return await actorTarget("floor", base, id, [child.process.pid!], () => child.stop(), child);
	} catch (err) {
		await child.stop();
		throw withOutput(err, child);
	}
}

async function bareTarget(s: CompareSettings, id: PeerIdentity): Promise<Target> {
	const bare = await startBare(s.load, { status: 200, responseBody: JSON.stringify(id.actor) });
	try {
		return await actorTarget("bare", bare.base, id, [bare.child.process.pid!], () => bare.child.stop(), bare.child);
	} catch (err) {
		await bare.child.stop();
		throw err;
	}
}

// ---- 3. accepted → .eml written

export interface E2eSample {
	count: number;
	/** From just before the first POST to the last .eml file's write. */
	elapsedMs: number;
	perSec: number;
	/** The POSTs, answered while the messages were being written. */
	accept: LoadResult;
	/** CPU of the server (and its Redis) per notification, accept and send together. */
	cpuUsPerNotification: number;
	problems: string[];
}

interface E2eTarget {
	label: string;
	base: string;
	token: string;
	dataDir: string;
	/** The server first, then its companions. */
	pids: number[];
	stop(): Promise<void>;
}

/** The newest .eml's modification time: when the last message was written. */
function lastWriteMs(dataDir: string): number {
	const dir = path.join(dataDir, "outbox");
	if (!existsSync(dir)) return NaN;
	let last = NaN;
	for (const f of readdirSync(dir)) {
		if (!f.endsWith(".eml")) continue;
		const t = statSync(path.join(dir, f)).mtimeMs;
		if (!(t <= last)) last = t;
	}
	return last;
}

/**
 * Warm-up notifications first (drained: JIT, prepared statements, connections),
 * then e2eCount more at the bench's concurrency while the worker writes them; the
 * .eml files in DATA_DIR/outbox are what both sides are judged by.
 */
async function e2eRun(s: CompareSettings, t: E2eTarget): Promise<E2eSample> {
	const problems: string[] = [];
	const what = `end to end, ${t.label}`;
	const load = e2eLoad(t.base, t.token, s.load.connections);
	const written = async () => outboxCount(t.dataDir);
	const failed = async () => 0;
	problems.push(...(await warmUpDrained(load, s.e2eWarmup, what, written, failed, s.stallMs)));
	const target = s.e2eWarmup + s.e2eCount;
	const cpu0 = cpuSum(t.pids);
	const t0 = Date.now();
	const accept = await runLoad({ ...load, amount: s.e2eCount, serverPid: t.pids[0], companionPids: t.pids.slice(1) });
	problems.push(...problemsOf(what, accept));
	const short = describeShortfall(what, target, await waitUntil(target, written, failed, s.stallMs), s.stallMs);
	const cpu1 = cpuSum(t.pids);
	if (short) problems.push(short);
	const elapsedMs = lastWriteMs(t.dataDir) - t0;
	// Once stopped, nothing is in flight: one file per accepted notification, no more.
	await t.stop();
	const files = outboxCount(t.dataDir);
	if (files !== target) problems.push(`${what}: ${fmtInt(target)} notifications accepted, ${fmtInt(files)} .eml files written`);
	return {
		count: s.e2eCount,
		elapsedMs,
		perSec: short ? NaN : (s.e2eCount / elapsedMs) * 1000,
		accept,
		cpuUsPerNotification: (cpu1 - cpu0) / s.e2eCount,
		problems
	};
}

async function e2eProject(s: CompareSettings): Promise<E2eSample> {
	const platform = await startPlatform(s.load, "e2e-project", { EMAIL_PROVIDER: "file" });
	try {
		const token = await serviceSender(platform.base);
		const pids = [platform.child.process.pid!];
		return await e2eRun(s, { label: "project", base: platform.base, token, dataDir: platform.dataDir, pids, stop: () => platform.child.stop() });
	} catch (err) {
		throw withOutput(err, platform.child);
	} finally {
		await platform.close();
	}
}

async function e2ePeer(s: CompareSettings, id: PeerIdentity): Promise<E2eSample> {
	const peer = await startPeer(s, id, true);
	try {
		return await e2eRun(s, {
			label: "peer",
			base: peer.base,
			token: id.token,
			dataDir: peer.dataDir,
			pids: [peer.child.process.pid!, peer.redis.pid],
			stop: () => peer.child.stop()
		});
	} catch (err) {
		throw withOutput(err, peer.child);
	} finally {
		await peer.close();
	}
}

// ---- 4. mixed: accepting and delivering at once

export interface MixedSample {
	/** POST /notifications during the measured run, while the worker writes. */
	accept: LoadResult;
	/** Accepted in the measured run (2xx answers), then written. */
	accepted: number;
	/** From the first measured POST to the last .eml written. */
	elapsedMs: number;
	writtenPerSec: number;
	/** Messages left to write when the load stopped: the backlog delivery did not keep up with. */
	backlogAtEnd: number;
	cpuUsPerNotification: number;
	problems: string[];
}

/** .eml files and the distinct notifications they carry (files are named <notificationId>.<uuid>.eml). */
function outboxFiles(dataDir: string): { files: number; distinct: number } {
	const dir = path.join(dataDir, "outbox");
	if (!existsSync(dir)) return { files: 0, distinct: 0 };
	const names = readdirSync(dir).filter(f => f.endsWith(".eml"));
	return { files: names.length, distinct: new Set(names.map(f => f.split(".")[0])).size };
}

async function mixedRun(s: CompareSettings, t: E2eTarget): Promise<MixedSample> {
	const problems: string[] = [];
	const what = `mixed, ${t.label}`;
	const load = e2eLoad(t.base, t.token, s.load.connections);
	const written = async () => outboxCount(t.dataDir);
	problems.push(...(await warmUpDrained(load, s.e2eWarmup, what, written, async () => 0, s.stallMs)));
	const cpu0 = cpuSum(t.pids);
	const t0 = Date.now();
	const accept = await runLoad({ ...load, durationSec: s.load.durationSec, serverPid: t.pids[0], companionPids: t.pids.slice(1) });
	const backlogAtEnd = s.e2eWarmup + accept.total - accept.non2xx - outboxCount(t.dataDir);
	problems.push(...problemsOf(what, accept));
	const accepted = accept.total - accept.non2xx;
	const target = s.e2eWarmup + accepted;
	const short = describeShortfall(what, target, await waitUntil(target, written, async () => 0, s.stallMs), s.stallMs);
	if (short) problems.push(short);
	const cpu1 = cpuSum(t.pids);
	const elapsedMs = lastWriteMs(t.dataDir) - t0;
	await t.stop();
	// Requests under way when the run ended are stored and written without being counted: at most one per connection.
	const { files, distinct } = outboxFiles(t.dataDir);
	if (distinct < target) problems.push(`${what}: ${fmtInt(target)} notifications accepted, only ${fmtInt(distinct)} written (lost)`);
	if (distinct > target + s.load.connections) problems.push(`${what}: ${fmtInt(target)} notifications accepted, ${fmtInt(distinct)} written`);
	if (files !== distinct) problems.push(`${what}: ${fmtInt(files - distinct)} notifications written more than once`);
	return {
		accept,
		accepted,
		elapsedMs,
		writtenPerSec: short ? NaN : (accepted / elapsedMs) * 1000,
		backlogAtEnd,
		cpuUsPerNotification: (cpu1 - cpu0) / accepted,
		problems
	};
}

/**
 * The default configuration (file outbox, every service): nothing set but what the
 * bench needs; with `memorySettings` false, started without npm start's memory
 * settings (V8's and glibc's defaults), to show what they cost.
 */
async function mixedProject(s: CompareSettings, memorySettings = true): Promise<MixedSample> {
	const platform = await startPlatform(s.load, memorySettings ? "mixed-project" : "mixed-defaults", {}, { memorySettings });
	try {
		const token = await serviceSender(platform.base);
		return await mixedRun(s, { label: "project", base: platform.base, token, dataDir: platform.dataDir, pids: [platform.child.process.pid!], stop: () => platform.child.stop() });
	} catch (err) {
		throw withOutput(err, platform.child);
	} finally {
		await platform.close();
	}
}

async function mixedPeer(s: CompareSettings, id: PeerIdentity): Promise<MixedSample> {
	const peer = await startPeer(s, id, true);
	try {
		return await mixedRun(s, { label: "peer", base: peer.base, token: id.token, dataDir: peer.dataDir, pids: [peer.child.process.pid!, peer.redis.pid], stop: () => peer.child.stop() });
	} catch (err) {
		throw withOutput(err, peer.child);
	} finally {
		await peer.close();
	}
}

// ---- rounds

export interface CompareResult {
	settings: CompareSettings;
	redisVersion: string;
	accept: { project: HttpSample[]; peer: HttpSample[] };
	/** baseline: another build of the project (BENCH_BASELINE_ROOT), empty without one. */
	get: { project: HttpSample[]; peer: HttpSample[]; floor: HttpSample[]; bare: HttpSample[]; baseline: HttpSample[] };
	e2e: { project: E2eSample[]; peer: E2eSample[] };
	/** defaults: the project without its memory settings (issue 39: they may cost at most 5 %). */
	mixed: { project: MixedSample[]; peer: MixedSample[]; defaults: MixedSample[] };
	problems: string[];
}

function note(line: string): void {
	process.stderr.write(`compare: ${line}\n`);
}

/** Runs every side once, in the given order on even rounds and reversed on odd ones. */
async function alternate<K extends string, T>(
	round: number,
	part: string,
	runs: Record<K, () => Promise<T>>,
	into: Record<K, T[]>,
	describe: (t: T) => string
): Promise<void> {
	const names = Object.keys(runs) as K[];
	for (const name of round % 2 === 0 ? names : [...names].reverse()) {
		const sample = await runs[name]();
		into[name].push(sample);
		note(`round ${round + 1}, ${part}, ${name}: ${describe(sample)}`);
	}
}

const describeLoad = (x: HttpSample) => `${fmtInt(x.load.reqPerSec)} req/s, p99 ${fmtMs(x.load.p99Ms)}`;

export async function benchCompare(s: CompareSettings = compareSettings()): Promise<CompareResult> {
	const redisVersion = redisServerVersion();
	const id = await peerIdentity();
	const r: CompareResult = {
		settings: s,
		redisVersion,
		accept: { project: [], peer: [] },
		get: { project: [], peer: [], floor: [], bare: [], baseline: [] },
		e2e: { project: [], peer: [] },
		mixed: { project: [], peer: [], defaults: [] },
		problems: []
	};
	for (let round = 0; round < s.rounds; round++) {
		if (s.parts.includes("accept")) {
			const samples = await interleavedRound(s, round, "accept", { project: () => acceptProjectTarget(s), peer: () => acceptPeerTarget(s, id) });
			for (const side of ["project", "peer"] as const) {
				r.accept[side].push(samples[side]);
				note(`round ${round + 1}, accept, ${side}: ${describeLoad(samples[side])}`);
			}
		}
		if (s.parts.includes("get")) {
			const baselineRoot = s.baselineRoot;
			type GetSide = keyof CompareResult["get"];
			const starts: Partial<Record<GetSide, () => Promise<Target>>> = {
				project: () => projectTarget(s),
				peer: () => peerTarget(s, id),
				floor: () => floorTarget(s, id),
				bare: () => bareTarget(s, id),
				...(baselineRoot ? { baseline: () => projectTarget(s, baselineRoot) } : {})
			};
			// Only the sides started are measured: without a baseline root there is no baseline sample.
			const samples: Partial<Record<GetSide, HttpSample>> = await interleavedRound(s, round, "GET", starts as Record<GetSide, () => Promise<Target>>);
			for (const side of ["project", "peer", "floor", "bare", "baseline"] as const) {
				const sample = samples[side];
				if (!sample) continue;
				r.get[side].push(sample);
				note(`round ${round + 1}, GET, ${side}: ${describeLoad(sample)}`);
			}
		}
		if (s.parts.includes("e2e")) {
			await alternate(round, "end to end", { project: () => e2eProject(s), peer: () => e2ePeer(s, id) }, r.e2e, x => `${fmtInt(x.perSec)}/s`);
		}
		if (s.parts.includes("mixed")) {
			await alternate(round, "mixed", { project: () => mixedProject(s), peer: () => mixedPeer(s, id), defaults: () => mixedProject(s, false) }, r.mixed, x => `accept ${fmtInt(x.accept.reqPerSec)}/s, written ${fmtInt(x.writtenPerSec)}/s`);
		}
	}
	const all = [...r.accept.project, ...r.accept.peer, ...r.get.project, ...r.get.peer, ...r.get.floor, ...r.get.bare, ...r.get.baseline, ...r.e2e.project, ...r.e2e.peer, ...r.mixed.project, ...r.mixed.peer, ...r.mixed.defaults];
	r.problems = all.flatMap(x => x.problems);
	return r;
}

// ---- the table

const mid = (xs: HttpSample[], f: (l: LoadResult) => number) => median(xs.map(x => f(x.load)));

/**
 * The median of the rounds' own ratios, project / other side: each round's two sides
 * ran in the same minutes (in turns, or the one right after the other), so a round's
 * ratio is a pair measured on one machine, where the ratio of the medians may set the
 * project's figure from one round against the other side's from another.
 */
export function pairedRatio(p: number[], q: number[]): number {
	return median(p.map((x, i) => x / q[i]!));
}

const paired = (p: HttpSample[], q: HttpSample[], f: (l: LoadResult) => number) =>
	pairedRatio(
		p.map(x => f(x.load)),
		q.map(x => f(x.load))
	);
const ratioText = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "-");
const usText = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} us` : "-");
const perSecText = (x: number) => (Number.isFinite(x) ? `${fmtInt(x)}/s` : "-");

/** "NOT met", with three decimals where two would read as the goal itself (0.997 against 1.0). */
function notMet(ratio: number, goal: number, words = "NOT met"): string {
	return Number(ratio.toFixed(2)) >= goal ? `${words} (${ratio.toFixed(3)})` : words;
}

function verdict(ratio: number, goal: number, stretch?: number): string {
	if (!Number.isFinite(ratio)) return "-";
	if (ratio < goal) return notMet(ratio, goal);
	return stretch !== undefined && ratio >= stretch ? "met, stretch met too" : "met";
}

function stretchVerdict(ratio: number, stretch: number): string {
	if (!Number.isFinite(ratio)) return "-";
	return ratio >= stretch ? "stretch met" : notMet(ratio, stretch, "stretch not met");
}

const LOWER_IS_BETTER = "reported; lower is better";
const PEER = "fastify + BullMQ";
const PEER_REDIS = "fastify + BullMQ + its redis-server";

function acceptRows(r: CompareResult): string[][] {
	const { project: p, peer: q } = r.accept;
	const rate = paired(p, q, l => l.reqPerSec);
	const row = (label: string, against: string, f: (l: LoadResult) => number, text: (x: number) => string, goal: string, result = "-") => [
		label,
		text(mid(p, f)),
		against,
		text(mid(q, f)),
		ratioText(paired(p, q, f)),
		goal,
		result
	];
	return [
		row("POST /notifications accepted, req/s", PEER, l => l.reqPerSec, fmtInt, `>= ${GOAL_ACCEPT.toFixed(1)} (stretch ${STRETCH_ACCEPT})`, verdict(rate, GOAL_ACCEPT, STRETCH_ACCEPT)),
		row("  its p99", PEER, l => l.p99Ms, fmtMs, LOWER_IS_BETTER),
		row("  server CPU per request", PEER_REDIS, l => l.serverCpuUsPerReq, usText, LOWER_IS_BETTER),
		row("  RSS under this load (peak)", `${PEER} (node)`, l => l.serverRssPeakBytes, fmtMb, LOWER_IS_BETTER),
		row("", PEER_REDIS, l => l.totalRssPeakBytes, fmtMb, LOWER_IS_BETTER)
	];
}

function e2eRows(r: CompareResult): string[][] {
	const rates = [r.e2e.project.map(x => x.perSec), r.e2e.peer.map(x => x.perSec)] as const;
	const cpus = [r.e2e.project.map(x => x.cpuUsPerNotification), r.e2e.peer.map(x => x.cpuUsPerNotification)] as const;
	const rate = pairedRatio(...rates);
	return [
		["accepted -> .eml written, notifications/s", perSecText(median(rates[0])), `${PEER} worker`, perSecText(median(rates[1])), ratioText(rate), `>= ${GOAL_E2E.toFixed(1)}`, verdict(rate, GOAL_E2E)],
		["  CPU per notification", usText(median(cpus[0])), PEER_REDIS, usText(median(cpus[1])), ratioText(pairedRatio(...cpus)), LOWER_IS_BETTER, "-"]
	];
}

function mixedRows(r: CompareResult): string[][] {
	const { project: p, peer: q } = r.mixed;
	const acc = [p.map(x => x.accept.reqPerSec), q.map(x => x.accept.reqPerSec)] as const;
	const wr = [p.map(x => x.writtenPerSec), q.map(x => x.writtenPerSec)] as const;
	const p99 = [p.map(x => x.accept.p99Ms), q.map(x => x.accept.p99Ms)] as const;
	const cpu = [p.map(x => x.cpuUsPerNotification), q.map(x => x.cpuUsPerNotification)] as const;
	const rss = [p.map(x => x.accept.serverRssPeakBytes), q.map(x => x.accept.serverRssPeakBytes)] as const;
	const a = pairedRatio(...acc);
	const w = pairedRatio(...wr);
	return [
		["mixed: POST /notifications accepted while delivering, req/s", fmtInt(median(acc[0])), `${PEER} + worker`, fmtInt(median(acc[1])), ratioText(a), `>= ${GOAL_ACCEPT.toFixed(1)} (stretch ${STRETCH_ACCEPT})`, verdict(a, GOAL_ACCEPT, STRETCH_ACCEPT)],
		["mixed: accepted -> .eml written, notifications/s", perSecText(median(wr[0])), `${PEER} + worker`, perSecText(median(wr[1])), ratioText(w), `>= ${GOAL_E2E.toFixed(1)} (stretch ${STRETCH_ACCEPT})`, verdict(w, GOAL_E2E, STRETCH_ACCEPT)],
		["  accept p99", fmtMs(median(p99[0])), `${PEER} + worker`, fmtMs(median(p99[1])), ratioText(pairedRatio(...p99)), LOWER_IS_BETTER, "-"],
		["  CPU per notification", usText(median(cpu[0])), PEER_REDIS, usText(median(cpu[1])), ratioText(pairedRatio(...cpu)), LOWER_IS_BETTER, "-"],
		["  server RSS (peak)", fmtMb(median(rss[0])), `${PEER} (node)`, fmtMb(median(rss[1])), ratioText(pairedRatio(...rss)), LOWER_IS_BETTER, "-"],
		...memoryRows(r)
	];
}

/** Issue 39: the memory settings (npm start's flags and environment) keep the mixed throughput within 5 %. */
function memoryRows(r: CompareResult): string[][] {
	const { project: p, defaults: d } = r.mixed;
	if (!d.length) return [];
	const side = "project, V8/glibc defaults";
	const acc = pairedRatio(p.map(x => x.accept.reqPerSec), d.map(x => x.accept.reqPerSec));
	const wr = pairedRatio(p.map(x => x.writtenPerSec), d.map(x => x.writtenPerSec));
	const rss = pairedRatio(p.map(x => x.accept.serverRssPeakBytes), d.map(x => x.accept.serverRssPeakBytes));
	const goal = 1 - MEMORY_SETTINGS_MAX_COST;
	return [
		["memory settings: mixed accept, req/s", fmtInt(median(p.map(x => x.accept.reqPerSec))), side, fmtInt(median(d.map(x => x.accept.reqPerSec))), ratioText(acc), `>= ${goal.toFixed(2)}`, verdict(acc, goal)],
		["memory settings: mixed accepted -> written", perSecText(median(p.map(x => x.writtenPerSec))), side, perSecText(median(d.map(x => x.writtenPerSec))), ratioText(wr), `>= ${goal.toFixed(2)}`, verdict(wr, goal)],
		["  server RSS (peak)", fmtMb(median(p.map(x => x.accept.serverRssPeakBytes))), side, fmtMb(median(d.map(x => x.accept.serverRssPeakBytes))), ratioText(rss), LOWER_IS_BETTER, "-"]
	];
}

function mixedDetail(r: CompareResult): string {
	const rows = [["", "accepted/s", "written/s", "accepted", "unwritten at end", "accept p99", "CPU/notification", "server RSS"]];
	for (const [label, samples] of [["project", r.mixed.project], [PEER, r.mixed.peer], ["project, V8/glibc defaults", r.mixed.defaults]] as const) {
		samples.forEach((x, i) =>
			rows.push([
				`round ${i + 1}, ${label}`,
				fmtInt(x.accept.reqPerSec),
				perSecText(x.writtenPerSec),
				fmtInt(x.accepted),
				fmtInt(x.backlogAtEnd),
				fmtMs(x.accept.p99Ms),
				usText(x.cpuUsPerNotification),
				fmtMb(x.accept.serverRssPeakBytes)
			])
		);
	}
	return formatTable(rows);
}

function getRows(r: CompareResult): string[][] {
	const { project, peer, floor, bare } = r.get;
	const p = mid(project, l => l.reqPerSec);
	const row = (label: string, against: string, other: HttpSample[], goal: string, result: (ratio: number) => string) => {
		const ratio = paired(project, other, l => l.reqPerSec);
		return [label, fmtInt(p), against, fmtInt(mid(other, l => l.reqPerSec)), ratioText(ratio), goal, result(ratio)];
	};
	const p99 = (l: LoadResult) => l.p99Ms;
	return [
		row("authenticated GET /actors/{id}, req/s", "fastify + jose + node:sqlite", peer, `reported (stretch ${STRETCH_GET})`, x => stretchVerdict(x, STRETCH_GET)),
		["  its p99", fmtMs(mid(project, p99)), "fastify + jose + node:sqlite", fmtMs(mid(peer, p99)), ratioText(paired(project, peer, p99)), LOWER_IS_BETTER, "-"],
		row("  against the framework's floor", "moleculer-web floor", floor, `>= ${GOAL_FLOOR}`, x => verdict(x, GOAL_FLOOR)),
		row("  against bare node:http", "bare node:http", bare, "reference", () => "-"),
		...(r.get.baseline.length
			? [row("  against the baseline build", `baseline (${r.settings.baselineRoot})`, r.get.baseline, `>= ${(1 - SESSION_CHECK_MAX_COST).toFixed(2)} (issue 37)`, x => verdict(x, 1 - SESSION_CHECK_MAX_COST))]
			: [])
	];
}

function perRound(label: string, samples: HttpSample[]): [string, LoadResult][] {
	return samples.map((x, i) => [`round ${i + 1}, ${label}`, x.load]);
}

function e2eDetail(r: CompareResult): string {
	// No accept rate: with a fixed count autocannon ends on a whole-second tick, so its duration is coarse.
	const rows = [["", "accepted->.eml", "elapsed", "accept p50", "accept p99", "CPU/notification", "server RSS"]];
	for (const [label, samples] of [["project", r.e2e.project], [PEER, r.e2e.peer]] as const) {
		samples.forEach((x, i) =>
			rows.push([`round ${i + 1}, ${label}`, perSecText(x.perSec), fmtMs(x.elapsedMs), fmtMs(x.accept.p50Ms), fmtMs(x.accept.p99Ms), usText(x.cpuUsPerNotification), fmtMb(x.accept.serverRssPeakBytes)])
		);
	}
	return formatTable(rows);
}

/**
 * Each round's own ratio (the table shows their median), and beside them the ratio of
 * the two sides' medians, which mixes rounds: shown so the two can be compared.
 */
function roundRatios(r: CompareResult): string[] {
	const ratios = (p: number[], q: number[]) => `${p.map((x, i) => ratioText(x / q[i]!)).join(", ")} (the medians' ratio: ${ratioText(median(p) / median(q))})`;
	const rates = (xs: HttpSample[]) => xs.map(x => x.load.reqPerSec);
	const lines: string[] = [];
	if (r.settings.parts.includes("accept")) lines.push(`  accept, fastify + BullMQ: ${ratios(rates(r.accept.project), rates(r.accept.peer))}`);
	if (r.settings.parts.includes("mixed")) {
		lines.push(`  mixed accept, fastify + BullMQ + worker: ${ratios(r.mixed.project.map(x => x.accept.reqPerSec), r.mixed.peer.map(x => x.accept.reqPerSec))}`);
		lines.push(`  mixed accepted -> written, fastify + BullMQ + worker: ${ratios(r.mixed.project.map(x => x.writtenPerSec), r.mixed.peer.map(x => x.writtenPerSec))}`);
		lines.push(`  mixed accepted -> written, the project with V8/glibc defaults: ${ratios(r.mixed.project.map(x => x.writtenPerSec), r.mixed.defaults.map(x => x.writtenPerSec))}`);
	}
	if (r.settings.parts.includes("e2e")) lines.push(`  end to end, fastify + BullMQ: ${ratios(r.e2e.project.map(x => x.perSec), r.e2e.peer.map(x => x.perSec))}`);
	if (r.settings.parts.includes("get")) {
		lines.push(`  GET, fastify + jose + node:sqlite: ${ratios(rates(r.get.project), rates(r.get.peer))}`);
		lines.push(`  GET, moleculer-web floor: ${ratios(rates(r.get.project), rates(r.get.floor))}`);
		if (r.get.baseline.length) lines.push(`  GET, the baseline build: ${ratios(rates(r.get.project), rates(r.get.baseline))}`);
	}
	return lines;
}

export function formatCompareResult(r: CompareResult): string {
	const s = r.settings;
	const rows = [["measure", "project", "compared with", "its value", "project/it", "goal", "result"]];
	if (s.parts.includes("accept")) rows.push(...acceptRows(r));
	if (s.parts.includes("e2e")) rows.push(...e2eRows(r));
	if (s.parts.includes("mixed")) rows.push(...mixedRows(r));
	if (s.parts.includes("get")) rows.push(...getRows(r));
	const out = [
		`Project against its peers, one process each, sides alternating over ${s.rounds} round(s); each figure is the median of the rounds, each project/it the median of the rounds' own ratios.`,
		describeMachine(),
		`load: autocannon, ${s.load.connections} connections, ${s.load.durationSec} s after a ${s.load.warmupSec} s warm-up per HTTP run; accept and GET: the sides running at once, the load moving among them every ${s.sliceSec} s, each turn after ${s.sliceWarmupSec} s not counted; end to end: ${fmtInt(s.e2eCount)} notifications after ${fmtInt(s.e2eWarmup)} warm-up ones`,
		`peer: private redis-server ${r.redisVersion} (appendonly yes, appendfsync always, no RDB), BullMQ worker concurrency ${s.concurrency} (= DISPATCHER_CONCURRENCY); accept runs without a worker or dispatcher`,
		"",
		formatTable(rows)
	];
	out.push("", "project / the other side, round by round (the sides of a round ran in the same minutes):", ...roundRatios(r));
	if (s.parts.includes("accept")) {
		out.push("", "POST /notifications, every round (server CPU/req of the peer includes its redis-server):", formatLoadTable([...perRound("project", r.accept.project), ...perRound(PEER, r.accept.peer)]));
	}
	if (s.parts.includes("e2e")) out.push("", "accepted -> .eml written, every round:", e2eDetail(r));
	if (s.parts.includes("mixed")) out.push("", "mixed (accepting and delivering at once, nothing lost or written twice), every round:", mixedDetail(r));
	if (s.parts.includes("get")) {
		out.push(
			"",
			"GET /actors/{id}, every round:",
			formatLoadTable([
				...perRound("project", r.get.project),
				...perRound("fastify + jose + sqlite", r.get.peer),
				...perRound("moleculer-web floor", r.get.floor),
				...perRound("bare node:http", r.get.bare),
				...perRound("baseline build", r.get.baseline)
			])
		);
	}
	if (r.problems.length) out.push("", ...r.problems.map(p => `!!! ${p}`), "!!! THE NUMBERS ABOVE ARE MEANINGLESS where a run broke.");
	return out.join("\n");
}
