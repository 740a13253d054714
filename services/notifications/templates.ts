/**
 * The notifications service's template routes: create, read, list, replace (each change
 * a new version), versions, restore and preview. Mixed into
 * services/notifications/notifications.service.ts, so the actions are notifications.*;
 * the templates themselves are lib/notifications' (templates.ts, render.ts, liquid.ts).
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { notFound } from "../../lib/errors";
import type { HttpMeta } from "../../lib/http/meta";
import {
	CHANNELS,
	createTemplate,
	creatorOf,
	findTemplate,
	listTemplates,
	listTemplateVersions,
	MAX_PART_CHARS,
	mayAccess,
	previewTemplate,
	replaceTemplate,
	restoreTemplateVersion,
	toTemplateView,
	type Preview,
	type PreviewRequest,
	type TemplateFields,
	type TemplateVersionView,
	type TemplateView
} from "../../lib/notifications";
import { ref } from "../../lib/openapi/schemas";
import { principalOf } from "../../middlewares/auth.middleware";
import { RuntimeMixin, type RuntimeMethods } from "../../mixins/runtime.mixin";

export type { Preview, TemplateVersionView, TemplateView };

/** BCP 47 tags are checked (and made canonical) by lib/notifications/templates.ts; this bounds their length. */
const LOCALE = { type: "string", min: 2, max: 35, pattern: /^[A-Za-z0-9-]+$/ } as const;

const partsSchema = {
	// EMAIL and PUSH need it (checked when a notification is accepted); SMS uses the text alone, IN_APP has an optional title.
	subject: { type: "string", min: 1, max: 998, optional: true },
	html: { type: "string", max: MAX_PART_CHARS, optional: true },
	text: { type: "string", max: MAX_PART_CHARS, optional: true }
} as const;

export const templateSchema = {
	name: { type: "string", trim: true, min: 1, max: 200 },
	defaultLocale: { ...LOCALE, optional: true },
	...partsSchema,
	locales: {
		type: "record",
		optional: true,
		key: LOCALE,
		value: { type: "object", strict: true, props: partsSchema }
	}
} as const;

/** The parts an inline template (POST /notifications `template`) may have. */
export const inlineTemplateSchema = { type: "object", optional: true, strict: true, props: partsSchema } as const;

const LIST_MAX = 500;

const example = {
	name: "order-shipped",
	defaultLocale: "en",
	subject: "Your order {{ order }} has shipped",
	text: "Hello {{ name }}, order {{ order }} is on its way.{% if items %} It holds:{% for item in items %} {{ item.title }}{% endfor %}.{% endif %}",
	html: "<p>Hello {{ name }}, order <b>{{ order }}</b> is on its way.</p>{% if items %}<ul>{% for item in items %}<li>{{ item.title }}</li>{% endfor %}</ul>{% endif %}",
	locales: { de: { subject: "Ihre Bestellung {{ order }} ist unterwegs", text: "Hallo {{ name }}, Bestellung {{ order }} ist unterwegs." } }
};

type Meta = HttpMeta;

