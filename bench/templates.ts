/**
 * Templates (issue 38): accept and end-to-end (accepted→SENT, EMAIL, one dispatcher)
 * throughput with a Liquid template that has a condition and a loop, beside today's
 * `{{name}}` template, in the same run on the same machine. The goal (within 10 %) is
 * printed, never enforced; what fails the run is a broken one (a non-2xx answer, a
 * notification lost, failed or sent twice).
 *
 * On a shared 2-core machine one run of each moves by a quarter between runs, so the
 * two templates run in BENCH_ROUNDS rounds, A/B then B/A the next round (so neither
 * always runs second, after the other has warmed the disk cache or while the
 * neighbours' load drifts). Acceptance goes further: in each round both platforms run
 * at once and the load moves between them every BENCH_SLICE_SEC seconds (bench/lib.ts
 * runInterleaved, as compare does), so the two see the same machine; one accept run
 * after the other had moved the ratio from 73 % to 98 % between rounds. Every round is
 * printed; each figure in the summary is the median of the rounds, and each "of
 * {{name}}" the median of the rounds' own ratios (a round's two runs are a pair
 * measured in the same minutes), with the medians' ratio printed beside it.
 */
import { e2eRun, notificationSettings, startAcceptPlatform, storedNotifications, storedProblems, type E2eRun, type NotificationSettings } from "./notifications";
import { benchSettings, envIntQuick, fmtInt, fmtMs, formatTable, median, problemsOf, runInterleaved, withOutput, type BenchSettings, type LoadResult, type Platform } from "./lib";
import { render } from "../lib/notifications";
import { isAccepted, LIQUID_TEMPLATE, LIQUID_VARIABLES, liquidRequestBody, requestBody, TEMPLATE, VARIABLES } from "./workload";

/** Liquid may cost at most this much of today's throughput (the goal). */
export const GOAL_WITHIN = 0.1;

const KINDS = [
	["{{name}} template", () => requestBody("NORMAL")],
	["Liquid: if + for", () => liquidRequestBody("NORMAL")]
] as const;
/** What the dispatcher renders for each of KINDS (the same order). */
const RENDERED = [
	[TEMPLATE, VARIABLES],
	[LIQUID_TEMPLATE, LIQUID_VARIABLES]
] as const;
/** Short names for the round column: which one ran first. */
const SHORT = ["{{name}}", "Liquid"] as const;

/** The KINDS indexes in the order round `round` (from 0) runs them: A/B, then B/A. */
export function roundOrder(round: number): number[] {
	const order = KINDS.map((_, i) => i);
	return round % 2 ? order.reverse() : order;
}

export interface TemplateBenchResult {
	settings: NotificationSettings;
	rounds: number;
	/** Per round, one entry per KINDS index (whatever order they ran in). */
	accept: LoadResult[][];
	e2e: E2eRun[][];
	/** Per round, microseconds of render() per notification for each KINDS index. */
	renderUs: number[][];
	/** Acceptance's turns (seconds) and the uncounted start of each. */
	sliceSec: number;
	sliceWarmupSec: number;
	problems: string[];
}

/**
 * Microseconds one render() of the kind's template takes in this process, as the
 * dispatcher calls it (the variables fresh from JSON, as read from the store; the
 * parsing not timed): the work Liquid adds, without the noise of the runs above.
 */
export function measureRender(k: number, count: number): number {
	const [template, variables] = RENDERED[k]!;
	const json = JSON.stringify(variables);
	const fresh = () => Array.from({ length: count }, () => JSON.parse(json) as typeof variables);
	let chars = 0;
	for (const v of fresh()) chars += render(template, v).html!.length; // warm-up
	const batch = fresh();
	const t0 = performance.now();
	for (const v of batch) chars += render(template, v).html!.length;
	const us = ((performance.now() - t0) * 1000) / count;
	return chars > 0 ? us : NaN;
}

