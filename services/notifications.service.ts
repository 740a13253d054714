/**
 * Notifications: accepts a request at once (the record is durable before the 201),
 * reports status with its event timeline, and keeps the templates. Delivery is the
 * dispatcher's job; a "notifications.queued" event wakes one dispatcher node.
 */
import { randomUUID } from "node:crypto";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { sha256 } from "../lib/crypto";
import { emailParam } from "../lib/email-address";
import { ClientError, badRequest, notFound } from "../lib/errors";
import { CHANNELS, DELIVERABLE_CHANNELS, PRIORITIES, nextSeq, priorityRank, type Channel, type Creator, type EventDoc, type NotificationDoc, type Priority } from "../lib/notifications/model";
import { registerNotificationMetrics, sampleQueue } from "../lib/notifications/metrics";
import { missingVariables, type TemplateParts, type Variables } from "../lib/notifications/render";
import { DuplicateKeyError } from "../lib/store";
import { GroupCommit } from "../lib/store/group-commit";
import type { Principal } from "../lib/auth/rules";
import { principalOf } from "../middlewares/auth.middleware";
import { RuntimeMixin, type RuntimeMethods } from "../mixins/runtime.mixin";

export interface CreateParams {
	channel?: Channel;
	to: string;
	priority?: Priority;
	templateId?: string;
	template?: TemplateParts;
	variables?: Variables;
	metadata?: Record<string, unknown>;
}

export interface CreateResult {
	notificationId: string;
	status: "QUEUED";
}

export interface NotificationView {
	notificationId: string;
	status: NotificationDoc["status"];
	channel: Channel;
	to: string;
	priority: Priority;
	templateId?: string;
	attempts: number;
	providerMessageId?: string;
	createdAt: string;
	updatedAt: string;
	events: { event: string; occurredAt: string; detail?: Record<string, unknown> }[];
}

export interface TemplateDoc extends TemplateParts {
	id: string;
	name: string;
	createdBy: Creator;
	createdAt: string;
	updatedAt: string;
}

export type TemplateView = Omit<TemplateDoc, "id" | "createdBy"> & { templateId: string };

interface Meta {
	$statusCode?: number;
	$location?: string;
	idempotencyKey?: string;
}

const WAKE_WINDOW_MS = 5;

const templateSchema = {
	name: { type: "string", trim: true, min: 1, max: 200 },
	subject: { type: "string", min: 1, max: 998 },
	html: { type: "string", max: 512 * 1024, optional: true },
	text: { type: "string", max: 512 * 1024, optional: true }
} as const;

function creatorOf(p: Principal): Creator {
	return p.kind === "user" ? { kind: "user", id: p.sub } : { kind: "service", id: p.serviceId };
}

function canRead(p: Principal, owner: Creator): boolean {
	if (p.kind === "service" || (p.kind === "user" && p.isAdmin)) return true;
	return owner.kind === "user" && owner.id === p.sub;
}

function toView(doc: NotificationDoc, events: EventDoc[]): NotificationView {
	const view: NotificationView = {
		notificationId: doc.id,
		status: doc.status,
		channel: doc.channel,
		to: doc.to,
		priority: doc.priority,
		attempts: doc.attempts,
		createdAt: doc.createdAt,
		updatedAt: doc.updatedAt,
		events: events.map(e => (e.detail ? { event: e.event, occurredAt: e.occurredAt, detail: e.detail } : { event: e.event, occurredAt: e.occurredAt }))
	};
	if (doc.templateId) view.templateId = doc.templateId;
	if (doc.providerMessageId) view.providerMessageId = doc.providerMessageId;
	return view;
}

function toTemplateView({ id, createdBy: _c, ...rest }: TemplateDoc): TemplateView {
	return { templateId: id, ...rest };
}

