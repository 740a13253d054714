/**
 * The only module that reads the environment. The variables, their kinds, defaults and
 * the rules between them are one schema (lib/config/variables.ts); this module checks
 * an environment against it, every problem at once, and shapes the values into the
 * Config the services use. Secrets stay in this object (handed to services through the
 * broker runtime), never in service settings, because settings travel to every node in
 * the cluster.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { parseEnv } from "node:util";
import type { Channel } from "./delivery";
import { fieldHint } from "./config/reference";
import { RULES } from "./config/rules";
import {
	CLIENT_AUTH_METHODS,
	emailProviders,
	RATE_LIMITED_ROUTES,
	smsProviders,
	SMS_PROVIDERS,
	VARIABLES,
	type EmailProviderName,
	type ServiceName,
	type SmppConfig,
	type Values,
	type VariableName
} from "./config/variables";

export { RULES } from "./config/rules";
export { ALL_SERVICES, CLIENT_AUTH_METHODS, GROUPS, RATE_LIMITED_ROUTES, SMS_PROVIDERS, VARIABLES } from "./config/variables";
export type { EmailProviderName, ServiceName, SmppConfig, VariableName } from "./config/variables";

export type Env = Record<string, string | undefined>;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];
export type SmsProviderKind = (typeof SMS_PROVIDERS)[number];
export type RateLimitedRoute = (typeof RATE_LIMITED_ROUTES)[number];

/** One thing wrong with the configuration: `${variable} ${problem}` reads as a sentence. */
export interface ConfigProblem {
	variable: string;
	/** Never holds the value of a secret. */
	problem: string;
	/** What to do about it, in a sentence. */
	hint: string;
}

export class ConfigError extends Error {
	readonly variable: string;
	/** Every problem the environment has, this one first; empty when the problem was found after loading (an unusable DATA_DIR, a key that does not open). */
	readonly problems: readonly ConfigProblem[];
	constructor(variable: string, problem: string, problems: readonly ConfigProblem[] = []) {
		super(`Invalid configuration: ${variable} ${problem}`);
		this.name = "ConfigError";
		this.variable = variable;
		this.problems = problems;
	}
}

/** What a start that fails on its configuration prints: every problem, each with its hint. */
export function describeConfigError(err: ConfigError): string {
	if (err.problems.length === 0) return err.message;
	return err.problems.map(p => `Invalid configuration: ${p.variable} ${p.problem}\n  ${p.hint}`).join("\n");
}

export interface IdpConfig {
	kind: "embedded" | "cognito";
	region: string;
	endpoint?: string;
	actorPoolId?: string;
	actorClientId?: string;
	actorClientSecret?: string;
	servicePoolId?: string;
	serviceClientId?: string;
	serviceClientSecret?: string;
	serviceAccountUsername?: string;
	serviceAccountPassword?: string;
	bootstrapAdminEmail?: string;
	bootstrapAdminPassword?: string;
	/** Cognito only: shared with the pool's custom-auth triggers, so social sign-in gets tokens without a password. */
	customAuthSecret?: string;
	/** Embedded provider only: seals the private signing keys in the store (AES-256-GCM). */
	keyEncryptionKey?: Buffer;
	/** Embedded provider only: lifetimes in seconds. */
	accessTokenTtl: number;
	refreshTokenTtl: number;
}

export interface SocialConfig {
	/** SOCIAL_OAUTH2_CLIENT_ID turns social sign-in on; the secret and the encryption key are then required. */
	enabled: boolean;
	clientId?: string;
	clientSecret?: string;
	clientAuthMethod: ClientAuthMethod;
	/** Where discovery starts, and the provider's name in linked accounts. */
	issuer: string;
	authorizationUrl?: string;
	tokenUrl?: string;
	userinfoUrl?: string;
	/** Added to the authorization request (for example Google's access_type=offline). */
	authorizationParams: Record<string, string>;
	redirectUri: string;
	refreshTokenEncryptionKey?: Buffer;
	/** Earlier keys: refresh tokens sealed under them still open, and are sealed again under the current key. */
	previousEncryptionKeys: Buffer[];
	/** Seconds a temporary token lives; the contract's 5 minutes at most. */
	temporaryTokenTtl: number;
}

