/**
 * Delivery channels. A channel turns a rendered notification into a message on its
 * medium and returns the provider's message id: EMAIL (lib/email), SMS (lib/sms),
 * PUSH (lib/push) and IN_APP (lib/inbox). The dispatcher needs nothing else per channel.
 * EMAIL and SMS send through their providers in order (lib/channels/failover.ts), each
 * behind a circuit (lib/channels/circuit.ts).
 */
import type https from "node:https";
import path from "node:path";
import type { Config } from "../config";
import { createEmailProvider, SendError, type EmailMessage } from "../email";
import type { Channel, SendResult, TemplateParts } from "../delivery";
import { MemoryKeyValue } from "../kv/memory";
import { loadVapidKeys, PushSubscriptions, type VapidDetails } from "../push";
import { createSmsProvider, type ReceiptListener, type SmsMessage, type SmsResult } from "../sms";
import type { SmppLog } from "../sms/smpp";
import type { InboxChange } from "../inbox";
import { outboxHostOf, type Store } from "../store";
import { ProviderCircuits } from "./circuit";
import { FailoverProvider } from "./failover";
import { traceChannels } from "./traced";
import { InAppChannel } from "./in-app";
import { PushChannel } from "./push";
import { FilePushChannel } from "./push-file";
import { SmsChannel } from "./sms";
import type { ChannelResult, ChannelSender, SendOptions } from "./types";

export * from "./types";
export { mergeProviderReports, ProviderCircuits, type CircuitChange, type CircuitListeners } from "./circuit";

class EmailChannel implements ChannelSender {
	readonly channel = "EMAIL" as const;
	readonly providerCount: number;

	constructor(private readonly provider: FailoverProvider<EmailMessage, SendResult>, private readonly from: string) {
		this.providerCount = provider.count;
	}

	async send(notificationId: string, to: string, parts: TemplateParts, signal?: AbortSignal, options?: SendOptions): Promise<ChannelResult> {
		const { subject } = parts;
		// Checked when the notification is accepted; a stored template that lost its subject since fails here for good.
		if (subject == null) throw new SendError("NO_SUBJECT", true);
		return this.provider.send(
			{ notificationId, from: this.from, to, ...parts, subject, priority: options?.priority, ...(options?.unsubscribeUrl ? { unsubscribeUrl: options.unsubscribeUrl } : {}) },
			signal
		);
	}

	close(): Promise<void> {
		return this.provider.close();
	}
}

export interface ChannelDeps {
	/** Push subscriptions, the stored VAPID key and the inboxes live here; without a store there is no PUSH or IN_APP channel. */
	store?: Store;
	/** IN_APP: told of each message stored, for the inboxes' live streams. */
	onInboxChange?: (change: InboxChange) => void;
	/** SMPP delivery receipts, for the lifecycle to record. */
	onSmsReceipt?: ReceiptListener;
	log?: SmppLog;
	/** Tests: an agent that trusts their own push service's certificate. */
	pushAgent?: https.Agent;
	/** The providers' circuits (with the key-value store the nodes share); each node's own in memory when absent. */
	circuits?: ProviderCircuits;
}

/** Circuits no other node sees: for a channel set made without the runtime's key-value store. */
export function localCircuits(config: Config, listeners?: ConstructorParameters<typeof ProviderCircuits>[2]): ProviderCircuits {
	const { providerCircuit, sendTimeoutMs } = config.notifications;
	return new ProviderCircuits(new MemoryKeyValue(), { ...providerCircuit, probeLockMs: 2 * sendTimeoutMs }, listeners);
}

/** Memoized, and forgotten on failure so the next send tries again. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
	let p: Promise<T> | null = null;
	return () =>
		(p ??= load().catch(err => {
			p = null;
			throw err;
		}));
}

export function createChannels(config: Config, deps: ChannelDeps = {}): Map<Channel, ChannelSender> {
	const n = config.notifications;
	const circuits = deps.circuits ?? localCircuits(config);
	const log = deps.log;
	const onFailover = log
		? { onFailover: (f: { channel: Channel; from: string; to: string; error: string }) => log.warn(`${f.channel} provider ${f.from} failed; sending through ${f.to}`, f) }
		: {};
	const email = new FailoverProvider<EmailMessage, SendResult>(
		"EMAIL",
		n.emailProviders.map(name => Object.assign(createEmailProvider(config, name, n.outboxThread === "store" ? outboxHostOf(deps.store) : undefined), { name })),
		circuits,
		n.sendTimeoutMs,
		onFailover
	);
	const sms = new FailoverProvider<SmsMessage, SmsResult>(
		"SMS",
		n.sms.providers.map(name => Object.assign(createSmsProvider(config, { onReceipt: deps.onSmsReceipt, log }, name), { name })),
		circuits,
		n.sendTimeoutMs,
		onFailover
	);
	const senders: ChannelSender[] = [new EmailChannel(email, n.fromEmail), new SmsChannel(sms, n.sms.from)];
	const store = deps.store;
	if (n.push.provider === "file") senders.push(new FilePushChannel(path.join(config.dataDir, "outbox", "push")));
	else if (store) {
		senders.push(
			new PushChannel({
				subscriptions: new PushSubscriptions(store),
				vapid: once<VapidDetails>(() => loadVapidKeys(store, config)),
				timeoutMs: n.sendTimeoutMs,
				allowInsecure: n.push.allowInsecureEndpoints,
				agent: deps.pushAgent
			})
		);
	}
	// In-app messages go to the store whichever push provider is configured (PUSH_PROVIDER=file included).
	if (store) senders.push(new InAppChannel({ store, onChange: deps.onInboxChange }));
	const used = config.tracing ? traceChannels(senders, { EMAIL: n.emailProviders.join(","), SMS: n.sms.providers.join(","), PUSH: n.push.provider, IN_APP: "inbox" }) : senders;
	return new Map(used.map(s => [s.channel, s]));
}
