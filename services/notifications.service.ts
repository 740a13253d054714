/**
 * Notifications: accepts a request at once (the record is durable before the 201),
 * reports status with its event timeline, and keeps the templates. The record itself
 * is lib/notifications' job, delivery the dispatcher's; a "notifications.queued"
 * event wakes one dispatcher node.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { notFound } from "../lib/errors";
import { NotificationIntake, type AcceptRequest } from "../lib/notifications/accept";
import { creatorOf, mayAccess } from "../lib/notifications/access";
import { createTemplate, findTemplate, replaceTemplate, toTemplateView, type TemplateFields, type TemplateView } from "../lib/notifications/directory";
import { registerNotificationMetrics, sampleQueue } from "../lib/notifications/metrics";
import { CHANNELS, PRIORITIES } from "../lib/notifications/model";
import { readNotification, type NotificationView } from "../lib/notifications/view";
import { principalOf } from "../middlewares/auth.middleware";
import { RuntimeMixin, type RuntimeMethods } from "../mixins/runtime.mixin";
import type { HttpMeta } from "../lib/http-meta";

export type CreateParams = AcceptRequest;
export type { NotificationView, TemplateView };

export interface CreateResult {
	notificationId: string;
	status: "QUEUED";
}

interface Meta extends HttpMeta {
	idempotencyKey?: string;
}

interface NotificationsMethods extends RuntimeMethods {
	wakeDispatchers(): void;
}

interface NotificationsState {
	intake: NotificationIntake;
	wakeTimer: NodeJS.Timeout | null;
	wakeAgain: boolean;
	sampler: NodeJS.Timeout | null;
}

const WAKE_WINDOW_MS = 5;

const templateSchema = {
	name: { type: "string", trim: true, min: 1, max: 200 },
	subject: { type: "string", min: 1, max: 998 },
	html: { type: "string", max: 512 * 1024, optional: true },
	text: { type: "string", max: 512 * 1024, optional: true }
} as const;

const NotificationsService: ServiceSchema<ServiceSettingSchema, NotificationsMethods, NotificationsState> = {
	name: "notifications",
	mixins: [RuntimeMixin],
	actions: {
		create: {
			visibility: "published",
			auth: ["user", "service"],
			params: {
				channel: { type: "enum", values: [...CHANNELS], optional: true },
				// Checked per channel when the notification is accepted (lib/notifications/accept.ts).
				to: { type: "string", max: 254 },
				priority: { type: "enum", values: [...PRIORITIES], optional: true },
				templateId: { type: "uuid", optional: true },
				template: {
					type: "object",
					optional: true,
					strict: true,
					props: { subject: templateSchema.subject, html: templateSchema.html, text: templateSchema.text }
				},
				variables: { type: "object", optional: true },
				metadata: { type: "object", optional: true },
				$$strict: true
			},
			async handler(ctx: Context<CreateParams, Meta>): Promise<CreateResult> {
				const { notificationId, created } = await this.intake.accept(ctx.params, creatorOf(principalOf(ctx)!), ctx.meta.idempotencyKey);
				if (created) this.wakeDispatchers();
				// A replay gets the answer the original request got; GET shows the current status.
				ctx.meta.$statusCode = 201;
				ctx.meta.$location = `/notifications/${notificationId}`;
				return { notificationId, status: "QUEUED" };
			}
		},
		get: {
			visibility: "published",
			auth: ["user", "service"],
			params: { notificationId: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ notificationId: string }>): Promise<NotificationView> {
				const caller = principalOf(ctx)!;
				const view = await readNotification(this.runtime().store(), ctx.params.notificationId, owner => mayAccess(caller, owner));
				// Someone else's notification is reported as absent, not as forbidden.
				if (!view) throw notFound("NOTIFICATION_NOT_FOUND", "No notification has this id.");
				return view;
			}
		},
		createTemplate: {
			visibility: "published",
			auth: ["user", "service"],
			params: { ...templateSchema, $$strict: true },
			async handler(ctx: Context<TemplateFields, Meta>): Promise<TemplateView> {
				const doc = await createTemplate(this.runtime().store(), ctx.params, creatorOf(principalOf(ctx)!));
				ctx.meta.$statusCode = 201;
				ctx.meta.$location = `/templates/${doc.id}`;
				return toTemplateView(doc);
			}
		},
		getTemplate: {
			visibility: "published",
			auth: ["user", "service"],
			params: { id: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ id: string }>): Promise<TemplateView> {
				const doc = await findTemplate(this.runtime().store(), ctx.params.id);
				if (!doc) throw notFound("NOT_FOUND", "No template has this id.");
				return toTemplateView(doc);
			}
		},
		updateTemplate: {
			visibility: "published",
			// Users replace their own templates; administrators and services any.
			auth: ["user", "service"],
			params: { id: { type: "uuid" }, ...templateSchema, $$strict: true },
			async handler(ctx: Context<TemplateFields & { id: string }>): Promise<TemplateView> {
				const { id, ...fields } = ctx.params;
				const caller = principalOf(ctx)!;
				return toTemplateView(await replaceTemplate(this.runtime().store(), id, fields, owner => mayAccess(caller, owner)));
			}
		}
	},
	methods: {
		/**
		 * Wakes a dispatcher at once, then at most once per WAKE_WINDOW_MS however many
		 * notifications arrive: a trailing wake follows every burst, so none waits for a
		 * dispatcher's poll, and a busy dispatcher is not flooded with events it drains anyway.
		 */
		wakeDispatchers() {
			if (this.wakeTimer) {
				this.wakeAgain = true;
				return;
			}
			void this.broker.emit("notifications.queued", {});
			this.wakeTimer = setTimeout(() => {
				this.wakeTimer = null;
				if (this.wakeAgain) {
					this.wakeAgain = false;
					this.wakeDispatchers();
				}
			}, WAKE_WINDOW_MS);
		}
	},
	created() {
		this.wakeTimer = null;
		this.wakeAgain = false;
		this.sampler = null;
	},
	started() {
		const store = this.runtime().store();
		this.intake = new NotificationIntake(store, { warn: (message, fields) => this.logger.warn(message, fields) });
		if (!this.broker.isMetricsEnabled()) return;
		registerNotificationMetrics(this.broker);
		const sample = () => sampleQueue(this.broker, store).catch(err => this.logger.warn("Sampling the queue failed", { error: (err as Error).message }));
		void sample();
		this.sampler = setInterval(sample, this.runtime().config.metricsSampleMs);
	},
	stopped() {
		if (this.sampler) clearInterval(this.sampler);
		if (this.wakeTimer) clearTimeout(this.wakeTimer);
	}
};

export default NotificationsService;