export interface SmsConfig {
	/** The first of `providers`. */
	provider: SmsProviderKind;
	/** In the order they are tried (SMS_PROVIDERS, else SMS_PROVIDER alone). */
	providers: SmsProviderKind[];
	/** SMS_ORIGINATION_IDENTITY: the sender (AWS OriginationIdentity, SMPP source_addr). */
	from?: string;
	awsEndpoint?: string;
	configurationSet?: string;
	smpp?: SmppConfig;
}

/** A VAPID key pair as Web Push carries it: base64url, the public key an uncompressed P-256 point. */
export interface VapidKeyPair {
	publicKey: string;
	privateKey: string;
}

export interface PushConfig {
	/** web-push: the subscribers' push services; file: DATA_DIR/outbox/push (lib/channels/push-file.ts). */
	provider: "web-push" | "file";
	/** From PUSH_VAPID_PUBLIC_KEY and PUSH_VAPID_PRIVATE_KEY; unset means the pair generated once and kept in the store. */
	vapidKeys?: VapidKeyPair;
	/** The contact a push service may write to: a mailto: or https: URL. */
	vapidSubject: string;
	/** Tests only: http: and non-public push endpoints. */
	allowInsecureEndpoints: boolean;
}

/** The circuit that skips a failing provider of a failover list (lib/channels/circuit.ts). */
export interface ProviderCircuitConfig {
	/** Consecutive retryable failures that open it. */
	failureThreshold: number;
	/** How long it stays open before one message probes the provider. */
	cooldownMs: number;
}

export interface NotificationConfig {
	/** The first of `emailProviders`. */
	emailProvider: EmailProviderName;
	/** In the order they are tried (EMAIL_PROVIDERS, else EMAIL_PROVIDER alone). */
	emailProviders: EmailProviderName[];
	/** The file outbox on a thread of its own, or on the embedded store's (OUTBOX_THREAD). */
	outboxThread: "own" | "store";
	/** That thread's nice value when it is its own (OUTBOX_THREAD_NICE). */
	outboxThreadNice: number;
	providerCircuit: ProviderCircuitConfig;
	sesEndpoint?: string;
	sesConfigurationSet?: string;
	fromEmail: string;
	smtpUrl?: string;
	/** `smtp-backup`: a second SMTP server. */
	smtpBackupUrl?: string;
	/** EMAIL's send rate (sendRates.EMAIL), shared by every dispatcher node; 0 means no limit. */
	sendRatePerSecond: number;
	/** Sends per second per channel, each shared by every dispatcher node; 0 means no limit. */
	sendRates: Readonly<Record<Channel, number>>;
	sms: SmsConfig;
	push: PushConfig;
	sendTimeoutMs: number;
	concurrency: number;
	pollMs: number;
	leaseMs: number;
	maxAttempts: number;
	/** Who a user token may send to: itself only (default), nobody, or anyone (closed deployments). */
	userSend: "self" | "off" | "any";
	/** Notifications a user may send per hour; 0: no limit. Services and administrators have none. */
	userQuotaPerHour: number;
	retryBaseMs: number;
	retryMaxMs: number;
}

export interface WebhookConfig {
	certHostPattern: RegExp;
	topicArns: string[];
	processingEnabled: boolean;
}

/** Attempts per window; 0 turns a counter off. */
export interface RouteLimit {
	perIp: number;
	/** Per username or email; refresh and exchange have none (see SECURITY.md). */
	perUser: number;
}

export interface RateLimitConfig {
	windowSeconds: number;
	routes: Record<RateLimitedRoute, RouteLimit>;
}

export interface GatewayConfig {
	/** Exact origins that may read responses cross-origin; empty means no CORS headers at all. */
	corsOrigins: string[];
	/** Addresses and CIDR ranges whose X-Forwarded-For is believed. */
	trustedProxies: string[];
	rateLimits: RateLimitConfig;
	live: LiveStreamConfig;
}

