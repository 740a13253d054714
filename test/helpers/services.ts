/**
 * Real services the integration suites use. On a laptop without them a suite is
 * skipped with a printed reason; under CI (REQUIRE_SERVICES=1) a missing service
 * is an error, so nothing passes by skipping.
 */
import { execFileSync } from "node:child_process";

export const REQUIRE_SERVICES = process.env.REQUIRE_SERVICES === "1";
export const NATS_URL = process.env.TEST_NATS_URL ?? "nats://127.0.0.1:4222";
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Synchronous TCP probe, so describe blocks can be chosen at load time. */
function reachable(url: string): boolean {
	const u = new URL(url);
	const script = `const s=require("net").connect(${Number(u.port)},${JSON.stringify(u.hostname)});s.setTimeout(1500);s.on("connect",()=>process.exit(0));s.on("error",()=>process.exit(1));s.on("timeout",()=>process.exit(1));`;
	try {
		execFileSync(process.execPath, ["-e", script], { stdio: "ignore", timeout: 5000 });
		return true;
	} catch {
		return false;
	}
}

/** describe when the service answers; otherwise skip with a reason, or fail under CI. */
export function describeWith(service: "NATS" | "Redis", title: string, fn: () => void): void {
	const url = service === "NATS" ? NATS_URL : REDIS_URL;
	if (reachable(url)) {
		describe(title, fn);
		return;
	}
	if (REQUIRE_SERVICES) {
		describe(title, () => {
			it(`should reach ${service} at ${url}`, () => {
				throw new Error(`${service} is not reachable at ${url} and REQUIRE_SERVICES=1`);
			});
		});
		return;
	}
	console.warn(`Skipping "${title}": ${service} is not reachable at ${url} (set REQUIRE_SERVICES=1 to make this an error)`);
	describe.skip(title, fn);
}

/** A prefix no other run shares, for namespaces and keys on shared servers. */
export function uniqueName(prefix: string): string {
	return `${prefix}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** describe when the server programs exist (tests start private instances); otherwise skip with a reason, or fail under CI. */
export function describeWithPrograms(programs: Record<string, string | null>, title: string, fn: () => void): void {
	const missing = Object.entries(programs).filter(([, path]) => !path).map(([name]) => name);
	if (missing.length === 0) {
		describe(title, fn);
		return;
	}
	if (REQUIRE_SERVICES) {
		describe(title, () => {
			it(`should find ${missing.join(", ")}`, () => {
				throw new Error(`${missing.join(", ")} not installed and REQUIRE_SERVICES=1`);
			});
		});
		return;
	}
	console.warn(`Skipping "${title}": ${missing.join(", ")} not installed (set REQUIRE_SERVICES=1 to make this an error)`);
	describe.skip(title, fn);
}
