/**
 * Notifications: accepts a request at once (the record is durable before the 201),
 * reports status with its event timeline, and keeps the templates and the actors'
 * push subscriptions (with the VAPID public key pages subscribe with). The record itself
 * is lib/notifications' job, delivery the dispatcher's; the process's intake
 * (lib/runtime.ts) wakes the dispatchers once a notification is stored.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { notFound } from "../../lib/errors";
import {
	cancelNotification,
	CHANNELS,
	checkRecipient,
	countAgainstQuota,
	creatorOf,
	EVENT_SEQ,
	LIST_MAX_LIMIT,
	listNotifications,
	mayAccess,
	OwnAddresses,
	PRIORITIES,
	RATE_SAMPLE_MS,
	readNotification,
	readTimeline,
	registerNotificationMetrics,
	sampleQueue,
	sampleRates,
	STATUSES,
	type AcceptRequest,
	type ListPage,
	type ListQuery,
	type NotificationView,
	type OwnAddress,
	type Timeline
} from "../../lib/notifications";
import { principalOf } from "../../middlewares/auth.middleware";
import { PushSubscriptionsMixin } from "./push-subscriptions";
import { inlineTemplateSchema, TemplatesMixin } from "./templates";
import { RuntimeMixin, type RuntimeMethods } from "../../mixins/runtime.mixin";
import type { HttpMeta } from "../../lib/http/meta";
import { ref } from "../../lib/openapi/schemas";

export type CreateParams = AcceptRequest;

export interface EventsParams {
	notificationId: string;
	/** The last event the caller has (SSE's Last-Event-ID): only later ones are returned. */
	after?: string;
}

export type { NotificationView, Timeline };
export type { Preview, TemplateVersionView, TemplateView } from "./templates";
export type { PushSubscriptionParams, PushSubscriptionView } from "./push-subscriptions";

export interface CreateResult {
	notificationId: string;
	status: "QUEUED";
}

interface Meta extends HttpMeta {
	idempotencyKey?: string;
}

type NotificationsMethods = RuntimeMethods;

interface NotificationsState {
	ownAddresses: OwnAddresses;
	sampler: NodeJS.Timeout | null;
}

