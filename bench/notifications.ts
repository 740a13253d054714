/**
 * Notifications, in three parts, each beside a bare baseline measured in the same
 * run on the same machine:
 *  1. POST /notifications on one platform process (no dispatcher, so the queue only
 *     grows) against a bare node:http server answering the same 201.
 *  2. Accepted→SENT throughput of a cluster over NATS with one and with two
 *     dispatcher processes, per channel: EMAIL against a bare pipeline that only
 *     renders, composes and writes the same emails as .eml files, and SMS (the file
 *     provider) against one that only renders and writes the same JSON files.
 *  3. CRITICAL accepted→SENT latency while a LOW backlog is queued, against the same
 *     CRITICAL load on an empty queue.
 * The goals from the issue are printed next to the numbers and never enforced,
 * because timings depend on the machine. What does fail the run is a broken one:
 * a non-2xx answer, a notification lost, failed or sent twice.
 */
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { loadConfig, type NotificationConfig } from "../lib/config";
import { FileEmailProvider } from "../lib/email/file";
import { FileSmsProvider } from "../lib/sms/file";
import { type EventDoc, type NotificationDoc, NotificationIntake, priorityRank, render, StatusPublisher } from "../lib/notifications";
import { SqliteStore } from "../lib/store/sqlite";
import { API_SERVICES, Cluster, DEFAULT_NATS_URL } from "../harness/cluster";

const NATS_URL = process.env.BENCH_NATS_URL?.trim() || DEFAULT_NATS_URL;
import {
	DEPLOYMENT_ENV,
	SENDER_SERVICE_ID,
	benchSettings,
	childEnv,
	describeMachine,
	envInt,
	envIntQuick,
	envParts,
	fmtInt,
	fmtMs,
	formatLoadTable,
	formatTable,
	isClean,
	makeTempDir,
	measureBare,
	problemsOf,
	processCpuUs,
	removeTempDir,
	serviceSender,
	runLoad,
	startPlatform,
	withOutput,
	type BenchSettings,
	type LoadOptions,
	type LoadResult,
	type Platform
} from "./lib";
import { RECIPIENT, SMS_RECIPIENT, SMS_TEMPLATE, TEMPLATE, VARIABLES, isAccepted, jsonHeaders, requestBody, smsRequestBody } from "./workload";

export const GOAL_E2E_PER_SEC = 1000;
export const GOAL_CRITICAL_P99_MS = 1000;
/** Issue 21's tighter goal for the same figure (and its stretch). */
export const ISSUE_CRITICAL_P99_MS = 100;
export const STRETCH_CRITICAL_P99_MS = 50;

const PARTS = ["accept", "e2e", "critical"] as const;
type Part = (typeof PARTS)[number];
/** Channels the end-to-end part runs: both write files, so each is measured without a remote provider. */
const E2E_CHANNELS = ["EMAIL", "SMS"] as const;
export type E2eChannel = (typeof E2E_CHANNELS)[number];

/** How often the bench looks at the store while waiting for sends. */
const POLL_MS = 100;
/** Notifications accepted per transaction when filling the backlog. */
const BACKLOG_BATCH = 5000;

export interface NotificationSettings {
	load: BenchSettings;
	parts: Part[];
	e2eCount: number;
	e2eWarmup: number;
	e2eDispatchers: number[];
	e2eChannels: E2eChannel[];
	backlog: number;
	criticalRate: number;
	criticalSec: number;
	criticalDispatchers: number;
	/** Waiting for sends gives up when the SENT count has not moved for this long. */
	stallMs: number;
	/** The dispatcher settings the children run with (their defaults unless set in the environment). */
	dispatcher: NotificationConfig;
}

function dispatcherCounts(): number[] {
	const v = process.env.BENCH_E2E_DISPATCHERS?.trim() || "1,2";
	const counts = v.split(",").map(x => x.trim());
	if (counts.some(c => !/^[1-9]\d*$/.test(c))) throw new Error(`BENCH_E2E_DISPATCHERS must list whole numbers >= 1 (got "${v}")`);
	return counts.map(Number);
}