/** Key order must not change the hash: the same body in another order is the same request. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
	if (value && typeof value === "object") {
		return `{${Object.keys(value).sort().map(k => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
	}
	return JSON.stringify(value);
}

const NotificationsService: ServiceSchema<ServiceSettingSchema, RuntimeMethods> = {
	name: "notifications",
	mixins: [RuntimeMixin],
	actions: {
		create: {
			visibility: "published",
			auth: ["user", "service"],
			params: {
				channel: { type: "enum", values: [...CHANNELS], optional: true },
				to: emailParam,
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
				const p = ctx.params;
				const channel = p.channel ?? "EMAIL";
				if (!DELIVERABLE_CHANNELS.includes(channel)) {
					throw new ClientError(422, "CHANNEL_NOT_SUPPORTED", `The ${channel} channel is not available yet.`);
				}
				if (!p.templateId === !p.template) {
					throw badRequest("Give exactly one of templateId and template.", [{ field: "templateId", message: "Give exactly one of templateId and template." }]);
				}
				if (p.template && p.template.html == null && p.template.text == null) {
					throw badRequest("A template needs html or text.", [{ field: "template", message: "A template needs html or text." }]);
				}
				const store = this.runtime().store();
				const variables = p.variables ?? {};
				const template = p.template ?? (await store.collection<TemplateDoc>("templates").get(p.templateId!));
				if (!template) throw new ClientError(422, "TEMPLATE_NOT_FOUND", "No template has this id.");
				const missing = missingVariables(template, variables);
				if (missing.length) {
					throw new ClientError(422, "TEMPLATE_VARIABLE_MISSING", `The template needs these variables: ${missing.join(", ")}.`, {
						errors: missing.map(name => ({ field: `variables.${name}`, message: "is required by the template" }))
					});
				}

				const creator = creatorOf(principalOf(ctx)!);
				const key = ctx.meta.idempotencyKey;
				const requestHash = key ? sha256(canonical({ ...p, channel, priority: p.priority ?? "NORMAL", variables })) : undefined;
				const scope = key ? `${creator.kind}:${creator.id}:${key}` : undefined;
				const coll = store.collection<NotificationDoc>("notifications");
				if (scope) {
					const earlier = await coll.findOne({ idempotencyScope: scope });
					if (earlier) return this.replay(ctx, earlier, requestHash!);
				}

				const now = Date.now();
				const iso = new Date(now).toISOString();
				const priority = p.priority ?? "NORMAL";
				const doc: NotificationDoc = {
					id: randomUUID(),
					channel,
					to: p.to.trim(),
					priority,
					priorityRank: priorityRank(priority),
					variables,
					status: "QUEUED",
					attempts: 0,
					createdBy: creator,
					createdAt: iso,
					updatedAt: iso,
					availableAt: iso,
					seq: nextSeq(now)
				};
				if (p.templateId) doc.templateId = p.templateId;
				else doc.template = p.template;
				if (p.metadata) doc.metadata = p.metadata;
				if (scope) {
					doc.idempotencyScope = scope;
					doc.requestHash = requestHash;
				}
				const queued: EventDoc = { id: randomUUID(), notificationId: doc.id, event: "QUEUED", occurredAt: iso, seq: nextSeq(now) };
				try {
					// The record and its first event in one batch (one transaction in SQLite).
					await this.groupCommit().submit([
						[
							{ op: "insert", collection: "notifications", doc },
							{ op: "insert", collection: "notification_events", doc: queued }
						]
					]);
				} catch (err) {
					if (err instanceof DuplicateKeyError && scope) {
						// Another request with the same key won the race: answer as it did.
						const winner = await coll.findOne({ idempotencyScope: scope });
						if (!winner) throw err;
						return this.replay(ctx, winner, requestHash!);
					}
					// On MongoDB the batch is not one transaction: if the record made it and only
					// its first event did not, the notification is accepted and will be sent, so
					// the caller must hear 201 (an error would invite a second, duplicate request).
					if (!(await coll.get(doc.id))) throw err;
					this.logger.warn("A notification was stored without its QUEUED event", { notificationId: doc.id, error: (err as Error).message });
				}
				this.wakeDispatchers();
				ctx.meta.$statusCode = 201;
				ctx.meta.$location = `/notifications/${doc.id}`;
				return { notificationId: doc.id, status: "QUEUED" };
			}
		},
		get: {
			visibility: "published",
			auth: ["user", "service"],
			params: { notificationId: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ notificationId: string }>): Promise<NotificationView> {
				const store = this.runtime().store();
				const doc = await store.collection<NotificationDoc>("notifications").get(ctx.params.notificationId);
				// Someone else's notification is reported as absent, not as forbidden.
				if (!doc || !canRead(principalOf(ctx)!, doc.createdBy)) throw notFound("NOTIFICATION_NOT_FOUND", "No notification has this id.");
				const events = await store.collection<EventDoc>("notification_events").find({ notificationId: doc.id }, { sort: { seq: 1 } });
				return toView(doc, events);
			}
		},
		createTemplate: {
			visibility: "published",
			auth: ["user", "service"],
			params: { ...templateSchema, $$strict: true },
			async handler(ctx: Context<TemplateParts & { name: string }, Meta>): Promise<TemplateView> {
				if (ctx.params.html == null && ctx.params.text == null) {
					throw badRequest("A template needs html or text.", [{ field: "html", message: "A template needs html or text." }]);
				}
				const iso = new Date().toISOString();
				const doc: TemplateDoc = {
					id: randomUUID(),
					name: ctx.params.name,
					subject: ctx.params.subject,
					...(ctx.params.html != null ? { html: ctx.params.html } : {}),
					...(ctx.params.text != null ? { text: ctx.params.text } : {}),
					createdBy: creatorOf(principalOf(ctx)!),
					createdAt: iso,
					updatedAt: iso
				};
				await this.runtime().store().collection<TemplateDoc>("templates").insert(doc);
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
				const doc = await this.runtime().store().collection<TemplateDoc>("templates").get(ctx.params.id);
				if (!doc) throw notFound("NOT_FOUND", "No template has this id.");
				return toTemplateView(doc);
			}
		},
		updateTemplate: {
			visibility: "published",
			// Users replace their own templates; administrators and services any.
			auth: ["user", "service"],
			params: { id: { type: "uuid" }, ...templateSchema, $$strict: true },
			async handler(ctx: Context<TemplateParts & { id: string; name: string }>): Promise<TemplateView> {
				const { id, name, subject, html, text } = ctx.params;
				if (html == null && text == null) {
					throw badRequest("A template needs html or text.", [{ field: "html", message: "A template needs html or text." }]);
				}
				const coll = this.runtime().store().collection<TemplateDoc>("templates");
				const existing = await coll.get(id);
				if (!existing) throw notFound("NOT_FOUND", "No template has this id.");
				const caller = principalOf(ctx)!;
				const owner = caller.kind === "service" || (caller.kind === "user" && (caller.isAdmin || (existing.createdBy.kind === "user" && existing.createdBy.id === caller.sub)));
				if (!owner) throw new ClientError(403, "FORBIDDEN", "Only the template's creator or an administrator may replace it.");
				const unset = [html == null ? "html" : null, text == null ? "text" : null].filter((f): f is string => f !== null);
				const doc = await coll.findOneAndUpdate(
					{ id },
					{ $set: { name, subject, ...(html != null ? { html } : {}), ...(text != null ? { text } : {}), updatedAt: new Date().toISOString() }, $unset: unset }
				);
				if (!doc) throw notFound("NOT_FOUND", "No template has this id.");
				return toTemplateView(doc);
			}
		}
	},
	methods: {
		/** Accepted notifications of one moment share one transaction (and one fsync). */
		groupCommit(): GroupCommit {
			const self = this as unknown as { committer?: GroupCommit };
			self.committer ??= new GroupCommit(this.runtime().store());
			return self.committer;
		},

		/**
		 * Wakes a dispatcher at once, then at most once per WAKE_WINDOW_MS however many
		 * notifications arrive: a trailing wake follows every burst, so none waits for a
		 * dispatcher's poll, and a busy dispatcher is not flooded with events it drains anyway.
		 */
		wakeDispatchers() {
			const self = this as unknown as { wakeTimer: NodeJS.Timeout | null; wakeAgain: boolean };
			if (self.wakeTimer) {
				self.wakeAgain = true;
				return;
			}
			void this.broker.emit("notifications.queued", {});
			self.wakeTimer = setTimeout(() => {
				self.wakeTimer = null;
				if (self.wakeAgain) {
					self.wakeAgain = false;
					this.wakeDispatchers();
				}
			}, WAKE_WINDOW_MS);
		},

		replay(ctx: Context<unknown, Meta>, earlier: NotificationDoc, requestHash: string): CreateResult {
			if (earlier.requestHash !== requestHash) {
				throw new ClientError(422, "IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used with a different request.");
			}
			ctx.meta.$statusCode = 201;
			ctx.meta.$location = `/notifications/${earlier.id}`;
			// The same answer as the original request got; GET shows the current status.
			return { notificationId: earlier.id, status: "QUEUED" };
		}
	},
	started() {
		if (!this.broker.isMetricsEnabled()) return;
		registerNotificationMetrics(this.broker);
		const sample = () =>
			sampleQueue(this.broker, this.runtime().store()).catch(err => this.logger.warn("Sampling the queue failed", { error: (err as Error).message }));
		void sample();
		(this as unknown as { sampler: NodeJS.Timeout }).sampler = setInterval(sample, this.runtime().config.metricsSampleMs);
	},
	stopped() {
		clearInterval((this as unknown as { sampler?: NodeJS.Timeout }).sampler);
		clearTimeout((this as unknown as { wakeTimer?: NodeJS.Timeout }).wakeTimer);
	}
};

export default NotificationsService;
