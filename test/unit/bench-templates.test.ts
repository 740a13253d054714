/**
 * The templates benchmark's summary (bench/templates.ts): rounds interleaved A/B then
 * B/A, every round printed, figures the medians of the rounds and the ratio the median
 * of the rounds' own ratios.
 */
import { formatTemplateResult, measureRender, roundOrder, type TemplateBenchResult } from "../../bench/templates";

const load = (reqPerSec: number) => ({ reqPerSec, p50Ms: 7, p99Ms: 16 });
const run = (perSec: number, dispatcherCpuUs: number) => ({ perSec, acceptPerSec: 3000, dispatcherCpuUs, problems: [] });

function result(e2e: [number, number][]): TemplateBenchResult {
	return {
		settings: { load: { durationSec: 10, connections: 50, warmupSec: 2 }, e2eCount: 20000, e2eWarmup: 1000 },
		rounds: e2e.length,
		accept: e2e.map(() => [load(6500), load(6400)]),
		e2e: e2e.map(([a, b]) => [run(a, 900), run(b, 930)]),
		renderUs: e2e.map(() => [2.5, 20.5]),
		sliceSec: 2,
		sliceWarmupSec: 0.5,
		problems: []
	} as unknown as TemplateBenchResult;
}

describe("templates benchmark", () => {
	it("should alternate which template runs first", () => {
		expect([0, 1, 2, 3].map(roundOrder)).toEqual([
			[0, 1],
			[1, 0],
			[0, 1],
			[1, 0]
		]);
	});

	it("should print every round and judge the goal by the median of the rounds' own ratios", () => {
		// Ratios 0.80, 0.95, 0.92: their median, 0.92, meets the goal though one round is far below it.
		const out = formatTemplateResult(result([[1000, 800], [1250, 1187.5], [1300, 1196]]));
		expect(out).toContain("end-to-end ratios: rounds 80.0%, 95.0%, 92.0%; median 92.0%");
		expect(out).toContain("end to end: within 10 %: meets the goal");
		expect(out).toContain("2 (Liquid first)");
		expect(out).toContain("the load moves between them every 2 s, each turn after 0.5 s not counted");
		expect(out).toContain("dispatcher CPU per notification, Liquid minus {{name}}: rounds 30 us, 30 us, 30 us; median 30 us");
		expect(out).toContain("accept: within 10 %: meets the goal");
		expect(out).toContain("Liquid adds 18.0 us per notification: 2.0% of the {{name}} template's median dispatcher CPU per notification (900 us)");
	});

	it("should time render() of each template in this process", () => {
		// Both positive and finite (NaN when nothing was rendered); which is dearer is not
		// asserted: compiled Liquid (liquid-compile.ts) costs about as much as `{{name}}`.
		const [name, liquid] = [measureRender(0, 200), measureRender(1, 200)];
		expect(name).toBeGreaterThan(0);
		expect(liquid).toBeGreaterThan(0);
	});

	it("should say when the median ratio is below the goal", () => {
		expect(formatTemplateResult(result([[1000, 850], [1000, 880], [1000, 950]]))).toContain("end to end: more than 10 % slower: below the goal");
	});
});