/** Outbound webhooks (lib/outbound): delivery of status events to the endpoints owners register. */
export interface OutboundConfig {
	/** Tests only: http URLs and private or loopback addresses are allowed. */
	allowPrivateUrls: boolean;
	/** Deadline of one attempt. */
	timeoutMs: number;
	/** The wait before each retry; after the last one the delivery is FAILED. */
	retryDelaysMs: number[];
	pollMs: number;
	/** Deliveries one node sends at once. */
	concurrency: number;
	/** Of those, at most this many to one endpoint, so a slow or hanging endpoint cannot take every slot. */
	endpointConcurrency: number;
	/** And at most this many to one owner's endpoints, so neither can one owner with several. */
	ownerConcurrency: number;
	/** Endpoints one owner (user or service) may have; more are refused 409 WEBHOOK_ENDPOINT_LIMIT_REACHED. */
	maxEndpointsPerOwner: number;
	/** How long a delivery waits for an earlier event of the same notification to the same endpoint. */
	orderWaitMs: number;
	/** How long after its time an event may still become visible in the store: the recovery sweep waits that long (lib/outbound/recovery.ts). */
	recoveryMarginMs: number;
}

/** Server-sent event streams of notification status (GET /notifications/{id}/events). */
export interface LiveStreamConfig {
	/** Open streams one principal may hold on one gateway node. */
	maxPerPrincipal: number;
	/** Open streams one gateway node holds at most. */
	maxPerNode: number;
	/** A comment line this often keeps proxies from closing an idle stream. */
	heartbeatMs: number;
}

/** The account lifecycle (lib/accounts/lifecycle.ts): verification, reset, sign-out. */
export interface AccountConfig {
	/** Login and refresh of a user whose email is not verified answer 403 EMAIL_NOT_VERIFIED. */
	requireVerifiedEmail: boolean;
	verifyEmailPath: string;
	resetPasswordPath: string;
	/** The magic link of a one-time code's mail (lib/accounts/otp.ts). */
	magicLinkPath: string;
	/** The "not me" page of a security alert (lib/accounts/security-alerts.ts). */
	notMePath: string;
	/** Audit events are kept this many days. */
	auditRetentionDays: number;
	/** Failed password sign-ins that lock an account's password sign-in (lib/accounts/login-guard.ts). */
	lockout: { threshold: number; lockoutSeconds: number };
	/** Lifetimes of the lifecycle tokens, in seconds. */
	verificationTtl: number;
	resetTtl: number;
	/** A rotated refresh token presented again within this many seconds gets the same successor. */
	refreshReuseIntervalSec: number;
	/** One-time codes (lib/accounts/otp.ts): the fallback's delay, and whether a code may create an account. */
	otpFallbackAfterSec: number;
	otpSignup: boolean;
	mfa: MfaConfig;
}

/** Second factors and step-up (lib/mfa). */
export interface MfaConfig {
	/** Who must have a second factor to sign in. */
	enforce: "none" | "admins" | "all";
	/** Step-up routes need an auth_time at most this old. */
	stepUpMaxAgeSec: number;
	/** The issuer in otpauth URIs. */
	totpIssuer: string;
	webauthn: WebAuthnConfig;
}

/** The WebAuthn relying party passkeys belong to (lib/mfa/passkeys.ts). */
export interface WebAuthnConfig {
	rpId: string;
	rpName: string;
	/** Origins a ceremony's clientDataJSON may name. */
	origins: string[];
}

/** OpenTelemetry traces over OTLP/HTTP (lib/tracing); present only when an endpoint is set. */
export interface TracingConfig {
	/** Where spans are posted: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
	url: string;
	/** Sent with every export (a collector's API key, say): secrets, kept here like every other. */
	headers: Record<string, string>;
	/** The resource's service.name. */
	serviceName: string;
	/** How long finished spans wait to be sent together (OTEL_BSP_SCHEDULE_DELAY). */
	scheduleDelayMs: number;
	/** The share of traces kept, from OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG: 1 keeps all. */
	sampleRatio: number;
}

