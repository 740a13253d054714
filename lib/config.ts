/**
 * The only module that reads the environment. Everything is parsed and validated
 * once; a bad value fails with the variable's name. Secrets stay in this object
 * (handed to services through the broker runtime), never in service settings,
 * because settings travel to every node in the cluster.
 */
import { createECDH, randomUUID } from "node:crypto";
import path from "node:path";
import { parseAddressRange } from "./client-ip";
import { SENDER_ADDRESS } from "./email-address";
import type { Channel } from "./notifications/model";

export const ALL_SERVICES = [
	"api-gateway",
	"auth",
	"actors",
	"documents",
	"notifications",
	"dispatcher",
	"webhooks",
	"outbound"
] as const;
export type ServiceName = (typeof ALL_SERVICES)[number];

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
	readonly variable: string;
	constructor(variable: string, problem: string) {
		super(`Invalid configuration: ${variable} ${problem}`);
		this.name = "ConfigError";
		this.variable = variable;
	}
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

export const CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/** Parameters of the authorization request that the platform sets itself. */
const RESERVED_AUTHORIZATION_PARAMS = [
	"response_type",
	"client_id",
	"redirect_uri",
	"scope",
	"state",
	"nonce",
	"code_challenge",
	"code_challenge_method",
	"response_mode",
	"request",
	"request_uri"
];

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

export const SMS_PROVIDERS = ["file", "aws", "smpp"] as const;
export type SmsProviderKind = (typeof SMS_PROVIDERS)[number];

/** An SMSC to bind to, from SMPP_URL. The password never leaves this object (see SECURITY.md). */
export interface SmppConfig {
	host: string;
	port: number;
	tls: boolean;
	systemId: string;
	password: string;
}

export interface SmsConfig {
	provider: SmsProviderKind;
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
	/** From PUSH_VAPID_PUBLIC_KEY and PUSH_VAPID_PRIVATE_KEY; unset means the pair generated once and kept in the store. */
	vapidKeys?: VapidKeyPair;
	/** The contact a push service may write to: a mailto: or https: URL. */
	vapidSubject: string;
	/** Tests only: http: and non-public push endpoints. */
	allowInsecureEndpoints: boolean;
}

