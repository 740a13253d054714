/**
 * Commands that work on the configured store and files themselves, with or without a
 * running platform: making an administrator, rotating the unsubscribe key, and reading
 * the dev inbox (the file providers' outboxes and in-app messages). Each opens only what it needs and closes it.
 */
import path from "node:path";
import { ConfigError, describeConfigError, loadConfig, type Config, type Env } from "../config";
import { createIdentityProvider } from "../idp";
import { PASSWORD_POLICY, meetsPolicy } from "../idp/password";
import { BOOTSTRAP_REFUSED } from "../idp/types";
import { normalizeEmail } from "../email-address";
import { prepareDataDir } from "../process/data-dir";
import { fileSources, inboxSource, Outbox, type OutboxSummary } from "../outbox";
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

/**
 * The newest messages of the dev inbox, read as GET /admin/outbox reads them
 * (lib/outbox): what the file providers wrote under DATA_DIR/outbox (email, SMS, push)
 * and the newest in-app messages in the configured store. Empty when nothing was
 * written yet.
 */
export async function readLocalOutbox(config: Config, limit: number): Promise<OutboxSummary[]> {
	return withStore(config, async store => {
		try {
			return (await new Outbox([...fileSources(config.dataDir), inboxSource(() => store)]).list({ limit })).items;
		} catch (err) {
			const code = (err as NodeJS.ErrnoException).code;
			if (code !== "EACCES" && code !== "EPERM" && code !== "ENOTDIR") throw err;
			throw new CommandFailure(`The outbox under ${path.join(config.dataDir, "outbox")} cannot be read (${code})`, "OUTBOX_UNREADABLE", undefined, "Run the command as the user the platform runs as.");
		}
	});
}