export async function benchTemplates(load: BenchSettings = benchSettings(), rounds = envIntQuick("BENCH_ROUNDS", 3, 1, 1)): Promise<TemplateBenchResult> {
	const s = notificationSettings(load);
	const sliceSec = envIntQuick("BENCH_SLICE_SEC", 2, 1, 1);
	const sliceWarmupSec = envIntQuick("BENCH_SLICE_WARMUP_MS", 500, 250, 0) / 1000;
	const r: TemplateBenchResult = { settings: s, rounds, accept: [], e2e: [], renderUs: [], sliceSec, sliceWarmupSec, problems: [] };
	const renders = envIntQuick("BENCH_RENDER_COUNT", 50_000, 5_000, 1);
	for (let round = 0; round < rounds; round++) r.accept.push(await acceptRound(s, round, sliceSec, sliceWarmupSec, r.problems));
	for (let round = 0; round < rounds; round++) {
		const e2e: E2eRun[] = [];
		for (const k of roundOrder(round)) {
			const run = await e2eRun(s, "EMAIL", 1, KINDS[k]![1]());
			e2e[k] = run;
			r.problems.push(...run.problems.map(p => `round ${round + 1}: ${p}`));
		}
		r.e2e.push(e2e);
	}
	for (let round = 0; round < rounds; round++) {
		const us: number[] = [];
		for (const k of roundOrder(round)) us[k] = measureRender(k, renders);
		r.renderUs.push(us);
	}
	return r;
}

/**
 * One round of acceptance: a platform for each template, both started, then measured in
 * turns of `sliceSec` (the one that begins alternating from round to round); each
 * stopped before its store is counted. Answers one result per KINDS index.
 */
async function acceptRound(s: NotificationSettings, round: number, sliceSec: number, sliceWarmupSec: number, problems: string[]): Promise<LoadResult[]> {
	const started: { platform: Platform; headers: Record<string, string> }[] = [];
	try {
		for (let k = 0; k < KINDS.length; k++) started.push(await startAcceptPlatform(s.load));
		const order = roundOrder(round);
		const loads = await runInterleaved(
			order.map(k => ({ url: `${started[k]!.platform.base}/notifications`, method: "POST" as const, headers: started[k]!.headers, body: KINDS[k]![1](), verifyBody: isAccepted, serverPid: started[k]!.platform.child.process.pid, ...s.load })),
			sliceSec,
			sliceWarmupSec
		).catch((err: unknown) => {
			throw started.reduce((e, st) => withOutput(e, st.platform.child), err instanceof Error ? err : new Error(String(err)));
		});
		const slices = Math.ceil(s.load.durationSec / sliceSec);
		const out: LoadResult[] = [];
		for (const [i, k] of order.entries()) {
			const load = loads[i]!;
			const { platform } = started[k]!;
			await platform.child.stop();
			const what = `accept, ${KINDS[k]![0]}, round ${round + 1}`;
			// The warm-up and each slice's warm-up and measured part may end with requests under way.
			problems.push(...problemsOf(what, load), ...storedProblems(what, load, await storedNotifications(platform), s.load.connections, 1 + slices * (sliceWarmupSec > 0 ? 2 : 1)));
			out[k] = load;
		}
		return out;
	} finally {
		for (const { platform } of started) await platform.close();
	}
}

const perSec = (x: number) => (Number.isFinite(x) ? `${fmtInt(x)}/s` : "-");
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : "-");
const us = (x: number) => `${fmtInt(x)} us`;

/** Each round's own ratio of kind 1 to kind 0. */
function ratios(rounds: number[][]): number[] {
	return rounds.map(r => r[1]! / r[0]!);
}

function verdict(ratio: number): string {
	if (!Number.isFinite(ratio)) return "no figure";
	return ratio >= 1 - GOAL_WITHIN ? "within 10 %: meets the goal" : "more than 10 % slower: below the goal";
}

/** The rounds' ratios, and the ratio of the medians beside them. */
function ratioLine(what: string, rounds: number[][]): string {
	const col = (k: number) => median(rounds.map(r => r[k]!));
	return `${what}: rounds ${ratios(rounds).map(pct).join(", ")}; median ${pct(median(ratios(rounds)))} (the medians' ratio: ${pct(col(1) / col(0))})`;
}

