/**
 * The gateway's drain (services/api-gateway/drain.ts) with a real HTTP server and the
 * gateway's request and response classes: which requests the orderly stop waits for,
 * and when it stops waiting. moleculer-web's handler gives a promise that settles once
 * the request is answered; the drain leans on that only where the answer has really
 * been handed to the socket, and listens for the response's close otherwise.
 */
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { HttpDrain } from "../../services/api-gateway/drain";
import { GATEWAY_HTTP_OBJECTS, GatewayRequest, GatewayResponse } from "../../services/api-gateway/http-objects";
import type { Req, Res } from "../../services/api-gateway/types";

type Serve = (req: Req, res: Res) => Promise<unknown> | void;

interface Rig {
	server: Server;
	drain: HttpDrain;
	port: number;
	/** Every response the server made, in order. */
	responses: Res[];
}

let rig: Rig | undefined;

async function start(serve: Serve, done?: (req: Req, res: Res) => void): Promise<Rig> {
	const handle: Serve = () => undefined;
	const server = createServer(GATEWAY_HTTP_OBJECTS, handle);
	const responses: Res[] = [];
	const refuse = (_req: Req, res: Res) => {
		res.writeHead(503).end("stopping");
	};
	const drain = new HttpDrain(
		server,
		handle,
		refuse,
		(req, res) => {
			responses.push(res);
			return serve(req, res);
		},
		done
	);
	await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
	rig = { server, drain, port: (server.address() as AddressInfo).port, responses };
	return rig;
}

afterEach(async () => {
	if (!rig) return;
	rig.server.closeAllConnections();
	await new Promise(resolve => rig!.server.close(resolve));
	rig = undefined;
});

/** One request; resolves with the status and body, or with the error when the connection fails. */
function get(port: number, signal?: AbortSignal): Promise<{ status?: number; body?: string; error?: Error }> {
	return new Promise(resolve => {
		const req = request({ host: "127.0.0.1", port, path: "/x", signal }, (res: IncomingMessage) => {
			let body = "";
			res.setEncoding("utf8");
			res.on("data", (c: string) => (body += c));
			res.on("end", () => resolve({ status: res.statusCode, body }));
			res.on("error", error => resolve({ error }));
		});
		req.on("error", error => resolve({ error }));
		req.end();
	});
}

const tick = () => new Promise(resolve => setImmediate(resolve));

async function until(check: () => boolean): Promise<void> {
	for (let i = 0; i < 200 && !check(); i++) await new Promise(resolve => setTimeout(resolve, 5));
	expect(check()).toBe(true);
}

/** Whether `begin()` has settled after a few turns of the event loop. */
async function settledSoon(p: Promise<void>): Promise<boolean> {
	let done = false;
	void p.then(() => (done = true));
	for (let i = 0; i < 5; i++) await tick();
	return done;
}

describe("the gateway's request and response classes", () => {
	it("should make every request and response with the properties moleculer-web and the gateway set, as undefined", async () => {
		const { port, responses } = await start(async (req, res) => {
			expect(req).toBeInstanceOf(GatewayRequest);
			expect(res).toBeInstanceOf(GatewayResponse);
			for (const key of ["$ctx", "$route", "$params", "$alias", "$principal", "query", "body"]) {
				expect(Object.hasOwn(req, key)).toBe(true);
				expect((req as unknown as Record<string, unknown>)[key]).toBeUndefined();
			}
			expect(res.statusCode).toBe(200);
			res.end("ok");
		});
		expect(await get(port)).toEqual({ status: 200, body: "ok" });
		expect(responses).toHaveLength(1);
	});
});

