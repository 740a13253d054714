import path from "node:path";
import type { Config, SmsProviderKind } from "../config";
import { FileSmsProvider } from "./file";
import type { SmppLog } from "./smpp";
import type { ReceiptListener, SmsProvider } from "./types";

export * from "./types";
export { parseE164 } from "./phone";
export { countSegments, smsEncoding, splitSms } from "./segments";
export { parseSmsEvent } from "./events";

export interface SmsProviderDeps {
	/** SMPP delivery receipts; AWS reports through the sms-provider webhook instead (parseSmsEvent). */
	onReceipt?: ReceiptListener;
	log?: SmppLog;
}

/** One provider of SMS_PROVIDERS (the first by default). */
/** The AWS and SMPP modules load only when configured: a few MB of RSS each otherwise. */
export function createSmsProvider(config: Config, deps: SmsProviderDeps = {}, name: SmsProviderKind = config.notifications.sms.provider): SmsProvider {
	const n = config.notifications;
	switch (name) {
		case "aws":
			return new (require("./aws") as typeof import("./aws")).AwsSmsProvider({ region: config.idp.region, endpoint: n.sms.awsEndpoint, configurationSet: n.sms.configurationSet, timeoutMs: n.sendTimeoutMs });
		case "smpp":
			return new (require("./smpp") as typeof import("./smpp")).SmppSmsProvider({ ...n.sms.smpp!, timeoutMs: n.sendTimeoutMs, onReceipt: deps.onReceipt, log: deps.log });
		default:
			return new FileSmsProvider(path.join(config.dataDir, "outbox", "sms"));
	}
}
