/**
 * The container health check (the Dockerfile's HEALTHCHECK, docker-compose.yml):
 * `node dist/lib/healthcheck.js` exits 0 when this node, read from the same
 * environment as the platform, is healthy and 1 with the reason when not. A node with
 * the gateway is healthy when its GET /health/ready answers 200 (store, transporter,
 * Redis and keys, as the gateway checks them). Other nodes serve no HTTP but their
 * Prometheus metrics (METRICS_PORT): healthy once those answer and, with NATS, say the
 * broker is connected. Node's own fetch, so the image needs no curl.
 */
import { ConfigError, loadConfig, type Config } from "./config";

const PROBE_TIMEOUT_MS = 3000;

/** Moleculer's gauge of the transporter connection, as Prometheus prints it (with its labels). */
const CONNECTED = /^moleculer_transit_connected(\{[^}]*\})? 1$/m;

/** Why this node is not healthy, or undefined when it is. */
async function unhealthy(config: Config): Promise<string | undefined> {
	if (config.services.includes("api-gateway")) {
		const url = `http://127.0.0.1:${config.port}/health/ready`;
		const res = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
		const body = await res.text();
		return res.status === 200 ? undefined : `${url} answered ${res.status}: ${body.slice(0, 300)}`;
	}
	if (config.metricsPort === undefined) return "a node without the gateway is probed through its metrics: set METRICS_PORT";
	const url = `http://127.0.0.1:${config.metricsPort}/metrics`;
	const res = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
	const metrics = await res.text();
	if (res.status !== 200) return `${url} answered ${res.status}`;
	if (config.natsUrl !== undefined && !CONNECTED.test(metrics)) return `not connected to NATS (${url} has no moleculer_transit_connected 1)`;
	return undefined;
}

/** fetch's own message is only "fetch failed"; the cause says what (ECONNREFUSED, a timeout). */
function reason(err: unknown): string {
	if (err instanceof ConfigError) return err.message;
	const e = err as Error & { cause?: { message?: string } };
	return e.cause?.message ? `${e.message} (${e.cause.message})` : e.message;
}

Promise.resolve()
	.then(() => unhealthy(loadConfig()))
	.catch((err: unknown) => reason(err))
	.then(problem => {
		if (problem) process.stderr.write(`unhealthy: ${problem}\n`);
		process.exit(problem ? 1 : 0);
	});
