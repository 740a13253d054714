/**
 * The client's namespaces for what a signed-in user or a service works with: actors,
 * their preferences and push subscriptions, notifications, templates, webhook
 * endpoints and resumes. Each method is one operation of the API through `request`
 * (request.ts); a namespace is an interface and a builder, so a new one (inbox, MFA,
 * sessions...) is added the same way and composed in createClient.
 */
import { ApiError, ensureOk, send, type Request, type Transport } from "./request.js";
import type {
	Actor,
	ActorList,
	ActorUpdate,
	Notification,
	NotificationAccepted,
	NotificationInput,
	NotificationListQuery,
	NotificationPage,
	Preference,
	Preferences,
	PushSubscription,
	PushSubscriptionInput,
	PushSubscriptionLike,
	PushSubscriptionList,
	ResumeMetadata,
	ResumeUpload,
	Template,
	TemplateInput,
	TemplateList,
	TemplatePreview,
	TemplatePreviewInput,
	TemplateVersionList,
	Timeline,
	WebhookEndpointCreated,
	WebhookEndpointInput,
	WebhookEndpointList
} from "./types.js";
import { watchStream, type TimelineEvent, type WatchHandle, type WatchOptions } from "./watch.js";

export interface ActorsApi {
	/** GET /actors/{id}. 404 ACTOR_NOT_FOUND. */
	get(actorId: string): Promise<Actor>;
	/** GET /actor?actorId=: the actor with this id in `items`, or none (no 404). */
	find(actorId: string): Promise<ActorList>;
	/** PATCH /actors/{id}: names and `locale` (BCP 47, null removes it); the actor itself, an administrator or a service. */
	update(actorId: string, changes: ActorUpdate): Promise<Actor>;
}

export function actorsApi(request: Request): ActorsApi {
	return {
		get: id => request("get", "/actors/{id}", { path: { id } }),
		find: actorId => request("get", "/actor", { query: { actorId } }),
		update: (id, body) => request("patch", "/actors/{id}", { path: { id }, body })
	};
}

export interface PreferencesApi {
	/** GET /actors/{id}/preferences: which categories of which channel the actor receives. */
	get(actorId: string): Promise<Preferences>;
	/** PUT /actors/{id}/preferences: replaces them all; answers the preferences now in force. */
	put(actorId: string, items: Preference[]): Promise<Preferences>;
}

export function preferencesApi(request: Request): PreferencesApi {
	return {
		get: id => request("get", "/actors/{id}/preferences", { path: { id } }),
		put: (id, items) => request("put", "/actors/{id}/preferences", { path: { id }, body: { items } })
	};
}

export interface PushSubscriptionsApi {
	/** GET /notifications/push/vapid-public-key (no token): the applicationServerKey for pushManager.subscribe(). */
	vapidPublicKey(): Promise<string>;
	list(actorId: string): Promise<PushSubscriptionList>;
	/** Takes the browser's PushSubscription as it is, or its JSON. The endpoint must be https:. */
	create(actorId: string, subscription: PushSubscriptionInput | PushSubscriptionLike): Promise<PushSubscription>;
	delete(actorId: string, subscriptionId: string): Promise<void>;
}

export function pushSubscriptionsApi(request: Request): PushSubscriptionsApi {
	return {
		vapidPublicKey: async () => (await request("get", "/notifications/push/vapid-public-key", { auth: false })).publicKey,
		list: id => request("get", "/actors/{id}/push-subscriptions", { path: { id } }),
		create: (id, subscription) =>
			request("post", "/actors/{id}/push-subscriptions", { path: { id }, body: ("toJSON" in subscription ? subscription.toJSON() : subscription) as PushSubscriptionInput }),
		delete: (id, subscriptionId) => request("delete", "/actors/{id}/push-subscriptions/{subscriptionId}", { path: { id, subscriptionId } })
	};
}

export interface NotificationsApi {
	/** POST /notifications. The same idempotencyKey with the same input answers the first notification again. */
	send(input: NotificationInput, options?: { idempotencyKey?: string }): Promise<NotificationAccepted>;
	get(notificationId: string): Promise<Notification>;
	/** GET /notifications, newest first; pass the answer's nextCursor as `cursor` for the next page. */
	list(query?: NotificationListQuery): Promise<NotificationPage>;
	/** DELETE /notifications/{id}: cancels one still QUEUED (else 409 NOT_CANCELLABLE); answers it CANCELLED. */
	cancel(notificationId: string): Promise<Notification>;
	/** The status timeline as it is now (after the event id `after`, when given). */
	timeline(notificationId: string, after?: string): Promise<Timeline>;
	/**
	 * Follows the notification's status events live (server-sent events over fetch, the
	 * token in the Authorization header). Reconnects after a cut with Last-Event-ID, so
	 * each event arrives once; refreshes the token as fetch() does. Runs until stop()
	 * or the signal aborts; `done` rejects with ApiError when it cannot go on (404, the
	 * session ended).
	 */
	watch(notificationId: string, onEvent: (event: TimelineEvent) => void, options?: WatchOptions): WatchHandle;
}

