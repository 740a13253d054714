/**
 * `auth-notify doctor`: checks what a start needs, the way the platform reads it, and
 * says for each problem what is wrong and how to fix it. Configuration first (every
 * problem of lib/config's schema, with its hint); with a valid one, the store (SQLite's
 * DATA_DIR writable, MongoDB reachable), NATS and Redis when set, the providers' hosts,
 * the signing keys in the store (readable, sealed), and whether a platform answers
 * at --url or PUBLIC_URL and is ready. Never prints a secret: URLs
 * are shown as host and port.
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { connect as natsConnect } from "nats";
import Redis from "ioredis";
import { validateEnv, loadConfig, type Config, type Env } from "../config";
import { KeySeal, KEK_VARIABLE, type PrivatePart } from "../crypto/sealed-keys";
import { KEYS_COLLECTION } from "../idp/keys";
import { createStore, type Store } from "../store";
import { UNSUBSCRIBE_KEYS } from "../unsubscribe/keys";
import type { Outcome } from "./output";

export type FindingStatus = "ok" | "warning" | "problem" | "skipped";

export interface Finding {
	check: "configuration" | "store" | "nats" | "redis" | "email" | "sms" | "keys" | "platform";
	status: FindingStatus;
	message: string;
	/** What to do, for a warning or a problem. */
	fix?: string;
}

const TIMEOUT_MS = 3000;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
	});
	return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

const reason = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