export function notificationSettings(load: BenchSettings = benchSettings()): NotificationSettings {
	return {
		load,
		parts: envParts("BENCH_NOTIFICATION_PARTS", PARTS),
		e2eCount: envIntQuick("BENCH_E2E_COUNT", 20000, 1000, 1),
		e2eWarmup: envIntQuick("BENCH_E2E_WARMUP", 1000, 100, 0),
		e2eDispatchers: dispatcherCounts(),
		e2eChannels: envParts("BENCH_E2E_CHANNELS", E2E_CHANNELS),
		backlog: envIntQuick("BENCH_BACKLOG", 100000, 5000, 0),
		criticalRate: envInt("BENCH_CRITICAL_RATE", 20, 1),
		criticalSec: envIntQuick("BENCH_CRITICAL_SEC", 15, 3, 1),
		criticalDispatchers: envInt("BENCH_CRITICAL_DISPATCHERS", 1, 1),
		stallMs: envInt("BENCH_STALL_SEC", 30, 1) * 1000,
		dispatcher: loadConfig(childEnv({})).notifications
	};
}

const sleep = (ms: number) => new Promise<void>(resolve => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

// ---- 1. POST /notifications

export interface AcceptResult {
	bare: LoadResult;
	platform: LoadResult;
	/** Notifications in the store after the run, against the 2xx answers counted. */
	stored: number;
	problems: string[];
}

/** The api services (no dispatcher: the queue grows), with the service account's headers for POST /notifications. */
export async function startAcceptPlatform(settings: BenchSettings): Promise<{ platform: Platform; headers: Record<string, string> }> {
	const platform = await startPlatform(settings, "accept", { SERVICES: API_SERVICES });
	try {
		return { platform, headers: jsonHeaders(await serviceSender(platform.base)) };
	} catch (err) {
		await platform.close();
		throw withOutput(err, platform.child);
	}
}

/** Notifications in a stopped platform's store. */
export async function storedNotifications(platform: Platform): Promise<number> {
	const store = new SqliteStore(path.join(platform.dataDir, "store.sqlite"));
	try {
		return await store.collection("notifications").count({});
	} finally {
		await store.close();
	}
}

export async function measureAcceptPlatform(settings: BenchSettings, body: string): Promise<{ load: LoadResult; stored: number }> {
	const { platform, headers } = await startAcceptPlatform(settings);
	try {
		let load: LoadResult;
		try {
			load = await runLoad({
				url: `${platform.base}/notifications`,
				method: "POST",
				headers,
				body,
				verifyBody: isAccepted,
				serverPid: platform.child.process.pid,
				...settings
			});
		} catch (err) {
			throw withOutput(err, platform.child);
		} finally {
			// Stopped before counting, so requests still under way have landed.
			await platform.child.stop();
		}
		return { load, stored: await storedNotifications(platform) };
	} finally {
		await platform.close();
	}
}

/**
 * A run ending mid-request may store a notification whose answer was never
 * counted (at most one per connection and run: the warm-up and each measured run
 * or slice); anything else is a lost or invented notification.
 */
export function storedProblems(label: string, load: LoadResult, stored: number, connections: number, runs = 2): string[] {
	const answered = load.warmup2xx + load.total - load.non2xx;
	if (stored >= answered && stored <= answered + runs * connections) return [];
	return [`${label}: ${fmtInt(answered)} notifications were accepted but the store holds ${fmtInt(stored)}`];
}

export async function benchAccept(s: NotificationSettings): Promise<AcceptResult> {
	const body = requestBody("NORMAL");
	const bare = await measureBare(s.load, {
		status: 201,
		responseBody: JSON.stringify({ notificationId: randomUUID(), status: "QUEUED" }),
		path: "/notifications",
		method: "POST",
		headers: jsonHeaders("bench"),
		requestBody: body,
		verifyBody: isAccepted
	});
	const { load: platform, stored } = await measureAcceptPlatform(s.load, body);
	const problems = [...problemsOf("bare", bare), ...problemsOf("platform", platform)];
	problems.push(...storedProblems("platform", platform, stored, s.load.connections));
	if (!isClean(bare) || !isClean(platform)) problems.push("THE NUMBERS ABOVE ARE MEANINGLESS: not every request got the expected 201 response.");
	return { bare, platform, stored, problems };
}

// ---- 2. end to end

export interface E2eRun {
	channel: E2eChannel;
	dispatchers: number;
	count: number;
	/** From the first accept to the last SENT, by the records' own timestamps. */
	elapsedMs: number;
	perSec: number;
	acceptPerSec: number;
	acceptP99Ms: number;
	/** CPU time per notification, in microseconds, of the api node and of all dispatchers together. */
	apiCpuUs: number;
	dispatcherCpuUs: number;
	problems: string[];
}

export interface BarePipelineResult {
	channel: E2eChannel;
	count: number;
	elapsedMs: number;
	perSec: number;
	concurrency: number;
}

export interface E2eResult {
	bare: BarePipelineResult[];
	runs: E2eRun[];
	problems: string[];
}

export interface Progress {
	sent: number;
	failed: number;
	stalled: boolean;
}

/**
 * Waits until `done()` reaches `target`, giving up only when it stops moving for
 * stallMs: a slow platform is a number to report, a stuck one a broken run.
 */
export async function waitUntil(target: number, done: () => Promise<number>, failed: () => Promise<number>, stallMs: number): Promise<Progress> {
	let last = -1;
	let lastMove = Date.now();
	let polls = 0;
	for (;;) {
		const sent = await done();
		if (sent >= target) return { sent, failed: 0, stalled: false };
		// Failures are rare and counting them scans more, so only now and then.
		if (++polls % 20 === 0) {
			const f = await failed();
			if (f > 0) return { sent, failed: f, stalled: false };
		}
		if (sent !== last) {
			last = sent;
			lastMove = Date.now();
		} else if (Date.now() - lastMove > stallMs) {
			return { sent, failed: await failed(), stalled: true };
		}
		await sleep(POLL_MS);
	}
}

export function describeShortfall(what: string, target: number, p: Progress, stallMs: number): string | undefined {
	if (p.sent >= target && p.failed === 0) return undefined;
	if (p.failed > 0) return `${what}: ${fmtInt(p.failed)} notifications FAILED or were SUPPRESSED`;
	return `${what}: only ${fmtInt(p.sent)} of ${fmtInt(target)} were SENT, with no progress for ${stallMs / 1000} s`;
}

export function cpuSum(pids: (number | undefined)[]): number {
	let sum = 0;
	for (const pid of pids) sum += processCpuUs(pid) ?? NaN;
	return sum;
}

/** Messages the file provider of the channel wrote: .eml files in DATA_DIR/outbox, .json files in DATA_DIR/outbox/sms. */
export function outboxCount(dataDir: string, channel: E2eChannel = "EMAIL"): number {
	const [dir, ext] = channel === "SMS" ? [path.join(dataDir, "outbox", "sms"), ".json"] : [path.join(dataDir, "outbox"), ".eml"];
	try {
		return readdirSync(dir).filter(f => f.endsWith(ext)).length;
	} catch {
		return 0;
	}
}

function statusCounter(store: SqliteStore, filter: Record<string, unknown> = {}) {
	const coll = store.collection<NotificationDoc>("notifications");
	return {
		sent: () => coll.count({ ...filter, status: "SENT" }),
		failed: () => coll.count({ ...filter, status: { $in: ["FAILED", "SUPPRESSED"] } })
	};
}

/** POST /notifications as the end-to-end runs send it: a fixed number, no warm-up of its own. */
export function e2eLoad(base: string, token: string, connections: number, body = requestBody("NORMAL")): LoadOptions {
	return {
		url: `${base}/notifications`,
		method: "POST",
		headers: jsonHeaders(token),
		body,
		verifyBody: isAccepted,
		durationSec: 0,
		warmupSec: 0,
		connections
	};
}

/**
 * Warm-up notifications, drained before measuring (JIT, prepared statements and
 * connections in every process): the problems of its load, or a throw when they
 * are not all delivered.
 */
export async function warmUpDrained(
	load: LoadOptions,
	count: number,
	what: string,
	done: () => Promise<number>,
	failed: () => Promise<number>,
	stallMs: number
): Promise<string[]> {
	if (count === 0) return [];
	const warm = await runLoad({ ...load, amount: count });
	const short = describeShortfall(`${what}, warm-up`, count, await waitUntil(count, done, failed, stallMs), stallMs);
	if (short) throw new Error(short);
	return problemsOf(`${what}, warm-up`, warm);
}

/** One end-to-end run; `body` replaces the channel's request (bench/templates.ts sends a Liquid template). */
export async function e2eRun(s: NotificationSettings, channel: E2eChannel, dispatchers: number, body?: string): Promise<E2eRun> {
	const cluster = await Cluster.start({ label: `e2e-${channel.toLowerCase()}${dispatchers}`, startTimeoutMs: s.load.startTimeoutMs, natsUrl: NATS_URL, env: DEPLOYMENT_ENV });
	const problems: string[] = [];
	const what = `${channel} e2e with ${dispatchers} dispatcher(s)`;
	try {
		const token = await serviceSender(cluster.base, cluster.admin);
		await cluster.startDispatchers(dispatchers);
		const notifications = cluster.store.collection<NotificationDoc>("notifications");
		const events = cluster.store.collection<EventDoc>("notification_events");
		// Only the bench's own: the platform sends mail of its own too (the harness's user's verification mail).
		const counter = statusCounter(cluster.store, { "createdBy.id": SENDER_SERVICE_ID });
		const load = e2eLoad(cluster.base, token, s.load.connections, body ?? (channel === "SMS" ? smsRequestBody("NORMAL") : requestBody("NORMAL")));
		problems.push(...(await warmUpDrained(load, s.e2eWarmup, what, counter.sent, counter.failed, s.stallMs)));

		const startIso = new Date().toISOString();
		const pids = cluster.dispatchers.map(d => d.process.pid);
		const apiCpu0 = processCpuUs(cluster.api.process.pid);
		const dispCpu0 = cpuSum(pids);
		const accepted = await runLoad({ ...load, amount: s.e2eCount, serverPid: cluster.api.process.pid });
		problems.push(...problemsOf(what, accepted));
		const target = s.e2eWarmup + s.e2eCount;
		const progress = await waitUntil(target, counter.sent, counter.failed, s.stallMs);
		const apiCpu1 = processCpuUs(cluster.api.process.pid);
		const dispCpu1 = cpuSum(pids);
		const short = describeShortfall(what, target, progress, s.stallMs);
		if (short) problems.push(short);

		// Exactly the notifications answered 201, each sent once: one outbox file each.
		const created = await notifications.count({ createdAt: { $gte: startIso } });
		if (created !== s.e2eCount) problems.push(`${what}: ${fmtInt(s.e2eCount)} requests sent, ${fmtInt(created)} notifications stored`);
		const platformOwn = await notifications.count({ "createdBy.id": { $ne: SENDER_SERVICE_ID }, status: "SENT" });
		const ownFiles = await notifications.count({ "createdBy.id": { $ne: SENDER_SERVICE_ID }, status: "SENT", channel });
		const files = outboxCount(cluster.dataDir, channel);
		if (!short && files !== target + ownFiles) problems.push(`${what}: ${fmtInt(target)} notifications SENT (and ${ownFiles} of the platform's own) but ${fmtInt(files)} outbox files written`);
		const sentEvents = await events.count({ event: "SENT" });
		if (!short && sentEvents !== target + platformOwn) problems.push(`${what}: ${fmtInt(target)} notifications SENT (and ${platformOwn} of the platform's own) but ${fmtInt(sentEvents)} SENT events`);

		const first = await notifications.findOne({ createdAt: { $gte: startIso } }, { sort: { createdAt: 1 } });
		const lastAccepted = await notifications.findOne({ createdAt: { $gte: startIso } }, { sort: { createdAt: -1 } });
		const lastSent = await events.findOne({ event: "SENT" }, { sort: { occurredAt: -1 } });
		const t0 = first ? Date.parse(first.createdAt) : NaN;
		const elapsedMs = lastSent ? Date.parse(lastSent.occurredAt) - t0 : NaN;
		const acceptMs = lastAccepted ? Date.parse(lastAccepted.createdAt) - t0 : NaN;
		return {
			channel,
			dispatchers,
			count: s.e2eCount,
			elapsedMs,
			perSec: short ? NaN : (s.e2eCount / elapsedMs) * 1000,
			acceptPerSec: (s.e2eCount / acceptMs) * 1000,
			acceptP99Ms: accepted.p99Ms,
			apiCpuUs: (apiCpu1! - apiCpu0!) / s.e2eCount,
			dispatcherCpuUs: (dispCpu1 - dispCpu0) / s.e2eCount,
			problems
		};
	} catch (err) {
		const out = cluster.output();
		if (out) (err as Error).message += `\n${out}`;
		throw err;
	} finally {
		await cluster.stop();
	}
}

/**
 * The unavoidable work of one notification, in one process: render the template and
 * hand it to the file provider the platform uses (EMAIL: compose the MIME message,
 * write it, rename it into place; SMS: write the JSON, rename it); as many at a time
 * as a dispatcher runs.
 */
async function barePipeline(channel: E2eChannel, count: number, warmup: number, concurrency: number, fromEmail: string): Promise<BarePipelineResult> {
	const dir = await makeTempDir("bench-bare-outbox-");
	const send =
		channel === "SMS"
			? (() => {
					const provider = new FileSmsProvider(path.join(dir, "outbox", "sms"));
					return () => provider.send({ notificationId: randomUUID(), to: SMS_RECIPIENT, text: render(SMS_TEMPLATE, VARIABLES).text! });
				})()
			: (() => {
					const provider = new FileEmailProvider(path.join(dir, "outbox"));
					return () => {
						const parts = render(TEMPLATE, VARIABLES);
						return provider.send({ notificationId: randomUUID(), from: fromEmail, to: RECIPIENT, ...parts, subject: parts.subject! });
					};
				})();
	const run = async (n: number) => {
		let next = 0;
		const worker = async () => {
			while (next < n) {
				next++;
				await send();
			}
		};
		await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
	};
	try {
		if (warmup > 0) await run(warmup);
		const t0 = performance.now();
		await run(count);
		const elapsedMs = performance.now() - t0;
		const files = outboxCount(dir, channel);
		if (files !== warmup + count) throw new Error(`bare ${channel} pipeline: ${fmtInt(warmup + count)} messages made but ${fmtInt(files)} files written`);
		return { channel, count, elapsedMs, perSec: (count / elapsedMs) * 1000, concurrency };
	} finally {
		removeTempDir(dir);
	}
}

export async function benchE2e(s: NotificationSettings): Promise<E2eResult> {
	const bare: BarePipelineResult[] = [];
	const runs: E2eRun[] = [];
	for (const channel of s.e2eChannels) {
		bare.push(await barePipeline(channel, s.e2eCount, s.e2eWarmup, s.dispatcher.concurrency, s.dispatcher.fromEmail));
		for (const n of s.e2eDispatchers) runs.push(await e2eRun(s, channel, n));
	}
	return { bare, runs, problems: runs.flatMap(r => r.problems) };
}

// ---- 3. CRITICAL behind a backlog

export interface CriticalRun {
	label: string;
	backlog: number;
	sent: number;
	p50Ms: number;
	p99Ms: number;
	maxMs: number;
	/** LOW still QUEUED when the last CRITICAL was seen SENT: the backlog was really there. */
	lowQueuedAfter: number;
	/** LOW sent while the CRITICALs went through, per second. */
	lowPerSec: number;
	problems: string[];
}

export interface CriticalResult {
	backlogInsertMs: number;
	empty: CriticalRun;
	backlogged: CriticalRun;
	problems: string[];
}

/**
 * Fills the queue through the notifications service's own accept path, as if the
 * backlog had been accepted long before: one QUEUED record and one QUEUED event per
 * notification. Straight into the shared SQLite file rather than through the
 * gateway, because 100,000 POSTs would take most of the bench's time; the accepts
 * of one batch share one transaction: one fsync per batch.
 */
async function insertBacklog(store: SqliteStore, count: number, createdBy: NotificationDoc["createdBy"]): Promise<number> {
	const intake = new NotificationIntake(store, new StatusPublisher(), { batchSize: BACKLOG_BATCH });
	const request = { to: RECIPIENT, priority: "LOW" as const, template: TEMPLATE, variables: VARIABLES };
	const t0 = performance.now();
	for (let done = 0; done < count; ) {
		const n = Math.min(BACKLOG_BATCH, count - done);
		await Promise.all(Array.from({ length: n }, () => intake.accept(request, createdBy)));
		done += n;
	}
	return performance.now() - t0;
}

/**
 * Open loop: one CRITICAL every 1/rate s whatever the answers do, so a slow
 * platform shows as latency rather than as fewer requests.
 */
async function sendCriticals(cluster: Cluster, token: string, rate: number, seconds: number): Promise<{ ids: string[]; problems: string[] }> {
	const total = rate * seconds;
	const body = requestBody("CRITICAL");
	const headers = jsonHeaders(token);
	const answers: Promise<{ id?: string; problem?: string }>[] = [];
	const t0 = performance.now();
	for (let i = 0; i < total; i++) {
		const wait = t0 + (i * 1000) / rate - performance.now();
		if (wait > 0) await sleep(wait);
		answers.push(
			fetch(`${cluster.base}/notifications`, { method: "POST", headers, body }).then(
				async res => {
					const text = await res.text();
					if (res.status !== 201 || !isAccepted(text)) return { problem: `status ${res.status}: ${text.slice(0, 200)}` };
					return { id: (JSON.parse(text) as { notificationId: string }).notificationId };
				},
				(err: Error) => ({ problem: err.message })
			)
		);
	}
	const settled = await Promise.all(answers);
	const ids = settled.flatMap(a => (a.id ? [a.id] : []));
	const bad = settled.filter(a => a.problem);
	return { ids, problems: bad.length ? [`${fmtInt(bad.length)} of ${fmtInt(total)} CRITICAL requests were not accepted (first: ${bad[0]!.problem})`] : [] };
}

async function criticalRun(s: NotificationSettings, cluster: Cluster, token: string, label: string, backlog: number): Promise<CriticalRun> {
	const notifications = cluster.store.collection<NotificationDoc>("notifications");
	const events = cluster.store.collection<EventDoc>("notification_events");
	const lowSent = () => notifications.count({ status: "SENT", priorityRank: priorityRank("LOW") });
	const lowSent0 = await lowSent();
	const t0 = performance.now();
	const { ids, problems } = await sendCriticals(cluster, token, s.criticalRate, s.criticalSec);
	const progress = await waitUntil(
		ids.length,
		() => notifications.count({ id: { $in: ids }, status: "SENT" }),
		() => notifications.count({ id: { $in: ids }, status: { $in: ["FAILED", "SUPPRESSED"] } }),
		s.stallMs
	);
	const lowQueuedAfter = await notifications.count({ status: "QUEUED", priorityRank: priorityRank("LOW") });
	const lowPerSec = ((await lowSent()) - lowSent0) / ((performance.now() - t0) / 1000);
	const short = describeShortfall(`CRITICAL, ${label}`, ids.length, progress, s.stallMs);
	if (short) problems.push(short);

	const latencies: number[] = [];
	let duplicates = 0;
	for (const id of ids) {
		const doc = await notifications.get(id);
		const sent = (await events.find({ notificationId: id, event: "SENT" })).map(e => e.occurredAt);
		if (sent.length > 1) duplicates++;
		if (doc && doc.status === "SENT" && sent.length >= 1) latencies.push(Date.parse(sent[0]!) - Date.parse(doc.createdAt));
	}
	if (duplicates) problems.push(`CRITICAL, ${label}: ${fmtInt(duplicates)} notifications have more than one SENT event`);
	latencies.sort((a, b) => a - b);
	return {
		label,
		backlog,
		sent: latencies.length,
		p50Ms: percentile(latencies, 50),
		p99Ms: percentile(latencies, 99),
		maxMs: latencies.length ? latencies[latencies.length - 1]! : NaN,
		lowQueuedAfter,
		lowPerSec,
		problems
	};
}

export async function benchCritical(s: NotificationSettings): Promise<CriticalResult> {
	const cluster = await Cluster.start({ label: "critical", startTimeoutMs: s.load.startTimeoutMs, natsUrl: NATS_URL, env: DEPLOYMENT_ENV });
	try {
		const token = await serviceSender(cluster.base, cluster.admin);
		await cluster.startDispatchers(s.criticalDispatchers);
		const empty = await criticalRun(s, cluster, token, "empty queue", 0);
		// The backlog goes in with no dispatcher running, so all of it is queued when they start.
		await cluster.stopDispatchers();
		const backlogInsertMs = await insertBacklog(cluster.store, s.backlog, { kind: "service", id: SENDER_SERVICE_ID });
		await cluster.startDispatchers(s.criticalDispatchers);
		const backlogged = await criticalRun(s, cluster, token, `${fmtInt(s.backlog)} LOW queued`, s.backlog);
		if (s.backlog > 0 && backlogged.lowQueuedAfter === 0) {
			backlogged.problems.push("the LOW backlog was gone before the last CRITICAL was sent: raise BENCH_BACKLOG for a meaningful figure");
		}
		return { backlogInsertMs, empty, backlogged, problems: [...empty.problems, ...backlogged.problems] };
	} catch (err) {
		const out = cluster.output();
		if (out) (err as Error).message += `\n${out}`;
		throw err;
	} finally {
		await cluster.stop();
	}
}

// ---- all of it

export interface NotificationBenchResult {
	settings: NotificationSettings;
	accept?: AcceptResult;
	e2e?: E2eResult;
	critical?: CriticalResult;
	problems: string[];
}

export async function benchNotifications(s: NotificationSettings = notificationSettings()): Promise<NotificationBenchResult> {
	const r: NotificationBenchResult = { settings: s, problems: [] };
	if (s.parts.includes("accept")) r.accept = await benchAccept(s);
	if (s.parts.includes("e2e")) r.e2e = await benchE2e(s);
	if (s.parts.includes("critical")) r.critical = await benchCritical(s);
	r.problems = [...(r.accept?.problems ?? []), ...(r.e2e?.problems ?? []), ...(r.critical?.problems ?? [])];
	return r;
}

const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : "-");
const perSec = (x: number) => (Number.isFinite(x) ? `${fmtInt(x)}/s` : "-");
const us = (x: number) => (Number.isFinite(x) ? `${fmtInt(x)} us` : "-");
const verdict = (ok: boolean) => (ok ? "meets the goal" : "below the goal");

