import path from "node:path";
import type { Config, EmailProviderName } from "../config";
import { ThreadedFileEmailProvider } from "./outbox-thread";
import type { EmailProvider } from "./types";

export * from "./types";

/** One provider of EMAIL_PROVIDERS (the first by default). */
/** The SES and SMTP modules (AWS SDK, nodemailer) load only when configured: a few MB of RSS each otherwise. */
export function createEmailProvider(config: Config, name: EmailProviderName = config.notifications.emailProvider): EmailProvider {
	const n = config.notifications;
	switch (name) {
		case "ses":
			return new (require("./ses") as typeof import("./ses")).SesEmailProvider({ region: config.idp.region, endpoint: n.sesEndpoint, configurationSet: n.sesConfigurationSet, timeoutMs: n.sendTimeoutMs });
		case "smtp":
			return new (require("./smtp") as typeof import("./smtp")).SmtpEmailProvider(n.smtpUrl!, n.sendTimeoutMs);
		case "smtp-backup":
			return new (require("./smtp") as typeof import("./smtp")).SmtpEmailProvider(n.smtpBackupUrl!, n.sendTimeoutMs);
		default:
			return new ThreadedFileEmailProvider(path.join(config.dataDir, "outbox"));
	}
}
