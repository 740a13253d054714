/**
 * The delivery-outcome webhook: SNS posts SES events here with no token, so a
 * message counts only once its signature checks out. Delivery, Bounce and Complaint
 * become delivery events and statuses; each outcome is recorded once however often
 * and however concurrently SNS delivers it; permanent bounces and complaints put
 * the recipients on the suppression list the dispatcher checks.
 */
import { randomUUID } from "node:crypto";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { ClientError, UpstreamError } from "../lib/errors";
import { nextSeq, type EventDoc, type NotificationDoc, type Status } from "../lib/notifications/model";
import { CertificateUnavailable, InvalidSignature, isSnsMessage, type SnsMessage } from "../lib/sns/verify";
import { DuplicateKeyError } from "../lib/store";
import { FeatureFlagsMixin, type FeatureFlagMethods } from "../mixins/feature-flags.mixin";
import { RuntimeMixin } from "../mixins/runtime.mixin";

export type DeliveryEvent = "DELIVERED" | "BOUNCED" | "COMPLAINT";

export interface WebhookResult {
	/** What was done, for logs and tests; SNS only looks at the status code. */
	outcome: "confirmed" | "unsubscribed" | "recorded" | "duplicate" | "ignored" | "disabled" | "unknown-message";
}

interface SesEvent {
	notificationType?: unknown;
	eventType?: unknown;
	mail?: { messageId?: unknown; tags?: Record<string, unknown> };
	bounce?: { bounceType?: unknown; bouncedRecipients?: { emailAddress?: unknown }[] };
	complaint?: { complainedRecipients?: { emailAddress?: unknown }[] };
	delivery?: { timestamp?: unknown; smtpResponse?: unknown };
}

const EVENT_OF: Record<string, DeliveryEvent> = { Delivery: "DELIVERED", Bounce: "BOUNCED", Complaint: "COMPLAINT" };

/** The statuses each outcome may replace: a bounce or complaint outranks a delivery, never the reverse. */
const REPLACES: Record<DeliveryEvent, Status[]> = {
	DELIVERED: ["QUEUED", "PROCESSING", "SENT", "FAILED"],
	BOUNCED: ["QUEUED", "PROCESSING", "SENT", "FAILED", "DELIVERED"],
	COMPLAINT: ["QUEUED", "PROCESSING", "SENT", "FAILED", "DELIVERED"]
};

function parseBody(body: unknown): unknown {
	if (typeof body !== "string") return body;
	try {
		return JSON.parse(body);
	} catch {
		throw new ClientError(400, "MALFORMED_JSON", "The body is not valid JSON.");
	}
}

function addresses(list: { emailAddress?: unknown }[] | undefined): string[] {
	return (Array.isArray(list) ? list : [])
		.map(r => (typeof r?.emailAddress === "string" ? r.emailAddress.trim().toLowerCase() : ""))
		.filter(a => a.length > 0 && a.length <= 254);
}

/** A few facts worth keeping from the event; never the whole payload. */
function detailOf(type: string, e: SesEvent): Record<string, unknown> {
	if (type === "Bounce") return { bounceType: typeof e.bounce?.bounceType === "string" ? e.bounce.bounceType : "Undetermined" };
	if (type === "Delivery" && typeof e.delivery?.smtpResponse === "string") return { smtpResponse: e.delivery.smtpResponse.slice(0, 200) };
	return {};
}