describe("HttpDrain", () => {
	it("should be done with an answer written before the handler settled", async () => {
		const { drain, port } = await start(async (_req, res) => {
			res.end("ok");
		});
		expect(await get(port)).toEqual({ status: 200, body: "ok" });
		await tick();
		expect(await settledSoon(drain.begin())).toBe(true);
	});

	it("should add a close listener only for answers that are not written when the handler settles", async () => {
		const counts: number[] = [];
		let later: Res | undefined;
		const { port } = await start(async (req, res) => {
			if (req.headers["x-later"]) later = res;
			else res.end("now");
			await tick();
			counts.push(res.listenerCount("close"));
		});
		await get(port);
		const pending = new Promise<void>(resolve => {
			const r = request({ host: "127.0.0.1", port, path: "/x", headers: { "x-later": "1" } }, res => {
				res.resume();
				res.on("end", resolve);
			});
			r.end();
		});
		await until(() => counts.length === 2);
		await tick();
		// The first (written) got no listener from the drain; the second (not written) did.
		expect(later!.listenerCount("close")).toBe(counts[0] + 1);
		later!.end("later");
		await pending;
	});

	it("should wait for an answer still streaming when the handler settles, until it ends", async () => {
		let streaming: Res | undefined;
		const { drain, port } = await start(async (_req, res) => {
			res.writeHead(200, { "Content-Type": "text/plain" });
			res.write("part one;");
			streaming = res;
		});
		const answer = get(port);
		await until(() => streaming !== undefined);
		await tick();
		const begun = drain.begin();
		expect(await settledSoon(begun)).toBe(false);
		streaming!.end("part two");
		expect(await answer).toEqual({ status: 200, body: "part one;part two" });
		await begun;
	});

	it("should wait for a request whose handler settled before answering, and refuse it with 503 when the grace runs out", async () => {
		const { drain, port } = await start(async () => undefined);
		const answer = get(port);
		await until(() => rig!.responses.length === 1);
		await tick();
		const begun = drain.begin();
		expect(await settledSoon(begun)).toBe(false);
		await drain.abort();
		expect(await answer).toEqual({ status: 503, body: "stopping" });
		await begun;
	});

	it("should wait for a handler that gives no promise until the response closes", async () => {
		let held: Res | undefined;
		const { drain, port } = await start((_req, res) => {
			held = res;
		});
		const answer = get(port);
		await until(() => held !== undefined);
		const begun = drain.begin();
		expect(await settledSoon(begun)).toBe(false);
		held!.end("done");
		expect(await answer).toEqual({ status: 200, body: "done" });
		await begun;
	});

	it("should be done with a request whose client went away before the handler settled", async () => {
		let release: () => void = () => undefined;
		const { drain, port, responses } = await start(() => new Promise<void>(resolve => (release = resolve)));
		const aborter = new AbortController();
		const answer = get(port, aborter.signal);
		await until(() => responses.length === 1);
		aborter.abort();
		expect((await answer).error).toBeDefined();
		await until(() => responses[0].closed);
		release();
		await tick();
		expect(await settledSoon(drain.begin())).toBe(true);
	});

	it("should tell `done` of every request once, when it is answered in full or its client went away, with its arrival stamped", async () => {
		const seen: { url?: string; ended: boolean; receivedAt?: number }[] = [];
		let held: Res | undefined;
		let release: () => void = () => undefined;
		const { port } = await start(
			(req, res) => {
				if (req.headers["x-mode"] === "later") held = res;
				else if (req.headers["x-mode"] === "hang") return new Promise<void>(resolve => (release = resolve));
				else res.end("now");
				return Promise.resolve();
			},
			(req, res) => seen.push({ url: req.url, ended: res.writableEnded, receivedAt: req.$began })
		);
		const send = (mode: string, signal?: AbortSignal) =>
			new Promise<void>(resolve => {
				const r = request({ host: "127.0.0.1", port, path: `/${mode}`, headers: { "x-mode": mode }, signal }, res => {
					res.resume();
					res.on("end", resolve);
				});
				r.on("error", () => resolve());
				r.end();
			});
		await send("now");
		const later = send("later");
		await until(() => held !== undefined);
		expect(seen.map(s => s.url)).toEqual(["/now"]);
		held!.end("later");
		await later;
		const aborter = new AbortController();
		const hung = send("hang", aborter.signal);
		await until(() => rig!.responses.length === 3);
		aborter.abort();
		await hung;
		await until(() => rig!.responses[2].closed);
		release();
		await until(() => seen.length === 3);
		for (let i = 0; i < 5; i++) await tick();
		expect(seen.map(({ url, ended }) => ({ url, ended }))).toEqual([
			{ url: "/now", ended: true },
			{ url: "/later", ended: true },
			{ url: "/hang", ended: false }
		]);
		expect(seen.every(s => typeof s.receivedAt === "number")).toBe(true);
	});

	it("should stamp no arrival when nobody is told", async () => {
		let stamped: unknown = "unset";
		const { port } = await start(async (req, res) => {
			stamped = req.$began;
			res.end("ok");
		});
		expect(await get(port)).toEqual({ status: 200, body: "ok" });
		expect(stamped).toBeUndefined();
	});
});