function formatAccept(r: AcceptResult, s: BenchSettings): string[] {
	return [
		`1. POST /notifications (201 QUEUED; no dispatcher, so the queue grows): ${s.durationSec} s at ${s.connections} connections after a ${s.warmupSec} s warm-up`,
		"",
		formatLoadTable([
			["bare node:http", r.bare],
			["platform (1 process)", r.platform]
		]),
		"",
		`ratio platform/bare: ${pct(r.platform.reqPerSec / r.bare.reqPerSec)}; stored ${fmtInt(r.stored)} notifications for ${fmtInt(r.platform.warmup2xx + r.platform.total - r.platform.non2xx)} answers (warm-up included)`,
		`(no goal of its own; ${fmtInt(GOAL_E2E_PER_SEC)} notifications/s end to end needs at least that many accepts: ${r.platform.reqPerSec >= GOAL_E2E_PER_SEC ? "enough" : "NOT enough"})`
	];
}

function formatE2e(r: E2eResult, s: NotificationSettings): string[] {
	const rows: string[][] = [["", "accepted->SENT", "elapsed", "accept rate", "accept p99", "api CPU/notif", "dispatchers CPU/notif"]];
	const lines: string[] = [];
	for (const bare of r.bare) {
		const what = bare.channel === "SMS" ? "render+write JSON" : "render+compose+write";
		rows.push([`${bare.channel}: bare pipeline (${what}, ${bare.concurrency} at a time)`, perSec(bare.perSec), fmtMs(bare.elapsedMs), "-", "-", "-", "-"]);
		const runs = r.runs.filter(x => x.channel === bare.channel);
		for (const run of runs) {
			rows.push([
				`${run.channel}: platform, ${run.dispatchers} dispatcher process(es)`,
				perSec(run.perSec),
				fmtMs(run.elapsedMs),
				perSec(run.acceptPerSec),
				fmtMs(run.acceptP99Ms),
				us(run.apiCpuUs),
				us(run.dispatcherCpuUs)
			]);
		}
		const one = runs.find(x => x.dispatchers === 1);
		const two = runs.find(x => x.dispatchers === 2);
		const best = Math.max(...runs.map(x => (Number.isFinite(x.perSec) ? x.perSec : 0)));
		if (one && two) lines.push(`${bare.channel}: 2 dispatchers / 1 dispatcher: ${Number.isFinite(two.perSec / one.perSec) ? (two.perSec / one.perSec).toFixed(2) : "-"}x`);
		lines.push(`${bare.channel}: platform best / bare pipeline: ${pct(best / bare.perSec)}`);
		lines.push(`${bare.channel}: (goal: >= ${fmtInt(GOAL_E2E_PER_SEC)} notifications/s = ${fmtInt(GOAL_E2E_PER_SEC * 60)}/min end to end: ${verdict(best >= GOAL_E2E_PER_SEC)})`);
	}
	return [
		`2. End to end: ${fmtInt(s.e2eCount)} notifications POSTed at ${s.load.connections} connections while the dispatchers run (after ${fmtInt(s.e2eWarmup)} warm-up ones, drained), first accept to last SENT`,
		`   cluster over NATS (${NATS_URL}): api node (${API_SERVICES}) + N dispatcher nodes, one SQLite file, EMAIL_PROVIDER=${s.dispatcher.emailProvider}, SMS_PROVIDER=${s.dispatcher.sms.provider}, SMS send rate limit ${s.dispatcher.sendRates.SMS || "none"}`,
		"",
		formatTable(rows),
		"",
		...lines
	];
}

