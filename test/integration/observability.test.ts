/**
 * Traces and metrics of the platform as it runs: the gateway with auth in one process,
 * notifications, the dispatcher and actors in another, over real NATS. Both export
 * their spans over OTLP/HTTP to a receiver this test runs, and the gateway's node
 * serves Prometheus metrics. One notification must make one trace from the HTTP
 * request through the action on the other node and its store write to the
 * dispatcher's send, with nothing secret in it; requests and sign-ins must move the
 * per-route and auth series.
 */
import fs from "node:fs";
import { randomUUID } from "node:crypto";
import { expectStatus, http, tempDir } from "../helpers/platform";
import { OtlpReceiver, type ReceivedSpan } from "../helpers/otlp";
import { describeNodes, freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { ADMIN, ADMIN_ENV, adminToken } from "../helpers/senders";
import { describeWith, NATS_URL, uniqueName } from "../helpers/services";

/** OTLP's span kinds. */
const KIND = { internal: 1, server: 2, client: 3, consumer: 5 } as const;

/** The sum of the samples of `name` whose labels include `labels` (the node's own labels come along). */
function sample(text: string, name: string, labels: Record<string, string>): number {
	let total = 0;
	for (const line of text.split("\n")) {
		const m = /^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
		if (!m || m[1] !== name) continue;
		const got = Object.fromEntries([...(m[2] ?? "").matchAll(/([A-Za-z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map(x => [x[1], x[2]]));
		if (Object.entries(labels).every(([k, v]) => got[k] === v)) total += Number(m[3]);
	}
	return total;
}

describeWith("NATS", "traces and metrics of two nodes over NATS", () => {
	const receiver = new OtlpReceiver();
	let gateway: NodeProcess;
	let worker: NodeProcess;
	let baseUrl: string;
	let metricsUrl: string;
	let dataDir: string;

	beforeAll(async () => {
		const otlp = await receiver.start();
		dataDir = tempDir();
		const port = await freePort();
		const metricsPort = await freePort();
		baseUrl = `http://127.0.0.1:${port}`;
		metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
		const common = { NATS_URL, NAMESPACE: uniqueName("otel"), DATA_DIR: dataDir, OTEL_EXPORTER_OTLP_ENDPOINT: otlp, OTEL_BSP_SCHEDULE_DELAY: "50" };
		gateway = startNode({ ...common, ...ADMIN_ENV, SERVICES: "api-gateway,auth", PORT: String(port), METRICS_PORT: String(metricsPort), NODE_ID: "otel-gateway" });
		worker = startNode({ ...common, SERVICES: "notifications,dispatcher,actors", NODE_ID: "otel-worker" });
		// 503 until the gateway knows the notifications service, then 401 (the token is checked after the service is found).
		await waitFor(
			"the worker node to join",
			async () => (await http(baseUrl, "GET", `/notifications/${randomUUID()}`)).status === 401,
			30000,
			250,
			() => describeNodes([gateway, worker])
		);
	}, 45000);

	afterAll(async () => {
		await Promise.all([gateway?.stop(), worker?.stop()]);
		await receiver.stop();
		fs.rmSync(dataDir, { recursive: true, force: true });
	});

	it("should make one trace of a notification from the HTTP request through the action on the other node, its store write and the send", async () => {
		const token = await adminToken(baseUrl);
		const requestId = randomUUID();
		const to = `traced-${Date.now()}@example.com`;
		const res = await http(baseUrl, "POST", "/notifications", { token, headers: { "x-request-id": requestId }, json: { to, template: { subject: "Traced", text: "Hello" } } });
		expectStatus(res, 201);
		expect(res.headers.get("x-request-id")).toBe(requestId);
		const traceId = requestId.replace(/-/g, "");
		const names = () => JSON.stringify(receiver.trace(traceId).map(s => s.name));
		await waitFor("the delivery's spans in the request's trace", async () => ["deliver EMAIL", "send EMAIL"].every(n => receiver.trace(traceId).some(s => s.name === n)), 20000, 250, names);

		const spans = receiver.trace(traceId);
		const one = (what: string, match: (s: ReceivedSpan) => boolean): ReceivedSpan => {
			const found = spans.filter(match);
			expect({ what, found: found.length }).toEqual({ what, found: 1 });
			return found[0]!;
		};
		const request = one("the HTTP span", s => s.name === "POST /notifications");
		expect(request).toMatchObject({ kind: KIND.server, parentSpanId: undefined, resource: { "service.name": "auth-notify", "service.instance.id": "otel-gateway" } });
		expect(request.attributes).toMatchObject({ "http.request.method": "POST", "http.route": "/notifications", "http.response.status_code": 201 });
		const rest = one("moleculer-web's call", s => s.name === "api.rest");
		expect(rest.parentSpanId).toBe(request.spanId);
		const create = one("the action", s => s.name === "notifications.create");
		expect(create).toMatchObject({ kind: KIND.server, parentSpanId: rest.spanId, resource: { "service.instance.id": "otel-worker" } });
		expect(create.attributes).toMatchObject({ "moleculer.remote_call": true, "moleculer.caller_node_id": "otel-gateway" });
		const write = one("the accept's write", s => s.parentSpanId === create.spanId && s.attributes["db.operation.name"] === "batch");
		expect(write).toMatchObject({ kind: KIND.client, attributes: { "db.system.name": "sqlite", "db.operation.batch.size": 2 } });
		const delivery = one("the delivery", s => s.name === "deliver EMAIL");
		expect(delivery).toMatchObject({ kind: KIND.consumer, parentSpanId: create.spanId, resource: { "service.instance.id": "otel-worker" } });
		expect(delivery.attributes).toMatchObject({ "notification.id": res.body.notificationId, "notification.channel": "EMAIL", "notification.attempt": 1, "notification.status": "SENT" });
		const send = one("the provider call", s => s.name === "send EMAIL");
		expect(send).toMatchObject({ kind: KIND.client, parentSpanId: delivery.spanId, attributes: { "notification.id": res.body.notificationId, "notification.provider": "file" } });
		one("the outcome's write", s => s.parentSpanId === delivery.spanId && s.attributes["db.operation.name"] === "batch");

		const everything = JSON.stringify(receiver.spans);
		for (const secret of [to, token, ADMIN.email, ADMIN.password]) expect(everything).not.toContain(secret);
		expect(receiver.contentTypes.every(t => t.startsWith("application/json"))).toBe(true);
	});

	it("should count requests per route template and status, with their latencies, and the sign-ins, failures and refreshes", async () => {
		const scrape = async () => (await fetch(metricsUrl)).text();
		const before = await scrape();
		const login = await http(baseUrl, "POST", "/auth/login", { json: { username: ADMIN.email, password: ADMIN.password } });
		expectStatus(login, 200);
		expectStatus(await http(baseUrl, "POST", "/auth/login", { json: { username: ADMIN.email, password: "Wrong-Passw0rd" } }), 401);
		expectStatus(await http(baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: login.body.refreshToken } }), 200);
		expectStatus(await http(baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: "not-a-refresh-token" } }), 401);
		const missing = randomUUID();
		expectStatus(await http(baseUrl, "GET", `/notifications/${missing}`, { token: login.body.accessToken }), 404);
		const after = await scrape();
		const moved = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);

		const loginOk = { method: "POST", route: "/auth/login", status: "200" };
		expect(moved("http_server_requests_total", loginOk)).toBe(1);
		expect(moved("http_server_requests_total", { ...loginOk, status: "401" })).toBe(1);
		expect(moved("http_server_request_duration_seconds_count", loginOk)).toBe(1);
		expect(moved("http_server_request_duration_seconds_bucket", { ...loginOk, le: "+Inf" })).toBe(1);
		expect(moved("http_server_request_duration_seconds_sum", loginOk)).toBeGreaterThan(0);
		expect(moved("http_server_requests_total", { method: "GET", route: "/notifications/:notificationId", status: "404" })).toBe(1);
		expect(after).not.toContain(missing);

		expect(moved("auth_sign_ins_total", { method: "password", result: "success" })).toBe(1);
		expect(moved("auth_sign_ins_total", { method: "password", result: "failure" })).toBe(1);
		expect(moved("auth_sign_in_failures_total", { method: "password", reason: "INVALID_CREDENTIALS" })).toBe(1);
		expect(moved("auth_token_refreshes_total", { result: "success" })).toBe(1);
		expect(moved("auth_token_refreshes_total", { result: "INVALID_REFRESH_TOKEN" })).toBe(1);
	});
});
