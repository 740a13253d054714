/**
 * Security alerts (issue 37): how long from an alertable audit event to its alert
 * queued (the CRITICAL notification stored, durable), p50/p95/p99, against the goal of
 * under a second at p95. In one process, on the embedded SQLite store (its worker
 * thread) with the platform's own NotificationIntake, AuditLog and SecurityAlerts: the
 * path an auth node runs inside the request that caused the event. Events are recorded
 * `BENCH_ALERT_CONCURRENCY` at a time (default 16), as parallel requests would. The goal
 * is printed, never enforced; what fails the run is an alert that was not queued.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CODE_VARIABLE, LINK_VARIABLE } from "../lib/accounts/lifecycle-mail";
import { SecurityAlerts } from "../lib/accounts/security-alerts";
import { AuditLog, type AuditEventType } from "../lib/audit";
import { NotificationIntake, StatusPublisher } from "../lib/notifications";
import { createStore } from "../lib/store";
import { envInt, envIntQuick, fmtInt, fmtMs, formatTable } from "./lib";

/** The contract's goal for event → alert queued, at p95. */
export const GOAL_P95_MS = 1000;

const TYPES: AuditEventType[] = ["auth.signed_in_new_device", "auth.password_changed", "auth.mfa_enrolled", "auth.refresh_reuse_detected"];

export interface AlertBenchResult {
	count: number;
	concurrency: number;
	p50Ms: number;
	p95Ms: number;
	p99Ms: number;
	maxMs: number;
	perSec: number;
	problems: string[];
}

function percentile(sorted: number[], p: number): number {
	return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
}

export async function benchAlerts(): Promise<AlertBenchResult> {
	const count = envIntQuick("BENCH_ALERT_COUNT", 2000, 200, 1);
	const concurrency = envInt("BENCH_ALERT_CONCURRENCY", 16, 1);
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-alerts-"));
	const store = createStore({ dataDir, mongodbUrl: undefined, tracing: undefined });
	const problems: string[] = [];
	try {
		const intake = new NotificationIntake(store, new StatusPublisher(), { sendTimeVariables: () => [LINK_VARIABLE, CODE_VARIABLE] });
		const audit = new AuditLog(() => store, (message, fields) => problems.push(`${message} ${JSON.stringify(fields)}`));
		const latencies: number[] = [];
		SecurityAlerts.attach({ store: () => store, intake: () => intake, audit, warn: (message, fields) => problems.push(`${message} ${JSON.stringify(fields)}`), observe: (_type, ms) => latencies.push(ms) });
		const actors = store.collection<{ id: string; email: string; firstName: string }>("actors");
		const ids = Array.from({ length: 64 }, (_, i) => `0190a0a0-0000-7000-8000-${String(i).padStart(12, "0")}`);
		for (const [i, id] of ids.entries()) await actors.insert({ id, email: `bench-${i}@example.test`, firstName: "Bench" });
		const origin = { ip: "203.0.113.7", userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0", sessionId: "bench-session" };
		const warmup = Math.min(100, count);
		let next = 0;
		const run = async (total: number) => {
			next = 0;
			await Promise.all(
				Array.from({ length: concurrency }, async () => {
					while (next < total) {
						const i = next++;
						await audit.record(TYPES[i % TYPES.length]!, ids[i % ids.length]!, origin);
					}
				})
			);
		};
		await run(warmup);
		latencies.length = 0;
		const began = performance.now();
		await run(count);
		const seconds = (performance.now() - began) / 1000;
		const queued = await store.collection("notifications").count({ priority: "CRITICAL", category: "security" });
		if (latencies.length !== count) problems.push(`${count - latencies.length} of ${count} events raised no alert`);
		if (queued !== count + warmup) problems.push(`${queued} alerts stored, ${count + warmup} expected`);
		const sorted = [...latencies].sort((a, b) => a - b);
		return { count, concurrency, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), p99Ms: percentile(sorted, 99), maxMs: sorted[sorted.length - 1] ?? NaN, perSec: count / seconds, problems };
	} finally {
		await store.close();
		fs.rmSync(dataDir, { recursive: true, force: true });
	}
}

export function formatAlertResult(r: AlertBenchResult): string {
	return [
		`Security alerts: audit event -> CRITICAL alert queued (stored), ${fmtInt(r.count)} events, ${r.concurrency} at a time, SQLite`,
		"",
		formatTable([
			["events/s", "p50", "p95", "p99", "max"],
			[`${fmtInt(r.perSec)}/s`, fmtMs(r.p50Ms), fmtMs(r.p95Ms), fmtMs(r.p99Ms), fmtMs(r.maxMs)]
		]),
		"",
		r.p95Ms < GOAL_P95_MS ? `p95 ${fmtMs(r.p95Ms)} < 1 s: meets the goal` : `p95 ${fmtMs(r.p95Ms)} >= 1 s: below the goal`,
		...(r.problems.length ? ["", ...r.problems.slice(0, 5).map(p => `!!! ${p}`)] : [])
	].join("\n");
}
