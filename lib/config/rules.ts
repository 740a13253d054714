/**
 * The rules between variables: a variable required by another's value, pairs set
 * together, values that must agree. Part of the configuration schema; the reference
 * lists each rule's text.
 */
import { SENDER_ADDRESS } from "../email-address";
import { vapidKeysMatch } from "./fields";
import { emailProviders, smsProviders, type Values, type VariableName } from "./variables";

export interface RuleProblem {
	variable: VariableName;
	problem: string;
	hint: string;
}

/** A rule between variables. It runs only when each of its inputs parsed, and sees only those. */
export interface Rule {
	readonly inputs: readonly VariableName[];
	/** The rule in a sentence of Markdown, as the reference lists it. */
	readonly text: string;
	check(values: Values, isSet: (name: VariableName) => boolean): RuleProblem[];
}

function rule<const K extends VariableName>(
	inputs: readonly K[],
	text: string,
	check: (values: Pick<Values, K>, isSet: (name: K) => boolean) => (RuleProblem | false | undefined)[]
): Rule {
	return { inputs, text, check: (values, isSet) => check(values, isSet).filter((p): p is RuleProblem => !!p) };
}

const COGNITO_COMPANIONS = ["IDP_ACTOR_CLIENT_ID", "IDP_SERVICE_POOL_ID", "IDP_SERVICE_CLIENT_ID", "IDP_SERVICE_ACCOUNT_USERNAME", "IDP_SERVICE_ACCOUNT_PASSWORD"] as const;
const EXPLICIT_ENDPOINTS = ["SOCIAL_OAUTH2_AUTHORIZATION_URL", "SOCIAL_OAUTH2_TOKEN_URL", "SOCIAL_OAUTH2_USERINFO_URL"] as const;
const names = (list: readonly string[]) => list.map(n => `\`${n}\``).join(", ");

