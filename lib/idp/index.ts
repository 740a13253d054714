import type { Config } from "../config";
import type { Store } from "../store";
import { CognitoIdentityProvider } from "./cognito";
import { EmbeddedIdentityProvider } from "./embedded";
import { loadSigningKey } from "./keys";
import type { IdentityProvider } from "./types";

export type { IdentityProvider, TokenSet } from "./types";

export async function createIdentityProvider(config: Config, store: () => Store, log?: { info(message: string): void }): Promise<IdentityProvider> {
	if (config.idp.kind === "cognito") return new CognitoIdentityProvider(config.idp);
	const key = await loadSigningKey(store(), { keyEncryptionKey: config.idp.keyEncryptionKey, dataDir: config.dataDir, log });
	return new EmbeddedIdentityProvider({ config: config.idp, publicUrl: config.publicUrl, store: store(), key });
}
