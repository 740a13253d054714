/**
 * Templates (issue 38): accept and end-to-end (accepted→SENT, EMAIL, one dispatcher)
 * throughput with a Liquid template that has a condition and a loop, beside today's
 * `{{name}}` template, in the same run on the same machine. The goal (within 10 %) is
 * printed, never enforced; what fails the run is a broken one (a non-2xx answer, a
 * notification lost, failed or sent twice).
 */
import { e2eRun, measureAcceptPlatform, notificationSettings, storedProblems, type E2eRun, type NotificationSettings } from "./notifications";
import { benchSettings, fmtInt, fmtMs, formatTable, problemsOf, type BenchSettings, type LoadResult } from "./lib";
import { liquidRequestBody, requestBody } from "./workload";

/** Liquid may cost at most this much of today's throughput (the goal). */
export const GOAL_WITHIN = 0.1;

const KINDS = [
	["{{name}} template", () => requestBody("NORMAL")],
	["Liquid: if + for", () => liquidRequestBody("NORMAL")]
] as const;

export interface TemplateBenchResult {
	settings: NotificationSettings;
	accept: { label: string; load: LoadResult }[];
	e2e: { label: string; run: E2eRun }[];
	problems: string[];
}

export async function benchTemplates(load: BenchSettings = benchSettings()): Promise<TemplateBenchResult> {
	const s = notificationSettings(load);
	const r: TemplateBenchResult = { settings: s, accept: [], e2e: [], problems: [] };
	for (const [label, body] of KINDS) {
		const { load: l, stored } = await measureAcceptPlatform(s.load, body());
		r.accept.push({ label, load: l });
		r.problems.push(...problemsOf(`accept, ${label}`, l), ...storedProblems(`accept, ${label}`, l, stored, s.load.connections));
	}
	for (const [label, body] of KINDS) {
		const run = await e2eRun(s, "EMAIL", 1, body());
		r.e2e.push({ label, run });
		r.problems.push(...run.problems);
	}
	return r;
}

const perSec = (x: number) => (Number.isFinite(x) ? `${fmtInt(x)}/s` : "-");
const ratio = (x: number, base: number) => (Number.isFinite(x / base) ? `${((x / base) * 100).toFixed(1)}%` : "-");

export function formatTemplateResult(r: TemplateBenchResult): string {
	const s = r.settings;
	const [acceptBase, acceptLiquid] = r.accept.map(a => a.load.reqPerSec);
	const [e2eBase, e2eLiquid] = r.e2e.map(e => e.run.perSec);
	const within = (x: number, base: number) => (x >= base * (1 - GOAL_WITHIN) ? "within 10 %: meets the goal" : "more than 10 % slower: below the goal");
	return [
		"Templates: Liquid with a condition and a loop against today's {{name}} template",
		"",
		`1. POST /notifications (one process, no dispatcher): ${s.load.durationSec} s at ${s.load.connections} connections after a ${s.load.warmupSec} s warm-up`,
		"",
		formatTable([["", "req/s", "p50", "p99", "of {{name}}"], ...r.accept.map(a => [a.label, perSec(a.load.reqPerSec), fmtMs(a.load.p50Ms), fmtMs(a.load.p99Ms), ratio(a.load.reqPerSec, acceptBase!)])]),
		"",
		`accept: ${within(acceptLiquid!, acceptBase!)}`,
		"",
		`2. EMAIL accepted->SENT, one dispatcher process: ${fmtInt(s.e2eCount)} notifications after ${fmtInt(s.e2eWarmup)} drained`,
		"",
		formatTable([
			["", "accepted->SENT", "accept rate", "dispatcher CPU/notif", "of {{name}}"],
			...r.e2e.map(e => [e.label, perSec(e.run.perSec), perSec(e.run.acceptPerSec), `${fmtInt(e.run.dispatcherCpuUs)} us`, ratio(e.run.perSec, e2eBase!)])
		]),
		"",
		`end to end: ${within(e2eLiquid!, e2eBase!)}`
	].join("\n");
}
