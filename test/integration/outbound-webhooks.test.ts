/**
 * Outbound webhooks on one node: endpoints (secret shown once), signed deliveries
 * that verify with the standardwebhooks library, retries with the same webhook-id
 * after a 5xx and after a timeout, no more deliveries once deleted, redirects not
 * followed, and private addresses refused at registration and at send time.
 */
import https from "node:https";
import { Webhook } from "standardwebhooks";
import { attempt } from "../../lib/outbound/send";
import type { DeliveryDoc } from "../../lib/outbound/model";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { Receiver } from "../helpers/receiver";
import { serviceToken } from "../helpers/senders";
import { makeCert, startHttpsHost } from "../helpers/sns";

describe("outbound webhooks", () => {
	let p: Platform;
	// A service's: its endpoints get the events of its notifications, which go to any address.
	// Not "auth": that service sends the registrations' verification mail, whose events would come too.
	let token: string;
	const receivers: Receiver[] = [];

	async function receiver(): Promise<Receiver> {
		const r = await Receiver.start();
		receivers.push(r);
		return r;
	}

	async function endpoint(url: string, events?: string[]) {
		const res = await http(p.baseUrl, "POST", "/webhook-endpoints", { token, json: events ? { url, events } : { url } });
		expect(res.status).toBe(201);
		return res.body as { endpointId: string; secret: string; url: string; events: string[] };
	}

	async function sendOne(): Promise<string> {
		const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: `hook${Date.now()}${Math.random()}@example.com`, template: { subject: "s", text: "t" } } });
		expect(res.status).toBe(201);
		return res.body.notificationId;
	}

	async function attemptsOf(endpointId: string) {
		const list = await http(p.baseUrl, "GET", "/webhook-endpoints", { token });
		return list.body.items.find((i: { endpointId: string }) => i.endpointId === endpointId).recentAttempts as { webhookId: string; outcome: string; responseCode?: number; error?: string; at: string }[];
	}

	beforeAll(async () => {
		p = await startPlatform({ WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_RETRY_DELAYS_MS: "100,100,100", WEBHOOK_TIMEOUT_MS: "500", WEBHOOK_POLL_MS: "50" });
		token = await serviceToken(p, "documents");
	});
	afterAll(async () => {
		await p.stop();
		await Promise.all(receivers.map(r => r.close()));
	});

	it("should show the secret once and deliver QUEUED and SENT signed so that standardwebhooks verifies them", async () => {
		const r = await receiver();
		const ep = await endpoint(r.url);
		expect(ep).toMatchObject({ endpointId: expect.any(String), url: r.url, events: [], createdAt: expect.any(String) });
		expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
		const list = await http(p.baseUrl, "GET", "/webhook-endpoints", { token });
		expect(list.status).toBe(200);
		expect(list.body.items.find((i: { endpointId: string }) => i.endpointId === ep.endpointId)).not.toHaveProperty("secret");

		const id = await sendOne();
		await waitFor("QUEUED and SENT", async () => r.received.length >= 2);
		expect(r.types()).toEqual(["notification.queued", "notification.sent"]);
		const verifier = new Webhook(ep.secret);
		for (const got of r.received) {
			const payload = verifier.verify(got.body, got.headers) as { type: string; timestamp: string; data: Record<string, unknown> };
			expect(payload.data).toMatchObject({ notificationId: id, event: payload.type.split(".")[1].toUpperCase(), status: payload.type.split(".")[1].toUpperCase(), occurredAt: payload.timestamp });
			expect(got.headers["webhook-signature"]).toMatch(/^v1,/);
		}
		// A body changed on the way does not verify.
		expect(() => verifier.verify(r.received[0].body.replace("queued", "sent"), r.received[0].headers)).toThrow();
		// Another user sees none of this endpoint.
		const other = (await http(p.baseUrl, "POST", "/auth/register", { json: newUser() })).body.accessToken;
		expect((await http(p.baseUrl, "GET", "/webhook-endpoints", { token: other })).body.items).toEqual([]);
		expect((await http(p.baseUrl, "DELETE", `/webhook-endpoints/${ep.endpointId}`, { token: other })).status).toBe(404);
		await http(p.baseUrl, "DELETE", `/webhook-endpoints/${ep.endpointId}`, { token });
	});

	it("should retry after a 5xx and after a timeout with the same webhook-id, and list the attempts", async () => {
		const r = await receiver();
		const seen = new Map<string, number>();
		r.answer = got => {
			const id = got.headers["webhook-id"];
			const n = (seen.get(id) ?? 0) + 1;
			seen.set(id, n);
			if (n > 1) return { status: 200 };
			return JSON.parse(got.body).type === "notification.queued" ? { status: 503 } : "hang";
		};
		const ep = await endpoint(r.url);
		await sendOne();
		await waitFor("each event twice", async () => r.received.length >= 4);
		const [queuedId, sentId] = [...seen.keys()];
		expect(r.ids()).toEqual([queuedId, queuedId, sentId, sentId]);
		const verifier = new Webhook(ep.secret);
		for (const got of r.received) expect(() => verifier.verify(got.body, got.headers)).not.toThrow();
		await waitFor("the attempts to be listed", async () => (await attemptsOf(ep.endpointId)).length === 4);
		const attempts = (await attemptsOf(ep.endpointId)).reverse();
		expect(attempts.map(a => [a.webhookId, a.outcome, a.responseCode ?? a.error])).toEqual([
			[queuedId, "failed", 503],
			[queuedId, "succeeded", 200],
			[sentId, "failed", "TIMEOUT"],
			[sentId, "succeeded", 200]
		]);
		await http(p.baseUrl, "DELETE", `/webhook-endpoints/${ep.endpointId}`, { token });
	});

	it("should deliver nothing more to an endpoint once it is deleted", async () => {
		const gone = await receiver();
		gone.answer = () => ({ status: 500 });
		const control = await receiver();
		const deleted = await endpoint(gone.url);
		await sendOne();
		await waitFor("the failing endpoint to be tried", async () => gone.received.length >= 1);
		const del = await http(p.baseUrl, "DELETE", `/webhook-endpoints/${deleted.endpointId}`, { token });
		expect(del.status).toBe(204);
		const countAtDelete = gone.received.length;
		// The control endpoint fails each event once: once it has every event twice, retries of the deleted one would have come too.
		const tried = new Set<string>();
		control.answer = got => (tried.has(got.headers["webhook-id"]) ? { status: 200 } : (tried.add(got.headers["webhook-id"]), { status: 500 }));
		const ctl = await endpoint(control.url);
		await sendOne();
		await waitFor("the control endpoint's retries", async () => control.received.length >= 4);
		// At most a send that was already under way when the delete came.
		expect(gone.received.length).toBeLessThanOrEqual(countAtDelete + 1);
		const left = await runtime(p).store().collection<DeliveryDoc>("webhook_deliveries").count({ endpointId: deleted.endpointId, state: { $in: ["PENDING", "SENDING"] } });
		expect(left).toBe(0);
		expect((await http(p.baseUrl, "GET", "/webhook-endpoints", { token })).body.items.map((i: { endpointId: string }) => i.endpointId)).not.toContain(deleted.endpointId);
		await http(p.baseUrl, "DELETE", `/webhook-endpoints/${ctl.endpointId}`, { token });
	});

	it("should not follow a redirect: the attempt fails with the 3xx and the target is never called", async () => {
		const target = await receiver();
		const r = await receiver();
		r.answer = () => ({ status: 307, headers: { location: target.url } });
		const ep = await endpoint(r.url, ["notification.sent"]);
		await sendOne();
		await waitFor("a refused redirect", async () => (await attemptsOf(ep.endpointId)).length >= 1);
		const [a] = await attemptsOf(ep.endpointId);
		expect(a).toMatchObject({ outcome: "failed", responseCode: 307, error: "REDIRECT_NOT_FOLLOWED" });
		expect(r.types().every(t => t === "notification.sent")).toBe(true);
		expect(target.received).toEqual([]);
		await http(p.baseUrl, "DELETE", `/webhook-endpoints/${ep.endpointId}`, { token });
	});

	describe("one endpoint per url, at most WEBHOOK_MAX_ENDPOINTS_PER_OWNER (10) per owner", () => {
		let owner: string;
		const create = (url: string) => http(p.baseUrl, "POST", "/webhook-endpoints", { token: owner, json: { url } });
		const stored = async () => (await http(p.baseUrl, "GET", "/webhook-endpoints", { token: owner })).body.items.map((i: { url: string }) => i.url).sort();
		const problem = (res: { status: number; body: { code?: string } }) => ({ status: res.status, code: res.body.code });

		beforeEach(async () => {
			owner = (await http(p.baseUrl, "POST", "/auth/register", { json: newUser() })).body.accessToken;
		});

		it("should answer 409 WEBHOOK_ENDPOINT_EXISTS and store nothing when the owner has the url already, however it is spelled", async () => {
			const r = await receiver();
			expect((await create(r.url)).status).toBe(201);
			for (const again of [r.url, r.url.replace("http://", "HTTP://")]) {
				const res = await create(again);
				expect(problem(res)).toEqual({ status: 409, code: "WEBHOOK_ENDPOINT_EXISTS" });
				expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
			}
			await expect(stored()).resolves.toEqual([r.url]);
			// Another owner may use the same url.
			expect((await http(p.baseUrl, "POST", "/webhook-endpoints", { token, json: { url: r.url } })).status).toBe(201);
			const theirs = (await http(p.baseUrl, "GET", "/webhook-endpoints", { token })).body.items.find((i: { url: string }) => i.url === r.url);
			await http(p.baseUrl, "DELETE", `/webhook-endpoints/${theirs.endpointId}`, { token });
		});

		it("should store one endpoint when the same url is registered many times at once", async () => {
			const url = `${(await receiver()).url}?at-once`;
			const answers = await Promise.all(Array.from({ length: 6 }, () => create(url)));
			expect(answers.map(problem).sort((a, b) => a.status - b.status)).toEqual([{ status: 201, code: undefined }, ...Array.from({ length: 5 }, () => ({ status: 409, code: "WEBHOOK_ENDPOINT_EXISTS" }))]);
			await expect(stored()).resolves.toEqual([url]);
		});

		it("should answer 409 WEBHOOK_ENDPOINT_LIMIT_REACHED and store nothing past the tenth, and take one again after a delete", async () => {
			const base = (await receiver()).url;
			const urls = Array.from({ length: 10 }, (_, i) => `${base}?n=${i}`);
			for (const url of urls) expect((await create(url)).status).toBe(201);
			expect(problem(await create(`${base}?n=10`))).toEqual({ status: 409, code: "WEBHOOK_ENDPOINT_LIMIT_REACHED" });
			await expect(stored()).resolves.toEqual([...urls].sort());
			const [first] = (await http(p.baseUrl, "GET", "/webhook-endpoints", { token: owner })).body.items;
			expect((await http(p.baseUrl, "DELETE", `/webhook-endpoints/${first.endpointId}`, { token: owner })).status).toBe(204);
			expect((await create(`${base}?n=10`)).status).toBe(201);
			await expect(stored()).resolves.toHaveLength(10);
		});

		it("should never store more than the cap when creates race at its edge", async () => {
			const base = (await receiver()).url;
			for (let i = 0; i < 8; i++) expect((await create(`${base}?n=${i}`)).status).toBe(201);
			const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => create(`${base}?race=${i}`)));
			const made = answers.filter(a => a.status === 201).length;
			expect(answers.filter(a => a.status !== 201).map(problem)).toEqual(Array.from({ length: 6 - made }, () => ({ status: 409, code: "WEBHOOK_ENDPOINT_LIMIT_REACHED" })));
			expect(made).toBeLessThanOrEqual(2);
			await expect(stored()).resolves.toHaveLength(8 + made);
		});
	});

	it("should answer 400 for a malformed endpoint", async () => {
		for (const body of [{ url: "not a url" }, { url: "https://example.com/h", events: ["notification.nope"] }, { url: "ftp://example.com/" }]) {
			const res = await http(p.baseUrl, "POST", "/webhook-endpoints", { token, json: body });
			expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: "VALIDATION_ERROR" });
		}
	});
});

