/**
 * The container health check (dist/lib/healthcheck.js, the Dockerfile's HEALTHCHECK and
 * every platform service's in docker-compose.yml) run as the container runs it: a
 * process reading the node's environment, against real platform nodes. Two stand-in
 * servers answer what a real node answers only for a moment (a 503 while stopping,
 * metrics before the transporter connects).
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { tempDir } from "../helpers/platform";
import { ENTRY, freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { describeWith, NATS_URL, uniqueName } from "../helpers/services";

const HEALTHCHECK = path.join(path.dirname(ENTRY), "lib", "healthcheck.js");

interface Outcome {
	code: number;
	stderr: string;
}

/** Asynchronous, so the stand-in servers of this process can answer it. */
function runHealthcheck(env: Record<string, string>): Promise<Outcome> {
	return new Promise(resolve => {
		execFile(process.execPath, [HEALTHCHECK], { env: { PATH: process.env.PATH ?? "", ...env }, timeout: 15000 }, (err, _stdout, stderr) => {
			resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stderr });
		});
	});
}

async function standIn(status: number, body: string): Promise<{ port: number; close(): Promise<void> }> {
	const server = http.createServer((_req, res) => res.writeHead(status, { "content-type": "text/plain" }).end(body));
	await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
	return { port: (server.address() as AddressInfo).port, close: () => new Promise(resolve => server.close(() => resolve())) };
}

describe("the container health check on a node with the gateway", () => {
	let node: NodeProcess;
	let dataDir: string;
	let port: number;

	beforeAll(async () => {
		dataDir = tempDir();
		port = await freePort();
		node = startNode({ PORT: String(port), DATA_DIR: dataDir });
		await waitFor("the platform to be ready", async () => (await fetch(`http://127.0.0.1:${port}/health/ready`)).status === 200, 30000, 250, () => node.output());
	}, 40000);

	afterAll(async () => {
		await node?.stop();
		fs.rmSync(dataDir, { recursive: true, force: true });
	});

	it("should exit 0 when /health/ready answers 200", async () => {
		await expect(runHealthcheck({ PORT: String(port) })).resolves.toEqual({ code: 0, stderr: "" });
	});

	it("should exit 1 naming the refused connection when nothing listens on PORT", async () => {
		const outcome = await runHealthcheck({ PORT: String(await freePort()) });
		expect(outcome.code).toBe(1);
		expect(outcome.stderr).toMatch(/^unhealthy: fetch failed \(.*ECONNREFUSED.*\)\n$/);
	});

	it("should exit 1 with the answer when /health/ready answers 503", async () => {
		const stopping = await standIn(503, '{"status":"unavailable","checks":{"node":"stopping"}}');
		try {
			const outcome = await runHealthcheck({ PORT: String(stopping.port) });
			expect(outcome).toEqual({ code: 1, stderr: expect.stringContaining(`/health/ready answered 503: {"status":"unavailable"`) });
		} finally {
			await stopping.close();
		}
	});

	it("should exit 1 naming the variable when the configuration is invalid", async () => {
		await expect(runHealthcheck({ PORT: "not-a-port" })).resolves.toEqual({ code: 1, stderr: 'unhealthy: Invalid configuration: PORT must be a whole number (got "not-a-port")\n' });
	});
});

describe("the container health check on a node without the gateway", () => {
	it("should exit 1 asking for METRICS_PORT when it has nothing to probe", async () => {
		await expect(runHealthcheck({ SERVICES: "dispatcher" })).resolves.toEqual({
			code: 1,
			stderr: "unhealthy: a node without the gateway is probed through its metrics: set METRICS_PORT\n"
		});
	});

	it("should exit 1 when the metrics do not say the broker is connected to NATS", async () => {
		const unconnected = await standIn(200, 'moleculer_transit_connected{namespace="x",nodeID="n"} 0\n');
		try {
			const outcome = await runHealthcheck({ SERVICES: "actors", METRICS_PORT: String(unconnected.port), NATS_URL });
			expect(outcome).toEqual({ code: 1, stderr: expect.stringContaining("not connected to NATS") });
		} finally {
			await unconnected.close();
		}
	});
});

describeWith("NATS", "the container health check on a node over NATS", () => {
	let node: NodeProcess;
	let dataDir: string;
	let env: Record<string, string>;

	beforeAll(async () => {
		dataDir = tempDir();
		env = { SERVICES: "actors", NATS_URL, NAMESPACE: uniqueName("health"), METRICS_PORT: String(await freePort()) };
		node = startNode({ ...env, DATA_DIR: dataDir, NODE_ID: "health-actors" });
	});

	afterAll(async () => {
		await node?.stop();
		fs.rmSync(dataDir, { recursive: true, force: true });
	});

	it("should exit 0 once the node's metrics say it is connected, and 1 after it stopped", async () => {
		let last: Outcome = { code: -1, stderr: "not run yet" };
		await waitFor("the health check to pass", async () => (last = await runHealthcheck(env)).code === 0, 30000, 250, () => `${last.stderr}\n${node.output()}`);
		await node.stop("SIGTERM");
		const after = await runHealthcheck(env);
		expect(after.code).toBe(1);
		expect(after.stderr).toMatch(/^unhealthy: fetch failed \(.*ECONNREFUSED.*\)\n$/);
	}, 45000);
});
