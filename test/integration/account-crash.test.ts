/**
 * Registrations cut off by dying nodes: the platform runs as OS processes, is killed
 * with SIGKILL while registrations are under way, and is started again on the same
 * data, with the default grace period. Afterwards every email is, within seconds,
 * either a complete account (login and profile) or no account at all (it registers
 * again); none is half made.
 */
import fs from "node:fs";
import path from "node:path";
import { decodeJwt } from "jose";
import { ACCOUNT_INTENTS, type AccountIntent } from "../../lib/accounts/intents";
import type { IdpUser } from "../../lib/idp/embedded";
import { SqliteStore } from "../../lib/store/sqlite";
import { http, newUser, tempDir } from "../helpers/platform";
import { describeNodes, freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { NATS_URL, describeWith, uniqueName } from "../helpers/services";

type User = ReturnType<typeof newUser>;

/** Far below the default grace period (5 minutes): a restarted node repairs its own cut-off creations at once. */
const REPAIR_DEADLINE_MS = 20000;

const limits = { RATE_LIMIT_REGISTER_PER_IP: "1000", RATE_LIMIT_LOGIN_PER_IP: "1000" };

/** Registrations sent at once; each settles to its status, or 0 when its connection was cut. */
function registerAll(baseUrl: string, users: User[], onSettled: () => void = () => undefined): Promise<number[]> {
	return Promise.all(users.map(u => http(baseUrl, "POST", "/auth/register", { json: u }).then(res => res.status, () => 0).finally(onSettled)));
}

/**
 * Every email a complete account or none: a login works exactly for a registration
 * answered 201 or completed by the repair, and then its profile reads; otherwise the
 * email registers again. The store holds whole accounts only.
 */
async function expectWholeOrNone(baseUrl: string, db: SqliteStore, users: User[], answered: number[]): Promise<void> {
	for (const [i, user] of users.entries()) {
		const login = await http(baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } });
		if (answered[i] === 201) expect(login.status).toBe(200);
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
	const emails = users.map(u => u.email);
	const identities = await db.collection<IdpUser>("idp_users").find({ pool: "actors", username: { $in: emails } });
	const actors = await db.collection<{ id: string; email: string }>("actors").find({ email: { $in: emails } });
	expect(identities).toHaveLength(users.length);
	expect(actors.map(a => [a.email, a.id]).sort()).toEqual(identities.map(u => [u.username, u.id]).sort());
}

describe("registrations cut off by SIGKILL", () => {
	const REGISTRATIONS = 20;
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

	it("should leave every email a complete account or none within seconds of a restart", async () => {
		const port = await freePort();
		const baseUrl = `http://127.0.0.1:${port}`;
		const start = async () => {
			node = startNode({ ...limits, DATA_DIR: dataDir, PORT: String(port), NODE_ID: "crash" });
			await waitFor("the platform to be ready", async () => (await http(baseUrl, "GET", "/health/ready")).status === 200, 30000);
		};
		await start();
		const db = new SqliteStore(path.join(dataDir, "store.sqlite"));
		store = db;
		const open = db.collection(ACCOUNT_INTENTS);
		const users = Array.from({ length: REGISTRATIONS }, () => newUser());
		let settled = 0;
		const attempts = registerAll(baseUrl, users, () => (settled += 1));

		// Killed once the first actor profile exists: the other registrations are then
		// spread over the steps before it, and the store keeps their intents.
		await waitFor("the first actor profile", async () => settled === REGISTRATIONS || (await db.collection("actors").count({})) > 0, 30000, 5);
		await node!.stop("SIGKILL");
		const before = await attempts;
		expect(before.filter(status => status === 0).length).toBeGreaterThan(0);
		expect(await open.count({})).toBeGreaterThan(0);

		await start();
		await waitFor("the repair to settle every creation the kill cut off", async () => (await open.count({})) === 0, REPAIR_DEADLINE_MS);

		await expectWholeOrNone(baseUrl, db, users, before);
	}, 120000);
});

describeWith("NATS", "registrations cut off by a host crash across nodes", () => {
	const REGISTRATIONS = 10;
	let dataDir: string;
	let nodes: NodeProcess[] = [];
	let store: SqliteStore | undefined;

	beforeAll(() => {
		dataDir = tempDir();
	});
	afterAll(async () => {
		await Promise.all(nodes.map(n => n.stop()));
		await store?.close();
		fs.rmSync(dataDir, { recursive: true, force: true });
	});

	it("should complete or roll back every registration that waited on a stalled actor node once both nodes are killed and restarted", async () => {
		const port = await freePort();
		const baseUrl = `http://127.0.0.1:${port}`;
		const common = { ...limits, NATS_URL, NAMESPACE: uniqueName("host-crash"), DATA_DIR: dataDir, PUBLIC_URL: baseUrl };
		const start = async () => {
			nodes = [startNode({ ...common, SERVICES: "api-gateway,auth", PORT: String(port), NODE_ID: "gw" }), startNode({ ...common, SERVICES: "actors", NODE_ID: "actors" })];
			// Until the actor node is known the gateway answers 503; then 401 (it checks the token after finding the service).
			await waitFor("the actor node to join", async () => (await http(baseUrl, "GET", "/actors/00000000-0000-4000-8000-000000000000")).status === 401, 30000, 250, () => describeNodes(nodes));
		};
		await start();
		const db = new SqliteStore(path.join(dataDir, "store.sqlite"));
		store = db;
		const intents = db.collection<AccountIntent>(ACCOUNT_INTENTS);
		const [gateway, actors] = nodes;

		process.kill(actors.child.pid!, "SIGSTOP");
		const users = Array.from({ length: REGISTRATIONS }, () => newUser());
		let settled = 0;
		const attempts = registerAll(baseUrl, users, () => (settled += 1));
		// Each has its identity-provider user (recorded in its intent) and waits on actors.register.
		await waitFor("every registration to wait on the stalled actor node", async () => (await intents.count({ sub: { $exists: true } })) === REGISTRATIONS, 8000, 25);
		expect(settled).toBe(0);
		await Promise.all([gateway.stop("SIGKILL"), actors.stop("SIGKILL")]);
		const before = await attempts;
		expect(before).toEqual(users.map(() => 0));
		await expect(db.collection("actors").count({ email: { $in: users.map(u => u.email) } })).resolves.toBe(0);

		await start();
		await waitFor("the repair to settle every creation the crash cut off", async () => (await intents.count({})) === 0, REPAIR_DEADLINE_MS, 250, () => describeNodes(nodes));

		await expectWholeOrNone(baseUrl, db, users, before);
	}, 120000);
});
