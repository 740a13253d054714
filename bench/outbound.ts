/**
 * What one outbound webhook endpoint adds per notification. The same batch of
 * notifications is accepted and sent twice on one node (file email provider):
 * without an endpoint, then with one endpoint (a loopback receiver answering 200)
 * for their owner. Reported: accepted→SENT per second in each run, and webhook
 * deliveries per second (two per notification: queued and sent) until all are
 * delivered.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createBroker } from "../index";
import { loadConfig } from "../lib/config";
import type { NotificationDoc } from "../lib/notifications";
import type { DeliveryDoc } from "../lib/outbound/model";
import { runtimeOf } from "../lib/runtime";
import { DEPLOYMENT_ENV, makeTempDir, removeTempDir, serviceSender } from "./lib";

export interface OutboundBenchResult {
	count: number;
	sentPerSecondWithout: number;
	sentPerSecondWith: number;
	deliveriesPerSecond: number;
	problems: string[];
}

async function post(base: string, path: string, body: unknown, token?: string): Promise<any> {
	const res = await fetch(base + path, {
		method: "POST",
		headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
		body: JSON.stringify(body)
	});
	if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
	return res.json();
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
		await new Promise(r => setTimeout(r, 20));
	}
}

export async function benchOutbound(quick = process.env.BENCH_QUICK === "1"): Promise<OutboundBenchResult> {
	const count = quick ? 200 : 2000;
	const dataDir = await makeTempDir("bench-outbound-");
	let delivered = 0;
	const receiver = http.createServer((req, res) => {
		req.resume();
		req.on("end", () => {
			delivered += 1;
			res.end();
		});
	});
	await new Promise<void>(r => receiver.listen(0, "127.0.0.1", r));
	const config = loadConfig({ ...DEPLOYMENT_ENV, PORT: "0", LOG_LEVEL: "silent", DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_POLL_MS: "50", WEBHOOK_CONCURRENCY: "32", DISPATCHER_POLL_MS: "50" });
	const broker = createBroker(config);
	const problems: string[] = [];
	try {
		await broker.start();
		const api = broker.getLocalService("api") as unknown as { server: http.Server };
		const base = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
		// A backend service sends, and owns the webhook endpoint.
		const token = await serviceSender(base);
		const store = runtimeOf(broker).store();
		const notifications = store.collection<NotificationDoc>("notifications");

		const run = async (label: string, sentBefore: number): Promise<number> => {
			const start = Date.now();
			for (let i = 0; i < count; i += 50) {
				await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => post(base, "/notifications", { to: `${label}${i + j}@example.com`, template: { subject: "s", text: "t" } }, token)));
			}
			await until(async () => (await notifications.count({ status: "SENT" })) >= sentBefore + count, 120_000);
			return count / ((Date.now() - start) / 1000);
		};

		const sentPerSecondWithout = await run("without", 0);
		await post(base, "/webhook-endpoints", { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` }, token);
		const startWith = Date.now();
		const sentPerSecondWith = await run("with", count);
		await until(async () => (await store.collection<DeliveryDoc>("webhook_deliveries").count({ state: "DELIVERED" })) === 2 * count, 300_000);
		const deliveriesPerSecond = (2 * count) / ((Date.now() - startWith) / 1000);
		if (delivered < 2 * count) problems.push(`the receiver got ${delivered} of ${2 * count} deliveries`);
		return { count, sentPerSecondWithout, sentPerSecondWith, deliveriesPerSecond, problems };
	} finally {
		await broker.stop();
		await new Promise(r => receiver.close(r));
		await removeTempDir(dataDir);
	}
}

export function formatOutboundResult(r: OutboundBenchResult): string {
	const f = (n: number) => Math.round(n).toLocaleString("en-US");
	return [
		`${r.count} notifications on one node (file email provider), one loopback webhook endpoint in the second run`,
		"| run | accepted→SENT /s | webhook deliveries /s |",
		"|---|---:|---:|",
		`| no endpoint | ${f(r.sentPerSecondWithout)} | – |`,
		`| one endpoint | ${f(r.sentPerSecondWith)} | ${f(r.deliveriesPerSecond)} |`,
		...(r.problems.length ? [`PROBLEMS: ${r.problems.join("; ")}`] : [])
	].join("\n");
}
