/**
 * The `sid` deny list across nodes, over real NATS: auth with actors on one node, two
 * gateway-only nodes without a store. A user signs in on two "devices" (different user
 * agents); one device ends the other's session through the other gateway node. That
 * session's refresh token is refused at once, its access token within a second on both
 * gateways (each had verified and cached it before), and a gateway that starts
 * afterwards loads the denial before its first request; the other device keeps working.
 */
import { decodeJwt } from "jose";
import fs from "node:fs";
import { expectStatus, http, newUser, tempDir } from "../helpers/platform";
import { freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { describeWith, NATS_URL, uniqueName } from "../helpers/services";

const PHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1";
const LAPTOP_UA = "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36";

describeWith("NATS", "sessions ended across nodes", () => {
	const nodes: NodeProcess[] = [];
	const dirs: string[] = [];
	const dir = () => {
		dirs.push(tempDir());
		return dirs[dirs.length - 1]!;
	};
	let gw1: string;
	let gw2: string;
	let common: Record<string, string>;

	async function gateway(id: string): Promise<string> {
		const port = await freePort();
		const url = `http://127.0.0.1:${port}`;
		nodes.push(startNode({ ...common, SERVICES: "api-gateway", PORT: String(port), NODE_ID: id, DATA_DIR: dir() }));
		await waitFor(`${id} to be ready`, async () => (await http(url, "GET", "/health/ready").catch(() => ({ status: 0 }))).status === 200, 30000);
		return url;
	}

	beforeAll(async () => {
		common = { NATS_URL, NAMESPACE: uniqueName("it-sessions"), PUBLIC_URL: "http://127.0.0.1", RATE_LIMIT_LOGIN_PER_IP: "100000", RATE_LIMIT_REGISTER_PER_IP: "100000" };
		nodes.push(startNode({ ...common, SERVICES: "auth,actors", NODE_ID: "auth", DATA_DIR: dir() }));
		gw1 = await gateway("gw1");
		gw2 = await gateway("gw2");
	}, 60000);

	afterAll(async () => {
		await Promise.all(nodes.map(n => n.stop()));
		for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
	});

	it("should refuse the ended session's refresh token at once and its access token within a second on every node, and keep the other device", async () => {
		const user = newUser();
		expectStatus(await http(gw1, "POST", "/auth/register", { json: user }), 201);
		const signIn = async (base: string, ua: string) => {
			const res = await http(base, "POST", "/auth/login", { json: { username: user.email, password: user.password }, headers: { "user-agent": ua } });
			expectStatus(res, 200);
			return { accessToken: res.body.accessToken as string, refreshToken: res.body.refreshToken as string, sid: decodeJwt(res.body.accessToken).sid as string };
		};
		const phone = await signIn(gw1, PHONE_UA);
		const laptop = await signIn(gw2, LAPTOP_UA);
		// Both gateways verify (and cache) both devices' tokens first.
		for (const base of [gw1, gw2]) for (const d of [phone, laptop]) expectStatus(await http(base, "GET", "/auth/sessions", { token: d.accessToken }), 200);
		const listed = await http(gw2, "GET", "/auth/sessions", { token: laptop.accessToken });
		expect(listed.body.items.find((s: { sessionId: string }) => s.sessionId === phone.sid)).toMatchObject({ userAgent: PHONE_UA, current: false });

		// The laptop ends the phone's session through the other gateway node.
		const endedAt = Date.now();
		expectStatus(await http(gw2, "DELETE", `/auth/sessions/${phone.sid}`, { token: laptop.accessToken }), 204);
		expectStatus(await http(gw1, "POST", "/auth/tokens/refresh", { json: { refreshToken: phone.refreshToken } }), 401);
		for (const base of [gw1, gw2]) {
			await waitFor(`the phone's access token to be refused by ${base}`, async () => (await http(base, "GET", "/auth/sessions", { token: phone.accessToken })).status === 401, 1000, 20);
		}
		expect(Date.now() - endedAt).toBeLessThan(1000);
		// Refused for good, not by chance.
		for (const base of [gw1, gw2]) expectStatus(await http(base, "GET", "/auth/me", { token: phone.accessToken }), 401);

		// The laptop keeps working on both nodes, and its refresh token too.
		for (const base of [gw1, gw2]) expectStatus(await http(base, "GET", "/auth/me", { token: laptop.accessToken }), 200);
		expectStatus(await http(gw1, "POST", "/auth/tokens/refresh", { json: { refreshToken: laptop.refreshToken } }), 200);

		// A gateway that starts now has not heard the broadcast: it loads the denial before its first request.
		const gw3 = await gateway("gw3");
		expectStatus(await http(gw3, "GET", "/auth/me", { token: phone.accessToken }), 401);
		expectStatus(await http(gw3, "GET", "/auth/me", { token: laptop.accessToken }), 200);
	}, 60000);
});
