/**
 * Runs platform nodes as real OS processes (the compiled dist/index.js, as
 * `npm start` does), for tests that cross process boundaries.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import { PLATFORM_ENTRY, spawnProcess } from "../../harness/processes";

export const ENTRY = PLATFORM_ENTRY;

export interface NodeProcess {
	child: ChildProcess;
	output(): string;
	stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export { freePort } from "../../harness/processes";

/** Tests search the whole log of a node, so far more of it is kept than the benchmarks keep. */
const TEST_OUTPUT_KEEP_CHARS = 4 * 1024 * 1024;

export function startNode(env: Record<string, string>): NodeProcess {
	if (!fs.existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run "npm run build" first (npm test does)`);
	const node = spawnProcess({
		name: env.NODE_ID ?? "node",
		args: [ENTRY],
		env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "warn", ...env },
		keepChars: TEST_OUTPUT_KEEP_CHARS
	});
	return { child: node.process, output: node.output, stop: node.stop };
}

/** Polls until check() is true or the deadline passes; no fixed sleeps. A small maxDelayMs catches short-lived states. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 20000, maxDelayMs = 250, explain?: () => string): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let delay = Math.min(25, maxDelayMs);
	while (Date.now() < deadline) {
		if (await check().catch(() => false)) return;
		await new Promise(r => setTimeout(r, delay));
		delay = Math.min(delay * 2, maxDelayMs);
	}
	throw new Error(`Timed out waiting for ${what}${explain ? `\n${explain()}` : ""}`);
}

/** What a failed wait on started nodes prints: whether each still runs, and the end of what it wrote. */
export function describeNodes(nodes: NodeProcess[], tailChars = 3000): string {
	return nodes
		.map((n, i) => {
			const state = n.child.exitCode !== null || n.child.signalCode !== null ? `exited (${n.child.exitCode ?? n.child.signalCode})` : "running";
			return `node ${i} (pid ${n.child.pid}) ${state}; its output ends:\n${n.output().slice(-tailChars)}`;
		})
		.join("\n");
}

/** Each thread of this process and its nice value (Linux: field 19 of /proc/self/task/<tid>/stat). */
export function threadNiceValues(): Map<number, number> {
	return new Map(
		fs.readdirSync("/proc/self/task").map(tid => {
			const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
			return [Number(tid), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16])];
		})
	);
}
