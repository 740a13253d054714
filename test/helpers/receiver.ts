/**
 * A webhook receiver on loopback HTTP: records every request and answers as the
 * test says (a status, a redirect, or no answer at all).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
	headers: Record<string, string>;
	body: string;
}

export type Answer = { status: number; headers?: Record<string, string> } | "hang";

export class Receiver {
	readonly received: Received[] = [];
	/** Decides the answer to each request; 200 by default. */
	answer: (r: Received, index: number) => Answer = () => ({ status: 200 });
	private readonly hung = new Set<http.ServerResponse>();

	private constructor(private readonly server: http.Server) {}

	static async start(): Promise<Receiver> {
		const server = http.createServer();
		const r = new Receiver(server);
		server.on("request", (req, res) => {
			const chunks: Buffer[] = [];
			req.on("data", c => chunks.push(c));
			req.on("end", () => {
				const got: Received = { headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString("utf8") };
				r.received.push(got);
				const a = r.answer(got, r.received.length - 1);
				if (a === "hang") {
					r.hung.add(res);
					return;
				}
				res.writeHead(a.status, a.headers ?? {});
				res.end("ok");
			});
		});
		await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
		return r;
	}

	get url(): string {
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
	}

	ids(): string[] {
		return this.received.map(r => r.headers["webhook-id"]);
	}

	types(): string[] {
		return this.received.map(r => JSON.parse(r.body).type);
	}

	async close(): Promise<void> {
		for (const res of this.hung) res.destroy();
		this.server.closeAllConnections();
		await new Promise<void>(resolve => this.server.close(() => resolve()));
	}
}
