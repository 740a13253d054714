/**
 * Starts the platform in this process with a fresh data directory, and talks to its
 * gateway over real HTTP.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { ServiceBroker } from "moleculer";
import { createBroker } from "../../index";
import { loadConfig, type Config, type Env } from "../../lib/config";
import { runtimeOf } from "../../lib/runtime";

export interface Platform {
	broker: ServiceBroker;
	config: Config;
	baseUrl: string;
	dataDir: string;
	stop(): Promise<void>;
}

export function tempDir(prefix = "an-test-"): string {
	return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function testConfig(env: Env = {}): Config {
	return loadConfig({ PORT: "0", LOG_LEVEL: "silent", DATA_DIR: tempDir(), NODE_ID: `test-${process.pid}`, ...env });
}

export async function startPlatform(env: Env = {}): Promise<Platform> {
	const config = testConfig(env);
	const broker = createBroker(config);
	await broker.start();
	let baseUrl = "";
	const api = broker.getLocalService("api") as unknown as { server?: Server } | undefined;
	if (api?.server) baseUrl = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
	return {
		broker,
		config,
		baseUrl,
		dataDir: config.dataDir,
		stop: async () => {
			await broker.stop();
			fs.rmSync(config.dataDir, { recursive: true, force: true });
		}
	};
}

export interface HttpResult<T = any> {
	status: number;
	headers: Headers;
	body: T;
}

export async function http<T = any>(
	baseUrl: string,
	method: string,
	url: string,
	opts: { token?: string; json?: unknown; body?: string | Uint8Array | FormData; headers?: Record<string, string> } = {}
): Promise<HttpResult<T>> {
	const headers: Record<string, string> = { ...(opts.headers ?? {}) };
	if (opts.token) headers.authorization = `Bearer ${opts.token}`;
	let body = opts.body;
	if (opts.json !== undefined) {
		body = JSON.stringify(opts.json);
		headers["content-type"] ??= "application/json";
	}
	const res = await fetch(baseUrl + url, { method, headers, body, redirect: "manual" });
	const text = await res.text();
	let parsed: unknown = text;
	try {
		parsed = text ? JSON.parse(text) : null;
	} catch {
		/* not JSON: keep the text */
	}
	return { status: res.status, headers: res.headers, body: parsed as T };
}

let counter = 0;
export function newUser(overrides: Partial<{ email: string; password: string; firstName: string; lastName: string }> = {}) {
	counter += 1;
	return {
		email: `user${counter}-${Date.now()}@example.com`,
		password: "Correct-Horse-9",
		firstName: "Ada",
		lastName: "Lovelace",
		...overrides
	};
}

/** Checks an answer's status; a failure shows the answer's body (its problem document), not only the status. */
export function expectStatus(res: { status: number; body: unknown }, status: number) {
	expect({ status: res.status, body: res.body }).toEqual({ status, body: res.status === status ? res.body : "(the answer with the expected status)" });
}

/** Registers a fresh user through the gateway, logs in and reads the actor with the access token, checking each answer. */
export async function registerLoginAndRead(baseUrl: string) {
	const user = newUser();
	const reg = await http(baseUrl, "POST", "/auth/register", { json: user });
	expectStatus(reg, 201);
	const login = await http(baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } });
	expectStatus(login, 200);
	const actor = await http(baseUrl, "GET", `/actors/${reg.body.actorId}`, { token: login.body.accessToken });
	expect(actor.status).toBe(200);
	expect(actor.body).toMatchObject({ actorId: reg.body.actorId, email: user.email.toLowerCase() });
	return { actorId: reg.body.actorId as string, login: login.body as { accessToken: string; refreshToken: string } };
}

export function runtime(p: Platform) {
	return runtimeOf(p.broker);
}