export interface NotificationConfig {
	emailProvider: "ses" | "smtp" | "file";
	sesEndpoint?: string;
	sesConfigurationSet?: string;
	fromEmail: string;
	smtpUrl?: string;
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

export const RATE_LIMITED_ROUTES = ["login", "register", "refresh", "exchange", "forgot", "verification", "redeem", "service"] as const;
export type RateLimitedRoute = (typeof RATE_LIMITED_ROUTES)[number];

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

/** Standard Webhooks' schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (over 27 h in all). */
const WEBHOOK_RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

function outbound(env: Env): OutboundConfig {
	const allow = str(env, "WEBHOOK_ALLOW_PRIVATE_URLS") ?? "false";
	if (allow !== "true" && allow !== "false") throw new ConfigError("WEBHOOK_ALLOW_PRIVATE_URLS", "must be true or false");
	const delays = str(env, "WEBHOOK_RETRY_DELAYS_MS");
	let retryDelaysMs = WEBHOOK_RETRY_DELAYS_MS;
	if (delays) {
		if (!/^\d+(,\d+)*$/.test(delays)) throw new ConfigError("WEBHOOK_RETRY_DELAYS_MS", "must be comma-separated whole numbers of milliseconds");
		retryDelaysMs = delays.split(",").map(Number);
	}
	return {
		allowPrivateUrls: allow === "true",
		timeoutMs: int(env, "WEBHOOK_TIMEOUT_MS", 10000, 100, 60000),
		retryDelaysMs,
		pollMs: int(env, "WEBHOOK_POLL_MS", 500, 10, 60000),
		concurrency: int(env, "WEBHOOK_CONCURRENCY", 16, 1, 1000),
		endpointConcurrency: int(env, "WEBHOOK_ENDPOINT_CONCURRENCY", 2, 1, 1000),
		ownerConcurrency: int(env, "WEBHOOK_OWNER_CONCURRENCY", 4, 1, 1000),
		maxEndpointsPerOwner: int(env, "WEBHOOK_MAX_ENDPOINTS_PER_OWNER", 10, 1, 1000),
		orderWaitMs: 200,
		recoveryMarginMs: int(env, "WEBHOOK_RECOVERY_MARGIN_MS", 120_000, 100, 3_600_000)
	};
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
	/** Lifetimes of the lifecycle tokens, in seconds. */
	verificationTtl: number;
	resetTtl: number;
	/** A rotated refresh token presented again within this many seconds gets the same successor. */
	refreshReuseIntervalSec: number;
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

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

function str(env: Env, name: string): string | undefined {
	const v = env[name];
	if (v == null) return undefined;
	const t = v.trim();
	return t === "" ? undefined : t;
}

function int(env: Env, name: string, def: number, min: number, max: number): number {
	const v = str(env, name);
	if (v == null) return def;
	if (!/^\d+$/.test(v)) throw new ConfigError(name, `must be a whole number (got "${v}")`);
	const n = Number(v);
	if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}`);
	return n;
}

function url(env: Env, name: string, protocols: string[], def?: string): string | undefined {
	const v = str(env, name) ?? def;
	if (v == null) return undefined;
	let u: URL;
	try {
		u = new URL(v);
	} catch {
		throw new ConfigError(name, "must be a URL");
	}
	if (!protocols.includes(u.protocol)) {
		throw new ConfigError(name, `must use ${protocols.join(" or ")}`);
	}
	return v;
}

function services(env: Env): ServiceName[] {
	const v = str(env, "SERVICES");
	if (v == null || v === "all") return [...ALL_SERVICES];
	const names = v.split(",").map(s => s.trim()).filter(Boolean);
	if (names.length === 0) throw new ConfigError("SERVICES", "names no service");
	for (const n of names) {
		if (!(ALL_SERVICES as readonly string[]).includes(n)) {
			throw new ConfigError("SERVICES", `names an unknown service "${n}" (known: ${ALL_SERVICES.join(", ")})`);
		}
	}
	return [...new Set(names)] as ServiceName[];
}

function aesKey(name: string, v: string): Buffer {
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(v)) throw new ConfigError(name, "must be base64");
	const key = Buffer.from(v, "base64");
	if (key.length !== 32) throw new ConfigError(name, `must decode to 32 bytes (got ${key.length})`);
	return key;
}

function optionalAesKey(env: Env, name: string): Buffer | undefined {
	const v = str(env, name);
	return v == null ? undefined : aesKey(name, v);
}

function previousEncryptionKeys(env: Env): Buffer[] {
	const name = "OAUTH2_REFRESH_TOKEN_PREVIOUS_KEYS";
	return (str(env, name) ?? "").split(",").map(k => k.trim()).filter(Boolean).map(k => aesKey(name, k));
}

function authorizationParams(env: Env): Record<string, string> {
	const name = "SOCIAL_OAUTH2_AUTHORIZATION_PARAMS";
	const params = Object.fromEntries(new URLSearchParams(str(env, name) ?? ""));
	for (const key of Object.keys(params)) {
		if (RESERVED_AUTHORIZATION_PARAMS.includes(key)) throw new ConfigError(name, `may not set "${key}": the platform sets it`);
	}
	return params;
}

function social(env: Env, publicUrl: string): SocialConfig {
	const clientAuthMethod = (str(env, "SOCIAL_OAUTH2_CLIENT_AUTH_METHOD") ?? "client_secret_basic") as ClientAuthMethod;
	if (!CLIENT_AUTH_METHODS.includes(clientAuthMethod)) {
		throw new ConfigError("SOCIAL_OAUTH2_CLIENT_AUTH_METHOD", `must be one of ${CLIENT_AUTH_METHODS.join(", ")}`);
	}
	const cfg: SocialConfig = {
		enabled: str(env, "SOCIAL_OAUTH2_CLIENT_ID") != null,
		clientId: str(env, "SOCIAL_OAUTH2_CLIENT_ID"),
		clientSecret: str(env, "SOCIAL_OAUTH2_CLIENT_SECRET"),
		clientAuthMethod,
		issuer: url(env, "SOCIAL_OAUTH2_ISSUER", ["http:", "https:"], "https://accounts.google.com")!,
		authorizationUrl: url(env, "SOCIAL_OAUTH2_AUTHORIZATION_URL", ["http:", "https:"]),
		tokenUrl: url(env, "SOCIAL_OAUTH2_TOKEN_URL", ["http:", "https:"]),
		userinfoUrl: url(env, "SOCIAL_OAUTH2_USERINFO_URL", ["http:", "https:"]),
		authorizationParams: authorizationParams(env),
		redirectUri: url(env, "SOCIAL_OAUTH2_REDIRECT_URI", ["http:", "https:"], `${publicUrl}/auth/social/login/callback`)!,
		refreshTokenEncryptionKey: optionalAesKey(env, "OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY"),
		previousEncryptionKeys: previousEncryptionKeys(env),
		temporaryTokenTtl: int(env, "TEMP_TOKEN_TTL_SECONDS", 300, 1, 300)
	};
	if (!cfg.enabled) return cfg;
	if (!cfg.clientSecret) throw new ConfigError("SOCIAL_OAUTH2_CLIENT_SECRET", "is required with SOCIAL_OAUTH2_CLIENT_ID");
	// Provider refresh tokens are only ever stored encrypted: without a key, social sign-in does not start.
	if (!cfg.refreshTokenEncryptionKey) {
		throw new ConfigError("OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY", "is required with SOCIAL_OAUTH2_CLIENT_ID (base64 of 32 random bytes)");
	}
	// Linked accounts are keyed by the issuer; without discovery it would silently stay "Google".
	if (cfg.authorizationUrl && cfg.tokenUrl && cfg.userinfoUrl && str(env, "SOCIAL_OAUTH2_ISSUER") == null) {
		throw new ConfigError("SOCIAL_OAUTH2_ISSUER", "must name the provider when its three endpoint URLs are set explicitly");
	}
	return cfg;
}

function idp(env: Env): IdpConfig {
	const actorPoolId = str(env, "IDP_ACTOR_POOL_ID");
	const cfg: IdpConfig = {
		kind: actorPoolId ? "cognito" : "embedded",
		region: str(env, "CLOUD_REGION") ?? "us-west-2",
		endpoint: url(env, "IDP_ENDPOINT", ["http:", "https:"]),
		actorPoolId,
		actorClientId: str(env, "IDP_ACTOR_CLIENT_ID"),
		actorClientSecret: str(env, "IDP_ACTOR_CLIENT_SECRET"),
		servicePoolId: str(env, "IDP_SERVICE_POOL_ID"),
		serviceClientId: str(env, "IDP_SERVICE_CLIENT_ID"),
		serviceClientSecret: str(env, "IDP_SERVICE_CLIENT_SECRET"),
		serviceAccountUsername: str(env, "IDP_SERVICE_ACCOUNT_USERNAME"),
		serviceAccountPassword: str(env, "IDP_SERVICE_ACCOUNT_PASSWORD"),
		bootstrapAdminEmail: str(env, "BOOTSTRAP_ADMIN_EMAIL"),
		bootstrapAdminPassword: str(env, "BOOTSTRAP_ADMIN_PASSWORD"),
		customAuthSecret: str(env, "IDP_CUSTOM_AUTH_SECRET"),
		keyEncryptionKey: optionalAesKey(env, "IDP_KEY_ENCRYPTION_KEY"),
		accessTokenTtl: int(env, "IDP_ACCESS_TOKEN_TTL_SECONDS", 3600, 5, 86400),
		refreshTokenTtl: int(env, "IDP_REFRESH_TOKEN_TTL_SECONDS", 30 * 86400, 300, 365 * 86400)
	};
	if (!/^[a-z0-9-]+$/.test(cfg.region)) throw new ConfigError("CLOUD_REGION", "must look like us-west-2");
	if (cfg.kind === "cognito") {
		for (const [name, value] of [
			["IDP_ACTOR_CLIENT_ID", cfg.actorClientId],
			["IDP_SERVICE_POOL_ID", cfg.servicePoolId],
			["IDP_SERVICE_CLIENT_ID", cfg.serviceClientId],
			["IDP_SERVICE_ACCOUNT_USERNAME", cfg.serviceAccountUsername],
			["IDP_SERVICE_ACCOUNT_PASSWORD", cfg.serviceAccountPassword]
		] as const) {
			if (!value) throw new ConfigError(name, "is required when IDP_ACTOR_POOL_ID selects Cognito");
		}
	}
	if (cfg.customAuthSecret && cfg.customAuthSecret.length < 32) {
		throw new ConfigError("IDP_CUSTOM_AUTH_SECRET", "must be at least 32 characters");
	}
	if (cfg.bootstrapAdminEmail && !cfg.bootstrapAdminPassword) {
		throw new ConfigError("BOOTSTRAP_ADMIN_PASSWORD", "is required with BOOTSTRAP_ADMIN_EMAIL");
	}
	if (!cfg.serviceAccountUsername !== !cfg.serviceAccountPassword) {
		throw new ConfigError(
			cfg.serviceAccountUsername ? "IDP_SERVICE_ACCOUNT_PASSWORD" : "IDP_SERVICE_ACCOUNT_USERNAME",
			"must be set together with its pair"
		);
	}
	return cfg;
}


function userSend(env: Env): NotificationConfig["userSend"] {
	const v = str(env, "NOTIFICATIONS_USER_SEND") ?? "self";
	if (v !== "self" && v !== "off" && v !== "any") throw new ConfigError("NOTIFICATIONS_USER_SEND", "must be self, off or any");
	return v;
}

function notifications(env: Env): NotificationConfig {
	const provider = str(env, "EMAIL_PROVIDER") ?? "file";
	if (provider !== "ses" && provider !== "smtp" && provider !== "file") {
		throw new ConfigError("EMAIL_PROVIDER", "must be ses, smtp or file");
	}
	const domainRoot = str(env, "DOMAIN_ROOT") ?? "localhost";
	if (!/^[A-Za-z0-9.-]+$/.test(domainRoot)) throw new ConfigError("DOMAIN_ROOT", "must be a domain name");
	const fromEmail = str(env, "NOTIFICATION_MAIL_FROM_EMAIL") ?? `noreply@${domainRoot}`;
	if (!SENDER_ADDRESS.test(fromEmail)) throw new ConfigError("NOTIFICATION_MAIL_FROM_EMAIL", "must be an email address");
	const smtpUrl = url(env, "SMTP_URL", ["smtp:", "smtps:"]);
	if (provider === "smtp" && !smtpUrl) throw new ConfigError("SMTP_URL", "is required when EMAIL_PROVIDER is smtp");
	const configurationSet = str(env, "SES_CONFIGURATION_SET");
	if (configurationSet && !/^[A-Za-z0-9_-]{1,64}$/.test(configurationSet)) {
		throw new ConfigError("SES_CONFIGURATION_SET", "must be a configuration set name");
	}
	const retryBaseMs = int(env, "NOTIFICATION_RETRY_BASE_MS", 30000, 1, 3600000);
	const sms = smsConfig(env);
	const emailRate = int(env, "EMAIL_SEND_RATE_PER_SECOND", provider === "ses" ? 14 : 0, 0, 100000);
	return {
		emailProvider: provider,
		sesEndpoint: url(env, "AWS_SES_ENDPOINT", ["http:", "https:"]),
		sesConfigurationSet: configurationSet,
		fromEmail,
		smtpUrl,
		// SES accounts start at 14 messages per second; the others have no account to protect.
		sendRatePerSecond: emailRate,
		sendRates: {
			EMAIL: emailRate,
			// One message per second is the lowest throughput AWS grants an origination
			// identity; an SMSC says when it is too fast (ESME_RTHROTTLED, retried).
			SMS: int(env, "SMS_SEND_RATE_PER_SECOND", sms.provider === "aws" ? 1 : 0, 0, 100000),
			// Push services limit per subscription and answer 429, which is retried.
			PUSH: int(env, "PUSH_SEND_RATE_PER_SECOND", 0, 0, 100000)
		},
		sms,
		push: pushConfig(env, fromEmail),
		sendTimeoutMs: int(env, "EMAIL_SEND_TIMEOUT_MS", 10000, 100, 120000),
		concurrency: int(env, "DISPATCHER_CONCURRENCY", 32, 1, 1000),
		pollMs: int(env, "DISPATCHER_POLL_MS", 1000, 10, 60000),
		leaseMs: int(env, "NOTIFICATION_LEASE_MS", 60000, 200, 3600000),
		maxAttempts: int(env, "NOTIFICATION_MAX_ATTEMPTS", 8, 1, 100),
		userSend: userSend(env),
		userQuotaPerHour: int(env, "NOTIFICATIONS_QUOTA_PER_HOUR", 100, 0, 1_000_000),
		retryBaseMs,
		retryMaxMs: Math.max(retryBaseMs, int(env, "NOTIFICATION_RETRY_MAX_MS", 3600000, 1, 86400000))
	};
}

/** SMPP 3.4 limits system_id to 15 octets and password to 8. */
function smppConfig(env: Env): SmppConfig | undefined {
	const name = "SMPP_URL";
	const v = url(env, name, ["smpp:", "ssmpp:"]);
	if (v == null) return undefined;
	const u = new URL(v);
	const systemId = decodeURIComponent(u.username);
	const password = decodeURIComponent(u.password);
	// The messages name the variable only: the URL carries the SMSC password.
	if (!systemId || !password) throw new ConfigError(name, "must carry the credentials: smpp://system_id:password@host:port");
	if (systemId.length > 15 || password.length > 8) throw new ConfigError(name, "holds a system_id over 15 or a password over 8 characters (SMPP 3.4 limits)");
	if (!u.hostname || (u.pathname !== "" && u.pathname !== "/") || u.search || u.hash) throw new ConfigError(name, "must be smpp://system_id:password@host:port with nothing after the port");
	const tls = u.protocol === "ssmpp:";
	return { host: u.hostname.replace(/^\[|\]$/g, ""), port: u.port ? Number(u.port) : tls ? 3550 : 2775, tls, systemId, password };
}

function smsConfig(env: Env): SmsConfig {
	const provider = (str(env, "SMS_PROVIDER") ?? "file") as SmsProviderKind;
	if (!SMS_PROVIDERS.includes(provider)) throw new ConfigError("SMS_PROVIDER", `must be one of ${SMS_PROVIDERS.join(", ")}`);
	const from = str(env, "SMS_ORIGINATION_IDENTITY");
	// AWS takes a phone number, sender id, pool id or their ARN; SMPP's source_addr is at most 20 characters.
	if (from && !(provider === "smpp" ? /^(\+?[0-9]{1,20}|[A-Za-z0-9 ]{1,11})$/ : /^[A-Za-z0-9+:/_.-]{1,256}$/).test(from)) {
		throw new ConfigError("SMS_ORIGINATION_IDENTITY", provider === "smpp" ? "must be a number of up to 20 digits or an alphanumeric sender id of up to 11 characters" : "must be a phone number, sender id, pool id or ARN");
	}
	const configurationSet = str(env, "SMS_CONFIGURATION_SET");
	if (configurationSet && !/^[A-Za-z0-9_:/.-]{1,256}$/.test(configurationSet)) throw new ConfigError("SMS_CONFIGURATION_SET", "must be a configuration set name or ARN");
	const smpp = smppConfig(env);
	if (provider === "smpp" && !smpp) throw new ConfigError("SMPP_URL", "is required when SMS_PROVIDER is smpp");
	return { provider, from, awsEndpoint: url(env, "AWS_SMS_ENDPOINT", ["http:", "https:"]), configurationSet, smpp };
}

function base64url(name: string, v: string, bytes: number, what: string): Buffer {
	const raw = /^[A-Za-z0-9_-]+$/.test(v) ? Buffer.from(v, "base64url") : Buffer.alloc(0);
	if (raw.length !== bytes) throw new ConfigError(name, `must be ${what}: ${bytes} bytes in base64url`);
	return raw;
}

/** Both or neither; the public key must be the private key's, or every push service refuses the JWT. */
function vapidKeys(env: Env): VapidKeyPair | undefined {
	const publicKey = str(env, "PUSH_VAPID_PUBLIC_KEY");
	const privateKey = str(env, "PUSH_VAPID_PRIVATE_KEY");
	if (!publicKey && !privateKey) return undefined;
	if (!publicKey) throw new ConfigError("PUSH_VAPID_PUBLIC_KEY", "must be set with PUSH_VAPID_PRIVATE_KEY");
	if (!privateKey) throw new ConfigError("PUSH_VAPID_PRIVATE_KEY", "must be set with PUSH_VAPID_PUBLIC_KEY");
	const pub = base64url("PUSH_VAPID_PUBLIC_KEY", publicKey, 65, "an uncompressed P-256 point");
	const priv = base64url("PUSH_VAPID_PRIVATE_KEY", privateKey, 32, "a P-256 private key");
	let derived: Buffer;
	try {
		const ecdh = createECDH("prime256v1");
		ecdh.setPrivateKey(priv);
		derived = ecdh.getPublicKey();
	} catch {
		throw new ConfigError("PUSH_VAPID_PRIVATE_KEY", "is not a valid P-256 private key");
	}
	if (!derived.equals(pub)) throw new ConfigError("PUSH_VAPID_PUBLIC_KEY", "is not the public key of PUSH_VAPID_PRIVATE_KEY");
	return { publicKey, privateKey };
}

function pushConfig(env: Env, fromEmail: string): PushConfig {
	const name = "PUSH_VAPID_SUBJECT";
	const vapidSubject = str(env, name) ?? `mailto:${fromEmail}`;
	const mailto = /^mailto:[^\s@<>"]+@[^\s@<>"]+$/.test(vapidSubject);
	if (!mailto && !(URL.canParse(vapidSubject) && new URL(vapidSubject).protocol === "https:")) throw new ConfigError(name, "must be a mailto: or https: URL");
	const insecure = str(env, "PUSH_ALLOW_INSECURE_ENDPOINTS") ?? "false";
	if (insecure !== "true" && insecure !== "false") throw new ConfigError("PUSH_ALLOW_INSECURE_ENDPOINTS", "must be true or false");
	return { vapidKeys: vapidKeys(env), vapidSubject, allowInsecureEndpoints: insecure === "true" };
}

function webhooks(env: Env): WebhookConfig {
	const source = str(env, "SNS_SIGNING_CERT_HOST_PATTERN") ?? "^sns\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?$";
	let certHostPattern: RegExp;
	try {
		certHostPattern = new RegExp(source);
	} catch {
		throw new ConfigError("SNS_SIGNING_CERT_HOST_PATTERN", "must be a regular expression");
	}
	if (!source.startsWith("^") || !source.endsWith("$")) {
		throw new ConfigError("SNS_SIGNING_CERT_HOST_PATTERN", "must be anchored with ^ and $, or any host containing a match would pass");
	}
	const topicArns = (str(env, "SNS_TOPIC_ARNS") ?? "").split(",").map(t => t.trim()).filter(Boolean);
	for (const arn of topicArns) if (!/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/.test(arn)) throw new ConfigError("SNS_TOPIC_ARNS", `holds an invalid topic ARN "${arn}"`);
	const enabled = str(env, "WEBHOOK_PROCESSING_ENABLED") ?? "true";
	if (enabled !== "true" && enabled !== "false") throw new ConfigError("WEBHOOK_PROCESSING_ENABLED", "must be true or false");
	return { certHostPattern, topicArns, processingEnabled: enabled === "true" };
}

function list(env: Env, name: string): string[] {
	return (str(env, name) ?? "").split(",").map(v => v.trim()).filter(Boolean);
}

function corsOrigins(env: Env): string[] {
	const name = "CORS_ORIGINS";
	return list(env, name).map(origin => {
		let u: URL | undefined;
		try {
			u = new URL(origin);
		} catch {
			u = undefined;
		}
		// Compared with the Origin header as it is, so only the exact serialized form can ever match.
		if (!u || (u.protocol !== "https:" && u.protocol !== "http:") || u.origin !== origin) {
			throw new ConfigError(name, `holds "${origin}", which is not an origin like https://app.example.com (scheme, host, optional port; no path or trailing slash)`);
		}
		return origin;
	});
}

