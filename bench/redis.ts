/**
 * A private redis-server for the peer: its own loopback port and temp dir, every
 * write appended and fsynced before it is answered (`appendonly yes`, `appendfsync
 * always`) and no RDB snapshots, so a job the peer accepted is as durable as a
 * notification the project accepted (SQLite, synchronous FULL). Nothing else on the
 * machine shares it, and it is stopped with its dir removed afterwards.
 */
import { execFileSync } from "node:child_process";
import { connect } from "node:net";
import { HOST, childEnv, freePort, makeTempDir, removeTempDir, startChild } from "./lib";

const PROBE_TIMEOUT_MS = 1000;

/** The redis-server binary: BENCH_REDIS_SERVER, or the one on PATH. */
export function redisServerBinary(): string {
	return process.env.BENCH_REDIS_SERVER?.trim() || "redis-server";
}

export function redisServerVersion(): string {
	try {
		const out = execFileSync(redisServerBinary(), ["--version"], { encoding: "utf8" });
		return /v=(\S+)/.exec(out)?.[1] ?? out.trim();
	} catch (err) {
		throw new Error(`${redisServerBinary()} could not be run (install Redis, or set BENCH_REDIS_SERVER): ${(err as Error).message}`, { cause: err });
	}
}

/** True once the server answers PING; no client library, so nothing is loaded just to wait. */
function ping(port: number): Promise<boolean> {
	return new Promise(resolve => {
		const socket = connect({ host: HOST, port });
		let answer = "";
		const done = (ok: boolean) => {
			socket.destroy();
			resolve(ok);
		};
		socket.setTimeout(PROBE_TIMEOUT_MS, () => done(false));
		socket.once("error", () => done(false));
		socket.once("connect", () => socket.write("PING\r\n"));
		socket.on("data", chunk => {
			answer += chunk.toString("latin1");
			if (answer.includes("\r\n")) done(answer.startsWith("+PONG"));
		});
	});
}

export interface PrivateRedis {
	port: number;
	pid: number;
	stop(): Promise<void>;
}

export async function startPrivateRedis(startTimeoutMs: number): Promise<PrivateRedis> {
	const dir = await makeTempDir("bench-redis-");
	const port = await freePort();
	try {
		const child = await startChild({
			name: "private redis-server",
			command: redisServerBinary(),
			args: ["--port", String(port), "--bind", HOST, "--dir", dir, "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--daemonize", "no", "--logfile", ""],
			env: childEnv({}),
			ready: () => ping(port),
			deadlineMs: startTimeoutMs
		});
		return {
			port,
			pid: child.process.pid!,
			async stop() {
				await child.stop();
				removeTempDir(dir);
			}
		};
	} catch (err) {
		removeTempDir(dir);
		throw err;
	}
}
