/**
 * The delivery-outcome webhooks: SNS posts SES events (email-provider) and AWS End
 * User Messaging SMS events (sms-provider) here with no token, so a message counts
 * only once its signature checks out; both routes verify it the same way. Delivery,
 * Bounce and Complaint, and an SMS's delivery or failure, become delivery outcomes of
 * the notification record (lib/notifications/outcomes.ts): each recorded once however
 * often and however concurrently SNS delivers it; permanent bounces, complaints and
 * unusable numbers put the recipient on its channel's suppression list the dispatcher
 * checks.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { applyEmailOutcome } from "../lib/accounts/deliverability";
import { AuditLog } from "../lib/audit";
import { parseSesEvent } from "../lib/email/ses-events";
import { ClientError, UpstreamError } from "../lib/errors";
import type { DeliveryReport } from "../lib/delivery";
import { recordDelivery, smsDeliveryReport } from "../lib/notifications";
import { parseSmsEvent } from "../lib/sms/events";
import { CertificateUnavailable, InvalidSignature, isSnsMessage, SubscriptionUnconfirmed, type SnsMessage } from "../lib/sns/verify";
import { FeatureFlagsMixin, type FeatureFlagMethods } from "../mixins/feature-flags.mixin";
import { RuntimeMixin } from "../mixins/runtime.mixin";
import { ref } from "../lib/openapi/schemas";

export interface WebhookResult {
	/** What was done, for logs and tests; SNS only looks at the status code. */
	outcome: "confirmed" | "unsubscribed" | "recorded" | "duplicate" | "ignored" | "disabled" | "unknown-message";
}

/** A provider's event (the SNS message's Message) as a delivery outcome; null for one that changes nothing. */
type OutcomeParser = (message: string) => DeliveryReport | null;

interface WebhooksMethods extends FeatureFlagMethods {
	receive(body: unknown, parse: OutcomeParser): Promise<WebhookResult>;
	processingEnabled(): Promise<boolean>;
	record(message: SnsMessage, parse: OutcomeParser): Promise<WebhookResult>;
}

function parseBody(body: unknown): unknown {
	if (typeof body !== "string") return body;
	try {
		return JSON.parse(body);
	} catch {
		throw new ClientError(400, "MALFORMED_JSON", "The body is not valid JSON.");
	}
}

const WebhooksService: ServiceSchema<ServiceSettingSchema, WebhooksMethods> = {
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
			openapi: {
				summary: "Amazon SNS delivery events for email",
				description: "Authenticated by the SNS message signature alone (see the SnsMessage schema), not by a token.",
				success: { status: 200, description: "Handled (or ignored).", schema: ref("WebhookResult") },
				problems: ["MALFORMED_JSON", "VALIDATION_ERROR", "INVALID_SIGNATURE"]
			},
			handler(ctx: Context<{ body?: unknown }>): Promise<WebhookResult> {
				return this.receive(ctx.params.body, parseSesEvent);
			}
		},
		smsProvider: {
			visibility: "published",
			// AWS End User Messaging SMS events, through SNS exactly as the email events.
			auth: "public",
			openapi: {
				summary: "Amazon SNS delivery events for SMS (AWS End User Messaging)",
				description: "Authenticated by the SNS message signature alone (see the SnsMessage schema), not by a token.",
				success: { status: 200, description: "Handled (or ignored).", schema: ref("WebhookResult") },
				problems: ["MALFORMED_JSON", "VALIDATION_ERROR", "INVALID_SIGNATURE"]
			},
			handler(ctx: Context<{ body?: unknown }>): Promise<WebhookResult> {
				return this.receive(ctx.params.body, message => {
					const receipt = parseSmsEvent(message);
					return receipt && smsDeliveryReport(receipt);
				});
			}
		}
	},
	methods: {
		/**
		 * One SNS message: verified (403 INVALID_SIGNATURE unless authentic), a
		 * subscription confirmed, a notification read by `parse` into a delivery outcome.
		 */
		async receive(body: unknown, parse: OutcomeParser): Promise<WebhookResult> {
			const message = parseBody(body);
			if (!isSnsMessage(message)) {
				throw new ClientError(400, "VALIDATION_ERROR", "The body is not an SNS message.");
			}
			const verifier = this.runtime().snsVerifier();
			try {
				await verifier.verify(message);
				if (message.Type === "SubscriptionConfirmation") await verifier.confirm(message.SubscribeURL!);
			} catch (err) {
				// Neither is the sender's fault: a 5xx makes SNS deliver the message again later
				// (after a 200 an unconfirmed subscription would wait forever).
				if (err instanceof CertificateUnavailable) {
					this.logger.warn("SNS certificate could not be fetched", { reason: err.message });
					throw new UpstreamError("The signing certificate could not be fetched; try again.", 30);
				}
				if (err instanceof SubscriptionUnconfirmed) {
					this.logger.warn("SNS subscription could not be confirmed", { reason: err.message, topic: message.TopicArn });
					throw new UpstreamError("The subscription could not be confirmed; try again.", 30);
				}
				if (err instanceof InvalidSignature) {
					this.logger.warn("SNS message refused", { reason: err.message, messageId: message.MessageId.slice(0, 100) });
					throw new ClientError(403, "INVALID_SIGNATURE", "The message signature could not be verified.");
				}
				throw err;
			}
			if (message.Type === "SubscriptionConfirmation") return { outcome: "confirmed" };
			if (message.Type === "UnsubscribeConfirmation") return { outcome: "unsubscribed" };
			if (!(await this.processingEnabled())) return { outcome: "disabled" };
			return this.record(message, parse);
		},

		/** Off by configuration, or by the flag notifications.webhook-processing { "enabled": false }. */
		async processingEnabled(): Promise<boolean> {
			if (!this.runtime().config.webhooks.processingEnabled) return false;
			return (await this.featureFlag("notifications.webhook-processing"))?.enabled !== false;
		},

		async record(message: SnsMessage, parse: OutcomeParser): Promise<WebhookResult> {
			const report = parse(message.Message);
			if (!report) return { outcome: "ignored" };
			report.detail = { ...report.detail, snsMessageId: message.MessageId.slice(0, 100) };
			const rt = this.runtime();
			const outcome = await recordDelivery(rt.store(), rt.statusEvents, report);
			if (outcome !== "unknown-message") {
				// The account's emailDeliverable follows (lib/accounts/deliverability.ts); the outcome stands whatever this does.
				await applyEmailOutcome(rt.store(), new AuditLog(() => rt.store(), (m, f) => this.logger.warn(m, f)), report).then(
					async actorId => {
						if (actorId) await this.broker.broadcast("actors.changed", { actorId });
					},
					err => this.logger.warn("An email outcome could not update the account's deliverability", { error: (err as Error).message })
				);
			}
			return { outcome };
		}
	}
};

export default WebhooksService;
