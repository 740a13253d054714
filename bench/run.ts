/**
 * `npm run bench`: runs every benchmark in BENCHES in turn and prints its numbers;
 * `npm run bench -- gateway compare` runs only the ones named; `--quick` (or
 * BENCH_QUICK=1) shortens every run to check the benchmarks work.
 * `npm run bench -- profile [accept|get|<file.cpuprofile>...]` profiles the project
 * instead (bench/profile.ts).
 * `auth` (bench/auth.ts): password, TOTP and passkey sign-ins per second on one core.
 * `soak` (bench/soak.ts) and `instructions` (bench/instructions.ts, under Valgrind) run only when named.
 * The exit code is 1 only when a benchmark broke (a server did not start, or the
 * responses were not the expected ones); slow numbers never fail the run.
 */
import { benchAlerts, formatAlertResult } from "./alerts";
import { authSettings, benchAuth, formatAuthResult } from "./auth";
import { benchMfa, formatMfaResult } from "./mfa";
import { benchCompare, compareSettings, formatCompareResult } from "./compare";
import { benchGateway, formatGatewayResult } from "./gateway";
import { benchInbox, formatInboxResult } from "./inbox";
import { benchInstructions, formatInstructionResult, instructionSettings } from "./instructions";
import { benchSettings, describeMachine, type BenchSettings } from "./lib";
import { benchOutbound, formatOutboundResult } from "./outbound";
import { benchNotifications, formatNotificationResult, notificationSettings } from "./notifications";
import { benchTemplates, formatTemplateResult } from "./templates";
import { runProfile } from "./profile";
import { benchSoak, formatSoakResult } from "./soak";
import { benchStart, formatStartResult, startSettings } from "./start";
import { benchWebhook, formatWebhookResult } from "./webhook";

export interface BenchOutcome {
	report: string;
	/** Non-empty when the run is broken and its numbers must not be used. */
	problems: string[];
}

interface Bench {
	name: string;
	/** Runs only when named (long, or a tool rather than a comparison). */
	onlyWhenNamed?: boolean;
	run(settings: BenchSettings): Promise<BenchOutcome>;
}

const BENCHES: Bench[] = [
	{
		name: "gateway",
		async run(settings) {
			const result = await benchGateway(settings);
			return { report: formatGatewayResult(result), problems: result.problems };
		}
	},
	{
		name: "webhook",
		async run(settings) {
			const result = await benchWebhook(settings);
			return { report: formatWebhookResult(result), problems: result.problems };
		}
	},
	{
		name: "notifications",
		async run(settings) {
			const result = await benchNotifications(notificationSettings(settings));
			return { report: formatNotificationResult(result), problems: result.problems };
		}
	},
	{
		name: "templates",
		async run(settings) {
			const result = await benchTemplates(settings);
			return { report: formatTemplateResult(result), problems: result.problems };
		}
	},
	{
		name: "inbox",
		async run(settings) {
			const result = await benchInbox(settings);
			return { report: formatInboxResult(result), problems: result.problems };
		}
	},
	{
		name: "outbound",
		async run() {
			const result = await benchOutbound();
			return { report: formatOutboundResult(result), problems: result.problems };
		}
	},
	{
		name: "alerts",
		async run() {
			const result = await benchAlerts();
			return { report: formatAlertResult(result), problems: result.problems };
		}
	},
	{
		name: "mfa",
		async run() {
			const result = await benchMfa();
			return { report: formatMfaResult(result), problems: result.problems };
		}
	},
	{
		name: "compare",
		async run(settings) {
			const result = await benchCompare(compareSettings(settings));
			return { report: formatCompareResult(result), problems: result.problems };
		}
	},
	{
		name: "auth",
		async run(settings) {
			const result = await benchAuth(authSettings(settings));
			return { report: formatAuthResult(result), problems: result.problems };
		}
	},
	{
		name: "start",
		async run(settings) {
			const result = await benchStart(startSettings(settings));
			return { report: formatStartResult(result), problems: result.problems };
		}
	},
	{
		name: "instructions",
		onlyWhenNamed: true,
		async run() {
			const result = await benchInstructions(instructionSettings(), describeMachine());
			return { report: formatInstructionResult(result), problems: result.problems };
		}
	},
	{
		name: "soak",
		onlyWhenNamed: true,
		async run() {
			const result = await benchSoak();
			return { report: formatSoakResult(result), problems: result.problems };
		}
	}
];

function selected(names: string[]): Bench[] {
	if (names.length === 0) return BENCHES.filter(b => !b.onlyWhenNamed);
	const unknown = names.filter(n => !BENCHES.some(b => b.name === n));
	if (unknown.length) throw new Error(`Unknown benchmark(s): ${unknown.join(", ")} (known: ${BENCHES.map(b => b.name).join(", ")})`);
	return BENCHES.filter(b => names.includes(b.name));
}

async function main(): Promise<number> {
	const args = process.argv.slice(2).filter(a => a !== "--quick");
	// Before any settings are read: every default depends on it.
	if (args.length < process.argv.length - 2) process.env.BENCH_QUICK = "1";
	if (args[0] === "profile") {
		process.stdout.write(`${await runProfile(args.slice(1))}\n`);
		return 0;
	}
	const benches = selected(args);
	const settings = benchSettings();
	let broken = 0;
	for (const bench of benches) {
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
	if (broken) process.stderr.write(`\n!!! ${broken} of ${benches.length} benchmark(s) broke; see above.\n`);
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