function formatCritical(r: CriticalResult, s: NotificationSettings): string[] {
	const row = (c: CriticalRun) => [
		c.label,
		`${fmtInt(c.sent)}/${fmtInt(s.criticalRate * s.criticalSec)}`,
		fmtMs(c.p50Ms),
		fmtMs(c.p99Ms),
		fmtMs(c.maxMs),
		fmtInt(c.lowQueuedAfter),
		perSec(c.lowPerSec)
	];
	return [
		`3. CRITICAL accepted->SENT latency: ${s.criticalRate}/s for ${s.criticalSec} s through the gateway, ${s.criticalDispatchers} dispatcher process(es)`,
		`   backlog of ${fmtInt(s.backlog)} LOW inserted straight into the SQLite file (like the service does: QUEUED record + QUEUED event) in ${fmtMs(r.backlogInsertMs)}, dispatchers stopped meanwhile`,
		"",
		formatTable([
			["", "SENT", "p50", "p99", "max", "LOW queued after", "LOW sent meanwhile"],
			row(r.empty),
			row(r.backlogged)
		]),
		"",
		`(goal: CRITICAL p99 < ${fmtInt(GOAL_CRITICAL_P99_MS)} ms behind the backlog: ${verdict(r.backlogged.p99Ms < GOAL_CRITICAL_P99_MS)}; issue 21: < ${ISSUE_CRITICAL_P99_MS} ms, ${verdict(r.backlogged.p99Ms < ISSUE_CRITICAL_P99_MS)}; stretch < ${STRETCH_CRITICAL_P99_MS} ms, ${verdict(r.backlogged.p99Ms < STRETCH_CRITICAL_P99_MS)})`
	];
}

