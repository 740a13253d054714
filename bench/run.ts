/**
 * `npm run bench`: runs every benchmark in BENCHES in turn and prints its numbers.
 * The exit code is 1 only when a benchmark broke (a server did not start, or the
 * responses were not the expected ones); slow numbers never fail the run.
 */
import { benchGateway, formatGatewayResult } from "./gateway";
import { benchSettings, type BenchSettings } from "./lib";

export interface BenchOutcome {
	report: string;
	/** Non-empty when the run is broken and its numbers must not be used. */
	problems: string[];
}

interface Bench {
	name: string;
	run(settings: BenchSettings): Promise<BenchOutcome>;
}

const BENCHES: Bench[] = [
	{
		name: "gateway",
		async run(settings) {
			const result = await benchGateway(settings);
			return { report: formatGatewayResult(result), problems: result.problems };
		}
	}
];

async function main(): Promise<number> {
	const settings = benchSettings();
	let broken = 0;
	for (const bench of BENCHES) {
		process.stdout.write(`\n== ${bench.name} ==\n`);
		try {
			const outcome = await bench.run(settings);
			process.stdout.write(`${outcome.report}\n`);
			if (outcome.problems.length) broken++;
		} catch (err) {
			broken++;
			process.stderr.write(`!!! ${bench.name} benchmark broke: ${(err as Error).stack ?? err}\n`);
		}
	}
	if (broken) process.stderr.write(`\n!!! ${broken} of ${BENCHES.length} benchmark(s) broke; see above.\n`);
	return broken ? 1 : 0;
}

// process.exit rather than waiting for the loop to drain: fetch keeps idle
// keep-alive sockets, and the exit hooks in lib.ts stop any child left behind.
main().then(
	code => process.exit(code),
	err => {
		process.stderr.write(`${(err as Error).stack ?? err}\n`);
		process.exit(1);
	}
);
