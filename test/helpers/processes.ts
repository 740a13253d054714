/**
 * Runs platform nodes as real OS processes (the compiled dist/index.js, as
 * `npm start` does), for tests that cross process boundaries.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const ENTRY = path.join(__dirname, "../../dist/index.js");

export interface NodeProcess {
	child: ChildProcess;
	output(): string;
	stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export { freePort } from "../../harness/processes";

export function startNode(env: Record<string, string>): NodeProcess {
	if (!fs.existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run "npm run build" first (npm test does)`);
	const child = spawn(process.execPath, [ENTRY], {
		env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "warn", ...env },
		stdio: ["ignore", "pipe", "pipe"]
	});
	let out = "";
	child.stdout!.on("data", d => (out += d));
	child.stderr!.on("data", d => (out += d));
	const exited = new Promise<number | null>(resolve => child.once("exit", code => resolve(code)));
	return {
		child,
		output: () => out,
		stop: async (signal = "SIGTERM") => {
			if (child.exitCode === null && child.signalCode === null) child.kill(signal);
			return exited;
		}
	};
}

/** Polls until check() is true or the deadline passes; no fixed sleeps. A small maxDelayMs catches short-lived states. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 20000, maxDelayMs = 250): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let delay = Math.min(25, maxDelayMs);
	while (Date.now() < deadline) {
		if (await check().catch(() => false)) return;
		await new Promise(r => setTimeout(r, delay));
		delay = Math.min(delay * 2, maxDelayMs);
	}
	throw new Error(`Timed out waiting for ${what}`);
}