function trustedProxies(env: Env): string[] {
	const name = "TRUSTED_PROXIES";
	const entries = list(env, name);
	for (const entry of entries) {
		if (!parseAddressRange(entry)) throw new ConfigError(name, `holds "${entry}", which is not an IP address or CIDR range`);
	}
	return entries;
}

function uiPath(env: Env, name: string, def: string): string {
	const v = str(env, name) ?? def;
	if (!v.startsWith("/") || v.startsWith("//") || /[#?]/.test(v)) throw new ConfigError(name, "must be a path starting with a single / and without ? or #");
	return v;
}

function accounts(env: Env): AccountConfig {
	const required = str(env, "REQUIRE_VERIFIED_EMAIL") ?? "false";
	if (required !== "true" && required !== "false") throw new ConfigError("REQUIRE_VERIFIED_EMAIL", "must be true or false");
	return {
		requireVerifiedEmail: required === "true",
		verifyEmailPath: uiPath(env, "UI_VERIFY_EMAIL_PATH", "/verify-email"),
		resetPasswordPath: uiPath(env, "UI_RESET_PASSWORD_PATH", "/reset-password"),
		verificationTtl: 24 * 3600,
		resetTtl: 30 * 60,
		refreshReuseIntervalSec: int(env, "REFRESH_TOKEN_REUSE_INTERVAL_SECONDS", 10, 0, 300)
	};
}

/** Defaults that stop guessing without troubling a person who mistypes, or an office behind one address. */
function rateLimits(env: Env): RateLimitConfig {
	const limit = (name: string, def: number) => int(env, name, def, 0, 1_000_000);
	return {
		windowSeconds: int(env, "RATE_LIMIT_WINDOW_SECONDS", 60, 1, 86400),
		routes: {
			login: { perIp: limit("RATE_LIMIT_LOGIN_PER_IP", 100), perUser: limit("RATE_LIMIT_LOGIN_PER_USER", 10) },
			register: { perIp: limit("RATE_LIMIT_REGISTER_PER_IP", 30), perUser: limit("RATE_LIMIT_REGISTER_PER_USER", 5) },
			refresh: { perIp: limit("RATE_LIMIT_REFRESH_PER_IP", 300), perUser: 0 },
			exchange: { perIp: limit("RATE_LIMIT_EXCHANGE_PER_IP", 300), perUser: 0 },
			forgot: { perIp: limit("RATE_LIMIT_FORGOT_PER_IP", 30), perUser: limit("RATE_LIMIT_FORGOT_PER_USER", 3) },
			verification: { perIp: limit("RATE_LIMIT_VERIFICATION_PER_IP", 30), perUser: limit("RATE_LIMIT_VERIFICATION_PER_USER", 3) },
			redeem: { perIp: limit("RATE_LIMIT_REDEEM_PER_IP", 60), perUser: 0 },
			service: { perIp: limit("RATE_LIMIT_SERVICE_PER_IP", 100), perUser: limit("RATE_LIMIT_SERVICE_PER_USER", 20) }
		}
	};
}

export function loadConfig(env: Env = process.env): Config {
	const logLevel = (str(env, "LOG_LEVEL") ?? "info") as Config["logLevel"];
	if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError("LOG_LEVEL", `must be one of ${LOG_LEVELS.join(", ")}`);
	const logFormat = str(env, "LOG_FORMAT") ?? "auto";
	if (!["auto", "json", "pretty"].includes(logFormat)) throw new ConfigError("LOG_FORMAT", "must be auto, json or pretty");
	const port = int(env, "PORT", 8500, 0, 65535);
	// Not derived from PORT: every node must agree on it, because the embedded
	// provider's token issuers are built from it.
	const publicUrl = url(env, "PUBLIC_URL", ["http:", "https:"], "http://localhost:8500")!.replace(/\/+$/, "");
	const uiCallbackPath = str(env, "UI_CALLBACK_PATH") ?? "/auth/callback";
	if (!uiCallbackPath.startsWith("/") || uiCallbackPath.startsWith("//")) {
		throw new ConfigError("UI_CALLBACK_PATH", "must be a path starting with a single /");
	}
	const namespace = str(env, "NAMESPACE") ?? "auth-notify";
	if (!/^[A-Za-z0-9_.-]+$/.test(namespace)) throw new ConfigError("NAMESPACE", "may hold only letters, digits, _ . -");
	const idpConfig = idp(env);
	const socialConfig = social(env, publicUrl);
	if (idpConfig.kind === "cognito" && socialConfig.enabled && !idpConfig.customAuthSecret) {
		throw new ConfigError("IDP_CUSTOM_AUTH_SECRET", "is required when social sign-in runs with Cognito (the pool's custom-auth triggers check it)");
	}
	return {
		port,
		services: services(env),
		nodeId: str(env, "NODE_ID") ?? `node-${randomUUID().slice(0, 8)}`,
		namespace,
		natsUrl: url(env, "NATS_URL", ["nats:", "tls:", "ws:", "wss:"]),
		redisUrl: url(env, "REDIS_URL", ["redis:", "rediss:"]),
		mongodbUrl: url(env, "MONGODB_URL", ["mongodb:", "mongodb+srv:"]),
		dataDir: path.resolve(str(env, "DATA_DIR") ?? "./data"),
		logLevel,
		// auto: pretty only when a person is watching; a pipe or a file gets JSON.
		logFormat: logFormat === "auto" ? (process.stdout.isTTY ? "pretty" : "json") : (logFormat as Config["logFormat"]),
		requestTimeoutMs: int(env, "REQUEST_TIMEOUT_MS", 10000, 100, 600000),
		// Inside Docker's default 10 s between SIGTERM and SIGKILL, with time left to end the rest.
		shutdownGraceMs: int(env, "SHUTDOWN_GRACE_MS", 8000, 0, 600000),
		metricsPort: str(env, "METRICS_PORT") == null ? undefined : int(env, "METRICS_PORT", 0, 0, 65535),
		metricsSampleMs: int(env, "METRICS_SAMPLE_MS", 5000, 100, 600000),
		publicUrl,
		uiBaseUrl: url(env, "UI_BASE_URL", ["http:", "https:"], "http://localhost:3000")!.replace(/\/+$/, ""),
		uiCallbackPath,
		idp: idpConfig,
		accountRepairGraceMs: int(env, "ACCOUNT_REPAIR_GRACE_SECONDS", 300, 1, 86400) * 1000,
		social: socialConfig,
		notifications: notifications(env),
		webhooks: webhooks(env),
		outbound: outbound(env),
		gateway: {
			corsOrigins: corsOrigins(env),
			trustedProxies: trustedProxies(env),
			rateLimits: rateLimits(env),
			live: {
				maxPerPrincipal: int(env, "SSE_MAX_STREAMS_PER_PRINCIPAL", 10, 1, 100000),
				maxPerNode: int(env, "SSE_MAX_STREAMS_PER_NODE", 2000, 1, 1000000),
				heartbeatMs: int(env, "SSE_HEARTBEAT_MS", 15000, 100, 600000)
			}
		},
		accounts: accounts(env)
	};
}