export function notificationsApi(request: Request, t: Transport): NotificationsApi {
	return {
		send: (input, { idempotencyKey } = {}) => request("post", "/notifications", { body: input, headers: idempotencyKey ? { "idempotency-key": idempotencyKey } : {} }),
		get: notificationId => request("get", "/notifications/{notificationId}", { path: { notificationId } }),
		list: query => request("get", "/notifications", { query }),
		cancel: notificationId => request("delete", "/notifications/{notificationId}", { path: { notificationId } }),
		timeline: (notificationId, after) =>
			request("get", "/notifications/{notificationId}/events", { path: { notificationId }, query: { after }, headers: { accept: "application/json" } }),
		watch(notificationId, onEvent, options) {
			const open = async (lastEventId: string | undefined, signal: AbortSignal) => {
				const headers: Record<string, string> = { accept: "text/event-stream" };
				if (lastEventId) headers["last-event-id"] = lastEventId;
				return ensureOk(await send(t, "get", "/notifications/{notificationId}/events", { path: { notificationId }, headers, signal }));
			};
			return watchStream(open, watchFailure, onEvent, options);
		}
	};
}

/** A watch gives up on refusals a retry cannot change; it waits out 429 and retries 5xx and network failures. */
function watchFailure(err: unknown): "final" | number {
	if (!(err instanceof ApiError)) return 0;
	if (err.status === 429 || err.status >= 500) return (err.retryAfter ?? 0) * 1000;
	return "final";
}

export interface TemplatesApi {
	/** POST /templates: Liquid (`{{ name }}`, `{% if %}`, `{% for %}`, filters); HTML parts escape every output; `locales` holds translations. Version 1. */
	create(input: TemplateInput): Promise<Template>;
	/** GET /templates: the caller's templates (every one for services and administrators), most recently changed first. */
	list(): Promise<TemplateList>;
	get(templateId: string): Promise<Template>;
	/** PUT /templates/{id}: the whole template, as a new version (n+1). */
	update(templateId: string, input: TemplateInput): Promise<Template>;
	/** GET /templates/{id}/versions: every version, newest first. */
	versions(templateId: string): Promise<TemplateVersionList>;
	/** POST /templates/{id}/versions/{version}/restore: that version's content as a new version. */
	restore(templateId: string, version: number): Promise<Template>;
	/** POST /templates/{id}/preview: renders without sending; 422 TEMPLATE_RENDER_ERROR names the part and line. */
	preview(templateId: string, input?: TemplatePreviewInput): Promise<TemplatePreview>;
}

export function templatesApi(request: Request): TemplatesApi {
	return {
		create: body => request("post", "/templates", { body }),
		list: () => request("get", "/templates", {}),
		get: id => request("get", "/templates/{id}", { path: { id } }),
		update: (id, body) => request("put", "/templates/{id}", { path: { id }, body }),
		versions: id => request("get", "/templates/{id}/versions", { path: { id } }),
		restore: (id, version) => request("post", "/templates/{id}/versions/{version}/restore", { path: { id, version } }),
		preview: (id, body = {}) => request("post", "/templates/{id}/preview", { path: { id }, body })
	};
}

export interface WebhookEndpointsApi {
	/** POST /webhook-endpoints: the answer's `secret` (whsec_...) verifies the signatures and is shown only here. */
	create(input: WebhookEndpointInput): Promise<WebhookEndpointCreated>;
	/** The caller's own endpoints, without secrets. */
	list(): Promise<WebhookEndpointList>;
	delete(endpointId: string): Promise<void>;
}

export function webhookEndpointsApi(request: Request): WebhookEndpointsApi {
	return {
		create: body => request("post", "/webhook-endpoints", { body }),
		list: () => request("get", "/webhook-endpoints"),
		delete: endpointId => request("delete", "/webhook-endpoints/{endpointId}", { path: { endpointId } })
	};
}

export interface ResumesApi {
	/** POST /resumes as multipart/form-data; at most 10 MiB (413), pdf, doc, docx, rtf or txt (else 415). */
	upload(input: ResumeUpload): Promise<ResumeMetadata>;
	get(documentId: string): Promise<ResumeMetadata>;
	/** The file as uploaded, with its content type. */
	content(documentId: string): Promise<Blob>;
}

export function resumesApi(request: Request, t: Transport): ResumesApi {
	return {
		upload({ file, filename, candidateId }) {
			const form = new FormData();
			// The platform reads candidateId before it takes the file.
			form.append("candidateId", candidateId);
			form.append("resume", file, filename ?? (file as { name?: string }).name ?? "resume");
			return request("post", "/resumes", { body: form });
		},
		get: id => request("get", "/resumes/{id}", { path: { id } }),
		content: async id => (await ensureOk(await send(t, "get", "/resumes/{id}/content", { path: { id } }))).blob()
	};
}
