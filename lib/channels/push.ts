/**
 * PUSH: one Web Push message to every subscription of the actor named in `to`. The
 * payload is JSON `{ notificationId, title, body }` (the template's subject and
 * text). SENT when at least one push service accepted it; subscriptions whose push
 * service answers 404 or 410 are deleted here. With none accepted, the send fails:
 * for good when every subscription is gone or refused the message, else to be
 * retried. The notification id (without dashes) is the Topic, so a retry replaces
 * a copy the push service still holds instead of adding a second.
 */
import type https from "node:https";
import type { TemplateParts } from "../delivery";
import { PUSH_DELIVERY, sendPush, type PushOutcome, type PushSubscriptions, type VapidDetails } from "../push";
import { SendError } from "../errors/send-error";
import type { ChannelResult, ChannelSender, SendOptions, SubscriptionDelivery } from "./types";

export interface PushChannelDeps {
	subscriptions: PushSubscriptions;
	vapid(): Promise<VapidDetails>;
	timeoutMs: number;
	allowInsecure: boolean;
	agent?: https.Agent;
}

function delivery(subscriptionId: string, r: PushOutcome): SubscriptionDelivery {
	const d: SubscriptionDelivery = { subscriptionId, outcome: r.outcome };
	if (r.outcome !== "failed" || r.status !== undefined) d.status = r.status;
	if (r.outcome === "failed") d.error = r.error;
	return d;
}

export class PushChannel implements ChannelSender {
	readonly channel = "PUSH" as const;

	constructor(private readonly deps: PushChannelDeps) {}

	async send(notificationId: string, to: string, parts: TemplateParts, signal?: AbortSignal, options: SendOptions = {}): Promise<ChannelResult> {
		// The title: checked when the notification is accepted; a stored template that lost it since fails here for good.
		if (parts.subject == null) throw new SendError("NO_SUBJECT", true);
		const subs = await this.deps.subscriptions.forActor(to);
		if (subs.length === 0) throw new SendError("NO_PUSH_SUBSCRIPTION", true);
		const payload = JSON.stringify({ notificationId, title: parts.subject, body: parts.text ?? "" });
		// A key that does not open (ConfigError naming IDP_KEY_ENCRYPTION_KEY) is the operator's to fix: retried meanwhile.
		const vapid = await this.deps.vapid().catch(err => {
			throw new SendError("VAPID_KEY_UNAVAILABLE", false, (err as Error).message);
		});
		const results = await Promise.all(
			subs.map(s =>
				sendPush(s, payload, {
					...PUSH_DELIVERY[options.priority ?? "NORMAL"],
					vapid,
					topic: notificationId.replace(/-/g, "").slice(0, 32),
					signal,
					timeoutMs: this.deps.timeoutMs,
					agent: this.deps.agent,
					allowInsecure: this.deps.allowInsecure
				})
			)
		);
		await Promise.all(subs.map((s, i) => (results[i].outcome === "gone" ? this.deps.subscriptions.deleteByEndpoint(s.endpoint) : null)));
		const subscriptions = subs.map((s, i) => delivery(s.id, results[i]));
		const sent = results.find(r => r.outcome === "sent");
		if (sent) return { messageId: sent.location ?? notificationId, provider: "web-push", subscriptions };
		const retryable = results.find(r => r.outcome === "failed" && !r.permanent);
		if (retryable?.outcome === "failed") throw new SendError(retryable.error, false);
		const refused = results.find(r => r.outcome === "failed");
		throw new SendError(refused?.outcome === "failed" ? refused.error : "PUSH_SUBSCRIPTIONS_GONE", true);
	}

	async close(): Promise<void> {}
}
