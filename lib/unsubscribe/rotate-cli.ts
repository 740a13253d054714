/**
 * `npm run rotate-unsubscribe-key`: adds a new unsubscribe signing key to the store
 * (DATA_DIR or MONGODB_URL, and IDP_KEY_ENCRYPTION_KEY, from the environment, as the
 * platform reads them). Links already mailed keep working: every stored key still
 * verifies. Each node signs with the new key from its next start.
 */
import { ConfigError, describeConfigError, loadConfig } from "../config";
import { createStore } from "../store";
import { rotateUnsubscribeKey } from "./keys";

async function main(): Promise<void> {
	const config = loadConfig();
	const store = createStore(config);
	try {
		const kid = await rotateUnsubscribeKey(store, config);
		process.stdout.write(`New unsubscribe key ${kid} stored; restart the dispatcher nodes to sign with it.\n`);
	} finally {
		await store.close();
	}
}

main().catch(err => {
	process.stderr.write(`${err instanceof ConfigError ? describeConfigError(err) : (err as Error).stack}\n`);
	process.exit(err instanceof ConfigError ? 78 : 1);
});
