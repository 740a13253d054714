import path from "node:path";
import type { Config } from "../config";
import { ThreadedFileEmailProvider } from "./outbox-thread";
import { SesEmailProvider } from "./ses";
import { SmtpEmailProvider } from "./smtp";
import type { EmailProvider } from "./types";

export * from "./types";

export function createEmailProvider(config: Config): EmailProvider {
	const n = config.notifications;
	switch (n.emailProvider) {
		case "ses":
			return new SesEmailProvider({ region: config.idp.region, endpoint: n.sesEndpoint, configurationSet: n.sesConfigurationSet, timeoutMs: n.sendTimeoutMs });
		case "smtp":
			return new SmtpEmailProvider(n.smtpUrl!, n.sendTimeoutMs);
		default:
			return new ThreadedFileEmailProvider(path.join(config.dataDir, "outbox"));
	}
}