export const RULES: readonly Rule[] = [
	rule(["IDP_ACTOR_POOL_ID", ...COGNITO_COMPANIONS], `\`IDP_ACTOR_POOL_ID\` selects Cognito, which needs ${names(COGNITO_COMPANIONS)}.`, v =>
		COGNITO_COMPANIONS.map(
			name =>
				v.IDP_ACTOR_POOL_ID !== undefined &&
				!v[name] && {
					variable: name,
					problem: "is required when IDP_ACTOR_POOL_ID selects Cognito",
					hint: `Set ${name} (see docs/cognito.md), or unset IDP_ACTOR_POOL_ID to use the embedded identity provider.`
				}
		)
	),
	rule(["IDP_SERVICE_ACCOUNT_USERNAME", "IDP_SERVICE_ACCOUNT_PASSWORD"], "`IDP_SERVICE_ACCOUNT_USERNAME` and `IDP_SERVICE_ACCOUNT_PASSWORD` are set together or not at all.", v => {
		const missing = v.IDP_SERVICE_ACCOUNT_USERNAME ? "IDP_SERVICE_ACCOUNT_PASSWORD" : "IDP_SERVICE_ACCOUNT_USERNAME";
		return [
			!v.IDP_SERVICE_ACCOUNT_USERNAME !== !v.IDP_SERVICE_ACCOUNT_PASSWORD && {
				variable: missing,
				problem: "must be set together with its pair",
				hint: `Set ${missing} as well, or unset both.`
			}
		];
	}),
	rule(["BOOTSTRAP_ADMIN_EMAIL", "BOOTSTRAP_ADMIN_PASSWORD"], "`BOOTSTRAP_ADMIN_EMAIL` needs `BOOTSTRAP_ADMIN_PASSWORD`.", v => [
		!!v.BOOTSTRAP_ADMIN_EMAIL &&
			!v.BOOTSTRAP_ADMIN_PASSWORD && {
				variable: "BOOTSTRAP_ADMIN_PASSWORD",
				problem: "is required with BOOTSTRAP_ADMIN_EMAIL",
				hint: "Set BOOTSTRAP_ADMIN_PASSWORD to the administrator's password, or unset BOOTSTRAP_ADMIN_EMAIL."
			}
	]),
	rule(
		["SOCIAL_OAUTH2_CLIENT_ID", "SOCIAL_OAUTH2_CLIENT_SECRET", "OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY"],
		"`SOCIAL_OAUTH2_CLIENT_ID` needs `SOCIAL_OAUTH2_CLIENT_SECRET` and `OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY`: provider refresh tokens are only ever stored encrypted.",
		v => [
			!!v.SOCIAL_OAUTH2_CLIENT_ID &&
				!v.SOCIAL_OAUTH2_CLIENT_SECRET && {
					variable: "SOCIAL_OAUTH2_CLIENT_SECRET",
					problem: "is required with SOCIAL_OAUTH2_CLIENT_ID",
					hint: "Set SOCIAL_OAUTH2_CLIENT_SECRET to the client's secret at the provider, or unset SOCIAL_OAUTH2_CLIENT_ID to turn social sign-in off."
				},
			!!v.SOCIAL_OAUTH2_CLIENT_ID &&
				!v.OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY && {
					variable: "OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY",
					problem: "is required with SOCIAL_OAUTH2_CLIENT_ID (base64 of 32 random bytes)",
					hint: "Set it to the output of `openssl rand -base64 32`, and keep it: stored provider tokens open only with it."
				}
		]
	),
	rule(
		["SOCIAL_OAUTH2_CLIENT_ID", "SOCIAL_OAUTH2_ISSUER", ...EXPLICIT_ENDPOINTS],
		"With the three endpoint URLs set, `SOCIAL_OAUTH2_ISSUER` must name the provider: linked accounts are keyed by it, and would otherwise silently say Google.",
		(v, isSet) => [
			!!v.SOCIAL_OAUTH2_CLIENT_ID &&
				EXPLICIT_ENDPOINTS.every(name => v[name]) &&
				!isSet("SOCIAL_OAUTH2_ISSUER") && {
					variable: "SOCIAL_OAUTH2_ISSUER",
					problem: "must name the provider when its three endpoint URLs are set explicitly",
					hint: "Set SOCIAL_OAUTH2_ISSUER to the provider's issuer URL."
				}
		]
	),
	rule(
		["IDP_ACTOR_POOL_ID", "SOCIAL_OAUTH2_CLIENT_ID", "IDP_CUSTOM_AUTH_SECRET"],
		"Social sign-in with Cognito needs `IDP_CUSTOM_AUTH_SECRET`, which the pool's custom-auth triggers check.",
		v => [
			!!v.IDP_ACTOR_POOL_ID &&
				!!v.SOCIAL_OAUTH2_CLIENT_ID &&
				!v.IDP_CUSTOM_AUTH_SECRET && {
					variable: "IDP_CUSTOM_AUTH_SECRET",
					problem: "is required when social sign-in runs with Cognito (the pool's custom-auth triggers check it)",
					hint: "Set IDP_CUSTOM_AUTH_SECRET to at least 32 random characters, the same as the triggers' (see docs/cognito.md)."
				}
		]
	),
	rule(
		["EMAIL_PROVIDER", "EMAIL_PROVIDERS", "SMTP_URL", "SMTP_BACKUP_URL"],
		"`smtp` (in `EMAIL_PROVIDER` or `EMAIL_PROVIDERS`) needs `SMTP_URL`; `smtp-backup` needs `SMTP_BACKUP_URL`.",
		v => {
			const used = emailProviders(v);
			return [
				used.includes("smtp") &&
					!v.SMTP_URL && {
						variable: "SMTP_URL",
						problem: v.EMAIL_PROVIDERS.length > 0 ? "is required when EMAIL_PROVIDERS lists smtp" : "is required when EMAIL_PROVIDER is smtp",
						hint: "Set SMTP_URL to smtp://user:password@host:587 (smtps:// for TLS), or choose another EMAIL_PROVIDER."
					},
				used.includes("smtp-backup") &&
					!v.SMTP_BACKUP_URL && {
						variable: "SMTP_BACKUP_URL",
						problem: "is required when EMAIL_PROVIDERS lists smtp-backup",
						hint: "Set SMTP_BACKUP_URL to the second server's smtp://user:password@host:587, or take smtp-backup out of EMAIL_PROVIDERS."
					}
			];
		}
	),
	rule(["DOMAIN_ROOT", "NOTIFICATION_MAIL_FROM_EMAIL"], "Without `NOTIFICATION_MAIL_FROM_EMAIL`, `noreply@` + `DOMAIN_ROOT` must be an email address.", v => [
		!v.NOTIFICATION_MAIL_FROM_EMAIL &&
			!SENDER_ADDRESS.test(`noreply@${v.DOMAIN_ROOT}`) && {
				variable: "DOMAIN_ROOT",
				problem: `does not make an email address of the default sender (noreply@${v.DOMAIN_ROOT})`,
				hint: "Set DOMAIN_ROOT to a domain name like example.com, or set NOTIFICATION_MAIL_FROM_EMAIL."
			}
	]),
	rule(["SMS_PROVIDER", "SMS_PROVIDERS", "SMPP_URL"], "`smpp` (in `SMS_PROVIDER` or `SMS_PROVIDERS`) needs `SMPP_URL`.", v => [
		smsProviders(v).includes("smpp") &&
			!v.SMPP_URL && {
				variable: "SMPP_URL",
				problem: v.SMS_PROVIDERS.length > 0 ? "is required when SMS_PROVIDERS lists smpp" : "is required when SMS_PROVIDER is smpp",
				hint: "Set SMPP_URL to smpp://system_id:password@host:port (ssmpp:// for TLS), or choose another SMS_PROVIDER."
			}
	]),
	rule(
		["SMS_PROVIDER", "SMS_PROVIDERS", "SMS_ORIGINATION_IDENTITY"],
		"`SMS_ORIGINATION_IDENTITY` is what the providers take: with `smpp` among them a number of up to 20 digits or a sender id of up to 11 letters, digits and spaces; otherwise a phone number, sender id, pool id or ARN.",
		v => {
			const from = v.SMS_ORIGINATION_IDENTITY;
			const smpp = smsProviders(v).includes("smpp");
			// AWS takes a phone number, sender id, pool id or their ARN; SMPP's source_addr is at most 20 characters.
			const fits = !from || (smpp ? /^(\+?[0-9]{1,20}|[A-Za-z0-9 ]{1,11})$/ : /^[A-Za-z0-9+:/_.-]{1,256}$/).test(from);
			return [
				!fits && {
					variable: "SMS_ORIGINATION_IDENTITY",
					problem: smpp ? "must be a number of up to 20 digits or an alphanumeric sender id of up to 11 characters" : "must be a phone number, sender id, pool id or ARN",
					hint: smpp ? "Set SMS_ORIGINATION_IDENTITY to a number like +15555550100 or a sender id like ACME." : "Set SMS_ORIGINATION_IDENTITY to a phone number like +15555550100, a sender id, a pool id or an ARN."
				}
			];
		}
	),
	rule(
		["PUSH_VAPID_PUBLIC_KEY", "PUSH_VAPID_PRIVATE_KEY"],
		"`PUSH_VAPID_PUBLIC_KEY` and `PUSH_VAPID_PRIVATE_KEY` are set together, and the public key is the private key's: otherwise every push service refuses the signature.",
		v => {
			const { PUSH_VAPID_PUBLIC_KEY: pub, PUSH_VAPID_PRIVATE_KEY: priv } = v;
			const hint = "Set both from one `npx web-push generate-vapid-keys`, or unset both to use the pair kept in the store.";
			return [
				!pub && !!priv && { variable: "PUSH_VAPID_PUBLIC_KEY", problem: "must be set with PUSH_VAPID_PRIVATE_KEY", hint },
				!!pub && !priv && { variable: "PUSH_VAPID_PRIVATE_KEY", problem: "must be set with PUSH_VAPID_PUBLIC_KEY", hint },
				!!pub && !!priv && !vapidKeysMatch(pub, priv) && { variable: "PUSH_VAPID_PUBLIC_KEY", problem: "is not the public key of PUSH_VAPID_PRIVATE_KEY", hint }
			];
		}
	)
];