describe("outbound webhooks while endpoints hang", () => {
	// Four slots, at most one per endpoint and two per owner; an attempt may hang for a minute.
	let p: Platform;
	const receivers: Receiver[] = [];

	async function receiver(answer?: Receiver["answer"]): Promise<Receiver> {
		const r = await Receiver.start();
		if (answer) r.answer = answer;
		receivers.push(r);
		return r;
	}

	async function endpoint(token: string, url: string) {
		expect((await http(p.baseUrl, "POST", "/webhook-endpoints", { token, json: { url } })).status).toBe(201);
	}

	async function send(token: string, count: number) {
		for (let i = 0; i < count; i++) {
			const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: `slow${i}${Math.random()}@example.com`, template: { subject: "s", text: "t" } } });
			expect(res.status).toBe(201);
		}
	}

	beforeAll(async () => {
		p = await startPlatform({
			WEBHOOK_ALLOW_PRIVATE_URLS: "true",
			WEBHOOK_CONCURRENCY: "4",
			WEBHOOK_ENDPOINT_CONCURRENCY: "1",
			WEBHOOK_OWNER_CONCURRENCY: "2",
			WEBHOOK_TIMEOUT_MS: "60000",
			WEBHOOK_POLL_MS: "50"
		});
	});
	afterAll(async () => {
		// Closing the receivers ends the hung attempts, so the stop does not wait for their deadline.
		await Promise.all(receivers.map(r => r.close()));
		await p.stop();
	});

	it("should deliver another owner's events promptly while one owner's endpoints hang with a backlog", async () => {
		// One owner with three hanging endpoints (its bound of two applies), another with one (the endpoint's bound of one).
		const many = await serviceToken(p, "documents");
		const hangingMany = await receiver(() => "hang");
		for (let i = 0; i < 3; i++) await endpoint(many, `${hangingMany.url}?n=${i}`);
		const one = await serviceToken(p, "dispatcher");
		const hangingOne = await receiver(() => "hang");
		await endpoint(one, hangingOne.url);
		await send(many, 4);
		await send(one, 4);
		await waitFor("the hanging endpoints to hold their slots", async () => hangingMany.received.length + hangingOne.received.length >= 3);

		const other = await serviceToken(p, "actors");
		const fine = await receiver();
		await endpoint(other, fine.url);
		await send(other, 1);
		await waitFor("the other owner's events", async () => fine.received.length >= 2);
		expect(fine.types()).toEqual(["notification.queued", "notification.sent"]);
		// The hanging ones never held more than their bounds.
		expect([hangingMany.received.length, hangingOne.received.length]).toEqual([2, 1]);
	});
});

