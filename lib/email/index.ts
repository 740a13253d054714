import path from "node:path";
import type { Config, EmailProviderName } from "../config";
import { ThreadedFileEmailProvider, type OutboxHost } from "./outbox-thread";
import type { EmailProvider } from "./types";

export * from "./types";

/**
 * One provider of EMAIL_PROVIDERS (the first by default). The SES and SMTP modules (AWS
 * SDK, nodemailer) load only when configured: a few MB of RSS each otherwise.
 * `outboxHost` is the thread the file outbox runs on, where one can take it (lib/store's
 * outboxHostOf); without one it gets a thread of its own.
 */
export function createEmailProvider(config: Config, name: EmailProviderName = config.notifications.emailProvider, outboxHost?: OutboxHost): EmailProvider {
	const n = config.notifications;
	switch (name) {
		case "ses":
			return new (require("./ses") as typeof import("./ses")).SesEmailProvider({ region: config.idp.region, endpoint: n.sesEndpoint, configurationSet: n.sesConfigurationSet, timeoutMs: n.sendTimeoutMs });
		case "smtp":
			return new (require("./smtp") as typeof import("./smtp")).SmtpEmailProvider(n.smtpUrl!, n.sendTimeoutMs);
		case "smtp-backup":
			return new (require("./smtp") as typeof import("./smtp")).SmtpEmailProvider(n.smtpBackupUrl!, n.sendTimeoutMs);
		default:
			return new ThreadedFileEmailProvider(path.join(config.dataDir, "outbox"), outboxHost, { nice: n.outboxThreadNice });
	}
}