const WebhooksService: ServiceSchema<ServiceSettingSchema, FeatureFlagMethods> = {
	name: "webhooks",
	mixins: [RuntimeMixin, FeatureFlagsMixin],
	started() {
		if (this.runtime().config.webhooks.topicArns.length === 0) {
			// Any AWS account can sign SNS messages: without a topic list, anyone can subscribe
			// this endpoint to a topic of their own and post outcomes for mail they received.
			this.logger.warn("SNS_TOPIC_ARNS is empty: messages from any SNS topic are accepted. Set it in production.");
		}
	},
	actions: {
		emailProvider: {
			visibility: "published",
			// Open to anyone: authenticity rests on the SNS signature alone.
			auth: "public",
			async handler(ctx: Context<{ body?: unknown }>): Promise<WebhookResult> {
				const message = parseBody(ctx.params.body);
				if (!isSnsMessage(message)) {
					throw new ClientError(400, "VALIDATION_ERROR", "The body is not an SNS message.");
				}
				const rt = this.runtime();
				const verifier = rt.snsVerifier();
				try {
					await verifier.verify(message);
				} catch (err) {
					if (err instanceof CertificateUnavailable) {
						// Not the sender's fault: a 5xx makes SNS deliver the message again later.
						this.logger.warn("SNS certificate could not be fetched", { reason: err.message });
						throw new UpstreamError("The signing certificate could not be fetched; try again.", 30);
					}
					if (err instanceof InvalidSignature) {
						this.logger.warn("SNS message refused", { reason: err.message, messageId: message.MessageId.slice(0, 100) });
						throw new ClientError(403, "INVALID_SIGNATURE", "The message signature could not be verified.");
					}
					throw err;
				}
				if (message.Type === "SubscriptionConfirmation") {
					if (!(await verifier.confirm(message.SubscribeURL!))) {
						this.logger.warn("Subscription not confirmed: SubscribeURL not allowed or not answering", { topic: message.TopicArn });
						// SNS sends the confirmation again after a 5xx; after a 200 it would wait forever.
						throw new UpstreamError("The subscription could not be confirmed; try again.", 30);
					}
					return { outcome: "confirmed" };
				}
				if (message.Type === "UnsubscribeConfirmation") return { outcome: "unsubscribed" };
				if (!(await this.processingEnabled())) return { outcome: "disabled" };
				return this.record(message);
			}
		}
	},
	methods: {
		/**
		 * An event can arrive before the dispatcher has recorded the message id (it is
		 * written with SENT, a few milliseconds after SES answers). SES events carry the
		 * notification id as a message tag: when that notification is still being sent,
		 * answer 503 so SNS delivers the event again once SENT is recorded. A notification
		 * that already has another message id is not this message's.
		 */
		async byTag(event: SesEvent, providerMessageId: string): Promise<NotificationDoc | null> {
			const tag = event.mail?.tags?.notificationId;
			const id = Array.isArray(tag) && typeof tag[0] === "string" ? tag[0] : null;
			if (!id || !/^[0-9a-f-]{36}$/i.test(id)) return null;
			const n = await this.runtime().store().collection<NotificationDoc>("notifications").get(id);
			if (!n || (n.providerMessageId !== undefined && n.providerMessageId !== providerMessageId)) return null;
			if (n.status === "PROCESSING" || n.status === "QUEUED") {
				throw new UpstreamError("The notification's send is not recorded yet; try again.", 5);
			}
			return n;
		},

		/** Off by configuration, or by the flag notifications.webhook-processing { "enabled": false }. */
		async processingEnabled(): Promise<boolean> {
			if (!this.runtime().config.webhooks.processingEnabled) return false;
			return (await this.featureFlag("notifications.webhook-processing"))?.enabled !== false;
		},

		async record(message: SnsMessage): Promise<WebhookResult> {
			let event: SesEvent;
			try {
				event = JSON.parse(message.Message) as SesEvent;
			} catch {
				return { outcome: "ignored" };
			}
			if (!event || typeof event !== "object") return { outcome: "ignored" };
			const type = typeof event.notificationType === "string" ? event.notificationType : typeof event.eventType === "string" ? event.eventType : "";
			const deliveryEvent = EVENT_OF[type];
			const providerMessageId = event.mail?.messageId;
			if (!deliveryEvent || typeof providerMessageId !== "string" || !providerMessageId) return { outcome: "ignored" };

			const store = this.runtime().store();
			const notifications = store.collection<NotificationDoc>("notifications");
			const n = (await notifications.findOne({ providerMessageId })) ?? (await this.byTag(event, providerMessageId));
			if (!n) return { outcome: "unknown-message" };

			const now = Date.now();
			let duplicate = false;
			try {
				await store.collection<EventDoc>("notification_events").insert({
					id: randomUUID(),
					notificationId: n.id,
					event: deliveryEvent,
					occurredAt: new Date(now).toISOString(),
					seq: nextSeq(now),
					detail: { ...detailOf(type, event), snsMessageId: message.MessageId.slice(0, 100) },
					dedupeKey: `${n.id}:${deliveryEvent}`
				});
			} catch (err) {
				if (!(err instanceof DuplicateKeyError)) throw err;
				duplicate = true;
			}
			// Also on a duplicate: an earlier delivery of this message may have stopped
			// between the event and the status. Both writes are idempotent.
			await notifications.updateMany(
				{ id: n.id, status: { $in: REPLACES[deliveryEvent] } },
				{ $set: { status: deliveryEvent, updatedAt: new Date(now).toISOString() } }
			);
			const permanentBounce = type === "Bounce" && event.bounce?.bounceType === "Permanent";
			if (permanentBounce || type === "Complaint") {
				const list = type === "Bounce" ? addresses(event.bounce?.bouncedRecipients) : addresses(event.complaint?.complainedRecipients);
				// Only the notification's own recipient: an event naming other addresses (a
				// forged topic, say) must not block mail to people it never concerned.
				const recipient = n.to.trim().toLowerCase();
				if (list.length === 0 || list.includes(recipient)) {
					const suppressions = store.collection<{ id: string; reason: string; notificationId: string; createdAt: string }>("suppressions");
					try {
						await suppressions.insert({ id: recipient, reason: deliveryEvent, notificationId: n.id, createdAt: new Date(now).toISOString() });
					} catch (err) {
						if (!(err instanceof DuplicateKeyError)) throw err;
					}
				}
			}
			return { outcome: duplicate ? "duplicate" : "recorded" };
		}
	}
};

export default WebhooksService;
