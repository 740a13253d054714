/**
 * Templates (issue 38): accept and end-to-end (accepted→SENT, EMAIL, one dispatcher)
 * throughput with a Liquid template that has a condition and a loop, beside today's
 * `{{name}}` template, in the same run on the same machine. The goal (within 10 %) is
 * printed, never enforced; what fails the run is a broken one (a non-2xx answer, a
 * notification lost, failed or sent twice).
 *
 * On a shared 2-core machine one run of each moves by a quarter between runs, so the
 * two templates run in BENCH_ROUNDS interleaved rounds, A/B then B/A the next round (so
 * neither always runs second, after the other has warmed the disk cache or while the
 * neighbours' load drifts). Every round is printed; each figure in the summary is the
 * median of the rounds, and each "of {{name}}" the median of the rounds' own ratios (a
 * round's two runs are a pair measured in the same minutes), with the medians' ratio
 * printed beside it.
 */
import { e2eRun, measureAcceptPlatform, notificationSettings, storedProblems, type E2eRun, type NotificationSettings } from "./notifications";
import { benchSettings, envIntQuick, fmtInt, fmtMs, formatTable, median, problemsOf, type BenchSettings, type LoadResult } from "./lib";
import { render } from "../lib/notifications";
import { LIQUID_TEMPLATE, LIQUID_VARIABLES, liquidRequestBody, requestBody, TEMPLATE, VARIABLES } from "./workload";

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
	const r: TemplateBenchResult = { settings: s, rounds, accept: [], e2e: [], renderUs: [], problems: [] };
	const renders = envIntQuick("BENCH_RENDER_COUNT", 50_000, 5_000, 1);
	for (let round = 0; round < rounds; round++) {
		const accept: LoadResult[] = [];
		for (const k of roundOrder(round)) {
			const [label, body] = KINDS[k]!;
			const { load: l, stored } = await measureAcceptPlatform(s.load, body());
			accept[k] = l;
			const what = `accept, ${label}, round ${round + 1}`;
			r.problems.push(...problemsOf(what, l), ...storedProblems(what, l, stored, s.load.connections));
		}
		r.accept.push(accept);
	}
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
		`1. POST /notifications (one process, no dispatcher): ${s.load.durationSec} s at ${s.load.connections} connections after a ${s.load.warmupSec} s warm-up`,
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