export function formatNotificationResult(r: NotificationBenchResult): string {
	const s = r.settings;
	const d = s.dispatcher;
	const out = [
		describeMachine(),
		`dispatcher settings: DISPATCHER_CONCURRENCY=${d.concurrency} DISPATCHER_POLL_MS=${d.pollMs} NOTIFICATION_LEASE_MS=${d.leaseMs} EMAIL_PROVIDER=${d.emailProvider} send rate limit ${d.sendRatePerSecond || "none"}`,
		`bench settings: BENCH_E2E_COUNT=${s.e2eCount} BENCH_E2E_DISPATCHERS=${s.e2eDispatchers.join(",")} BENCH_E2E_CHANNELS=${s.e2eChannels.join(",")} BENCH_E2E_WARMUP=${s.e2eWarmup} BENCH_BACKLOG=${s.backlog} BENCH_CRITICAL_RATE=${s.criticalRate} BENCH_CRITICAL_SEC=${s.criticalSec} BENCH_CRITICAL_DISPATCHERS=${s.criticalDispatchers} BENCH_NOTIFICATION_PARTS=${s.parts.join(",")}`
	];
	if (r.accept) out.push("", ...formatAccept(r.accept, s.load));
	if (r.e2e) out.push("", ...formatE2e(r.e2e, s));
	if (r.critical) out.push("", ...formatCritical(r.critical, s));
	if (r.problems.length) out.push("", ...r.problems.map(p => `!!! ${p}`));
	return out.join("\n");
}
