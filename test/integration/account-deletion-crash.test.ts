/**
 * Account deletions cut off by dying nodes: the platform runs as OS processes, is
 * killed with SIGKILL while deletions are under way (at three moments: as the first
 * intent is written, once one is half-way through its steps, once one is at its last),
 * and is started again on the same data. Afterwards every account is, within seconds,
 * either wholly deleted (no profile, no identity-provider user, no push subscription,
 * no lock, a tombstone) or wholly there (its request never became an intent); a
 * deletion answered 202 is always the former. With NATS, a deletion stalled on a
 * stopped actor node is finished after both nodes are killed and restarted.
 */
import fs from "node:fs";
import path from "node:path";
import { ACCOUNT_DELETIONS, ACCOUNT_TOMBSTONES, DELETION_STEPS, type DeletionIntent } from "../../lib/accounts/deletion";
import { SqliteStore } from "../../lib/store/sqlite";
import { expectStatus, http, newUser, tempDir } from "../helpers/platform";
import { describeNodes, freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { browserSubscription } from "../helpers/push-service";
import { ADMIN, ADMIN_ENV, adminToken } from "../helpers/senders";
import { NATS_URL, describeWith, uniqueName } from "../helpers/services";

/** Far below the default grace period (5 minutes): a restarted node finishes its own cut-off deletions at once. */
const REPAIR_DEADLINE_MS = 20000;

const limits = { RATE_LIMIT_REGISTER_PER_IP: "100000", RATE_LIMIT_LOGIN_PER_IP: "100000", RATE_LIMIT_LOGIN_PER_USER: "100000", PUSH_ALLOW_INSECURE_ENDPOINTS: "true" };

interface Account {
	email: string;
	password: string;
	actorId: string;
}

async function accounts(baseUrl: string, n: number): Promise<Account[]> {
	const made: Account[] = [];
	for (let i = 0; i < n; i++) {
		const user = newUser();
		const reg = await http(baseUrl, "POST", "/auth/register", { json: user });
		expectStatus(reg, 201);
		expectStatus(await http(baseUrl, "POST", `/actors/${reg.body.actorId}/push-subscriptions`, { token: reg.body.accessToken, json: browserSubscription() }), 201);
		made.push({ email: user.email.toLowerCase(), password: user.password, actorId: reg.body.actorId });
	}
	return made;
}

/** Deletions sent at once; each settles to its status, or 0 when its connection was cut. */
function deleteAll(baseUrl: string, token: string, list: Account[]): Promise<number[]> {
	return Promise.all(list.map(a => http(baseUrl, "DELETE", `/admin/users/${a.actorId}`, { token }).then(res => res.status, () => 0)));
}

/** Every account wholly deleted or wholly there; one answered 202 deleted. */
async function expectWholeOrGone(baseUrl: string, db: SqliteStore, list: Account[], answered: number[]): Promise<number> {
	let deleted = 0;
	for (const [i, a] of list.entries()) {
		const tombstone = await db.collection(ACCOUNT_TOMBSTONES).get(a.actorId);
		const state = {
			actorId: a.actorId,
			actor: await db.collection("actors").count({ id: a.actorId }),
			idpUser: await db.collection("idp_users").count({ id: a.actorId }),
			push: await db.collection("push_subscriptions").count({ actorId: a.actorId }),
			lock: await db.collection("account_locks").count({ id: a.actorId })
		};
		const login = await http(baseUrl, "POST", "/auth/login", { json: { username: a.email, password: a.password } });
		if (tombstone || answered[i] === 202) {
			expect({ ...state, tombstone: tombstone !== null, login: login.status }).toEqual({ actorId: a.actorId, actor: 0, idpUser: 0, push: 0, lock: 0, tombstone: true, login: 401 });
			deleted += 1;
		} else {
			expect({ ...state, login: login.status }).toEqual({ actorId: a.actorId, actor: 1, idpUser: 1, push: 1, lock: 0, login: 200 });
		}
	}
	return deleted;
}

describe("account deletions cut off by SIGKILL", () => {
	const PER_ROUND = 12;
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

	it("should finish every deletion a kill cut off, at any step, within seconds of a restart", async () => {
		const port = await freePort();
		const baseUrl = `http://127.0.0.1:${port}`;
		const start = async () => {
			node = startNode({ ...limits, ...ADMIN_ENV, DATA_DIR: dataDir, PORT: String(port), NODE_ID: "delete-crash" });
			await waitFor("the platform to be ready", async () => (await http(baseUrl, "GET", "/health/ready")).status === 200, 30000);
		};
		await start();
		const db = new SqliteStore(path.join(dataDir, "store.sqlite"));
		store = db;
		const intents = db.collection<DeletionIntent>(ACCOUNT_DELETIONS);
		const halfway = DELETION_STEPS.indexOf("notifications");
		const late = DELETION_STEPS.indexOf("factors");
		const moments: [string, () => Promise<boolean>][] = [
			["the first intent is written", async () => (await intents.count({})) > 0],
			["an intent is half-way through its steps", async () => (await intents.find({})).some(i => i.step !== undefined && DELETION_STEPS.indexOf(i.step) >= halfway)],
			["an intent is at its last steps", async () => (await intents.find({})).some(i => i.step !== undefined && DELETION_STEPS.indexOf(i.step) >= late)]
		];
		const cutAt = new Set<string>();
		for (const [moment, reached] of moments) {
			const list = await accounts(baseUrl, PER_ROUND);
			const token = await adminToken(baseUrl);
			const known = new Set(list.map(a => a.actorId));
			const attempts = deleteAll(baseUrl, token, list);
			await waitFor(moment, reached, 30000, 2);
			await node!.stop("SIGKILL");
			const answered = await attempts;
			const left = (await intents.find({})).filter(i => known.has(i.id));
			for (const i of left) cutAt.add(i.step ?? "(none)");
			expect({ moment, cutOff: left.length > 0 }).toEqual({ moment, cutOff: true });

			await start();
			await waitFor("the sweep to finish every deletion the kill cut off", async () => (await intents.count({})) === 0, REPAIR_DEADLINE_MS, 100, () => describeNodes([node!]));
			const deleted = await expectWholeOrGone(baseUrl, db, list, answered);
			expect(deleted).toBeGreaterThanOrEqual(left.length);
		}
		// The kills found deletions at more than one step.
		expect(cutAt.size).toBeGreaterThan(1);
		// The bootstrap administrator's own sign-in still works: nothing else was touched.
		expectStatus(await http(baseUrl, "POST", "/auth/login", { json: { username: ADMIN.email, password: ADMIN.password } }), 200);
	}, 180000);
});

describeWith("NATS", "an account deletion stalled on a stopped actor node, then a crash of both nodes", () => {
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

	it("should finish the deletions after both nodes are killed and restarted", async () => {
		const port = await freePort();
		const baseUrl = `http://127.0.0.1:${port}`;
		const common = { ...limits, ...ADMIN_ENV, NATS_URL, NAMESPACE: uniqueName("delete-crash"), DATA_DIR: dataDir, PUBLIC_URL: baseUrl };
		const start = async () => {
			nodes = [
				startNode({ ...common, SERVICES: "api-gateway,auth,notifications", PORT: String(port), NODE_ID: "gw" }),
				startNode({ ...common, SERVICES: "actors", NODE_ID: "actors" })
			];
			await waitFor("the actor node to join", async () => (await http(baseUrl, "GET", "/actors/00000000-0000-4000-8000-000000000000")).status === 401, 30000, 250, () => describeNodes(nodes));
		};
		await start();
		const db = new SqliteStore(path.join(dataDir, "store.sqlite"));
		store = db;
		const intents = db.collection<DeletionIntent>(ACCOUNT_DELETIONS);
		const list = await accounts(baseUrl, 4);
		const token = await adminToken(baseUrl);

		process.kill(nodes[1].child.pid!, "SIGSTOP");
		const attempts = deleteAll(baseUrl, token, list);
		// Each has done every step before the actor profile's removal and waits on the stopped node.
		await waitFor("every deletion to wait on the stopped actor node", async () => (await intents.count({ step: "factors" })) === list.length, 10000, 25);
		await Promise.all(nodes.map(n => n.stop("SIGKILL")));
		expect(await attempts).toEqual(list.map(() => 0));
		await expect(db.collection("actors").count({ id: { $in: list.map(a => a.actorId) } })).resolves.toBe(list.length);

		await start();
		await waitFor("the sweep to finish every deletion", async () => (await intents.count({})) === 0, REPAIR_DEADLINE_MS, 250, () => describeNodes(nodes));
		await expect(expectWholeOrGone(baseUrl, db, list, list.map(() => 202))).resolves.toBe(list.length);
	}, 120000);
});
