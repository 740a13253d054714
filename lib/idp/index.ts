import type { Config } from "../config";
import type { Store } from "../store";
import { EmbeddedIdentityProvider } from "./embedded";
import { SigningKeyRing, loadSigningKey } from "./keys";
import type { IdentityProvider, PlatformSessions } from "./types";

export type { IdentityProvider, TokenSet } from "./types";

/**
 * The configured provider. `sessionRecords` makes the platform's record of Cognito's
 * sessions (lib/mfa/sessions.ts), which its tokens cannot carry; unused by the embedded one.
 */
export async function createIdentityProvider(
	config: Config,
	store: () => Store,
	log?: { info(message: string): void; warn?(message: string, fields?: object): void },
	sessionRecords?: (store: Store) => PlatformSessions
): Promise<IdentityProvider> {
	// The Cognito client (AWS SDK) loads only when configured.
	if (config.idp.kind === "cognito") {
		const { CognitoIdentityProvider } = require("./cognito") as typeof import("./cognito");
		return new CognitoIdentityProvider(config.idp, store(), log, sessionRecords?.(store()));
	}
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