export interface Config {
	port: number;
	services: ServiceName[];
	nodeId: string;
	namespace: string;
	natsUrl?: string;
	redisUrl?: string;
	mongodbUrl?: string;
	dataDir: string;
	logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
	/** pretty: colored one-line logs for a person at a terminal; json: one JSON object a line, for collectors. */
	logFormat: "json" | "pretty";
	requestTimeoutMs: number;
	/** How long an orderly stop waits for the work under way (requests, uploads) before it ends what is left. */
	shutdownGraceMs: number;
	/** Prometheus metrics on this port; unset means metrics are off. */
	metricsPort?: number;
	/** Traces are off without it. */
	tracing?: TracingConfig;
	/** How often the queue gauges are read. */
	metricsSampleMs: number;
	publicUrl: string;
	uiBaseUrl: string;
	uiCallbackPath: string;
	idp: IdpConfig;
	/**
	 * How long an account creation may take before a repair treats it as cut off by a
	 * dying node (lib/accounts/repair.ts); also how often repairs run, up to a minute.
	 */
	accountRepairGraceMs: number;
	social: SocialConfig;
	notifications: NotificationConfig;
	webhooks: WebhookConfig;
	outbound: OutboundConfig;
	gateway: GatewayConfig;
	accounts: AccountConfig;
}
/** A blank variable is an unset one. */
function clean(value: string | undefined): string | undefined {
	const t = value?.trim();
	return t ? t : undefined;
}

/**
 * Checks every variable, then every rule whose inputs parsed. Only the schema's
 * variables are read from `env`.
 */
function read(env: Env): { values: Values; problems: ConfigProblem[] } {
	const names = Object.keys(VARIABLES) as VariableName[];
	const raw = new Map(names.map(name => [name, clean(env[name])]));
	const values: Partial<Record<VariableName, unknown>> = {};
	const failed = new Set<VariableName>();
	const problems: ConfigProblem[] = [];
	for (const name of names) {
		const variable = VARIABLES[name];
		const result = variable.schema.safeParse(raw.get(name) ?? variable.default);
		if (result.success) {
			values[name] = result.data;
			continue;
		}
		failed.add(name);
		for (const issue of result.error.issues) problems.push({ variable: name, problem: issue.message, hint: fieldHint(name) });
	}
	for (const rule of RULES) {
		if (rule.inputs.some(name => failed.has(name))) continue;
		problems.push(...rule.check(values as Values, name => raw.get(name) !== undefined));
	}
	return { values: values as Values, problems };
}

/** Every problem of an environment, in the reference's order (each variable's own, then the rules between them); none when it loads. */
export function validateEnv(env: Env = process.env): ConfigProblem[] {
	return read(env).problems;
}

/**
 * Traces when an endpoint is set. Traces start only at this platform's own roots, so
 * the parent-based samplers decide as the plain ones do.
 */
function tracing(v: Values): TracingConfig | undefined {
	const base = v.OTEL_EXPORTER_OTLP_ENDPOINT;
	const url = v.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base ? `${base}/v1/traces` : undefined);
	if (!url) return undefined;
	const sampler = v.OTEL_TRACES_SAMPLER;
	const sampleRatio = sampler.endsWith("always_on") ? 1 : sampler.endsWith("always_off") ? 0 : v.OTEL_TRACES_SAMPLER_ARG;
	return { url, headers: v.OTEL_EXPORTER_OTLP_HEADERS, serviceName: v.OTEL_SERVICE_NAME, scheduleDelayMs: v.OTEL_BSP_SCHEDULE_DELAY, sampleRatio };
}

/**
 * The environment the command line (lib/cli) reads: this process's, over the variables
 * of an env file when one is named (as `node --env-file` reads one: what the process
 * has wins). Throws when the file cannot be read.
 */
export function commandLineEnv(envFile?: string): Env {
	const own: Env = { ...process.env };
	if (!envFile) return own;
	const parsed = parseEnv(fs.readFileSync(envFile, "utf8")) as Env;
	return { ...parsed, ...own };
}

/**
 * What the command line needs before, or without, a valid configuration: where the
 * platform answers (PUBLIC_URL, else localhost on PORT) and the administrator it may
 * sign in as (BOOTSTRAP_ADMIN_*).
 */
