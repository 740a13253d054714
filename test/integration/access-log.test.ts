/**
 * What a running gateway writes about each request (services/api-gateway/access-log.ts),
 * read from the log of a real platform process at LOG_LEVEL=debug: one info line per
 * request with method, path, status, duration, request id and principal; credentials in
 * the URL (an unsubscribe link's token, the social callback's code and state) replaced,
 * also when the request failed before its route matched; and a client that closes a
 * live status stream logged at debug, with no warning and no stack.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { decodeJwt } from "jose";
import { http, tempDir } from "../helpers/platform";
import { describeNodes, freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { ADMIN, ADMIN_ENV } from "../helpers/senders";
import { SseClient } from "../helpers/sse";

interface LogLine {
	level: number;
	msg: string;
	method?: string;
	path?: string;
	status?: number;
	ms?: number;
	requestId?: string;
	principal?: string;
	incomplete?: boolean;
	notificationId?: string;
	err?: unknown;
}

const INFO = 30;
const DEBUG = 20;
const WARN = 40;

describe("the access log and live stream ends of a running gateway", () => {
	let node: NodeProcess;
	let baseUrl: string;
	let dataDir: string;

	const lines = (): LogLine[] =>
		node
			.output()
			.split("\n")
			.filter(l => l.startsWith("{"))
			.map(l => JSON.parse(l) as LogLine);
	const accessLines = () => lines().filter(l => l.msg === "HTTP request");
	/** The access line of the request with this id, once the gateway has written it. */
	async function accessLineOf(requestId: string): Promise<LogLine> {
		let found: LogLine | undefined;
		await waitFor(`the access line of ${requestId}`, async () => (found = accessLines().find(l => l.requestId === requestId)) !== undefined, 10_000, 50, () => describeNodes([node]));
		return found!;
	}

	beforeAll(async () => {
		dataDir = tempDir();
		const port = await freePort();
		baseUrl = `http://127.0.0.1:${port}`;
		node = startNode({ ...ADMIN_ENV, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "debug", NODE_ID: "access-log" });
		await waitFor("the gateway", async () => (await http(baseUrl, "GET", "/health/ready")).status === 200, 50_000, 250, () => describeNodes([node]));
	}, 60_000);

	afterAll(async () => {
		await node?.stop();
		if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
	});

	it("should write one info line per request with method, path, status, duration and request id", async () => {
		const res = await http(baseUrl, "GET", "/health/live", { headers: { "x-request-id": "access-live-1" } });
		expect(res.status).toBe(200);
		const line = await accessLineOf("access-live-1");
		expect(line).toEqual(expect.objectContaining({ level: INFO, method: "GET", path: "/health/live", status: 200, requestId: "access-live-1", ms: expect.any(Number) }));
		expect(line.principal).toBeUndefined();
		expect(line.incomplete).toBeUndefined();
		expect(accessLines().filter(l => l.requestId === "access-live-1")).toHaveLength(1);
	});

	it("should name the principal of a verified token, and write failures too", async () => {
		const login = await http(baseUrl, "POST", "/auth/login", { json: { username: ADMIN.email, password: ADMIN.password }, headers: { "x-request-id": "access-login" } });
		expect(login.status).toBe(200);
		const sub = decodeJwt(login.body.accessToken).sub;
		// The bootstrap administrator has no actor: a 404, answered to a verified principal.
		const read = await http(baseUrl, "GET", `/actors/${sub}`, { token: login.body.accessToken, headers: { "x-request-id": "access-actor" } });
		expect(read.status).toBe(404);
		expect(await accessLineOf("access-actor")).toMatchObject({ method: "GET", path: `/actors/${sub}`, status: 404, principal: `user:${sub}` });
		// The login's line names no principal: it took no token.
		expect((await accessLineOf("access-login")).principal).toBeUndefined();
		const refused = await http(baseUrl, "GET", `/actors/${sub}`, { headers: { "x-request-id": "access-refused" } });
		expect(refused.status).toBe(401);
		expect(await accessLineOf("access-refused")).toMatchObject({ path: `/actors/${sub}`, status: 401 });
		// A request no route takes has its line too.
		expect((await http(baseUrl, "GET", "/no/such/route?x=1", { headers: { "x-request-id": "access-404" } })).status).toBe(404);
		expect(await accessLineOf("access-404")).toMatchObject({ path: "/no/such/route?x=[redacted]", status: 404 });
	});

	it("should replace the credentials a URL carries, also when the request fails before its route matches", async () => {
		const token = `tok-${randomBytes(24).toString("base64url")}`;
		const code = `code-${randomBytes(16).toString("hex")}`;
		const state = `state-${randomBytes(16).toString("hex")}`;
		expect((await http(baseUrl, "GET", `/unsubscribe/${token}`, { headers: { "x-request-id": "access-unsub-get" } })).status).toBe(400);
		// A one-click body over its 1 KiB limit: the body parser refuses it before the alias is matched.
		const tooLarge = await http(baseUrl, "POST", `/unsubscribe/${token}`, {
			body: `List-Unsubscribe=One-Click&pad=${"x".repeat(4096)}`,
			headers: { "content-type": "application/x-www-form-urlencoded", "x-request-id": "access-unsub-post" }
		});
		expect(tooLarge.status).toBe(413);
		const callback = await http(baseUrl, "GET", `/auth/social/login/callback?code=${code}&state=${state}`, { headers: { "x-request-id": "access-callback" } });
		expect(callback.status).toBe(302);
		expect(await accessLineOf("access-unsub-get")).toMatchObject({ method: "GET", path: "/unsubscribe/[redacted]", status: 400 });
		expect(await accessLineOf("access-unsub-post")).toMatchObject({ method: "POST", path: "/unsubscribe/[redacted]", status: 413 });
		expect(await accessLineOf("access-callback")).toMatchObject({ path: "/auth/social/login/callback?code=[redacted]&state=[redacted]", status: 302 });
		const log = node.output();
		expect([token, code, state].filter(secret => log.includes(secret))).toEqual([]);
	});

	it("should log a client closing a live status stream at debug, without a warning or a stack", async () => {
		const login = await http(baseUrl, "POST", "/auth/login", { json: { username: ADMIN.email, password: ADMIN.password } });
		const token = login.body.accessToken as string;
		// Scheduled an hour ahead, so its timeline stays at QUEUED while the stream is open.
		const sendAt = new Date(Date.now() + 3_600_000).toISOString();
		const sent = await http(baseUrl, "POST", "/notifications", { token, json: { to: "watch@example.com", template: { subject: "s", text: "t" }, sendAt } });
		expect(sent.status).toBe(201);
		const id = sent.body.notificationId as string;
		const warningsBefore = lines().filter(l => l.level >= WARN).length;

		const stream = await SseClient.open(baseUrl, `/notifications/${id}/events`, token);
		expect(stream.status).toBe(200);
		const requestId = stream.headers.get("x-request-id")!;
		await stream.until("the QUEUED event", c => c.events().includes("QUEUED"));
		await stream.close();

		const warnings = () =>
			lines()
				.filter(l => l.level >= WARN)
				.slice(warningsBefore);
		const closed = () => lines().filter(l => l.notificationId === id && /closed before its end/.test(l.msg));
		await waitFor("the stream's end in the log, as a debug line or a warning", async () => closed().length > 0 || warnings().length > 0, 10_000, 50);
		expect(warnings().map(l => l.msg)).toEqual([]);
		expect(closed()).toEqual([expect.objectContaining({ level: DEBUG })]);
		expect(closed()[0].err).toBeUndefined();
		expect(await accessLineOf(requestId)).toMatchObject({ path: `/notifications/${id}/events`, status: 200, incomplete: true });
	});
});
