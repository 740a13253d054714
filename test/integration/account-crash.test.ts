/**
 * Registrations cut off by a dying node: the platform runs as an OS process, is
 * killed with SIGKILL while registrations are under way, and is started again on the
 * same data. Afterwards every email is either a complete account (login and profile)
 * or no account at all (it registers again); none is half made.
 */
import fs from "node:fs";
import path from "node:path";
import { decodeJwt } from "jose";
import { ACCOUNT_INTENTS } from "../../lib/accounts/intents";
import type { IdpUser } from "../../lib/idp/embedded";
import { SqliteStore } from "../../lib/store/sqlite";
import { http, newUser, tempDir } from "../helpers/platform";
import { freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";

const REGISTRATIONS = 20;

describe("registrations cut off by SIGKILL", () => {
	let dataDir: string;
	let node: NodeProcess | undefined;
	let store: SqliteStore | undefined;

	beforeAll(() => {
		dataDir = tempDir();
	});
	afterAll(async () => {
		await node?.stop();
		await store?.close();
		fs.rmSync(dataDir, { recursive: true, force: true });
	});

	it("should leave every email a complete account or none after a restart", async () => {
		const port = await freePort();
		const baseUrl = `http://127.0.0.1:${port}`;
		const env = {
			DATA_DIR: dataDir,
			PORT: String(port),
			NODE_ID: "crash",
			RATE_LIMIT_REGISTER_PER_IP: "1000",
			RATE_LIMIT_LOGIN_PER_IP: "1000"
		};
		const start = async (extra: Record<string, string> = {}) => {
			node = startNode({ ...env, ...extra });
			await waitFor("the platform to be ready", async () => (await http(baseUrl, "GET", "/health/ready")).status === 200, 30000);
		};
		await start();
		const db = new SqliteStore(path.join(dataDir, "store.sqlite"));
		store = db;
		const open = db.collection(ACCOUNT_INTENTS);
		const idpUsers = db.collection<IdpUser>("idp_users");
		const users = Array.from({ length: REGISTRATIONS }, () => newUser());
		let settled = 0;
		const attempts = users.map(u =>
			http(baseUrl, "POST", "/auth/register", { json: u })
				.then(res => res.status, () => 0)
				.finally(() => (settled += 1))
		);

		// Killed once the first actor profile exists: the other registrations are then
		// spread over the steps before it, and the store keeps their intents.
		await waitFor("the first actor profile", async () => settled === REGISTRATIONS || (await db.collection("actors").count({})) > 0, 30000, 5);
		await node!.stop("SIGKILL");
		const before = await Promise.all(attempts);
		expect(before.filter(status => status === 0).length).toBeGreaterThan(0);
		expect(await open.count({})).toBeGreaterThan(0);

		await start({ ACCOUNT_REPAIR_GRACE_SECONDS: "1" });
		await waitFor("the repair to settle every creation the kill cut off", async () => (await open.count({})) === 0, 30000);

		for (const [i, user] of users.entries()) {
			const login = await http(baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } });
			if (before[i] === 201) expect(login.status).toBe(200);
			if (login.status === 200) {
				const sub = decodeJwt(login.body.accessToken).sub!;
				const actor = await http(baseUrl, "GET", `/actors/${sub}`, { token: login.body.accessToken });
				expect({ email: user.email, status: actor.status }).toEqual({ email: user.email, status: 200 });
			} else {
				expect({ email: user.email, status: login.status }).toEqual({ email: user.email, status: 401 });
				const again = await http(baseUrl, "POST", "/auth/register", { json: user });
				expect({ email: user.email, status: again.status }).toEqual({ email: user.email, status: 201 });
			}
		}
		// Whatever the answers said, the store holds whole accounts only.
		const emails = users.map(u => u.email);
		const identities = await idpUsers.find({ pool: "actors", username: { $in: emails } });
		const actors = await db.collection<{ id: string; email: string }>("actors").find({ email: { $in: emails } });
		expect(identities).toHaveLength(REGISTRATIONS);
		expect(actors.map(a => [a.email, a.id]).sort()).toEqual(identities.map(u => [u.username, u.id]).sort());
	}, 120000);
});
