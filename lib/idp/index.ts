import type { Config } from "../config";
import type { Store } from "../store";
import { EmbeddedIdentityProvider } from "./embedded";
import { SigningKeyRing, loadSigningKey } from "./keys";
import type { IdentityProvider } from "./types";

export type { IdentityProvider, TokenSet } from "./types";

export async function createIdentityProvider(config: Config, store: () => Store, log?: { info(message: string): void; warn?(message: string, fields?: object): void }): Promise<IdentityProvider> {
	// The Cognito client (AWS SDK) loads only when configured.
	if (config.idp.kind === "cognito") return new (require("./cognito") as typeof import("./cognito")).CognitoIdentityProvider(config.idp, store(), log);
	const options = { keyEncryptionKey: config.idp.keyEncryptionKey, dataDir: config.dataDir, log };
	const key = new SigningKeyRing(store(), await loadSigningKey(store(), options), options);
	return new EmbeddedIdentityProvider({
		config: config.idp,
		publicUrl: config.publicUrl,
		store: store(),
		key,
		refreshReuseIntervalSec: config.accounts.refreshReuseIntervalSec
	});
}
