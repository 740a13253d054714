/**
 * The names the client's methods take and give, each read from the OpenAPI document
 * (api-types.ts, generated): a schema of components.schemas, or an operation's body,
 * query or success answer.
 */
import type { components } from "./api-types.js";
import type { JsonBody, Method, Operation, PathOf, QueryParams, Result } from "./request.js";

type Schemas = components["schemas"];
/** The JSON body an operation takes. */
export type BodyOf<M extends Method, P extends PathOf<M>> = JsonBody<Operation<M, P>>;
/** The query parameters an operation takes. */
export type QueryOf<M extends Method, P extends PathOf<M>> = QueryParams<Operation<M, P>>;
/** What an operation answers with when it succeeds. */
export type ResultOf<M extends Method, P extends PathOf<M>> = Result<Operation<M, P>>;

export type TokenSet = Schemas["TokenSet"];
export type RegisterResult = Schemas["RegisterResult"];
export type RegisterInput = BodyOf<"post", "/auth/register">;
export type EmailVerified = Schemas["EmailVerified"];
export type AccountExport = Schemas["AccountExport"];
export type MfaFactors = Schemas["MfaFactors"];
export type OtpStatus = Schemas["OtpStatus"];
export type AuditPage = Schemas["AuditPage"];
export type AuditEvent = Schemas["AuditEvent"];
export type NotMeResult = Schemas["NotMeResult"];
export type Me = Schemas["Me"];
export type SessionList = Schemas["SessionList"];
export type SessionInfo = Schemas["Session"];
export type MfaFactor = MfaFactors["items"][number];
export type TotpEnrolment = Schemas["TotpEnrolment"];
export type TotpConfirmed = Schemas["TotpConfirmed"];
export type RecoveryCodes = Schemas["RecoveryCodes"];

export type Actor = Schemas["Actor"];
export type ActorList = ResultOf<"get", "/actor">;
export type ActorUpdate = BodyOf<"patch", "/actors/{id}">;

export type Preferences = Schemas["Preferences"];
export type Preference = Preferences["items"][number];

export type PushSubscription = Schemas["PushSubscription"];
export type PushSubscriptionList = Schemas["PushSubscriptionList"];
/** The browser's PushSubscription JSON (what PushSubscription.toJSON() gives, with its fields present). */
export type PushSubscriptionInput = BodyOf<"post", "/actors/{id}/push-subscriptions">;
/** A browser PushSubscription itself: it is sent as its toJSON(). */
export interface PushSubscriptionLike {
	toJSON(): { endpoint?: string; expirationTime?: number | null; keys?: Record<string, string> };
}

export type InboxItem = Schemas["InboxItem"];
export type InboxPage = Schemas["InboxPage"];
export type InboxCounts = Schemas["InboxCounts"];
export type InboxListQuery = QueryOf<"get", "/actors/{id}/inbox">;
export type InboxMark = BodyOf<"patch", "/actors/{id}/inbox/{notificationId}">;

export type Channel = Schemas["Notification"]["channel"];
export type Priority = Schemas["Notification"]["priority"];
export type NotificationStatus = Schemas["Notification"]["status"];
export type Notification = Schemas["Notification"];
export type NotificationInput = BodyOf<"post", "/notifications">;
export type NotificationAccepted = Schemas["NotificationAccepted"];
export type NotificationListQuery = QueryOf<"get", "/notifications">;
export type NotificationPage = Schemas["NotificationPage"];
/** A notification as a list shows it: without its events. */
export type NotificationSummary = NotificationPage["items"][number];
export type Timeline = Schemas["Timeline"];

export type Template = Schemas["Template"];
export type TemplateInput = BodyOf<"post", "/templates">;
export type TemplateList = ResultOf<"get", "/templates">;
export type TemplateVersion = Schemas["TemplateVersion"];
export type TemplateVersionList = ResultOf<"get", "/templates/{id}/versions">;
export type TemplatePreview = Schemas["TemplatePreview"];
export type TemplatePreviewInput = BodyOf<"post", "/templates/{id}/preview">;

export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookEndpointCreated = Schemas["WebhookEndpointCreated"];
export type WebhookEndpointInput = BodyOf<"post", "/webhook-endpoints">;
export type WebhookEndpointList = Schemas["WebhookEndpointList"];

export type ResumeMetadata = Schemas["ResumeMetadata"];
export interface ResumeUpload {
	/** The actor the resume belongs to; a user uploads only its own (its actorId), a service or administrator any actor's. */
	candidateId: string;
	/** The file: a File in browsers, or any Blob (new Blob([buffer], { type })) in Node. */
	file: Blob;
	/** Defaults to the File's name; the extension and type decide whether it is accepted (pdf, doc, docx, rtf, txt). */
	filename?: string;
}

export type FeatureFlag = Schemas["FeatureFlag"];
export type FeatureFlagList = ResultOf<"get", "/admin/features">;
export type FeatureFlagValue = BodyOf<"put", "/admin/features/{featureName}">;
export type SuppressionList = Schemas["SuppressionList"];
export type UnsubscribeList = Schemas["UnsubscribeList"];
export type ServiceAccount = Schemas["ServiceAccount"];
export type ServiceAccountCreated = Schemas["ServiceAccountCreated"];
export type ServiceAccountList = Schemas["ServiceAccountList"];
export type RotatedKey = Schemas["RotatedKey"];
export type AdminStats = ResultOf<"get", "/admin/stats">;
export type ProviderHealthList = ResultOf<"get", "/admin/providers">;
export type AdminWebhookEndpointList = Schemas["AdminWebhookEndpointList"];
