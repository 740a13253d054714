/**
 * The answer bodies the document names, as JSON Schema 2020-12, under
 * components.schemas. Each mirrors the TypeScript type named beside it; the
 * integration test (test/integration/openapi.test.ts) validates real answers against them.
 */
import { ERROR_CODES } from "../errors";
import { CHANNELS, PRIORITIES, STATUSES } from "../delivery";
import { FREE_OBJECT, type JsonSchema } from "./fastest-validator";
import { AUDIT_EVENT_TYPES } from "../audit";

const isoTime = { type: "string", format: "date-time" };
const uuid = { type: "string", format: "uuid" };
/** A list of the account export: at most 10,000 items, `truncated` when there were more. */
const exportPage = (description: string, properties: Record<string, unknown>) => ({
	type: "object",
	description,
	required: ["items", "truncated"],
	properties: { items: { type: "array", items: { type: "object", properties } }, truncated: { type: "boolean" } }
});

const TEMPLATE_PARTS = { subject: { type: "string" }, html: { type: "string" }, text: { type: "string" } };
const TEMPLATE_CONTENT = {
	defaultLocale: { type: "string", description: "BCP 47: the language of the top-level parts." },
	...TEMPLATE_PARTS,
	locales: { type: "object", description: "Translations by BCP 47 tag.", additionalProperties: { type: "object", properties: TEMPLATE_PARTS } }
};

export const ref = (name: keyof typeof COMPONENT_SCHEMAS): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** A WebAuthn PublicKeyCredentialDescriptorJSON. */
const CREDENTIAL_DESCRIPTOR: JsonSchema = {
	type: "object",
	properties: { id: { type: "string", description: "The credential id, base64url." }, type: { enum: ["public-key"] }, transports: { type: "array", items: { type: "string" } } }
};

