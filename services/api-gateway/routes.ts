/**
 * Every route the gateway serves, with each alias's policy declared beside it:
 * body kind, rate-limit bucket, caching, where parameters may come from, how failures
 * answer. moleculer-web's routes[] are built from this table, and the hooks read the
 * matched alias's policy, so adding a rate-limited route is one entry here (plus its
 * limits in lib/config.ts when it counts in a new bucket).
 */
import { MAX_RESUME_BYTES, UPLOAD_DEADLINE_MS } from "../../lib/resume";
import type { AliasPolicy } from "./types";
import type { RouteDeclaration } from "./build-routes";

export { buildRoutes, type AliasDeclaration, type GatewayRoute, type RouteDeclaration } from "./build-routes";

/** Like the /auth route's: tokens and passwords never in a URL, answers never cached. */
const OWN_ACCOUNT: AliasPolicy = { noStore: true, bodyParamsOnly: true };

export const ROUTES: readonly RouteDeclaration[] = [
	{ path: "/health", body: "none", authentication: false, aliases: { "GET live": "api.live", "GET ready": "api.ready" } },
	{ path: "/.well-known", body: "none", authentication: false, aliases: { "GET jwks.json": "auth.jwks" } },
	// The API's own description and its reference page (docs.ts).
	{ path: "/openapi.json", body: "none", authentication: false, aliases: { "GET /": "api.openapi" } },
	{ path: "/docs", body: "none", authentication: false, aliases: { "GET /": "api.docs", "GET :file": "api.docsAsset" } },
	// The administrators' console (console.ts): its page and files need no token; what it shows comes from the admin routes.
	{ path: "/console", body: "none", authentication: false, aliases: { "GET /": "api.console", "GET :file": "api.consoleAsset" } },
	// The account pages mails link to when no web app is configured (ui-pages.ts); the token is in the fragment, never in a request.
	{ path: "/ui", body: "none", authentication: false, aliases: { "GET :page": "api.uiPage", "GET auth/callback": "api.uiCallback" } },
	{
		// The embedded provider's issuers, discovered the way resource servers discover a Cognito pool.
		path: "/idp",
		body: "none",
		authentication: false,
		aliases: {
			"GET :pool/.well-known/openid-configuration": "auth.openidConfiguration",
			"GET :pool/.well-known/jwks.json": "auth.issuerJwks"
		}
	},
	{
		path: "/admin/keys",
		body: "json",
		authentication: true,
		aliases: { "POST rotate": { action: "auth.rotateKeys", bodyless: true } }
	},
	{
		// Passwords and tokens travel here: never in a URL, never kept by a cache.
		path: "/auth",
		body: "json",
		authentication: false,
		policy: { noStore: true, bodyParamsOnly: true },
		aliases: {
			"POST login": { action: "auth.login", rateLimit: { bucket: "login", userField: "username" }, origin: true },
			"POST register": { action: "auth.register", rateLimit: { bucket: "register", userField: "email" }, origin: true },
			"POST tokens/refresh": { action: "auth.refresh", rateLimit: { bucket: "refresh" } },
			"POST refresh-user-token": { action: "auth.refresh", rateLimit: { bucket: "refresh" } },
			"POST tokens/exchange": { action: "auth.exchange", rateLimit: { bucket: "exchange" }, origin: true },
			"POST email/verify": { action: "auth.verifyEmail", rateLimit: { bucket: "redeem" }, origin: true },
			"POST password/forgot": { action: "auth.forgotPassword", rateLimit: { bucket: "forgot", userField: "email" } },
			"POST password/reset": { action: "auth.resetPassword", rateLimit: { bucket: "redeem" }, origin: true },
			"POST logout": { action: "auth.logout", origin: true },
			// A security alert's "not me" link: single-use tokens, counted like the other links.
			"POST security/not-me": { action: "auth.notMe", rateLimit: { bucket: "redeem" }, origin: true },
			// The second step of a sign-in: the mfaToken's own tries bound guesses, the account's login limit too.
			"POST mfa/verify": { action: "auth.mfaVerify", rateLimit: { bucket: "redeem" }, origin: true },
			"POST mfa/challenge": { action: "auth.mfaChallenge", rateLimit: { bucket: "redeem" } },
			// Passwordless sign-in: each assertion is checked against a single-use challenge; the login limits bound the asking.
			"POST passkeys/authentication/options": { action: "auth.passkeySignInOptions", rateLimit: { bucket: "login", userField: "username" } },
			"POST passkeys/authentication": { action: "auth.passkeySignIn", rateLimit: { bucket: "login" }, origin: true },
			// One-time codes: the challenge's own tries bound guesses, the limiter the requests.
			"POST otp": { action: "auth.otpStart", rateLimit: { bucket: "forgot", userField: "email" } },
			"POST otp/verify": { action: "auth.otpVerify", rateLimit: { bucket: "redeem" }, origin: true },
			"GET otp/:challengeId": { action: "auth.otpStatus", rateLimit: { bucket: "redeem" } },
			"POST otp/:challengeId/resend": { action: "auth.otpResend", rateLimit: { bucket: "forgot" } },
			"POST services/token": { action: "auth.serviceToken", rateLimit: { bucket: "service", userField: "username" } }
		}
	},
	{
		path: "/admin/service-accounts",
		body: "json",
		authentication: true,
		policy: { noStore: true },
		aliases: {
			"POST /": "auth.createServiceAccount",
			"GET /": "auth.listServiceAccounts",
			"DELETE /:serviceId": "auth.deleteServiceAccount"
		}
	},
	{
		path: "/auth/social",
		body: "none",
		authentication: false,
		policy: { noStore: true },
		aliases: {
			"GET login": "auth.socialLogin",
			"GET login/callback": { action: "auth.socialCallback", bindingCookie: true, failure: "ui-redirect" }
		}
	},
	{
		// RFC 8058 one-click unsubscribe: mail clients post without a token; the link is signed.
		path: "/unsubscribe",
		body: "one-click",
		authentication: false,
		policy: { noStore: true },
		aliases: { "GET /:token": "preferences.unsubscribePage", "POST /:token": "preferences.unsubscribe" }
	},
	{
		path: "/notifications/webhooks",
		body: "sns",
		authentication: false,
		aliases: { "POST email-provider": "webhooks.emailProvider", "POST sms-provider": "webhooks.smsProvider" }
	},
	{ path: "/notifications/push", body: "none", authentication: false, aliases: { "GET vapid-public-key": "notifications.vapidPublicKey" } },
	{
		path: "/resumes",
		body: "multipart",
		authentication: true,
		aliases: { "POST /": "documents.upload" },
		options: {
			busboyConfig: {
				// empty: fields without a file still reach the action, which answers 400.
				empty: true,
				limits: {
					files: 1,
					fields: 8,
					parts: 16,
					fieldSize: 1024,
					headerPairs: 32,
					// The documents service enforces the contract's 10 MiB itself and answers only
					// after removing what it wrote. This bound only caps what a remote consumer
					// can be sent; the margin keeps it from ever cutting in first.
					fileSize: MAX_RESUME_BYTES + 1024 * 1024
				}
			},
			// The deadline inside the upload fires first, so the gateway always hears its outcome.
			callOptions: { timeout: UPLOAD_DEADLINE_MS + 15_000 }
		}
	},
	{
		path: "/admin/features",
		body: "flag",
		authentication: true,
		aliases: { "GET /": "features.list", "GET /:featureName": "features.get", "PUT /:featureName": "features.set" }
	},
	{
		path: "/webhook-endpoints",
		body: "json",
		authentication: true,
		// The create answer carries the endpoint's signing secret.
		policy: { noStore: true },
		aliases: { "POST /": "outbound.createEndpoint", "GET /": "outbound.listEndpoints", "DELETE /:endpointId": "outbound.deleteEndpoint" }
	},
	{
		// Reads take no body: no parser, no body checks on the busiest aliases.
		path: "",
		body: "none",
		authentication: true,
		aliases: {
			"GET actors/:id": "actors.get",
			"GET actor": "actors.find",
			"GET actors/:id/preferences": "preferences.getPreferences",
			"GET admin/suppressions": "preferences.listSuppressions",
			"GET admin/unsubscribes": "preferences.listUnsubscribes",
			"GET admin/stats": { action: "stats.overview", noStore: true },
			"GET admin/providers": { action: "stats.providers", noStore: true },
			"GET admin/users": { action: "auth.listUsers", noStore: true },
			"GET admin/users/:actorId": { action: "auth.getUser", noStore: true },
			"GET admin/webhook-endpoints": "outbound.listAllEndpoints",
			// The dev inbox: messages hold tokens (verification, reset links), never cached.
			"GET admin/outbox": { action: "dispatcher.listOutbox", noStore: true },
			"GET admin/outbox/:id": { action: "dispatcher.getOutbox", noStore: true },
			"GET actors/:id/push-subscriptions": "notifications.listPushSubscriptions",
			"GET actors/:id/inbox": "notifications.listInbox",
			"GET actors/:id/inbox/count": "notifications.inboxCount",
			"GET actors/:id/inbox/stream": { action: "notifications.inboxStream", stream: "inbox" },
			"GET resumes/:id": "documents.get",
			"GET resumes/:id/content": "documents.content",
			"GET notifications": "notifications.list",
			"GET notifications/:notificationId": "notifications.get",
			"GET notifications/:notificationId/events": { action: "notifications.events", stream: "sse" },
			"GET templates": "notifications.listTemplates",
			"GET templates/:id": "notifications.getTemplate",
			"GET templates/:id/versions": "notifications.templateVersions",
			"GET auth/mfa/factors": { action: "auth.mfaFactors", noStore: true },
			// The signed-in user's account and sessions (services/auth/sessions.ts).
			"GET auth/me": { action: "auth.me", noStore: true },
			"GET auth/sessions": { action: "auth.listSessions", noStore: true },
			// The user's own security events (never another's: the token names whose), and the administrators' search.
			"GET auth/audit": { action: "auth.auditList", noStore: true },
			"GET admin/audit": { action: "auth.adminAudit", noStore: true, stream: "ndjson" },
			"GET auth/account/export": { action: "auth.exportAccount", noStore: true, origin: true }
		}
	},
	{
		path: "",
		body: "json",
		authentication: true,
		aliases: {
			// The signed-in user's own account (these live here rather than beside /auth, which
			// needs no token): the token names the user, the body holds passwords.
			"POST auth/email/verification": { action: "auth.requestVerification", ...OWN_ACCOUNT, bodyless: true, rateLimit: { bucket: "verification" } },
			"POST auth/password/change": { action: "auth.changePassword", ...OWN_ACCOUNT, rateLimit: { bucket: "login" }, origin: true },
			"POST auth/logout/all": { action: "auth.logoutAll", ...OWN_ACCOUNT, bodyless: true, origin: true },
			// Account data (services/auth/account-data.ts): the new address is counted as a verification mail.
			"POST auth/email/change": { action: "auth.changeEmail", ...OWN_ACCOUNT, rateLimit: { bucket: "verification" }, origin: true },
			"DELETE auth/account": { action: "auth.deleteAccount", noStore: true, origin: true },
			"DELETE admin/users/:actorId": { action: "auth.adminDeleteUser", origin: true },
			"DELETE auth/sessions/:sessionId": { action: "auth.revokeSession", noStore: true, origin: true },
			"DELETE auth/sessions": { action: "auth.revokeOtherSessions", noStore: true, origin: true },
			"DELETE admin/users/:actorId/sessions": { action: "auth.adminEndSessions", origin: true },
			// Second factors: the enrolment routes also take an enrolment mfaToken (MFA_ENFORCE) as the Bearer token.
			"POST auth/mfa/totp": { action: "auth.enrolTotp", ...OWN_ACCOUNT, bodyless: true, enrolmentBearer: true, origin: true },
			"POST auth/mfa/totp/:factorId/confirm": { action: "auth.confirmTotp", ...OWN_ACCOUNT, enrolmentBearer: true, origin: true },
			"POST auth/passkeys/registration/options": { action: "auth.passkeyRegistrationOptions", ...OWN_ACCOUNT, bodyless: true, enrolmentBearer: true },
			"POST auth/passkeys/registration": { action: "auth.registerPasskey", ...OWN_ACCOUNT, enrolmentBearer: true, origin: true },
			// The account's phone number: a code by SMS proves it (step-up to set one).
			"PUT auth/phone": { action: "auth.setPhone", ...OWN_ACCOUNT, origin: true, rateLimit: { bucket: "verification" } },
			"POST auth/phone/verify": { action: "auth.verifyPhone", ...OWN_ACCOUNT, origin: true, rateLimit: { bucket: "redeem" } },
			"POST auth/mfa/recovery-codes": { action: "auth.regenerateRecoveryCodes", ...OWN_ACCOUNT, bodyless: true, origin: true },
			"DELETE auth/mfa/factors/:factorId": { action: "auth.removeFactor", noStore: true, origin: true },
			"DELETE admin/users/:actorId/mfa": { action: "auth.adminRemoveMfa", origin: true },
			"PUT actors/:id/preferences": "preferences.putPreferences",
			"DELETE admin/suppressions/:channel/:address": "preferences.removeSuppression",
			"POST admin/users/:actorId/lock": { action: "auth.lockUser", bodyless: true, origin: true },
			"POST admin/users/:actorId/unlock": { action: "auth.unlockUser", bodyless: true, origin: true },
			"DELETE admin/unsubscribes/:channel/:address/:category": "preferences.removeUnsubscribe",
			"POST actors/:id/push-subscriptions": "notifications.addPushSubscription",
			"DELETE actors/:id/push-subscriptions/:subscriptionId": "notifications.deletePushSubscription",
			"PATCH actors/:id/inbox/:notificationId": "notifications.markInbox",
			"POST actors/:id/inbox/read-all": { action: "notifications.readAllInbox", bodyless: true },
			"POST notifications": { action: "notifications.create", idempotencyKey: true },
			"DELETE notifications/:notificationId": "notifications.cancel",
			"POST templates": "notifications.createTemplate",
			"PUT templates/:id": "notifications.updateTemplate",
			"POST templates/:id/versions/:version/restore": { action: "notifications.restoreTemplateVersion", bodyless: true },
			"POST templates/:id/preview": "notifications.previewTemplate",
			"PATCH actors/:id": "actors.update"
		}
	}
];
