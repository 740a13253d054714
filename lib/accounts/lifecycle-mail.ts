/**
 * The account lifecycle's mails go through the platform's own notification queue, as
 * CRITICAL notifications of category `security`, so they get its retries, timeline and
 * delivery webhooks.
 *
 * The link's token is minted by the dispatcher for each send attempt
 * (registerAccountMail), never at request time: the stored notification names only
 * the purpose and the user, so neither the record, its variables, its events nor a
 * log line ever holds a usable token. A retried send mails a fresh token; every
 * earlier one stays valid until used or expired (a reset spends them all).
 *
 * Administrators override a mail by creating a template under its well-known name
 * (TEMPLATE_NAMES); only administrators may use those names (registerAccountMail
 * reserves them with notifications).
 */
import type { AccountConfig, Config } from "../config";
import type { TemplateParts, Variables } from "../delivery";
import { newestTemplateNamed, type NotificationExtensions, type NotificationIntake, type SendTimeRef } from "../notifications";
import type { Store } from "../store";
import { LifecycleTokens, NOT_ME_PURPOSE, type LifecyclePurpose, type LifecycleSubject } from "./lifecycle-tokens";
import { OneTimeCodes, OTP_PURPOSE, OTP_TEMPLATE_NAME } from "./otp";

/** Well-known template names an administrator overrides the platform's mails with. */
export const TEMPLATE_NAMES: Record<LifecyclePurpose, string> = {
	"verify-email": "auth.verify-email",
	"reset-password": "auth.reset-password",
	"change-email": "auth.change-email"
};

/** A "not me" link is valid this long (contract: 7 days). */
export const NOT_ME_TTL_SECONDS = 7 * 86_400;
/** The security alerts' mail (lib/accounts/security-alerts.ts), overridable by an administrator like the others. */
export const ALERT_TEMPLATE_NAME = "auth.security-alert";

/** The variable filled at send time: the link with the token in its fragment. */
export const LINK_VARIABLE = "link";
/** A one-time code's mail also gets its code at send time (lib/accounts/otp.ts). */
export const CODE_VARIABLE = "code";

/** The platform's own mails; the text part carries the link verbatim. */
export const BUILT_IN_TEMPLATES: Record<LifecyclePurpose, TemplateParts> = {
	"verify-email": {
		subject: "Verify your email address",
		text:
			"Please confirm that {{email}} is your email address by opening this link within 24 hours:\n\n{{link}}\n\n" +
			"If you did not create an account, you can ignore this message.\n",
		html:
			"<p>Please confirm that {{email}} is your email address by opening this link within 24 hours:</p>" +
			'<p><a href="{{link}}">Verify my email address</a></p>' +
			"<p>If you did not create an account, you can ignore this message.</p>"
	},
	"reset-password": {
		subject: "Reset your password",
		text:
			"Someone asked to reset the password of the account {{email}}. To choose a new password, open this link within 30 minutes:\n\n{{link}}\n\n" +
			"If you did not ask for this, you can ignore this message: your password stays as it is.\n",
		html:
			"<p>Someone asked to reset the password of the account {{email}}. To choose a new password, open this link within 30 minutes:</p>" +
			'<p><a href="{{link}}">Choose a new password</a></p>' +
			"<p>If you did not ask for this, you can ignore this message: your password stays as it is.</p>"
	},
	"change-email": {
		subject: "Confirm your new email address",
		text:
			"Someone asked to make {{email}} the email address of their account. To confirm it, open this link within 24 hours:\n\n{{link}}\n\n" +
			"Until then the account keeps its current address. If you did not ask for this, you can ignore this message.\n",
		html:
			"<p>Someone asked to make {{email}} the email address of their account. To confirm it, open this link within 24 hours:</p>" +
			'<p><a href="{{link}}">Confirm my new email address</a></p>' +
			"<p>Until then the account keeps its current address. If you did not ask for this, you can ignore this message.</p>"
	}
};

/** What the notification record keeps about a lifecycle mail: who and why, no token. */
export interface LifecycleRef extends LifecycleSubject {
	purpose: LifecyclePurpose;
}

export interface LifecycleMailDeps {
	store: Store;
	intake: NotificationIntake;
	warn(message: string, fields: Record<string, unknown>): void;
}


