/**
 * A gateway on a machine of its own: a gateway-only node whose DATA_DIR is empty and
 * read-only, and auth with actors on another node with its own store, over real NATS.
 * The gateway verifies tokens with the public keys it gets from the auth service; it
 * never opens a store and never writes or invents a key. Tests run as root in CI, and
 * root ignores directory permissions, so the directory is also listed afterwards.
 */
import fs from "node:fs";
import { http, registerLoginAndRead, tempDir } from "../helpers/platform";
import { freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { describeWith, NATS_URL, uniqueName } from "../helpers/services";

describeWith("NATS", "a gateway node without data of its own", () => {
	let gateway: NodeProcess;
	let auth: NodeProcess | undefined;
	let baseUrl: string;
	let gatewayDir: string;
	let authDir: string;
	let common: Record<string, string>;

	beforeAll(async () => {
		gatewayDir = tempDir();
		authDir = tempDir();
		fs.chmodSync(gatewayDir, 0o555);
		const port = await freePort();
		baseUrl = `http://127.0.0.1:${port}`;
		common = { NATS_URL, NAMESPACE: uniqueName("it-keys"), PUBLIC_URL: baseUrl };
		gateway = startNode({ ...common, SERVICES: "api-gateway", PORT: String(port), NODE_ID: "gw", DATA_DIR: gatewayDir });
		await waitFor("the gateway to join NATS", async () => (await http(baseUrl, "GET", "/health/ready")).body?.checks?.transporter === "ok", 30000);
	}, 40000);

	afterAll(async () => {
		await Promise.all([gateway?.stop(), auth?.stop()]);
		fs.chmodSync(gatewayDir, 0o700);
		fs.rmSync(gatewayDir, { recursive: true, force: true });
		fs.rmSync(authDir, { recursive: true, force: true });
	});

	it("should report keys down on /health/ready, and log why, when no auth service is reachable", async () => {
		const ready = await http(baseUrl, "GET", "/health/ready");

		expect(ready.status).toBe(503);
		expect(ready.body).toEqual({ status: "unavailable", checks: { transporter: "ok", keys: "down" } });
		await waitFor("the reason in the gateway's log", async () => gateway.output().includes("The signing keys could not be obtained from auth.jwks"));
	});

	it("should register, log in and read the actor through the gateway once auth runs on another node", async () => {
		auth = startNode({ ...common, SERVICES: "auth,actors", NODE_ID: "auth", DATA_DIR: authDir });
		await waitFor("the gateway to be ready", async () => (await http(baseUrl, "GET", "/health/ready")).status === 200, 30000);
		expect((await http(baseUrl, "GET", "/health/ready")).body).toEqual({ status: "ok", checks: { transporter: "ok", keys: "ok" } });

		await registerLoginAndRead(baseUrl);
		const jwks = await http(baseUrl, "GET", "/.well-known/jwks.json");
		expect(jwks.body.keys).toHaveLength(1);
		expect(JSON.stringify(jwks.body)).not.toMatch(/"d"\s*:/);
	}, 40000);

	it("should have written nothing to the gateway's DATA_DIR", async () => {
		await gateway.stop();
		expect(fs.readdirSync(gatewayDir)).toEqual([]);
		expect(fs.readdirSync(authDir)).toContain("store.sqlite");
	});
});
