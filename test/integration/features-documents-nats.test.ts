/**
 * Two OS processes over real NATS sharing one embedded store:
 *   A: api-gateway, auth, actors (and features, which runs with actors)
 *   B: api-gateway, actors (and features), documents
 * A flag changed through A's gateway must reach B's features service, whose cache
 * already holds the old answer; writes of one flag racing through both nodes end with
 * the last acknowledged one stored; a resume sent to A's gateway streams over NATS to
 * the documents service on B and back.
 */
import fs from "node:fs";
import path from "node:path";
import { MAX_RESUME_BYTES } from "../../lib/resume";
import { raceOneFlag } from "../helpers/flag-races";
import { http, newUser, tempDir } from "../helpers/platform";
import { freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { PDF } from "../helpers/resumes";
import { describeWith, NATS_URL, uniqueName } from "../helpers/services";

const ADMIN = { username: "root@example.com", password: "Root-Passw0rd" };

describeWith("NATS", "feature flags and resumes across processes over NATS", () => {
	let a: NodeProcess;
	let b: NodeProcess;
	let urlA: string;
	let urlB: string;
	let dataDir: string;
	let admin: string;

	beforeAll(async () => {
		dataDir = tempDir();
		const [portA, portB] = [await freePort(), await freePort()];
		urlA = `http://127.0.0.1:${portA}`;
		urlB = `http://127.0.0.1:${portB}`;
		const common = { NATS_URL, NAMESPACE: uniqueName("it-flags"), DATA_DIR: dataDir, PUBLIC_URL: urlA };
		a = startNode({
			...common,
			SERVICES: "api-gateway,auth,actors",
			PORT: String(portA),
			NODE_ID: "node-a",
			BOOTSTRAP_ADMIN_EMAIL: ADMIN.username,
			BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password
		});
		b = startNode({ ...common, SERVICES: "api-gateway,actors,documents", PORT: String(portB), NODE_ID: "node-b" });
		await waitFor("the administrator to log in on node A", async () => {
			const res = await http(urlA, "POST", "/auth/login", { json: ADMIN });
			admin = res.body?.accessToken;
			return res.status === 200;
		}, 30000);
		// 401, not 503: node A's gateway has found the documents service on node B.
		await waitFor("node A to see the documents service", async () => (await http(urlA, "GET", "/resumes/00000000-0000-4000-8000-000000000000")).status === 401, 30000);
		await waitFor("node B's gateway to answer", async () => (await http(urlB, "GET", "/admin/features", { token: admin })).status === 200, 30000);
	}, 60000);

	afterAll(async () => {
		await Promise.all([a?.stop(), b?.stop()]);
		fs.rmSync(dataDir, { recursive: true, force: true });
	});

	it("should show node B a flag change made through node A when B had cached the old answer", async () => {
		const name = "cross.node";
		// B's features service answers B's gateway (preferLocal) and now caches "no such flag".
		const missing = await http(urlB, "GET", `/admin/features/${name}`, { token: admin });
		expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 404, code: "FEATURE_NOT_FOUND" });

		for (const value of [{ enabled: true }, { enabled: false }]) {
			const set = await http(urlA, "PUT", `/admin/features/${name}`, { token: admin, json: value });
			expect(set.status).toBe(200);
			let seen: unknown;
			await waitFor(`node B to show ${JSON.stringify(value)}`, async () => {
				const res = await http(urlB, "GET", `/admin/features/${name}`, { token: admin });
				seen = res.body;
				return res.status === 200 && JSON.stringify(res.body.value) === JSON.stringify(value);
			}, 10000);
			expect(seen).toEqual(set.body);
		}
	});

	it("should store the last acknowledged write, its updatedAt never going back, when PUTs of one flag race through both nodes", async () => {
		for (let round = 0; round < 8; round++) {
			const name = `race.nodes.${round}`;
			await raceOneFlag({
				put: (value, i) => http(i % 2 ? urlB : urlA, "PUT", `/admin/features/${name}`, { token: admin, json: value }),
				// The list reads the store itself, past the single-flag cache.
				stored: async () => {
					const res = await http(urlA, "GET", "/admin/features", { token: admin });
					const flag = res.body.items.find((f: { featureName: string }) => f.featureName === name);
					return flag ? { value: flag.value, updatedAt: flag.updatedAt } : null;
				}
			});
		}
	});

	it("should store a resume on node B and serve the same bytes when it is sent to node A's gateway", async () => {
		const reg = await http(urlA, "POST", "/auth/register", { json: newUser() });
		expect(reg.status).toBe(201);
		const form = new FormData();
		form.append("candidateId", reg.body.actorId);
		form.append("resume", new Blob([PDF], { type: "application/pdf" }), "cv.pdf");
		const res = await http(urlA, "POST", "/resumes", { token: reg.body.accessToken, body: form });
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({ candidateId: reg.body.actorId, contentType: "application/pdf", size: PDF.length });
		const download = await fetch(`${urlA}/resumes/${res.body.documentId}/content`, { headers: { authorization: `Bearer ${reg.body.accessToken}` } });
		expect(download.status).toBe(200);
		expect(download.headers.get("content-type")).toBe("application/pdf");
		expect(Buffer.from(await download.arrayBuffer())).toEqual(PDF);
	});

	it("should answer 413 and leave no file when a resume over 10 MiB streams to node B", async () => {
		const reg = await http(urlA, "POST", "/auth/register", { json: newUser() });
		const files = path.join(dataDir, "files");
		const before = fs.existsSync(files) ? fs.readdirSync(files).sort() : [];
		const form = new FormData();
		form.append("candidateId", reg.body.actorId);
		form.append("resume", new Blob([PDF, Buffer.alloc(MAX_RESUME_BYTES + 1 - PDF.length, 0x20)], { type: "application/pdf" }), "cv.pdf");
		const res = await http(urlA, "POST", "/resumes", { token: reg.body.accessToken, body: form });
		expect({ status: res.status, code: res.body.code }).toEqual({ status: 413, code: "PAYLOAD_TOO_LARGE" });
		expect(fs.existsSync(files) ? fs.readdirSync(files).sort() : []).toEqual(before);
	});
});
