/**
 * Verified webhook messages per second: SNS Notification messages, signed with a
 * certificate made here and served over local HTTPS, posted to the delivery-outcome
 * webhook. Every request is verified (RSA-SHA256 over the canonical string); the
 * certificate is fetched once and then comes from the cache, which the bench checks.
 * Next to it, from the same run: a bare node:http server, and the gateway answering
 * GET /health/live (the gateway's own cost with no work behind it).
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { makeCert, notification, sesEvent, sign, startHttpsHost } from "../harness/sns";
import {
	formatLoadTable,
	HOST,
	PLATFORM_ENTRY,
	PROJECT_ROOT,
	benchSettings,
	childEnv,
	describeMachine,
	expectStatus,
	fmtInt,
	freePort,
	isClean,
	makeTempDir,
	measureBare,
	problemsOf,
	profileArgs,
	removeTempDir,
	runLoad,
	startChild,
	withOutput,
	type BenchSettings,
	type LoadResult
} from "./lib";

export interface WebhookBenchResult {
	settings: BenchSettings;
	bare: LoadResult;
	gateway: LoadResult;
	webhook: LoadResult;
	/** Certificate downloads during the whole run: 1 when the cache works. */
	certificateFetches: number;
	problems: string[];
}

const EXPECTED = JSON.stringify({ outcome: "unknown-message" });

export async function benchWebhook(settings: BenchSettings = benchSettings()): Promise<WebhookBenchResult> {
	const cert = makeCert();
	const host = await startHttpsHost(cert, cert.cert);
	const dataDir = await makeTempDir("bench-webhook-");
	const caFile = path.join(dataDir, "sns-test-ca.pem");
	writeFileSync(caFile, cert.cert);
	const certPath = "/SimpleNotificationService-bench.pem";
	// A Delivery for a message id the platform never sent: verified, looked up, skipped (200).
	const body = JSON.stringify(sign(notification(sesEvent("Delivery", `bench-${randomUUID()}`), `https://localhost:${host.port}${certPath}`), cert.key));
	try {
		const bare = await measureBare(settings, { status: 200, responseBody: EXPECTED, path: "/notifications/webhooks/email-provider", method: "POST", headers: { "Content-Type": "text/plain" }, requestBody: body });
		const port = await freePort();
		const base = `http://${HOST}:${port}`;
		const child = await startChild({
			name: "platform",
			args: [...profileArgs(), PLATFORM_ENTRY],
			cwd: PROJECT_ROOT,
			// The child trusts the bench's certificate the way a deployment trusts Amazon's.
			env: childEnv({ PORT: String(port), DATA_DIR: path.join(dataDir, "data"), LOG_LEVEL: "warn", SNS_SIGNING_CERT_HOST_PATTERN: "^localhost:\\d+$", NODE_EXTRA_CA_CERTS: caFile }),
			readyUrl: `${base}/health/ready`,
			deadlineMs: settings.startTimeoutMs
		});
		try {
			const live = await expectStatus(await fetch(`${base}/health/live`), 200, "GET /health/live");
			const gateway = await runLoad({ url: `${base}/health/live`, expectBody: live, serverPid: child.process.pid, ...settings });
			const first = await expectStatus(
				await fetch(`${base}/notifications/webhooks/email-provider`, { method: "POST", headers: { "Content-Type": "text/plain" }, body }),
				200,
				"POST /notifications/webhooks/email-provider"
			);
			if (first !== EXPECTED) throw new Error(`The webhook answered ${first}, not ${EXPECTED}`);
			const webhook = await runLoad({
				url: `${base}/notifications/webhooks/email-provider`,
				method: "POST",
				headers: { "Content-Type": "text/plain" },
				body,
				expectBody: EXPECTED,
				serverPid: child.process.pid,
				...settings
			});
			const certificateFetches = host.hits.get(certPath) ?? 0;
			const problems = [...problemsOf("bare", bare), ...problemsOf("gateway", gateway), ...problemsOf("webhook", webhook)];
			if (!isClean(bare) || !isClean(gateway) || !isClean(webhook)) problems.push("THE NUMBERS ABOVE ARE MEANINGLESS: not every request got the expected 2xx response.");
			if (certificateFetches !== 1) problems.push(`The certificate was fetched ${certificateFetches} times, not once: the cache did not hold.`);
			return { settings, bare, gateway, webhook, certificateFetches, problems };
		} catch (err) {
			throw withOutput(err, child);
		} finally {
			await child.stop();
		}
	} finally {
		await host.close();
		removeTempDir(dataDir);
	}
}

export function formatWebhookResult(r: WebhookBenchResult): string {
	const s = r.settings;
	return [
		`Signed SNS Notification messages, verified on every request (certificate cached): ${s.durationSec} s at ${s.connections} connections after a ${s.warmupSec} s warm-up`,
		describeMachine(),
		"",
		formatLoadTable([
			["bare node:http", r.bare],
			["gateway GET /health/live", r.gateway],
			["webhook, verified", r.webhook]
		]),
		"",
		`verified messages/s: ${fmtInt(r.webhook.reqPerSec)}; ${((r.webhook.reqPerSec / r.gateway.reqPerSec) * 100).toFixed(1)}% of the gateway baseline; certificate fetched ${r.certificateFetches} time(s)`,
		...(r.problems.length ? ["", ...r.problems.map(p => `!!! ${p}`)] : [])
	].join("\n");
}
