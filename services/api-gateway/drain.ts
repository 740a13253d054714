/**
 * The gateway's part in the orderly stop (lib/process/shutdown.ts). Every request passes here
 * on its way to moleculer-web, so the gateway knows which ones are under way. Once the
 * stop begins, a new request is answered 503 SHUTTING_DOWN, except the health checks,
 * which go on to their actions (readiness then reports the stop); the stop waits for
 * the requests under way. When the grace runs out, each one still without an answer
 * gets 503 SHUTTING_DOWN; once the broker stops, the connections left are closed.
 */
import type { Server } from "node:http";
import { InFlight, type Drain } from "../../lib/process/shutdown";
import type { Req, Res } from "./types";

type Handler = (req: Req, res: Res) => void;
/** Told of each request once it is done: its answer handed to the socket, or the client gone. */
type Done = (req: Req, res: Res) => void;
/** Answers a request; moleculer-web's handler gives a promise that settles once it has. */
type Serve = (req: Req, res: Res) => PromiseLike<unknown> | void;

const HEALTH = /^\/health\/(live|ready)(\?|$)/;

export class HttpDrain implements Drain {
	private readonly open: InFlight<Res>;
	private stopping = false;
	/** Shared by every response: the listener's `this` is the response that closed. */
	private readonly ended: (this: Res) => void;

	/**
	 * Takes over the server's "request" event from `handle` (moleculer-web's handler);
	 * each request then goes to `serve` (by default `handle`); `refuse` answers 503
	 * SHUTTING_DOWN. `done` hears of every request as it leaves (the access log): the
	 * drain already knows when that is, and stamps each request's arrival for it.
	 */
	constructor(
		private readonly server: Server,
		handle: Serve,
		private readonly refuse: Handler,
		private readonly serve: Serve = handle,
		private readonly done?: Done
	) {
		this.open = new InFlight<Res>(res => {
			if (!res.headersSent) refuse(res.req as Req, res);
		});
		const open = this.open;
		this.ended = function (this: Res) {
			open.delete(this);
			done?.(this.req as Req, this);
		};
		const before = server.listenerCount("request");
		server.removeListener("request", handle);
		if (server.listenerCount("request") !== before - 1) throw new Error("moleculer-web's request handler is not on the server");
		server.on("request", this.onRequest);
	}

	/**
	 * A request is under way until its answer is written. Most answers have been handed
	 * to the socket in full by the time moleculer-web's handler settles, so the request
	 * is done then, without a listener on the response (adding and removing one cost
	 * more than the rest of the drain). Any other (a stream still flowing, an answer
	 * the socket has not taken yet, a handler that gave no promise) is done when the
	 * response closes, or at once if it has closed already (the client went away).
	 */
	private readonly onRequest = (req: Req, res: Res): void => {
		this.open.add(res);
		if (this.done) req.$began = performance.now();
		const served = this.stopping && !HEALTH.test(req.url ?? "") ? this.refuse(req, res) : this.serve(req, res);
		if (!served) {
			res.on("close", this.ended);
			return;
		}
		const settle = () => this.settle(res);
		served.then(settle, settle);
	};

	/** Done once the whole answer was handed to the socket (Node emits "finish" a turn later), or the client went away. */
	private settle(res: Res): void {
		if ((res.writableEnded && res.writableLength === 0) || res.closed) {
			this.open.delete(res);
			this.done?.(res.req as Req, res);
		} else res.on("close", this.ended);
	}

	begin(): Promise<void> {
		this.stopping = true;
		this.server.closeIdleConnections();
		return this.open.settled();
	}

	abort(): Promise<void> {
		return this.open.abort();
	}

	/** After a stop, no connection may keep the server from closing: a client still sending a body is cut off. */
	close(): void {
		if (this.stopping) this.server.closeAllConnections();
	}
}