export const COMPONENT_SCHEMAS = {
	/** lib/problem.ts Problem (RFC 9457). */
	Problem: {
		type: "object",
		required: ["type", "title", "status", "detail", "code", "requestId"],
		properties: {
			type: { type: "string", description: "urn:auth-notify:problem:<code in kebab case>" },
			title: { type: "string" },
			status: { type: "integer" },
			detail: { type: "string" },
			code: { enum: [...ERROR_CODES], description: "The stable code clients branch on." },
			requestId: { type: "string", description: "Also in the X-Request-Id header; quote it when reporting a 5xx." },
			errors: {
				type: "array",
				items: {
					type: "object",
					required: ["field", "message"],
					properties: {
						field: { type: "string" },
						message: { type: "string" },
						line: { type: "integer", minimum: 1, description: "TEMPLATE_RENDER_ERROR: the line of the field's template." },
						column: { type: "integer", minimum: 1 }
					}
				}
			},
			mfaToken: { type: "string", description: "MFA_REQUIRED, MFA_ENROLLMENT_REQUIRED: finishes the sign-in (5 minutes, single use)." },
			factors: { type: "array", items: { enum: ["totp", "webauthn", "sms", "recovery"] }, description: "MFA_REQUIRED: the factors the user can answer with." }
		}
	},
	/** lib/idp/types.ts TokenSet. */
	TokenSet: {
		type: "object",
		required: ["accessToken", "idToken", "refreshToken", "expiresAt", "expiresIn", "tokenType"],
		properties: {
			accessToken: { type: "string" },
			idToken: { type: "string" },
			refreshToken: { type: "string", description: "Rotated on every refresh: keep only the newest." },
			expiresAt: { type: "integer", description: "Unix seconds; the access token's exp." },
			expiresIn: { type: "integer", description: "Seconds until expiresAt." },
			tokenType: { const: "Bearer" }
		}
	},
	/** services/auth/otp.ts: POST /auth/otp's answer. */
	OtpChallenge: { type: "object", required: ["challengeId"], properties: { challengeId: uuid } },
	/** lib/accounts/otp.ts OtpView. */
	OtpStatus: {
		type: "object",
		required: ["status", "channel", "resendAvailableAt"],
		properties: {
			status: { enum: ["PENDING", "SENT", "DELIVERED", "FAILED", "VERIFIED", "EXPIRED"], description: "Follows the code's notification." },
			channel: { enum: ["email", "sms"] },
			fallbackChannel: { enum: ["email", "sms"], description: "The code also went out there." },
			resendAvailableAt: isoTime
		}
	},
	/** services/auth/phone.ts: POST /auth/phone/verify's answer. */
	PhoneVerified: { type: "object", required: ["phoneVerified"], properties: { phoneVerified: { const: true } } },
	/** services/auth/auth.service.ts RegisterResult. */
	RegisterResult: {
		allOf: [{ $ref: "#/components/schemas/TokenSet" }, { type: "object", required: ["actorId"], properties: { actorId: uuid } }]
	},
	/** services/actors.service.ts Actor. */
	Actor: {
		type: "object",
		required: ["actorId", "email", "firstName", "lastName", "createdAt", "updatedAt"],
		properties: {
			actorId: { type: "string" },
			email: { type: "string" },
			firstName: { type: "string" },
			lastName: { type: "string" },
			locale: { type: "string", description: "BCP 47: the language notifications to this actor are rendered in." },
			emailDeliverable: { type: "boolean", description: "Present once a bounce or complaint was reported: false while mail to the address bounces, true again after a delivery or verification." },
			createdAt: isoTime,
			updatedAt: isoTime
		}
	},
	/** services/auth/admin-users.ts AdminUser (the list's items) and AdminUserDetail (one account). */
	AdminUser: {
		type: "object",
		required: ["actorId", "email", "firstName", "lastName", "createdAt", "locked"],
		properties: {
			actorId: uuid,
			email: { type: "string" },
			firstName: { type: "string" },
			lastName: { type: "string" },
			createdAt: isoTime,
			emailVerified: { type: "boolean", description: "In the answer of GET /admin/users/{actorId}." },
			emailDeliverable: {
				type: "boolean",
				description: "In the answer of GET /admin/users/{actorId}: false after a permanent bounce or a complaint on the address, true again after a delivery or a new verification."
			},
			phone: { type: "string", description: "GET /admin/users/{actorId}: the verified phone number (E.164), when the user has one." },
			phoneVerified: { type: "boolean", description: "In the answer of GET /admin/users/{actorId}." },
			recoveryCodesLeft: { type: "integer", minimum: 0, description: "In the answer of GET /admin/users/{actorId}: recovery codes not used yet (DELETE /admin/users/{actorId}/mfa resets them with the factors)." },
			locked: { type: "boolean", description: "Password sign-in and refresh are refused until an administrator unlocks the account." },
			lockedAt: isoTime,
			sessions: { type: "array", items: { $ref: "#/components/schemas/Session" }, description: "In the answer of GET /admin/users/{actorId}: the open sessions (`current` is always false here)." },
			factors: { type: "array", items: { $ref: "#/components/schemas/MfaFactor" }, description: "In the answer of GET /admin/users/{actorId}: the active second factors, without secrets." }
		}
	},
	/** services/auth/sessions.ts: one session (a refresh-token family). */
	Session: {
		type: "object",
		required: ["sessionId", "createdAt", "lastUsedAt", "userAgent", "ip", "amr", "current"],
		properties: {
			sessionId: { type: "string", description: "The `sid` of the session's tokens." },
			createdAt: isoTime,
			lastUsedAt: { ...isoTime, description: "The sign-in, or the last refresh." },
			userAgent: { type: ["string", "null"], description: "The User-Agent of the sign-in." },
			ip: { type: ["string", "null"], description: "The client's address at the sign-in, as the gateway saw it." },
			amr: { type: "array", items: { type: "string" }, description: "How the user signed in (RFC 8176: pwd, otp, hwk, mfa...)." },
			current: { type: "boolean", description: "The session of the token that asked." }
		}
	},
	SessionList: {
		type: "object",
		required: ["items"],
		properties: { items: { type: "array", items: { $ref: "#/components/schemas/Session" } } }
	},
	/** services/auth/sessions.ts me. */
	Me: {
		type: "object",
		required: ["actorId", "email", "emailVerified", "phoneVerified", "emailDeliverable", "factors", "createdAt"],
		properties: {
			actorId: uuid,
			email: { type: "string" },
			emailVerified: { type: "boolean" },
			phone: { type: "string", description: "E.164, when the account has one." },
			phoneVerified: { type: "boolean" },
			emailDeliverable: { type: "boolean", description: "False after a permanent bounce or a complaint on the address, true again after a delivery or a new verification." },
			factors: { type: "array", items: { $ref: "#/components/schemas/MfaFactor" } },
			createdAt: isoTime
		}
	},
	/** services/auth/security.ts AuditItem. */
	AuditEvent: {
		type: "object",
		required: ["eventId", "type", "occurredAt", "ip", "userAgent"],
		properties: {
			eventId: { type: "string", description: "A UUIDv7: later events sort after earlier ones." },
			type: { enum: [...AUDIT_EVENT_TYPES] },
			occurredAt: isoTime,
			ip: { type: ["string", "null"], description: "The client's address as the gateway saw it." },
			userAgent: { type: ["string", "null"] },
			sessionId: { type: "string", description: "The session (refresh-token family) the event belongs to." },
			notificationId: { ...uuid, description: "The security alert this event raised." },
			deliveryStatus: { enum: [...STATUSES], description: "The alert's current delivery status, read from its notification." },
			actorId: { ...uuid, description: "GET /admin/audit only." },
			detail: { type: "object", additionalProperties: { type: "string" }, description: "GET /admin/audit only: what else the event names (how a sign-in was made, who acted)." }
		}
	},
	AuditPage: {
		type: "object",
		required: ["items"],
		properties: {
			items: { type: "array", items: { $ref: "#/components/schemas/AuditEvent" } },
			nextCursor: { type: "string", description: "Absent on the last page." }
		}
	},
	NotMeResult: {
		type: "object",
		required: ["sessionsRevoked", "passwordSignInBlocked"],
		properties: {
			sessionsRevoked: { const: true, description: "Every session of the account has ended." },
			passwordSignInBlocked: { const: true, description: "Password sign-in is refused until the password is reset." }
		}
	},
	AdminUserList: {
		type: "object",
		required: ["items"],
		properties: {
			items: { type: "array", items: { $ref: "#/components/schemas/AdminUser" } },
			nextCursor: { type: "string", description: "Absent on the last page." }
		}
	},
	/** services/notifications/notifications.service.ts CreateResult. */
	NotificationAccepted: {
		type: "object",
		required: ["notificationId", "status"],
		properties: { notificationId: uuid, status: { enum: ["QUEUED", "THROTTLED"], description: "THROTTLED: over its throttle, stored and never sent." } }
	},
	/** lib/notifications/view.ts NotificationView. */
	Notification: {
		type: "object",
		required: ["notificationId", "status", "channel", "to", "priority", "attempts", "createdAt", "updatedAt", "events"],
		properties: {
			notificationId: uuid,
			status: { enum: [...STATUSES] },
			channel: { enum: [...CHANNELS] },
			to: { type: "string" },
			subject: { type: "string", description: "The subject with its variables filled in, when the notification carries its template." },
			priority: { enum: [...PRIORITIES] },
			templateId: uuid,
			templateVersion: { type: "integer", minimum: 1, description: "The template version it is rendered with (a stored template's)." },
			locale: { type: "string", description: "The locale asked for, when one was." },
			attempts: { type: "integer", minimum: 0 },
			providerMessageId: { type: "string" },
			category: { type: "string" },
			sendAt: isoTime,
			createdAt: isoTime,
			updatedAt: isoTime,
			events: {
				type: "array",
				items: {
					type: "object",
					required: ["event", "occurredAt"],
					properties: { event: { type: "string" }, occurredAt: isoTime, detail: FREE_OBJECT }
				}
			}
		}
	},
	/** lib/notifications/templates.ts TemplateView. */
	Template: {
		type: "object",
		required: ["templateId", "name", "version"],
		properties: {
			templateId: uuid,
			name: { type: "string" },
			version: { type: "integer", minimum: 1, description: "1 when created, n+1 on every change." },
			...TEMPLATE_CONTENT,
			createdAt: isoTime,
			updatedAt: isoTime
		}
	},
	/** lib/notifications/templates.ts TemplateVersionView. */
	TemplateVersion: {
		type: "object",
		required: ["name", "version", "createdAt"],
		properties: {
			version: { type: "integer", minimum: 1 },
			name: { type: "string" },
			...TEMPLATE_CONTENT,
			createdAt: isoTime,
			restoredFrom: { type: "integer", minimum: 1, description: "The version this one restored." }
		}
	},
	/** lib/notifications/templates.ts Preview. */
	TemplatePreview: {
		type: "object",
		required: ["text"],
		properties: {
			subject: { type: "string", description: "Absent for SMS and for a template without one." },
			html: { type: "string", description: "EMAIL only." },
			text: { type: "string", description: "Empty when the template has no text part." },
			locale: { type: "string", description: "The locale whose parts were rendered." }
		}
	},
	/** mixins/feature-flags.mixin.ts FeatureFlag. */
	FeatureFlag: {
		type: "object",
		required: ["featureName", "value", "updatedAt", "updatedBy"],
		properties: { featureName: { type: "string" }, value: FREE_OBJECT, updatedAt: isoTime, updatedBy: { type: "string" } }
	},
	/** services/documents.service.ts ResumeMetadata. */
	ResumeMetadata: {
		type: "object",
		required: ["documentId", "candidateId", "filename", "contentType", "size", "createdAt"],
		properties: {
			documentId: uuid,
			candidateId: { type: "string" },
			filename: { type: "string" },
			contentType: { type: "string" },
			size: { type: "integer", minimum: 0 },
			createdAt: isoTime
		}
	},
	/** services/api-gateway/types.ts HealthReport. */
	HealthReport: {
		type: "object",
		required: ["status", "checks"],
		properties: {
			status: { enum: ["ok", "unavailable"] },
			checks: { type: "object", additionalProperties: { enum: ["ok", "down", "stopping"] } }
		}
	},
	/** RFC 7517 JSON Web Key Set. */
	JWKS: {
		type: "object",
		required: ["keys"],
		properties: { keys: { type: "array", items: { type: "object", required: ["kty"], properties: { kty: { type: "string" }, kid: { type: "string" } } } } }
	},
	/** The SNS HTTP(S) message (notification, subscription confirmation, unsubscribe confirmation). */
	SnsMessage: {
		type: "object",
		description:
			"Signed by Amazon SNS: Signature covers the message's fields and is checked against the certificate at SigningCertURL, " +
			"which must be an SNS host; a message from a topic outside SNS_TOPIC_ARNS is refused.",
		required: ["Type", "MessageId", "TopicArn", "Timestamp", "SignatureVersion", "Signature", "SigningCertURL"],
		properties: {
			Type: { enum: ["Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"] },
			MessageId: { type: "string" },
			TopicArn: { type: "string" },
			Message: { type: "string" },
			Timestamp: isoTime,
			SignatureVersion: { enum: ["1", "2"] },
			Signature: { type: "string", contentEncoding: "base64" },
			SigningCertURL: { type: "string", format: "uri" },
			SubscribeURL: { type: "string", format: "uri" },
			Token: { type: "string" }
		}
	},
	/** services/inbound-webhooks.service.ts WebhookResult. */
	WebhookResult: {
		type: "object",
		required: ["outcome"],
		properties: { outcome: { enum: ["confirmed", "unsubscribed", "recorded", "duplicate", "ignored", "disabled", "unknown-message"] } }
	},
	/** lib/notifications/listing.ts ListPage: views without events, newest first. */
	NotificationPage: {
		type: "object",
		required: ["items"],
		properties: {
			items: {
				type: "array",
				items: {
					type: "object",
					required: ["notificationId", "status", "channel", "to", "priority", "category", "attempts", "createdAt", "updatedAt"],
					properties: {
						notificationId: uuid,
						status: { enum: [...STATUSES] },
						channel: { enum: [...CHANNELS] },
						to: { type: "string" },
						subject: { type: "string", description: "The subject with its variables filled in, when the notification carries its template." },
						priority: { enum: [...PRIORITIES] },
						category: { type: "string" },
						templateId: uuid,
						attempts: { type: "integer", minimum: 0 },
						providerMessageId: { type: "string" },
						sendAt: isoTime,
						createdAt: isoTime,
						updatedAt: isoTime
					}
				}
			},
			nextCursor: { type: "string", description: "Pass as `cursor` for the next page; absent on the last one." }
		}
	},
	/** lib/notifications/view.ts Timeline. */
	Timeline: {
		type: "object",
		required: ["notificationId", "status", "items"],
		properties: {
			notificationId: uuid,
			status: { enum: [...STATUSES] },
			items: {
				type: "array",
				items: {
					type: "object",
					required: ["id", "event", "occurredAt", "status"],
					properties: { id: { type: "string" }, event: { type: "string" }, occurredAt: isoTime, status: { enum: [...STATUSES] }, detail: FREE_OBJECT }
				}
			}
		}
	},
	/** lib/push/subscriptions.ts PushSubscriptionView. */
	PushSubscription: {
		type: "object",
		required: ["subscriptionId", "endpoint", "createdAt"],
		properties: { subscriptionId: uuid, endpoint: { type: "string" }, createdAt: isoTime }
	},
	PushSubscriptionList: {
		type: "object",
		required: ["items"],
		properties: { items: { type: "array", items: { $ref: "#/components/schemas/PushSubscription" } } }
	},
	/** lib/inbox InboxItem. */
	InboxItem: {
		type: "object",
		required: ["notificationId", "title", "body", "data", "createdAt"],
		properties: {
			notificationId: uuid,
			title: { type: "string", description: "The template's subject; empty when it has none." },
			body: { type: "string", description: "The template's text." },
			data: FREE_OBJECT,
			createdAt: isoTime,
			seenAt: isoTime,
			readAt: isoTime,
			archivedAt: isoTime
		}
	},
	/** lib/inbox InboxPage. */
	InboxPage: {
		type: "object",
		required: ["items"],
		properties: {
			items: { type: "array", items: { $ref: "#/components/schemas/InboxItem" } },
			nextCursor: { type: "string", description: "Pass as `cursor` for the next (older) page; absent on the last one." }
		}
	},
	/** lib/inbox InboxCounts. */
	InboxCounts: {
		type: "object",
		required: ["unread", "unseen"],
		properties: {
			unread: { type: "integer", minimum: 0, description: "Messages neither read nor archived." },
			unseen: { type: "integer", minimum: 0, description: "Messages not archived and never marked seen (reading marks seen)." }
		}
	},
	/** services/notifications/inbox.ts InboxSnapshot: what an inbox stream begins with. */
	InboxSnapshot: {
		type: "object",
		required: ["items", "counts"],
		properties: {
			items: {
				type: "array",
				description: "The messages after Last-Event-ID, oldest first (none without it).",
				items: { allOf: [{ $ref: "#/components/schemas/InboxItem" }, { type: "object", required: ["seq"], properties: { seq: { type: "string", description: "The event id." } } }] }
			},
			counts: { $ref: "#/components/schemas/InboxCounts" }
		}
	},
	VapidPublicKey: {
		type: "object",
		required: ["publicKey"],
		properties: { publicKey: { type: "string", description: "The VAPID public key (base64url), for pushManager.subscribe()." } }
	},
	/** lib/outbound/endpoints.ts EndpointView. */
	WebhookEndpoint: {
		type: "object",
		required: ["endpointId", "url", "events", "createdAt"],
		properties: { endpointId: uuid, url: { type: "string" }, events: { type: "array", items: { type: "string" } }, createdAt: isoTime }
	},
	WebhookEndpointCreated: {
		allOf: [
			{ $ref: "#/components/schemas/WebhookEndpoint" },
			{ type: "object", required: ["secret"], properties: { secret: { type: "string", pattern: "^whsec_", description: "The signing secret, shown only here." } } }
		]
	},
	WebhookEndpointList: {
		type: "object",
		required: ["items"],
		properties: { items: { type: "array", items: { $ref: "#/components/schemas/WebhookEndpoint" } } }
	},
	AdminWebhookEndpointList: {
		type: "object",
		required: ["items"],
		properties: {
			items: {
				type: "array",
				items: {
					allOf: [
						{ $ref: "#/components/schemas/WebhookEndpoint" },
						{
							type: "object",
							required: ["owner", "recentAttempts"],
							properties: {
								owner: { type: "object", required: ["kind", "id"], properties: { kind: { enum: ["user", "service"] }, id: { type: "string" } } },
								recentAttempts: {
									type: "array",
									items: {
										type: "object",
										required: ["webhookId", "type", "at", "outcome"],
										properties: {
											webhookId: { type: "string" },
											type: { type: "string" },
											at: isoTime,
											outcome: { enum: ["succeeded", "failed"] },
											responseCode: { type: "integer" },
											error: { type: "string" }
										}
									}
								}
							}
						}
					]
				}
			}
		}
	},
	/** lib/unsubscribe/records.ts Preference. */
	Preferences: {
		type: "object",
		required: ["items"],
		properties: {
			items: {
				type: "array",
				items: {
					type: "object",
					required: ["channel", "category", "enabled"],
					properties: { channel: { enum: [...CHANNELS] }, category: { type: "string" }, enabled: { type: "boolean" } }
				}
			},
			timeZone: { type: "string", description: "IANA time zone of the quiet hours, such as Europe/Vienna." },
			quietHours: {
				type: "object",
				required: ["start", "end"],
				description: "Local HH:MM; may wrap midnight. A non-CRITICAL notification due inside them waits until they end.",
				properties: { start: { type: "string", pattern: "^([01]\\d|2[0-3]):[0-5]\\d$" }, end: { type: "string", pattern: "^([01]\\d|2[0-3]):[0-5]\\d$" } }
			}
		}
	},
	/** lib/notifications/suppressions.ts SuppressionView. */
	SuppressionList: {
		type: "object",
		required: ["items"],
		properties: {
			items: {
				type: "array",
				items: {
					type: "object",
					required: ["channel", "address", "reason", "createdAt"],
					properties: { channel: { enum: [...CHANNELS] }, address: { type: "string" }, reason: { type: "string" }, createdAt: isoTime }
				}
			}
		}
	},
	/** lib/outbox/index.ts OutboxPage. */
	OutboxPage: {
		type: "object",
		required: ["items"],
		properties: {
			items: { type: "array", items: { $ref: "#/components/schemas/OutboxSummary" } },
			nextCursor: { type: "string", description: "Pass as `cursor` for the next page; absent on the last one." }
		}
	},
	/** lib/outbox/index.ts OutboxSummary. */
	OutboxSummary: {
		type: "object",
		required: ["id", "channel", "notificationId", "to", "preview", "createdAt"],
		properties: {
			id: { type: "string", description: "The channel and the file's name: `email.<notificationId>.<sendId>`; `in-app.<notificationId>` for an in-app message." },
			channel: { type: "string", description: "EMAIL, SMS, PUSH, IN_APP, or another channel's name." },
			notificationId: { type: "string" },
			to: { type: "string" },
			subject: { type: "string", description: "The email's subject or the push message's title." },
			preview: { type: "string", description: "The start of the text, on one line." },
			createdAt: isoTime
		}
	},
	/** lib/outbox/index.ts OutboxMessage. */
	OutboxMessage: {
		allOf: [
			{ $ref: "#/components/schemas/OutboxSummary" },
			{
				type: "object",
				properties: {
					from: { type: ["string", "null"], description: "EMAIL and SMS: the sender." },
					headers: {
						type: "array",
						description: "EMAIL: every header in order, encoded words decoded.",
						items: { type: "object", required: ["name", "value"], properties: { name: { type: "string" }, value: { type: "string" } } }
					},
					text: { type: "string", description: "EMAIL: the text part, decoded; SMS: the message." },
					html: { type: "string", description: "EMAIL: the HTML part, decoded." },
					payload: { description: "PUSH: the payload sent to the push service." },
					actorId: { type: "string", description: "IN_APP: the recipient actor (also in `to`)." },
					title: { type: "string", description: "IN_APP: the message's title (also in `subject` when not empty)." },
					body: { type: "string", description: "IN_APP: the message's text." },
					data: { type: "object", additionalProperties: true, description: "IN_APP: the notification's data." },
					state: { enum: ["unread", "read", "archived"], description: "IN_APP: where the recipient left it." }
				}
			}
		]
	},
	/** lib/unsubscribe/records.ts UnsubscribeView. */
	UnsubscribeList: {
		type: "object",
		required: ["items"],
		properties: {
			items: {
				type: "array",
				items: {
					type: "object",
					required: ["channel", "address", "category", "createdAt"],
					properties: { channel: { enum: [...CHANNELS] }, address: { type: "string" }, category: { type: "string" }, createdAt: isoTime }
				}
			}
		}
	},
	/** services/notifications/preferences.service.ts unsubscribe's JSON answer. */
	UnsubscribeResult: {
		type: "object",
		required: ["unsubscribed", "channel", "address", "category", "createdAt"],
		properties: { unsubscribed: { const: true }, channel: { enum: [...CHANNELS] }, address: { type: "string" }, category: { type: "string" }, createdAt: isoTime }
	},
	/** lib/idp/types.ts ServiceAccount. */
	ServiceAccount: {
		type: "object",
		required: ["serviceId", "username", "createdAt"],
		properties: { serviceId: { type: "string" }, username: { type: "string" }, createdAt: isoTime }
	},
	ServiceAccountCreated: {
		allOf: [
			{ $ref: "#/components/schemas/ServiceAccount" },
			{ type: "object", required: ["password"], properties: { password: { type: "string", description: "Shown only here." } } }
		]
	},
	ServiceAccountList: {
		type: "object",
		required: ["items"],
		properties: { items: { type: "array", items: { $ref: "#/components/schemas/ServiceAccount" } } }
	},
	/** OpenID Connect Discovery 1.0 provider metadata, as the embedded provider publishes it. */
	OpenIdConfiguration: {
		type: "object",
		required: ["issuer", "jwks_uri", "id_token_signing_alg_values_supported"],
		properties: {
			issuer: { type: "string", format: "uri" },
			jwks_uri: { type: "string", format: "uri" },
			id_token_signing_alg_values_supported: { type: "array", items: { type: "string" } },
			subject_types_supported: { type: "array", items: { type: "string" } },
			claims_supported: { type: "array", items: { type: "string" } }
		}
	},
	RotatedKey: { type: "object", required: ["kid"], properties: { kid: { type: "string" } } },
	EmailVerified: { type: "object", required: ["emailVerified"], properties: { emailVerified: { const: true } } },
	/** lib/account-data/export.ts exportAccount(). */
	AccountExport: {
		type: "object",
		required: ["exportedAt", "profile", "sessions", "factors", "audit", "notifications", "inbox", "preferences", "pushSubscriptions", "documents"],
		properties: {
			exportedAt: isoTime,
			profile: {
				type: "object",
				required: ["actorId", "email", "emailVerified", "emailDeliverable", "firstName", "lastName", "createdAt"],
				properties: {
					actorId: uuid,
					email: { type: "string" },
					emailVerified: { type: "boolean" },
					emailDeliverable: { type: "boolean" },
					firstName: { type: "string" },
					lastName: { type: "string" },
					locale: { type: "string" },
					createdAt: isoTime,
					updatedAt: isoTime
				}
			},
			sessions: {
				type: "array",
				description: "Live sessions, with the device (`userAgent`) and address (`ip`) GET /auth/sessions shows for each.",
				items: {
					type: "object",
					properties: {
						sessionId: { type: "string" },
						createdAt: isoTime,
						lastUsedAt: isoTime,
						expiresAt: isoTime,
						amr: { type: "array", items: { type: "string" } },
						userAgent: { type: ["string", "null"] },
						ip: { type: ["string", "null"] }
					}
				}
			},
			factors: {
				type: "array",
				description: "Second factors: never a seed, key or code.",
				items: { type: "object", properties: { factorId: { type: "string" }, type: { type: "string" }, name: { type: "string" }, status: { type: "string" }, createdAt: isoTime, confirmedAt: isoTime } }
			},
			audit: exportPage("The audit timeline, newest first.", {
				eventId: { type: "string" },
				type: { type: "string" },
				occurredAt: isoTime,
				ip: { type: ["string", "null"] },
				userAgent: { type: ["string", "null"] },
				sessionId: { type: ["string", "null"] },
				detail: { type: "object", additionalProperties: { type: "string" } }
			}),
			notifications: exportPage("Notifications to the user's addresses (the email, and the actor id for PUSH and IN_APP), without their variables, newest first.", {
				notificationId: { type: "string" },
				channel: { type: "string" },
				to: { type: "string" },
				status: { type: "string" },
				priority: { type: "string" },
				category: { type: "string" },
				createdAt: isoTime,
				updatedAt: isoTime,
				sendAt: isoTime
			}),
			inbox: exportPage("The in-app inbox, newest first.", {
				notificationId: { type: "string" },
				state: { type: "string" },
				title: { type: "string" },
				body: { type: "string" },
				data: { type: "object", additionalProperties: true },
				createdAt: isoTime,
				seenAt: isoTime,
				readAt: isoTime,
				archivedAt: isoTime
			}),
			preferences: {
				type: "object",
				properties: {
					items: {
						type: "array",
						items: { type: "object", properties: { channel: { enum: [...CHANNELS] }, category: { type: "string" }, enabled: { type: "boolean" } } }
					},
					timeZone: { type: "string" },
					quietHours: { type: "object", properties: { start: { type: "string" }, end: { type: "string" } } }
				}
			},
			pushSubscriptions: {
				type: "array",
				description: "Endpoints, no keys.",
				items: { type: "object", properties: { subscriptionId: { type: "string" }, endpoint: { type: "string" }, createdAt: isoTime } }
			},
			documents: {
				type: "array",
				items: { type: "object", properties: { documentId: { type: "string" }, filename: { type: "string" }, contentType: { type: "string" }, size: { type: "integer" }, createdAt: isoTime } }
			}
		}
	},
	/** lib/mfa/index.ts list(). */
	MfaFactors: {
		type: "object",
		required: ["items", "recoveryCodesLeft"],
		properties: {
			items: { type: "array", items: { $ref: "#/components/schemas/MfaFactor" } },
			recoveryCodesLeft: { type: "integer", minimum: 0 }
		}
	},
	MfaFactor: {
		type: "object",
		required: ["factorId", "type", "name", "createdAt", "lastUsedAt"],
		properties: {
			factorId: uuid,
			type: { enum: ["totp", "webauthn"] },
			name: { type: "string" },
			createdAt: isoTime,
			lastUsedAt: { anyOf: [isoTime, { type: "null" }] }
		}
	},
	/** lib/mfa/index.ts enrolTotp(). */
	TotpEnrolment: {
		type: "object",
		required: ["factorId", "secret", "otpauthUri"],
		properties: {
			factorId: uuid,
			secret: { type: "string", description: "The base32 seed, for typing into an app; shown once." },
			otpauthUri: { type: "string", description: "otpauth://totp/… (SHA1, 6 digits, 30 s): show it as a QR code." }
		}
	},
	/** lib/mfa/index.ts confirmTotp(). */
	TotpConfirmed: {
		type: "object",
		required: ["factorId"],
		properties: {
			factorId: uuid,
			recoveryCodes: { type: "array", items: { type: "string" }, description: "With the first factor only: 10 single-use codes, shown once." }
		}
	},
	/** lib/mfa/index.ts regenerateRecoveryCodes(). */
	RecoveryCodes: { type: "object", required: ["codes"], properties: { codes: { type: "array", items: { type: "string" } } } },
	/** lib/mfa/passkeys.ts registrationOptions(): @simplewebauthn/server's PublicKeyCredentialCreationOptionsJSON. */
	PasskeyCreationOptions: {
		type: "object",
		required: ["challenge", "rp", "user", "pubKeyCredParams", "authenticatorSelection"],
		description: "WebAuthn PublicKeyCredentialCreationOptionsJSON: hand it to PublicKeyCredential.parseCreationOptionsFromJSON() and navigator.credentials.create().",
		properties: {
			challenge: { type: "string", description: "base64url; single use, 5 minutes." },
			rp: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
			user: { type: "object", properties: { id: { type: "string" }, name: { type: "string" }, displayName: { type: "string" } } },
			pubKeyCredParams: { type: "array", items: { type: "object", properties: { alg: { type: "integer" }, type: { enum: ["public-key"] } } } },
			timeout: { type: "integer" },
			attestation: { type: "string" },
			excludeCredentials: { type: "array", items: CREDENTIAL_DESCRIPTOR, description: "The user's passkeys already registered." },
			authenticatorSelection: {
				type: "object",
				description: "residentKey and userVerification `required`.",
				properties: { residentKey: { type: "string" }, requireResidentKey: { type: "boolean" }, userVerification: { type: "string" }, authenticatorAttachment: { type: "string" } }
			},
			extensions: FREE_OBJECT,
			hints: { type: "array", items: { type: "string" } }
		}
	},
	/** lib/mfa/passkeys.ts authenticationOptions() and mfaOptions(). */
	PasskeyRequestOptions: {
		type: "object",
		required: ["challenge"],
		description: "WebAuthn PublicKeyCredentialRequestOptionsJSON: hand it to PublicKeyCredential.parseRequestOptionsFromJSON() and navigator.credentials.get().",
		properties: {
			challenge: { type: "string", description: "base64url; single use, 5 minutes." },
			rpId: { type: "string" },
			timeout: { type: "integer" },
			userVerification: { enum: ["required"] },
			allowCredentials: { type: "array", items: CREDENTIAL_DESCRIPTOR, description: "As a second factor: the user's passkeys." },
			extensions: FREE_OBJECT,
			hints: { type: "array", items: { type: "string" } },
			challengeId: { type: "string", format: "uuid", description: "Passwordless sign-in: send it back with the response." }
		}
	},
	/** lib/mfa/index.ts registerPasskey(). */
	PasskeyRegistered: { type: "object", required: ["factorId"], properties: { factorId: uuid } },
	OpenApiDocument: { ...FREE_OBJECT, description: "This document." }
} satisfies Record<string, JsonSchema>;
