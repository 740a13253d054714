/**
 * Private NATS and Redis servers on their own loopback ports, for tests that stop
 * and restart them (the shared ones on the standard ports are never touched).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import { freePort, waitFor } from "./processes";

function find(name: string, candidates: string[]): string | null {
	for (const c of candidates) if (fs.existsSync(c)) return c;
	for (const dir of (process.env.PATH ?? "").split(":")) if (dir && fs.existsSync(`${dir}/${name}`)) return `${dir}/${name}`;
	return null;
}

export const NATS_SERVER = find("nats-server", ["/usr/sbin/nats-server", "/usr/bin/nats-server"]);
export const REDIS_SERVER = find("redis-server", ["/usr/bin/redis-server", "/usr/sbin/redis-server"]);

/** Whether something accepts TCP connections on 127.0.0.1 at this port. */
export function portOpen(port: number): Promise<boolean> {
	return new Promise(resolve => {
		const s = net.connect(port, "127.0.0.1");
		s.once("connect", () => {
			s.destroy();
			resolve(true);
		});
		s.once("error", () => resolve(false));
	});
}

export interface PrivateServer {
	port: number;
	url: string;
	stop(): Promise<void>;
	start(): Promise<void>;
}

function privateServer(bin: string, args: (port: number) => string[], scheme: string, port: number): PrivateServer {
	let child: ChildProcess | null = null;
	const server: PrivateServer = {
		port,
		url: `${scheme}://127.0.0.1:${port}`,
		async start() {
			child = spawn(bin, args(port), { stdio: "ignore" });
			await waitFor(`${bin} on ${port}`, () => portOpen(port));
		},
		async stop() {
			if (!child || child.exitCode !== null) return;
			const exited = new Promise(r => child!.once("exit", r));
			child.kill("SIGKILL");
			await exited;
			await waitFor(`${bin} on ${port} to close`, async () => !(await portOpen(port)));
		}
	};
	return server;
}

export async function startNatsServer(): Promise<PrivateServer> {
	if (!NATS_SERVER) throw new Error("nats-server is not installed");
	const s = privateServer(NATS_SERVER, port => ["-a", "127.0.0.1", "-p", String(port)], "nats", await freePort());
	await s.start();
	return s;
}

export async function startRedisServer(): Promise<PrivateServer> {
	if (!REDIS_SERVER) throw new Error("redis-server is not installed");
	const s = privateServer(REDIS_SERVER, port => ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], "redis", await freePort());
	await s.start();
	return s;
}