export function formatTemplateResult(r: TemplateBenchResult): string {
	const s = r.settings;
	const acceptRate = r.accept.map(round => round.map(l => l.reqPerSec));
	const e2eRate = r.e2e.map(round => round.map(e => e.perSec));
	const med = <T>(rows: T[][], k: number, f: (x: T) => number) => median(rows.map(round => f(round[k]!)));
	const ordered = (round: number) => `${SHORT[roundOrder(round)[0]!]} first`;
	const acceptRatio = median(ratios(acceptRate));
	const e2eRatio = median(ratios(e2eRate));
	return [
		"Templates: Liquid with a condition and a loop against today's {{name}} template",
		`${r.rounds} round(s), the two templates alternating (A/B, then B/A); each summary figure is the median of the rounds, each "of {{name}}" the median of the rounds' own ratios.`,
		"",
		`1. POST /notifications (a process per template, no dispatcher, both running; the load moves between them every ${r.sliceSec} s, each turn after ${r.sliceWarmupSec} s not counted): ${s.load.durationSec} s each at ${s.load.connections} connections after a ${s.load.warmupSec} s warm-up`,
		"",
		formatTable([
			["round", "", "req/s", "p50", "p99", "of {{name}}"],
			...r.accept.flatMap((round, i) =>
				KINDS.map(([label], k) => [k === 0 ? `${i + 1} (${ordered(i)})` : "", label, perSec(round[k]!.reqPerSec), fmtMs(round[k]!.p50Ms), fmtMs(round[k]!.p99Ms), pct(round[k]!.reqPerSec / round[0]!.reqPerSec)])
			),
			...KINDS.map(([label], k) => [
				k === 0 ? "median" : "",
				label,
				perSec(med(r.accept, k, l => l.reqPerSec)),
				fmtMs(med(r.accept, k, l => l.p50Ms)),
				fmtMs(med(r.accept, k, l => l.p99Ms)),
				k === 0 ? pct(1) : pct(acceptRatio)
			])
		]),
		"",
		ratioLine("accept ratios", acceptRate),
		`accept: ${verdict(acceptRatio)}`,
		"",
		`2. EMAIL accepted->SENT, one dispatcher process: ${fmtInt(s.e2eCount)} notifications after ${fmtInt(s.e2eWarmup)} drained`,
		"",
		formatTable([
			["round", "", "accepted->SENT", "accept rate", "dispatcher CPU/notif", "of {{name}}"],
			...r.e2e.flatMap((round, i) =>
				KINDS.map(([label], k) => [k === 0 ? `${i + 1} (${ordered(i)})` : "", label, perSec(round[k]!.perSec), perSec(round[k]!.acceptPerSec), us(round[k]!.dispatcherCpuUs), pct(round[k]!.perSec / round[0]!.perSec)])
			),
			...KINDS.map(([label], k) => [
				k === 0 ? "median" : "",
				label,
				perSec(med(r.e2e, k, e => e.perSec)),
				perSec(med(r.e2e, k, e => e.acceptPerSec)),
				us(med(r.e2e, k, e => e.dispatcherCpuUs)),
				k === 0 ? pct(1) : pct(e2eRatio)
			])
		]),
		"",
		ratioLine("end-to-end ratios", e2eRate),
		`dispatcher CPU per notification, Liquid minus {{name}}: rounds ${r.e2e.map(round => us(round[1]!.dispatcherCpuUs - round[0]!.dispatcherCpuUs)).join(", ")}; median ${us(median(r.e2e.map(round => round[1]!.dispatcherCpuUs - round[0]!.dispatcherCpuUs)))}`,
		`end to end: ${verdict(e2eRatio)}`,
		"",
		...renderLines(r)
	].join("\n");
}

/** Part 3: render() alone, and what it adds against the dispatcher's CPU per notification. */
function renderLines(r: TemplateBenchResult): string[] {
	if (r.renderUs.length === 0) return [];
	const usText = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} us` : "-");
	const col = (k: number) => median(r.renderUs.map(round => round[k]!));
	const added = median(r.renderUs.map(round => round[1]! - round[0]!));
	const cpu = median(r.e2e.map(round => round[0]!.dispatcherCpuUs));
	return [
		"3. render() per notification in the bench process (the parts the dispatcher renders, no I/O), same rounds",
		"",
		formatTable([
			["", ...r.renderUs.map((_, i) => `round ${i + 1}`), "median"],
			...KINDS.map(([label], k) => [label, ...r.renderUs.map(round => usText(round[k]!)), usText(col(k))])
		]),
		"",
		`Liquid adds ${usText(added)} per notification: ${pct(added / cpu)} of the {{name}} template's median dispatcher CPU per notification (${us(cpu)}), the end-to-end cost to expect from rendering alone.`
	];
}
