/**
 * The gateway with auth and the actor service as two OS processes over real NATS,
 * sharing one embedded store: register, log in, read the profile, refresh.
 */
import fs from "node:fs";
import { expectStatus, http, newUser, registerLoginAndRead, tempDir } from "../helpers/platform";
import { freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { describeWith, NATS_URL, uniqueName } from "../helpers/services";

describeWith("NATS", "services split across processes over NATS", () => {
	let gateway: NodeProcess;
	let actors: NodeProcess;
	let baseUrl: string;
	let dataDir: string;

	beforeAll(async () => {
		dataDir = tempDir();
		const port = await freePort();
		baseUrl = `http://127.0.0.1:${port}`;
		const common = { NATS_URL, NAMESPACE: uniqueName("it"), DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}` };
		gateway = startNode({ ...common, SERVICES: "api-gateway,auth", PORT: String(port), NODE_ID: "gw" });
		actors = startNode({ ...common, SERVICES: "actors", NODE_ID: "actors" });
		// Until the actor node is known the gateway answers 503; then 401 (it checks the token after finding the service).
		await waitFor("the actor node to join", async () => {
			const res = await http(baseUrl, "GET", "/actors/00000000-0000-4000-8000-000000000000");
			return res.status === 401;
		}, 30000);
	}, 40000);

	afterAll(async () => {
		await Promise.all([gateway?.stop(), actors?.stop()]);
		fs.rmSync(dataDir, { recursive: true, force: true });
	});

	it("should register, log in, read the actor and refresh when the actor service is on another node", async () => {
		const { actorId, login } = await registerLoginAndRead(baseUrl);
		const refreshed = await http(baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: login.refreshToken } });
		expect(refreshed.status).toBe(200);
		const again = await http(baseUrl, "GET", `/actors/${actorId}`, { token: refreshed.body.accessToken });
		expect(again.status).toBe(200);
	});

	it("should answer 401 when the same GET has no token", async () => {
		const res = await http(baseUrl, "GET", "/actors/00000000-0000-4000-8000-000000000000");
		expect(res.status).toBe(401);
		expect(res.body.code).toBe("UNAUTHORIZED");
	});

	it("should report the transporter and the signing keys in readiness when NATS is configured", async () => {
		const res = await http(baseUrl, "GET", "/health/ready");
		expect(res.status).toBe(200);
		expect(res.body.checks).toEqual({ store: "ok", storage: "ok", transporter: "ok", keys: "ok" });
	});

	it("should answer 503 quickly when the actor node is gone", async () => {
		const user = newUser();
		const reg = await http(baseUrl, "POST", "/auth/register", { json: user });
		expectStatus(reg, 201);
		await actors.stop("SIGTERM");
		await waitFor("the gateway to notice the actor node left", async () => {
			const res = await http(baseUrl, "GET", `/actors/${reg.body.actorId}`, { token: reg.body.accessToken });
			return res.status === 503;
		});
		const res = await http(baseUrl, "GET", `/actors/${reg.body.actorId}`, { token: reg.body.accessToken });
		expect(res.body.code).toBe("UPSTREAM_UNAVAILABLE");
	});
});
