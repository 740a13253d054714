/**
 * Commands that work on the configured store and files themselves, with or without a
 * running platform: making an administrator, rotating the unsubscribe key, and reading
 * the file providers' outboxes. Each opens only what it needs and closes it.
 */
import fs from "node:fs";
import path from "node:path";
import { ConfigError, describeConfigError, loadConfig, type Config, type Env } from "../config";
import { createIdentityProvider } from "../idp";
import { PASSWORD_POLICY, meetsPolicy } from "../idp/password";
import { BOOTSTRAP_REFUSED } from "../idp/types";
import { normalizeEmail } from "../email-address";
import { prepareDataDir } from "../process/data-dir";
import { createStore, type Store } from "../store";
import { rotateUnsubscribeKey } from "../unsubscribe/keys";
import { CommandFailure } from "./output";

/** The configuration, or a failure that lists every problem with its fix. */
export function configOrFail(env: Env): Config {
	try {
		return loadConfig(env);
	} catch (err) {
		if (!(err instanceof ConfigError)) throw err;
		throw new CommandFailure(describeConfigError(err), "INVALID_CONFIGURATION", undefined, "Run `auth-notify doctor` for every problem and its fix.");
	}
}

async function withStore<T>(config: Config, work: (store: Store) => Promise<T>): Promise<T> {
	// What the platform makes is owner-only; so is what the command line makes for it.
	process.umask(0o077);
	if (!config.mongodbUrl) {
		try {
			prepareDataDir(config.dataDir);
		} catch (err) {
			if (err instanceof ConfigError) throw new CommandFailure(err.message, "INVALID_CONFIGURATION");
			throw err;
		}
	}
	const store = createStore(config);
	try {
		return await work(store);
	} finally {
		await store.close();
	}
}

export interface AdminCreated {
	email: string;
	/** False when the account existed (it is now, or was already, an administrator). */
	created: boolean;
}

/**
 * Makes sure `email` is an administrator with this password, as BOOTSTRAP_ADMIN_* does
 * at start: a new account, or an existing one whose password this is. Refuses to
 * promote an account whose password differs (someone else may hold the address).
 */
export async function createAdmin(env: Env, email: string, password: string): Promise<AdminCreated> {
	if (!meetsPolicy(password)) throw new CommandFailure(`The password must have ${PASSWORD_POLICY}.`, "INVALID_PASSWORD");
	const base = configOrFail(env);
	const config: Config = { ...base, idp: { ...base.idp, bootstrapAdminEmail: email, bootstrapAdminPassword: password } };
	return withStore(config, async store => {
		const idp = await createIdentityProvider(config, () => store);
		try {
			const existing = await idp.findUserByEmail(normalizeEmail(email));
			await idp.bootstrap();
			return { email: normalizeEmail(email), created: existing === null };
		} catch (err) {
			if ((err as Error).message === BOOTSTRAP_REFUSED) {
				throw new CommandFailure(
					`${email} belongs to an account that is not an administrator and whose password is not the one given: not made an administrator`,
					"ADMIN_REFUSED",
					undefined,
					"Give that account's own password, or choose another email."
				);
			}
			throw err;
		} finally {
			await idp.close();
		}
	});
}

/** A new unsubscribe signing key (as `npm run rotate-unsubscribe-key`); answers its kid. */
export async function rotateUnsubscribe(env: Env): Promise<string> {
	const config = configOrFail(env);
	return withStore(config, store => rotateUnsubscribeKey(store, config));
}

export interface OutboxMessage {
	channel: "EMAIL" | "SMS";
	notificationId: string;
	to: string;
	subject?: string;
	text?: string;
	writtenAt: string;
	file: string;
}

/** A header's value in a raw message (unfolded; RFC 2047 encoded words decoded). */
function header(raw: string, name: string): string | undefined {
	const head = raw.split(/\r?\n\r?\n/, 1)[0].replace(/\r?\n[ \t]+/g, " ");
	const line = head.split(/\r?\n/).find(l => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
	if (!line) return undefined;
	return line
		.slice(name.length + 1)
		.trim()
		.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, enc: string, text: string) =>
			enc.toLowerCase() === "b"
				? Buffer.from(text, "base64").toString("utf8")
				: Buffer.from(text.replace(/_/g, " ").replace(/=([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("utf8")
		);
}

/**
 * The newest messages the file providers wrote under DATA_DIR/outbox (email as .eml,
 * SMS as .json), newest first. Empty when nothing was written yet.
 */
export function readLocalOutbox(config: Config, limit: number): OutboxMessage[] {
	const dirs: { dir: string; channel: "EMAIL" | "SMS"; ext: string }[] = [
		{ dir: path.join(config.dataDir, "outbox"), channel: "EMAIL", ext: ".eml" },
		{ dir: path.join(config.dataDir, "outbox", "sms"), channel: "SMS", ext: ".json" }
	];
	const files: { file: string; channel: "EMAIL" | "SMS"; mtimeMs: number }[] = [];
	for (const { dir, channel, ext } of dirs) {
		let names: string[];
		try {
			names = fs.readdirSync(dir);
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
			throw new CommandFailure(`The outbox ${dir} cannot be read (${(err as NodeJS.ErrnoException).code})`, "OUTBOX_UNREADABLE", undefined, "Run the command as the user the platform runs as.");
		}
		for (const name of names) {
			if (!name.endsWith(ext)) continue;
			const file = path.join(dir, name);
			try {
				files.push({ file, channel, mtimeMs: fs.statSync(file).mtimeMs });
			} catch {
				/* removed since the listing */
			}
		}
	}
	files.sort((a, b) => b.mtimeMs - a.mtimeMs);
	return files.slice(0, limit).map(({ file, channel, mtimeMs }) => {
		const raw = fs.readFileSync(file, "utf8");
		const notificationId = path.basename(file).split(".")[0];
		const writtenAt = new Date(mtimeMs).toISOString();
		if (channel === "SMS") {
			const sms = JSON.parse(raw) as { to: string; text: string };
			return { channel, notificationId, to: sms.to, text: sms.text, writtenAt, file };
		}
		return { channel, notificationId, to: header(raw, "To") ?? "", subject: header(raw, "Subject"), writtenAt, file };
	});
}