const NotificationsService: ServiceSchema<ServiceSettingSchema, NotificationsMethods, NotificationsState> = {
	name: "notifications",
	// The push subscription and template routes are notifications.* actions, kept in their own files.
	mixins: [RuntimeMixin, PushSubscriptionsMixin as Partial<ServiceSchema>, TemplatesMixin as Partial<ServiceSchema>],
	actions: {
		create: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Send a notification",
				description: "Accepted and queued; GET its Location for the status. An Idempotency-Key header makes retries safe.",
				success: { status: 201, description: "Queued.", schema: ref("NotificationAccepted"), headers: { Location: "/notifications/{notificationId}" } },
				problems: ["RECIPIENT_NOT_ALLOWED", "RATE_LIMITED", "TEMPLATE_NOT_FOUND", "TEMPLATE_VARIABLE_MISSING", "TEMPLATE_RENDER_ERROR", "CHANNEL_NOT_SUPPORTED", "IDEMPOTENCY_KEY_REUSED"],
				example: {
					to: "ada@example.com",
					priority: "HIGH",
					category: "orders",
					template: { subject: "Your order {{order}} has shipped", text: "Hello {{name}}, order {{order}} is on its way." },
					variables: { name: "Ada", order: "A-1042" }
				}
			},
			params: {
				channel: { type: "enum", values: [...CHANNELS], optional: true },
				// Checked per channel when the notification is accepted (lib/notifications/accept.ts).
				to: { type: "string", max: 254 },
				priority: { type: "enum", values: [...PRIORITIES], optional: true },
				templateId: { type: "uuid", optional: true },
				template: inlineTemplateSchema,
				variables: { type: "object", optional: true },
				// BCP 47, checked when accepted.
				locale: { type: "string", min: 2, max: 35, optional: true },
				metadata: { type: "object", optional: true },
				// Checked (ISO 8601 with a zone, at most 30 days ahead) when accepted.
				sendAt: { type: "string", max: 40, optional: true },
				category: { type: "string", pattern: /^[a-z0-9][a-z0-9._-]{0,63}$/, optional: true },
				$$strict: true
			},
			async handler(ctx: Context<CreateParams, Meta>): Promise<CreateResult> {
				const caller = principalOf(ctx)!;
				const cfg = this.runtime().config.notifications;
				// Not an open relay: users send to themselves only (by default), within an hourly quota.
				await checkRecipient(caller, ctx.params.channel ?? "EMAIL", ctx.params.to, cfg, p => this.ownAddresses.get(p, username => this.callAsService<OwnAddress>(ctx, "auth.ownAddress", { username })));
				await countAgainstQuota(caller, cfg, this.runtime().kv());
				// The intake wakes the dispatchers itself once the notification is stored.
				const { notificationId } = await this.runtime().notificationIntake().accept(ctx.params, creatorOf(caller), ctx.meta.idempotencyKey);
				// A replay gets the answer the original request got; GET shows the current status.
				ctx.meta.$statusCode = 201;
				ctx.meta.$location = `/notifications/${notificationId}`;
				return { notificationId, status: "QUEUED" };
			}
		},
		get: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Read a notification and its events",
				success: { status: 200, description: "The notification.", schema: ref("Notification") },
				problems: ["NOTIFICATION_NOT_FOUND"]
			},
			params: { notificationId: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ notificationId: string }>): Promise<NotificationView> {
				const caller = principalOf(ctx)!;
				const view = await readNotification(this.runtime().store(), ctx.params.notificationId, owner => mayAccess(caller, owner));
				// Someone else's notification is reported as absent, not as forbidden.
				if (!view) throw notFound("NOTIFICATION_NOT_FOUND", "No notification has this id.");
				return view;
			}
		},
		cancel: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Cancel a queued notification",
				success: { status: 200, description: "Cancelled: the view, status CANCELLED.", schema: ref("Notification") },
				problems: ["NOTIFICATION_NOT_FOUND", "NOT_CANCELLABLE"]
			},
			params: { notificationId: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ notificationId: string }>): Promise<NotificationView> {
				const caller = principalOf(ctx)!;
				const rt = this.runtime();
				const view = await cancelNotification(rt.store(), rt.statusEvents, ctx.params.notificationId, owner => mayAccess(caller, owner));
				if (!view) throw notFound("NOTIFICATION_NOT_FOUND", "No notification has this id.");
				return view;
			}
		},
		list: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "List notifications, newest first",
				description: "Services and administrators see every notification; users see their own.",
				success: { status: 200, description: "A page of notifications (without events).", schema: ref("NotificationPage") }
			},
			params: {
				status: { type: "enum", values: [...STATUSES], optional: true },
				to: { type: "string", min: 1, max: 254, optional: true },
				channel: { type: "enum", values: [...CHANNELS], optional: true },
				limit: { type: "number", integer: true, min: 1, max: LIST_MAX_LIMIT, convert: true, optional: true },
				cursor: { type: "string", min: 1, max: 96, optional: true },
				$$strict: true
			},
			handler(ctx: Context<ListQuery>): Promise<ListPage> {
				return listNotifications(this.runtime().store(), principalOf(ctx)!, ctx.params);

			}
		},
		events: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "A notification's status timeline, or a live stream of it",
				description:
					"With `Accept: text/event-stream`, server-sent events (one per timeline event, `id:` its sequence, a comment line every 15 s) that follow new events; " +
					"`Last-Event-ID` resumes after an event. Otherwise the timeline as JSON. Open streams are bounded per caller and per node (429).",
				success: { status: 200, description: "The timeline (after Last-Event-ID when given).", schema: ref("Timeline"), contentType: ["application/json", "text/event-stream"] },
				problems: ["NOTIFICATION_NOT_FOUND", "RATE_LIMITED"]
			},
			params: { notificationId: { type: "uuid" }, after: { type: "string", pattern: EVENT_SEQ, optional: true }, $$strict: true },
			async handler(ctx: Context<EventsParams>): Promise<Timeline> {
				const caller = principalOf(ctx)!;
				// The GET's access rule: someone else's notification is reported as absent.
				const timeline = await readTimeline(this.runtime().store(), ctx.params.notificationId, ctx.params.after, owner => mayAccess(caller, owner));
				if (!timeline) throw notFound("NOTIFICATION_NOT_FOUND", "No notification has this id.");
				return timeline;
			}
		}
	},
	created() {
		this.ownAddresses = new OwnAddresses();
		this.sampler = null;
	},
	started() {
		const store = this.runtime().store();
		if (!this.broker.isMetricsEnabled()) return;
		registerNotificationMetrics(this.broker);
		// The rates count a day of sends: once a minute is often enough, and far cheaper.
		let ratesAt = 0;
		const sample = async () => {
			try {
				await sampleQueue(this.broker, store);
				if (Date.now() - ratesAt >= RATE_SAMPLE_MS) {
					ratesAt = Date.now();
					await sampleRates(this.broker, store);
				}
			} catch (err) {
				this.logger.warn("Sampling the queue failed", { error: (err as Error).message });
			}
		};
		void sample();
		this.sampler = setInterval(sample, this.runtime().config.metricsSampleMs);
	},
	stopped() {
		if (this.sampler) clearInterval(this.sampler);
	}
};

export default NotificationsService;