describe("outbound webhooks without the test switch", () => {
	let p: Platform;
	let token: string;

	beforeAll(async () => {
		p = await startPlatform();
		token = (await http(p.baseUrl, "POST", "/auth/register", { json: newUser() })).body.accessToken;
	});
	afterAll(() => p.stop());

	it.each([
		["http", "http://example.com/hook"],
		["a loopback address", "https://127.0.0.1/hook"],
		["a private address", "https://10.1.2.3/hook"],
		["link-local (cloud metadata)", "https://169.254.169.254/latest/meta-data"],
		["IPv6 loopback", "https://[::1]/hook"],
		["a name that resolves to loopback", "https://localhost/hook"]
	])("should refuse %s at registration", async (_label, url) => {
		const res = await http(p.baseUrl, "POST", "/webhook-endpoints", { token, json: { url } });
		expect({ status: res.status, code: res.body.code, field: res.body.errors?.[0]?.field }).toEqual({ status: 400, code: "VALIDATION_ERROR", field: "url" });
	});

	it("should refuse a private address at send time too, by name or literal, without connecting", async () => {
		const tls = makeCert();
		let hits = 0;
		const host = await startHttpsHost(tls, "ok");
		const counting = https.createServer({ key: tls.key, cert: tls.cert }, (_req, res) => {
			hits += 1;
			res.end();
		});
		await new Promise<void>(resolve => counting.listen(0, "127.0.0.1", resolve));
		const port = (counting.address() as { port: number }).port;
		try {
			const opts = { timeoutMs: 2000, allowPrivate: false };
			// A name that resolved to a public address when it was registered may resolve to loopback now.
			await expect(attempt(`https://localhost:${port}/hook`, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_1", "{}", opts)).resolves.toEqual({ ok: false, error: "ADDRESS_NOT_ALLOWED" });
			await expect(attempt(`https://127.0.0.1:${port}/hook`, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_1", "{}", opts)).resolves.toEqual({ ok: false, error: "ADDRESS_NOT_ALLOWED" });
			expect(hits).toBe(0);
		} finally {
			await host.close();
			await new Promise(resolve => counting.close(resolve));
		}
	});
});
