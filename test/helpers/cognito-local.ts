/**
 * Runs the real cognito-local emulator from node_modules as a child process and
 * builds the pools the Cognito identity provider expects.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
	AdminCreateUserCommand,
	AdminSetUserPasswordCommand,
	CognitoIdentityProviderClient,
	CreateUserPoolClientCommand,
	CreateUserPoolCommand
} from "@aws-sdk/client-cognito-identity-provider";

const HOST = "127.0.0.1";
const START_DEADLINE_MS = 20000;
const POLL_INTERVAL_MS = 50;
const OUTPUT_KEEP_CHARS = 16384;

export const REGION = "us-west-2";

export interface CognitoLocal {
	endpoint: string;
	admin: CognitoIdentityProviderClient;
	stop(): Promise<void>;
}

import { freePort } from "../../harness/processes";

function exited(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise(resolve => child.once("exit", () => resolve()));
}

export async function startCognitoLocal(): Promise<CognitoLocal> {
	const cwd = await mkdtemp(path.join(tmpdir(), "cognito-local-"));
	const port = await freePort();
	const endpoint = `http://${HOST}:${port}`;
	// It reads .cognito/config.json and keeps its data under .cognito/db in its working
	// directory: a fresh one per run.
	await mkdir(path.join(cwd, ".cognito"));
	await writeFile(
		path.join(cwd, ".cognito", "config.json"),
		JSON.stringify({
			// The issuer would default to http://$HOST:$PORT anyway; said explicitly, the tokens'
			// iss is visibly the endpoint-derived issuer the provider verifies against.
			TokenConfig: { IssuerDomain: endpoint },
			// CreateUserPool merges its request into these defaults index by index, so a pool
			// cannot opt out of the default ["email"]; with none, each pool states its own.
			UserPoolDefaults: { UsernameAttributes: [] }
		})
	);
	const bin = path.join(path.dirname(require.resolve("cognito-local/package.json")), "lib/bin/start.js");
	const child = spawn(process.execPath, [bin], {
		cwd,
		env: { ...process.env, PORT: String(port), HOST },
		stdio: ["ignore", "pipe", "pipe"]
	});
	let output = "";
	const keep = (chunk: Buffer) => {
		output = (output + chunk.toString("utf8")).slice(-OUTPUT_KEEP_CHARS);
	};
	child.stdout!.on("data", keep);
	child.stderr!.on("data", keep);
	const stop = async () => {
		child.kill("SIGTERM");
		await exited(child);
		await rm(cwd, { recursive: true, force: true });
	};

	const deadline = Date.now() + START_DEADLINE_MS;
	for (;;) {
		if (child.exitCode !== null) {
			await stop();
			throw new Error(`cognito-local exited with ${child.exitCode}:\n${output}`);
		}
		try {
			const res = await fetch(`${endpoint}/health`);
			if (res.ok) break;
		} catch {
			// Not listening yet.
		}
		if (Date.now() > deadline) {
			await stop();
			throw new Error(`cognito-local did not answer on ${endpoint} within ${START_DEADLINE_MS} ms:\n${output}`);
		}
		await new Promise(resolve => setTimeout(resolve, POLL_INTERVAL_MS));
	}

	const admin = new CognitoIdentityProviderClient({
		region: REGION,
		endpoint,
		credentials: { accessKeyId: "local", secretAccessKey: "local" }
	});
	return {
		endpoint,
		admin,
		stop: async () => {
			admin.destroy();
			await stop();
		}
	};
}

export interface AppClient {
	clientId: string;
	clientSecret?: string;
}

export async function createAppClient(local: CognitoLocal, poolId: string, generateSecret = false): Promise<AppClient> {
	const res = await local.admin.send(
		new CreateUserPoolClientCommand({
			UserPoolId: poolId,
			ClientName: generateSecret ? "confidential" : "public",
			GenerateSecret: generateSecret,
			ExplicitAuthFlows: ["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"]
		})
	);
	return { clientId: res.UserPoolClient!.ClientId!, clientSecret: res.UserPoolClient!.ClientSecret };
}

export interface CognitoPools {
	actorPoolId: string;
	actorClientId: string;
	servicePoolId: string;
	serviceClientId: string;
	serviceAccountUsername: string;
	serviceAccountPassword: string;
}

/** The setup documented in lib/idp/cognito.ts, with a service account for service "auth". */
export async function createPools(local: CognitoLocal): Promise<CognitoPools> {
	const actorPool = await local.admin.send(
		new CreateUserPoolCommand({ PoolName: "actors", UsernameAttributes: ["email"] })
	);
	const actorPoolId = actorPool.UserPool!.Id!;
	const servicePool = await local.admin.send(
		new CreateUserPoolCommand({
			PoolName: "services",
			Schema: [{ Name: "service_id", AttributeDataType: "String", Mutable: true }]
		})
	);
	const servicePoolId = servicePool.UserPool!.Id!;
	const actorClient = await createAppClient(local, actorPoolId);
	const serviceClient = await createAppClient(local, servicePoolId);
	const serviceAccountUsername = "svc-auth";
	const serviceAccountPassword = "Service-Passw0rd!";
	await local.admin.send(
		new AdminCreateUserCommand({
			UserPoolId: servicePoolId,
			Username: serviceAccountUsername,
			MessageAction: "SUPPRESS",
			UserAttributes: [{ Name: "custom:service_id", Value: "auth" }]
		})
	);
	await local.admin.send(
		new AdminSetUserPasswordCommand({
			UserPoolId: servicePoolId,
			Username: serviceAccountUsername,
			Password: serviceAccountPassword,
			Permanent: true
		})
	);
	return {
		actorPoolId,
		actorClientId: actorClient.clientId,
		servicePoolId,
		serviceClientId: serviceClient.clientId,
		serviceAccountUsername,
		serviceAccountPassword
	};
}

/** The platform's variables for these pools in this emulator. */
export function cognitoEnv(local: CognitoLocal, pools: CognitoPools): Record<string, string> {
	return {
		IDP_ENDPOINT: local.endpoint,
		CLOUD_REGION: REGION,
		IDP_ACTOR_POOL_ID: pools.actorPoolId,
		IDP_ACTOR_CLIENT_ID: pools.actorClientId,
		IDP_SERVICE_POOL_ID: pools.servicePoolId,
		IDP_SERVICE_CLIENT_ID: pools.serviceClientId,
		IDP_SERVICE_ACCOUNT_USERNAME: pools.serviceAccountUsername,
		IDP_SERVICE_ACCOUNT_PASSWORD: pools.serviceAccountPassword
	};
}

/**
 * A describe block's platform on Cognito: cognito-local with fresh pools and a platform
 * using them start before the block's tests (`started` is handed the platform) and stop
 * after them.
 */
export function platformOnCognito(env: Record<string, string>, started: (platform: import("./platform").Platform) => void): void {
	let local: CognitoLocal | undefined;
	let platform: import("./platform").Platform | undefined;
	beforeAll(async () => {
		const { startPlatform } = await import("./platform");
		local = await startCognitoLocal();
		platform = await startPlatform({ ...env, ...cognitoEnv(local, await createPools(local)) });
		started(platform);
	}, 60000);
	afterAll(async () => {
		await platform?.stop();
		await local?.stop();
	});
}