/** Whether a TCP connection to host:port opens. */
function reachable(host: string, port: number): Promise<void> {
	return new Promise((resolve, reject) => {
		const socket = net.connect({ host, port });
		socket.setTimeout(TIMEOUT_MS, () => socket.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
		socket.once("connect", () => {
			socket.end();
			resolve();
		});
		socket.once("error", reject);
	});
}

/** host:port of a URL, never its credentials. */
function where(u: URL, defaultPort: number): { host: string; port: number; label: string } {
	const host = u.hostname.replace(/^\[|\]$/g, "");
	const port = u.port ? Number(u.port) : defaultPort;
	return { host, port, label: `${u.hostname}:${port}` };
}

/** The nearest directory that exists at or above `dir`. */
function nearestExisting(dir: string): string {
	let d = path.resolve(dir);
	while (!fs.existsSync(d) && path.dirname(d) !== d) d = path.dirname(d);
	return d;
}

async function checkStore(config: Config, findings: Finding[]): Promise<Store | null> {
	if (!config.mongodbUrl) {
		const dir = path.resolve(config.dataDir);
		if (!fs.existsSync(dir)) {
			const parent = nearestExisting(dir);
			try {
				fs.accessSync(parent, fs.constants.W_OK | fs.constants.X_OK);
				findings.push({ check: "store", status: "ok", message: `DATA_DIR ${dir} does not exist yet: the first start makes it (in ${parent}, which is writable)` });
			} catch {
				findings.push({ check: "store", status: "problem", message: `DATA_DIR ${dir} does not exist and ${parent} is not writable`, fix: `Create ${dir} for the user the platform runs as, or set DATA_DIR to a writable directory.` });
			}
			return null;
		}
		try {
			fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
		} catch {
			findings.push({ check: "store", status: "problem", message: `DATA_DIR ${dir} is not writable`, fix: `Give the user the platform runs as write access to ${dir} (chown or chmod), or set DATA_DIR to a writable directory.` });
			return null;
		}
	}
	const label = config.mongodbUrl ? `MongoDB at ${where(new URL(config.mongodbUrl), 27017).label}` : `SQLite in ${path.resolve(config.dataDir)}`;
	let store: Store | null = null;
	try {
		store = createStore(config);
		await withTimeout(store.ping(), 8000, label);
		findings.push({ check: "store", status: "ok", message: `${label} opens and answers` });
		return store;
	} catch (err) {
		await store?.close().catch(() => undefined);
		findings.push({
			check: "store",
			status: "problem",
			message: `${label} does not open (${reason(err)})`,
			fix: config.mongodbUrl
				? "Start MongoDB (docker compose up -d mongo) or correct MONGODB_URL; unset it to use the embedded SQLite store."
				: `Check that ${path.resolve(config.dataDir)} is on a writable disk with free space, and that no other program locks store.sqlite.`
		});
		return null;
	}
}

async function checkNats(config: Config, findings: Finding[]): Promise<void> {
	if (!config.natsUrl) return;
	const { label } = where(new URL(config.natsUrl), 4222);
	try {
		const nc = await natsConnect({ servers: config.natsUrl, timeout: TIMEOUT_MS, reconnect: false, name: "auth-notify-doctor" });
		await nc.close();
		findings.push({ check: "nats", status: "ok", message: `NATS at ${label} answers` });
	} catch (err) {
		findings.push({ check: "nats", status: "problem", message: `NATS at ${label} does not answer (${reason(err)})`, fix: "Start NATS (docker compose up -d nats) or correct NATS_URL; unset it to run every service in one process." });
	}
}

async function checkRedis(config: Config, findings: Finding[]): Promise<void> {
	if (!config.redisUrl) return;
	const { label } = where(new URL(config.redisUrl), 6379);
	const client = new Redis(config.redisUrl, { lazyConnect: true, connectTimeout: TIMEOUT_MS, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
	let lastError: unknown;
	client.on("error", err => (lastError = err));
	try {
		await withTimeout(client.connect(), TIMEOUT_MS + 500, `Redis at ${label}`);
		await withTimeout(client.ping(), TIMEOUT_MS, `Redis at ${label}`);
		findings.push({ check: "redis", status: "ok", message: `Redis at ${label} answers` });
	} catch (err) {
		findings.push({ check: "redis", status: "problem", message: `Redis at ${label} does not answer (${reason(lastError ?? err)})`, fix: "Start Redis (docker compose up -d redis) or correct REDIS_URL; unset it to keep tokens and limits in each process." });
	} finally {
		client.disconnect();
	}
}

async function checkHost(findings: Finding[], check: "email" | "sms", what: string, url: URL, defaultPort: number, fix: string): Promise<void> {
	const { host, port, label } = where(url, defaultPort);
	try {
		await reachable(host, port);
		findings.push({ check, status: "ok", message: `${what} at ${label} is reachable` });
	} catch (err) {
		findings.push({ check, status: "problem", message: `${what} at ${label} cannot be reached (${reason(err)})`, fix });
	}
}

async function checkProviders(config: Config, findings: Finding[]): Promise<void> {
	const n = config.notifications;
	const outbox = path.resolve(config.dataDir, "outbox");
	switch (n.emailProvider) {
		case "file":
			findings.push({ check: "email", status: "ok", message: `EMAIL_PROVIDER=file: mail is written to ${outbox} (read it with \`auth-notify outbox\` or the console's Outbox)` });
			break;
		case "smtp":
			if (n.smtpUrl) {
				const u = new URL(n.smtpUrl);
				await checkHost(findings, "email", "The SMTP server", u, u.protocol === "smtps:" ? 465 : 587, "Check SMTP_URL's host and port, and that this machine may reach it (firewall, VPN).");
			}
			break;
		case "ses": {
			const endpoint = new URL(n.sesEndpoint ?? `https://email.${config.idp.region}.amazonaws.com`);
			await checkHost(findings, "email", "SES", endpoint, endpoint.protocol === "http:" ? 80 : 443, "Check AWS_SES_ENDPOINT and CLOUD_REGION, and that this machine reaches AWS; the AWS credentials come from the usual AWS variables or role.");
			break;
		}
	}
	switch (n.sms.provider) {
		case "file":
			findings.push({ check: "sms", status: "ok", message: `SMS_PROVIDER=file: SMS are written to ${path.join(outbox, "sms")}` });
			break;
		case "smpp":
			if (n.sms.smpp) {
				const { host, port, tls } = n.sms.smpp;
				await checkHost(findings, "sms", `The SMSC${tls ? " (TLS)" : ""}`, new URL(`tcp://${host.includes(":") ? `[${host}]` : host}:${port}`), port, "Check SMPP_URL's host and port, and that this machine may reach the SMSC.");
			}
			break;
		case "aws": {
			const endpoint = new URL(n.sms.awsEndpoint ?? `https://sms-voice.${config.idp.region}.amazonaws.com`);
			await checkHost(findings, "sms", "AWS End User Messaging SMS", endpoint, endpoint.protocol === "http:" ? 80 : 443, "Check AWS_SMS_ENDPOINT and CLOUD_REGION, and that this machine reaches AWS.");
			break;
		}
	}
}

async function checkKeys(config: Config, store: Store | null, findings: Finding[]): Promise<void> {
	if (config.idp.kind === "cognito") {
		findings.push({ check: "keys", status: "ok", message: "Cognito keeps and rotates its own signing keys" });
		return;
	}
	if (!store) {
		findings.push({ check: "keys", status: "skipped", message: "The signing keys are in the store, which did not open" });
		return;
	}
	const kek = config.idp.keyEncryptionKey;
	for (const [collection, what] of [
		[KEYS_COLLECTION, "signing key"],
		[UNSUBSCRIBE_KEYS, "unsubscribe key"]
	] as const) {
		let docs: (PrivatePart & { id: string })[];
		try {
			docs = await store.collection<PrivatePart & { id: string }>(collection).find({});
		} catch (err) {
			findings.push({ check: "keys", status: "problem", message: `The ${what}s in ${collection} cannot be read (${reason(err)})`, fix: "Fix the store first (see above)." });
			continue;
		}
		if (docs.length === 0) {
			findings.push({ check: "keys", status: "ok", message: `No ${what} yet: the first start makes one${kek ? ", sealed" : ""}` });
			continue;
		}
		const seal = new KeySeal(collection, what, kek);
		const unreadable = docs.flatMap(d => {
			try {
				seal.open(d);
				return [];
			} catch (err) {
				return [(err as Error).message];
			}
		});
		const clear = docs.filter(d => d.sealedPrivateJwk === undefined).length;
		if (unreadable.length > 0) {
			findings.push({
				check: "keys",
				status: "problem",
				message: `${unreadable.length} of ${docs.length} ${what}s do not open: ${unreadable[0]}`,
				fix: `Set ${KEK_VARIABLE} to the key-encryption key they were sealed under (the same on every node that signs).`
			});
		} else if (clear > 0 && !kek) {
			findings.push({
				check: "keys",
				status: "warning",
				message: `${docs.length} ${what}s open; ${clear} are stored in clear`,
				fix: `Set ${KEK_VARIABLE} (32 random bytes, base64: \`openssl rand -base64 32\`) to seal them at rest; the next start seals them.`
			});
		} else if (clear > 0) {
			findings.push({ check: "keys", status: "warning", message: `${docs.length} ${what}s open; ${clear} are stored in clear`, fix: "The next start seals them under the configured key: restart the nodes that sign." });
		} else {
			findings.push({ check: "keys", status: "ok", message: `${docs.length} ${what}s open and are sealed` });
		}
	}
}

/** Whether a platform answers at `url`, and is ready; not running is no problem (doctor also checks a stopped one). */
async function checkPlatform(url: string, findings: Finding[]): Promise<void> {
	let res: Response;
	try {
		res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
	} catch {
		findings.push({ check: "platform", status: "skipped", message: `Nothing answers at ${url}: not running, or running elsewhere (pass --url)` });
		return;
	}
	const report = (await res.json().catch(() => null)) as { status?: string; checks?: Record<string, unknown> } | null;
	if (res.status === 200) {
		findings.push({ check: "platform", status: "ok", message: `The platform at ${url} is ready` });
		return;
	}
	const failing = Object.entries(report?.checks ?? {})
		.filter(([, v]) => v !== "ok" && (v as { status?: string })?.status !== "ok")
		.map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
	findings.push({
		check: "platform",
		status: "problem",
		message: `The platform at ${url} answers ${res.status} to /health/ready${failing.length ? ` (${failing.join("; ")})` : ""}`,
		fix: "Read the node's log for the failing check; the checks above say which dependency to fix."
	});
}

/** Every finding, in order; a configuration that does not load skips the rest. */
export async function diagnose(env: Env, url?: string): Promise<Finding[]> {
	const findings: Finding[] = [];
	const problems = validateEnv(env);
	if (problems.length > 0) {
		for (const p of problems) findings.push({ check: "configuration", status: "problem", message: `${p.variable} ${p.problem}`, fix: p.hint });
		findings.push({ check: "store", status: "skipped", message: "Checked once the configuration is valid" });
		return findings;
	}
	const config = loadConfig(env);
	findings.push({ check: "configuration", status: "ok", message: "Every variable is valid" });
	const store = await checkStore(config, findings);
	try {
		await Promise.all([checkNats(config, findings), checkRedis(config, findings), checkProviders(config, findings), checkPlatform(url ?? config.publicUrl, findings)]);
		await checkKeys(config, store, findings);
	} finally {
		await store?.close().catch(() => undefined);
	}
	return findings.sort((a, b) => ORDER.indexOf(a.check) - ORDER.indexOf(b.check));
}

const ORDER: Finding["check"][] = ["configuration", "store", "nats", "redis", "email", "sms", "keys", "platform"];

const MARK: Record<FindingStatus, string> = { ok: "ok     ", warning: "warning", problem: "PROBLEM", skipped: "skipped" };

export async function doctor(env: Env, url?: string): Promise<Outcome> {
	const findings = await diagnose(env, url);
	const problems = findings.filter(f => f.status === "problem").length;
	const warnings = findings.filter(f => f.status === "warning").length;
	const lines = findings.map(f => `${MARK[f.status]}  ${f.check}: ${f.message}${f.fix ? `\n         fix: ${f.fix}` : ""}`);
	lines.push(
		problems > 0
			? `\n${problems} problem${problems === 1 ? "" : "s"} found${warnings ? `, ${warnings} warning${warnings === 1 ? "" : "s"}` : ""}.`
			: `\nNo problems found${warnings ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : ""}.`
	);
	return { ok: problems === 0, json: { ok: problems === 0, problems, warnings, findings }, text: lines.join("\n") };
}
