import path from "node:path";
import type { Config, EmailProviderName } from "../config";
import { ThreadedFileEmailProvider } from "./outbox-thread";
import { SesEmailProvider } from "./ses";
import { SmtpEmailProvider } from "./smtp";
import type { EmailProvider } from "./types";

export * from "./types";

/** One provider of EMAIL_PROVIDERS (the first by default). */
export function createEmailProvider(config: Config, name: EmailProviderName = config.notifications.emailProvider): EmailProvider {
	const n = config.notifications;
	switch (name) {
		case "ses":
			return new SesEmailProvider({ region: config.idp.region, endpoint: n.sesEndpoint, configurationSet: n.sesConfigurationSet, timeoutMs: n.sendTimeoutMs });
		case "smtp":
			return new SmtpEmailProvider(n.smtpUrl!, n.sendTimeoutMs);
		case "smtp-backup":
			return new SmtpEmailProvider(n.smtpBackupUrl!, n.sendTimeoutMs);
		default:
			return new ThreadedFileEmailProvider(path.join(config.dataDir, "outbox"));
	}
}