export const TemplatesMixin: ServiceSchema<ServiceSettingSchema, RuntimeMethods> = {
	name: "templates",
	mixins: [RuntimeMixin],
	actions: {
		createTemplate: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Create a template",
				description:
					"Liquid: `{{ name }}`, `{% if %}`, `{% for %}`, filters (`date` takes a time zone). HTML parts escape every output. " +
					"EMAIL and PUSH need a subject (PUSH shows it as the title); a template with only a text part serves SMS and IN_APP. " +
					"`locales` holds translations keyed by BCP 47 tag; a notification's locale (else its recipient actor's) picks one: de-AT, then de, then the default parts. Version 1.",
				success: { status: 201, description: "Created.", schema: ref("Template"), headers: { Location: "/templates/{templateId}" } },
				problems: ["TEMPLATE_RENDER_ERROR", "FORBIDDEN"],
				example
			},
			params: { ...templateSchema, $$strict: true },
			async handler(ctx: Context<TemplateFields, Meta>): Promise<TemplateView> {
				this.runtime().notificationExtensions.checkTemplateName(principalOf(ctx)!, ctx.params.name);
				const doc = await createTemplate(this.runtime().store(), ctx.params, creatorOf(principalOf(ctx)!));
				ctx.meta.$statusCode = 201;
				ctx.meta.$location = `/templates/${doc.id}`;
				return toTemplateView(doc);
			}
		},
		listTemplates: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "List templates, most recently changed first",
				description: `Services and administrators see every template; users see their own. At most ${LIST_MAX}.`,
				success: { status: 200, description: "The templates.", schema: { type: "object", required: ["items"], properties: { items: { type: "array", items: ref("Template") } } } }
			},
			params: { $$strict: true },
			async handler(ctx: Context): Promise<{ items: TemplateView[] }> {
				const caller = principalOf(ctx)!;
				const docs = await listTemplates(this.runtime().store(), LIST_MAX, caller.kind === "service" || caller.isAdmin ? undefined : caller.sub);
				return { items: docs.map(toTemplateView) };
			}
		},
		getTemplate: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Read a template",
				success: { status: 200, description: "The template (its newest version).", schema: ref("Template") },
				problems: ["NOT_FOUND"]
			},
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
			openapi: {
				summary: "Replace a template",
				description: "Every replacement is a new version (n+1); queued notifications keep the version they were accepted with.",
				success: { status: 200, description: "Replaced: the new version.", schema: ref("Template") },
				problems: ["NOT_FOUND", "FORBIDDEN", "TEMPLATE_RENDER_ERROR"],
				example: { ...example, subject: "Order {{ order }} shipped" }
			},
			params: { id: { type: "uuid" }, ...templateSchema, $$strict: true },
			async handler(ctx: Context<TemplateFields & { id: string }>): Promise<TemplateView> {
				const { id, ...fields } = ctx.params;
				const caller = principalOf(ctx)!;
				this.runtime().notificationExtensions.checkTemplateName(caller, fields.name);
				return toTemplateView(await replaceTemplate(this.runtime().store(), id, fields, owner => mayAccess(caller, owner), creatorOf(caller)));
			}
		},
		templateVersions: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "A template's versions, newest first",
				success: { status: 200, description: "Every version.", schema: { type: "object", required: ["items"], properties: { items: { type: "array", items: ref("TemplateVersion") } } } },
				problems: ["NOT_FOUND"]
			},
			params: { id: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ id: string }>): Promise<{ items: TemplateVersionView[] }> {
				return { items: await listTemplateVersions(this.runtime().store(), ctx.params.id) };
			}
		},
		restoreTemplateVersion: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Restore a version of a template",
				description: "The version's content becomes a new version (n+1); the versions in between stay.",
				success: { status: 200, description: "Restored: the new version.", schema: ref("Template") },
				problems: ["NOT_FOUND", "FORBIDDEN"]
			},
			params: { id: { type: "uuid" }, version: { type: "number", integer: true, min: 1, convert: true }, $$strict: true },
			async handler(ctx: Context<{ id: string; version: number }>): Promise<TemplateView> {
				const caller = principalOf(ctx)!;
				return toTemplateView(await restoreTemplateVersion(this.runtime().store(), ctx.params.id, ctx.params.version, owner => mayAccess(caller, owner), creatorOf(caller)));
			}
		},
		previewTemplate: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Render a template without sending",
				description: "What a notification on `channel` (EMAIL by default) would carry, in `locale` (its chain: de-AT, de, the default). SMS shows the text alone, PUSH the title and text.",
				success: { status: 200, description: "The rendered parts.", schema: ref("TemplatePreview") },
				problems: ["NOT_FOUND", "TEMPLATE_RENDER_ERROR"],
				example: { variables: { name: "Ada", order: "A-1042", items: [{ title: "Tea" }, { title: "Cups" }] }, locale: "de-AT", channel: "EMAIL" }
			},
			params: { id: { type: "uuid" }, variables: { type: "object", optional: true }, locale: { ...LOCALE, optional: true }, channel: { type: "enum", values: [...CHANNELS], optional: true }, $$strict: true },
			async handler(ctx: Context<PreviewRequest & { id: string }>): Promise<Preview> {
				const { id, ...req } = ctx.params;
				const doc = await findTemplate(this.runtime().store(), id);
				if (!doc) throw notFound("NOT_FOUND", "No template has this id.");
				return previewTemplate(doc, req);
			}
		}
	}
};