/**
 * Queues the mail (durable when this resolves) and answers its notification id. An
 * administrator's template that cannot be used for this user (it needs a variable the
 * user lacks) gives way to the built-in one: the mail must go out.
 */
export async function queueLifecycleMail(deps: LifecycleMailDeps, ref: LifecycleRef, names: { firstName?: string; lastName?: string }): Promise<string> {
	const variables: Variables = { email: ref.email, ...(names.firstName ? { firstName: names.firstName } : {}), ...(names.lastName ? { lastName: names.lastName } : {}) };
	const base = {
		channel: "EMAIL" as const,
		to: ref.email,
		priority: "CRITICAL" as const,
		variables,
		metadata: { category: "security", purpose: ref.purpose },
		lifecycle: ref
	};
	const creator = { kind: "service" as const, id: "auth" };
	const override = await newestTemplateNamed(deps.store, TEMPLATE_NAMES[ref.purpose]);
	if (override) {
		try {
			return (await deps.intake.accept({ ...base, templateId: override.id }, creator)).notificationId;
		} catch (err) {
			deps.warn("The administrator's lifecycle template cannot be used for this mail; the built-in one is sent", {
				template: TEMPLATE_NAMES[ref.purpose],
				code: (err as { type?: string }).type ?? (err as Error).message
			});
		}
	}
	return (await deps.intake.accept({ ...base, template: BUILT_IN_TEMPLATES[ref.purpose] }, creator)).notificationId;
}

/** The UI address the link opens, the token in the fragment (never sent to a server, never in a Referer). */
export function lifecycleLink(uiBaseUrl: string, accounts: AccountConfig, purpose: LifecyclePurpose, token: string): string {
	// A new address is confirmed on the verification page: POST /auth/email/verify takes both kinds of token.
	const path = purpose === "reset-password" ? accounts.resetPasswordPath : accounts.verifyEmailPath;
	return `${uiBaseUrl}${path}#token=${token}`;
}

/**
 * Plugs the account mails into notifications (lib/runtime.ts calls it once per
 * process, whichever services it runs): a dispatcher gives a lifecycle notification a
 * freshly minted token's link at each send, and only administrators may use the mails'
 * template names (they would be mailed with secret links).
 */
export function registerAccountMail(extensions: NotificationExtensions, store: () => Store, config: Pick<Config, "uiBaseUrl" | "accounts">, otp?: () => OneTimeCodes): void {
	const { uiBaseUrl, accounts } = config;
	let tokens: LifecycleTokens | undefined;
	extensions.resolveAtSendTime([LINK_VARIABLE, CODE_VARIABLE], async (ref: SendTimeRef, n) => {
		if (ref.purpose === OTP_PURPOSE) {
			// A code a resend replaced (or a verified challenge) opens nothing: the mail says so.
			const minted = ref.challengeId && otp ? await otp().mintAtSendTime(ref.challengeId, n.id, n.channel, ref) : null;
			if (!minted) return { [CODE_VARIABLE]: "(replaced by a newer code)", [LINK_VARIABLE]: uiBaseUrl };
			return { [CODE_VARIABLE]: minted.code, [LINK_VARIABLE]: `${uiBaseUrl}${accounts.magicLinkPath}#token=${minted.token}` };
		}
		tokens ??= new LifecycleTokens(store());
		// A security alert (lib/accounts/security-alerts.ts): its "not me" link.
		if (ref.purpose === NOT_ME_PURPOSE) {
			const token = await tokens.mint(NOT_ME_PURPOSE, { sub: ref.sub, username: ref.username, email: ref.email }, NOT_ME_TTL_SECONDS, n.id);
			return { [LINK_VARIABLE]: `${uiBaseUrl}${accounts.notMePath}#token=${token}` };
		}
		const purpose = ref.purpose as LifecyclePurpose;
		const ttl = purpose === "reset-password" ? accounts.resetTtl : accounts.verificationTtl;
		tokens ??= new LifecycleTokens(store());
		const token = await tokens.mint(purpose, { sub: ref.sub, username: ref.username, email: ref.email }, ttl, n.id);
		return { [LINK_VARIABLE]: lifecycleLink(uiBaseUrl, accounts, purpose, token) };
	});
	extensions.reserveTemplateNames([...Object.values(TEMPLATE_NAMES), OTP_TEMPLATE_NAME, ALERT_TEMPLATE_NAME], caller => caller.kind === "user" && caller.isAdmin);
}