export function commandLineDefaults(env: Env): { url: string; adminEmail?: string; adminPassword?: string } {
	const url = clean(env.PUBLIC_URL)?.replace(/\/+$/, "") ?? `http://localhost:${clean(env.PORT) ?? VARIABLES.PORT.default}`;
	return { url, adminEmail: clean(env.BOOTSTRAP_ADMIN_EMAIL), adminPassword: clean(env.BOOTSTRAP_ADMIN_PASSWORD) };
}

export function loadConfig(env: Env = process.env): Config {
	const { values, problems } = read(env);
	if (problems.length > 0) throw new ConfigError(problems[0].variable, problems[0].problem, problems);
	return toConfig(values);
}

function toConfig(v: Values): Config {
	// Every node must agree on it (the embedded provider's token issuers are built from
	// it); following PORT keeps a single process right without setting it.
	const publicUrl = v.PUBLIC_URL ?? `http://localhost:${v.PORT}`;
	const fromEmail = v.NOTIFICATION_MAIL_FROM_EMAIL ?? `noreply@${v.DOMAIN_ROOT}`;
	const emailList = emailProviders(v);
	const smsList = smsProviders(v);
	// A failover list that holds SES (or AWS SMS) keeps within that account's rate, whichever provider is sending.
	const emailRate = v.EMAIL_SEND_RATE_PER_SECOND ?? (emailList.includes("ses") ? 14 : 0);
	const pair = v.PUSH_VAPID_PUBLIC_KEY && v.PUSH_VAPID_PRIVATE_KEY ? { publicKey: v.PUSH_VAPID_PUBLIC_KEY, privateKey: v.PUSH_VAPID_PRIVATE_KEY } : undefined;
	const limit = (perIp: number, perUser = 0): RouteLimit => ({ perIp, perUser });
	return {
		port: v.PORT,
		services: v.SERVICES,
		nodeId: v.NODE_ID ?? `node-${randomUUID().slice(0, 8)}`,
		namespace: v.NAMESPACE,
		natsUrl: v.NATS_URL,
		redisUrl: v.REDIS_URL,
		mongodbUrl: v.MONGODB_URL,
		dataDir: v.DATA_DIR,
		logLevel: v.LOG_LEVEL,
		// auto: pretty only when a person is watching; a pipe or a file gets JSON.
		logFormat: v.LOG_FORMAT === "auto" ? (process.stdout.isTTY ? "pretty" : "json") : v.LOG_FORMAT,
		requestTimeoutMs: v.REQUEST_TIMEOUT_MS,
		shutdownGraceMs: v.SHUTDOWN_GRACE_MS,
		metricsPort: v.METRICS_PORT,
		metricsSampleMs: v.METRICS_SAMPLE_MS,
		tracing: tracing(v),
		publicUrl,
		// Unset: the pages the gateway serves itself (services/api-gateway/ui-pages.ts), so a mailed link works from the first start.
		uiBaseUrl: v.UI_BASE_URL ?? `${publicUrl}/ui`,
		uiCallbackPath: v.UI_CALLBACK_PATH,
		idp: {
			kind: v.IDP_ACTOR_POOL_ID ? "cognito" : "embedded",
			region: v.CLOUD_REGION,
			endpoint: v.IDP_ENDPOINT,
			actorPoolId: v.IDP_ACTOR_POOL_ID,
			actorClientId: v.IDP_ACTOR_CLIENT_ID,
			actorClientSecret: v.IDP_ACTOR_CLIENT_SECRET,
			servicePoolId: v.IDP_SERVICE_POOL_ID,
			serviceClientId: v.IDP_SERVICE_CLIENT_ID,
			serviceClientSecret: v.IDP_SERVICE_CLIENT_SECRET,
			serviceAccountUsername: v.IDP_SERVICE_ACCOUNT_USERNAME,
			serviceAccountPassword: v.IDP_SERVICE_ACCOUNT_PASSWORD,
			bootstrapAdminEmail: v.BOOTSTRAP_ADMIN_EMAIL,
			bootstrapAdminPassword: v.BOOTSTRAP_ADMIN_PASSWORD,
			customAuthSecret: v.IDP_CUSTOM_AUTH_SECRET,
			keyEncryptionKey: v.IDP_KEY_ENCRYPTION_KEY,
			accessTokenTtl: v.IDP_ACCESS_TOKEN_TTL_SECONDS,
			refreshTokenTtl: v.IDP_REFRESH_TOKEN_TTL_SECONDS
		},
		accountRepairGraceMs: v.ACCOUNT_REPAIR_GRACE_SECONDS * 1000,
		social: {
			enabled: v.SOCIAL_OAUTH2_CLIENT_ID !== undefined,
			clientId: v.SOCIAL_OAUTH2_CLIENT_ID,
			clientSecret: v.SOCIAL_OAUTH2_CLIENT_SECRET,
			clientAuthMethod: v.SOCIAL_OAUTH2_CLIENT_AUTH_METHOD,
			issuer: v.SOCIAL_OAUTH2_ISSUER,
			authorizationUrl: v.SOCIAL_OAUTH2_AUTHORIZATION_URL,
			tokenUrl: v.SOCIAL_OAUTH2_TOKEN_URL,
			userinfoUrl: v.SOCIAL_OAUTH2_USERINFO_URL,
			authorizationParams: v.SOCIAL_OAUTH2_AUTHORIZATION_PARAMS,
			redirectUri: v.SOCIAL_OAUTH2_REDIRECT_URI ?? `${publicUrl}/auth/social/login/callback`,
			refreshTokenEncryptionKey: v.OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY,
			previousEncryptionKeys: v.OAUTH2_REFRESH_TOKEN_PREVIOUS_KEYS,
			temporaryTokenTtl: v.TEMP_TOKEN_TTL_SECONDS
		},
		notifications: {
			emailProvider: emailList[0],
			emailProviders: emailList,
			outboxThread: v.OUTBOX_THREAD,
			outboxThreadNice: v.OUTBOX_THREAD_NICE,
			providerCircuit: { failureThreshold: v.PROVIDER_FAILURE_THRESHOLD, cooldownMs: v.PROVIDER_COOLDOWN_SECONDS * 1000 },
			sesEndpoint: v.AWS_SES_ENDPOINT,
			sesConfigurationSet: v.SES_CONFIGURATION_SET,
			fromEmail,
			smtpUrl: v.SMTP_URL,
			smtpBackupUrl: v.SMTP_BACKUP_URL,
			sendRatePerSecond: emailRate,
			sendRates: {
				EMAIL: emailRate,
				SMS: v.SMS_SEND_RATE_PER_SECOND ?? (smsList.includes("aws") ? 1 : 0),
				PUSH: v.PUSH_SEND_RATE_PER_SECOND,
				// Stored in the platform's own inbox: no provider to pace.
				IN_APP: 0
			},
			sms: {
				provider: smsList[0],
				providers: smsList,
				from: v.SMS_ORIGINATION_IDENTITY,
				awsEndpoint: v.AWS_SMS_ENDPOINT,
				configurationSet: v.SMS_CONFIGURATION_SET,
				smpp: v.SMPP_URL
			},
			push: {
				provider: v.PUSH_PROVIDER,
				vapidKeys: pair,
				vapidSubject: v.PUSH_VAPID_SUBJECT ?? `mailto:${fromEmail}`,
				allowInsecureEndpoints: v.PUSH_ALLOW_INSECURE_ENDPOINTS
			},
			sendTimeoutMs: v.EMAIL_SEND_TIMEOUT_MS,
			concurrency: v.DISPATCHER_CONCURRENCY,
			pollMs: v.DISPATCHER_POLL_MS,
			leaseMs: v.NOTIFICATION_LEASE_MS,
			maxAttempts: v.NOTIFICATION_MAX_ATTEMPTS,
			userSend: v.NOTIFICATIONS_USER_SEND,
			userQuotaPerHour: v.NOTIFICATIONS_QUOTA_PER_HOUR,
			retryBaseMs: v.NOTIFICATION_RETRY_BASE_MS,
			retryMaxMs: Math.max(v.NOTIFICATION_RETRY_BASE_MS, v.NOTIFICATION_RETRY_MAX_MS)
		},
		webhooks: {
			certHostPattern: v.SNS_SIGNING_CERT_HOST_PATTERN,
			topicArns: v.SNS_TOPIC_ARNS,
			processingEnabled: v.WEBHOOK_PROCESSING_ENABLED
		},
		outbound: {
			allowPrivateUrls: v.WEBHOOK_ALLOW_PRIVATE_URLS,
			timeoutMs: v.WEBHOOK_TIMEOUT_MS,
			retryDelaysMs: v.WEBHOOK_RETRY_DELAYS_MS,
			pollMs: v.WEBHOOK_POLL_MS,
			concurrency: v.WEBHOOK_CONCURRENCY,
			endpointConcurrency: v.WEBHOOK_ENDPOINT_CONCURRENCY,
			ownerConcurrency: v.WEBHOOK_OWNER_CONCURRENCY,
			maxEndpointsPerOwner: v.WEBHOOK_MAX_ENDPOINTS_PER_OWNER,
			orderWaitMs: 200,
			recoveryMarginMs: v.WEBHOOK_RECOVERY_MARGIN_MS
		},
		gateway: {
			corsOrigins: v.CORS_ORIGINS,
			trustedProxies: v.TRUSTED_PROXIES,
			// Defaults that stop guessing without troubling a person who mistypes, or an office behind one address.
			rateLimits: {
				windowSeconds: v.RATE_LIMIT_WINDOW_SECONDS,
				routes: {
					login: limit(v.RATE_LIMIT_LOGIN_PER_IP, v.RATE_LIMIT_LOGIN_PER_USER),
					register: limit(v.RATE_LIMIT_REGISTER_PER_IP, v.RATE_LIMIT_REGISTER_PER_USER),
					refresh: limit(v.RATE_LIMIT_REFRESH_PER_IP),
					exchange: limit(v.RATE_LIMIT_EXCHANGE_PER_IP),
					forgot: limit(v.RATE_LIMIT_FORGOT_PER_IP, v.RATE_LIMIT_FORGOT_PER_USER),
					verification: limit(v.RATE_LIMIT_VERIFICATION_PER_IP, v.RATE_LIMIT_VERIFICATION_PER_USER),
					redeem: limit(v.RATE_LIMIT_REDEEM_PER_IP),
					service: limit(v.RATE_LIMIT_SERVICE_PER_IP, v.RATE_LIMIT_SERVICE_PER_USER)
				}
			},
			live: {
				maxPerPrincipal: v.SSE_MAX_STREAMS_PER_PRINCIPAL,
				maxPerNode: v.SSE_MAX_STREAMS_PER_NODE,
				heartbeatMs: v.SSE_HEARTBEAT_MS
			}
		},
		accounts: {
			requireVerifiedEmail: v.REQUIRE_VERIFIED_EMAIL,
			verifyEmailPath: v.UI_VERIFY_EMAIL_PATH,
			resetPasswordPath: v.UI_RESET_PASSWORD_PATH,
			magicLinkPath: v.UI_MAGIC_LINK_PATH,
			notMePath: v.UI_NOT_ME_PATH,
			auditRetentionDays: v.AUDIT_RETENTION_DAYS,
			lockout: { threshold: v.LOGIN_LOCKOUT_THRESHOLD, lockoutSeconds: v.LOGIN_LOCKOUT_SECONDS },
			verificationTtl: 24 * 3600,
			resetTtl: 30 * 60,
			refreshReuseIntervalSec: v.REFRESH_TOKEN_REUSE_INTERVAL_SECONDS,
			otpFallbackAfterSec: v.OTP_FALLBACK_AFTER_SECONDS,
			otpSignup: v.OTP_SIGNUP,
			mfa: {
				enforce: v.MFA_ENFORCE,
				stepUpMaxAgeSec: v.STEP_UP_MAX_AGE_SECONDS,
				totpIssuer: v.MFA_TOTP_ISSUER,
				webauthn: {
					rpId: v.WEBAUTHN_RP_ID ?? new URL(publicUrl).hostname,
					rpName: v.WEBAUTHN_RP_NAME,
					origins: v.WEBAUTHN_ORIGINS ?? [...new Set([new URL(v.UI_BASE_URL ?? `${publicUrl}/ui`).origin, new URL(publicUrl).origin])]
				}
			}
		}
	};
}
