/**
 * The configuration schema: every environment variable the platform reads, once, with
 * its kind, default, meaning and group (the rules between variables are in rules.ts).
 * lib/config.ts loads and checks an environment with it; lib/config/reference.ts
 * writes docs/configuration.md and .env.example from it (`npm run config:docs`), and a
 * test fails when those files no longer match. A new variable is one entry here.
 */
import path from "node:path";
import { parseAddressRange } from "../net/client-ip";
import { SENDER_ADDRESS } from "../email-address";
import {
	AES_KEY_FORMAT,
	aesKey,
	choice,
	commaList,
	flag,
	optional,
	orEmpty,
	parsed,
	text,
	uiPath,
	url,
	vapidPrivateKey,
	vapidPublicKey,
	wholeNumber,
	type Field
} from "./fields";

export const ALL_SERVICES = ["api-gateway", "auth", "actors", "documents", "notifications", "dispatcher", "webhooks", "outbound"] as const;
export type ServiceName = (typeof ALL_SERVICES)[number];

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export const CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"] as const;
export const EMAIL_PROVIDERS = ["ses", "smtp", "file"] as const;
/** What `EMAIL_PROVIDERS` may list: the kinds, and a second SMTP server (`SMTP_BACKUP_URL`). */
export const EMAIL_PROVIDER_NAMES = [...EMAIL_PROVIDERS, "smtp-backup"] as const;
export const SMS_PROVIDERS = ["file", "aws", "smpp"] as const;
export type EmailProviderName = (typeof EMAIL_PROVIDER_NAMES)[number];
export type SmsProviderName = (typeof SMS_PROVIDERS)[number];
export const PUSH_PROVIDERS = ["web-push", "file"] as const;
export const RATE_LIMITED_ROUTES = ["login", "register", "refresh", "exchange", "forgot", "verification", "redeem", "service"] as const;

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

/** The reference's sections, in its order, each with what its variables are about. */
export const GROUPS = {
	Gateway: "The HTTP entry point: where it listens, the address it is reached at, and whom it believes.",
	Cluster: "Which services a process runs and how the nodes of one platform find each other.",
	Storage: "Where data lives. Nothing is needed for one process on one machine.",
	Operations: "Logs, metrics and an orderly stop.",
	"Identity provider": "The embedded provider (the default) or Cognito, and the accounts the platform keeps.",
	Accounts: "Email verification and the web app's pages that account mails and sign-in lead to.",
	"Social sign-in": "Sign-in through an OAuth 2.0 / OpenID Connect provider (Google by default); off until a client id is set.",
	Notifications: "Who may send, and how the dispatchers work through the queue.",
	Email: "The EMAIL channel: provider, sender and rate.",
	SMS: "The SMS channel: provider, sender and rate.",
	Push: "The PUSH channel (Web Push).",
	"Provider webhooks":
		"Delivery outcomes that SES and AWS SMS publish through SNS to `POST /notifications/webhooks/email-provider` and `/sms-provider` (see [Delivery-outcome webhook](notifications.md#delivery-outcome-webhook)).",
	"Outbound webhooks":
		"Status events the platform delivers to the endpoints their owners register (see [Outbound webhooks](notifications.md#outbound-webhooks-status-pushed-to-your-services)).",
	Limits: "Rate limits per client address and per account, and live status streams."
} as const;
export type Group = keyof typeof GROUPS;

export interface Variable<T = unknown> {
	readonly group: Group;
	/** What it does, in one or two sentences of Markdown (links relative to docs/). */
	readonly description: string;
	readonly format: string;
	readonly schema: Field<T>["schema"];
	/** The text an unset variable takes: parsed like a set value, so the reference's default is the one applied. */
	readonly default?: string;
	/** A default that follows other variables, as the reference words it (the loader computes it); `example` is then its value when nothing is set. */
	readonly derivedDefault?: string;
	/** What unset means when there is no default, for the reference's Default column. */
	readonly whenUnset?: string;
	/** A value .env.example shows when there is no default (never for a secret). */
	readonly example?: string;
	/** Keys, passwords and URLs that may carry one: never echoed in a message, left empty in .env.example. */
	readonly secret: boolean;
}

interface Spec {
	description: string;
	default?: string;
	derivedDefault?: string;
	whenUnset?: string;
	example?: string;
	secret?: boolean;
}

function variable<T>(group: Group, field: Field<T>, spec: Spec): Variable<T> {
	return { group, format: field.format, schema: field.schema, ...spec, secret: spec.secret ?? false };
}

const HTTP = ["http:", "https:"];
const httpUrl = url(HTTP);
/** A trailing slash dropped, so `${base}/path` never doubles it. */
const baseUrl: Field<string> = { format: httpUrl.format, schema: httpUrl.schema.transform(v => v.replace(/\/+$/, "")) };

const services = parsed(`\`all\`, or a comma-separated list of ${ALL_SERVICES.map(s => `\`${s}\``).join(", ")}`, (value, fail): ServiceName[] => {
	if (value === "all") return [...ALL_SERVICES];
	const names = value.split(",").map(s => s.trim()).filter(Boolean);
	if (names.length === 0) return fail("names no service");
	for (const n of names) {
		if (!(ALL_SERVICES as readonly string[]).includes(n)) fail(`names an unknown service "${n}" (known: ${ALL_SERVICES.join(", ")})`);
	}
	return [...new Set(names)] as ServiceName[];
});

/**
 * OTEL_EXPORTER_OTLP_HEADERS as the OpenTelemetry specification writes it: `key=value`
 * pairs separated by commas, values percent-encoded. A problem never repeats a value,
 * which is usually an API key.
 */
const otlpHeaders = orEmpty(
	parsed("`key=value` pairs separated by commas", (value, fail): Record<string, string> => {
		const headers: Record<string, string> = {};
		for (const pair of value.split(",").map(p => p.trim()).filter(Boolean)) {
			const at = pair.indexOf("=");
			const key = at > 0 ? pair.slice(0, at).trim() : "";
			if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) return fail("must be key=value pairs separated by commas, each key a header name");
			let decoded: string;
			try {
				decoded = decodeURIComponent(pair.slice(at + 1).trim());
			} catch {
				return fail(`holds a value for "${key}" that is not percent-encoded correctly`);
			}
			if (/[\r\n\0]/.test(decoded)) return fail(`holds a value for "${key}" with a line break or NUL`);
			headers[key] = decoded;
		}
		return headers;
	}),
	(): Record<string, string> => ({})
);

export const SAMPLERS = ["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"] as const;

const samplerRatio = parsed("a number from 0 to 1", (value, fail) => {
	const ratio = /^(0|1|0?\.\d+|1\.0*)$/.test(value) ? Number(value) : NaN;
	return Number.isNaN(ratio) ? fail("must be a number from 0 to 1") : ratio;
});

/** An ordered list of providers for failover, each one known (a repeated name counts once). */
function providerList<const V extends string>(names: readonly V[]) {
	return commaList(`an ordered, comma-separated list of ${names.map(n => `\`${n}\``).join(", ")}`, (entry, fail): V => {
		if (!(names as readonly string[]).includes(entry)) fail(`names an unknown provider "${entry}" (known: ${names.join(", ")})`);
		return entry as V;
	});
}

const corsOrigins = commaList("comma-separated origins (scheme, host, optional port)", (origin, fail) => {
	const u = URL.canParse(origin) ? new URL(origin) : undefined;
	// Compared with the Origin header as it is, so only the exact serialized form can ever match.
	if (!u || (u.protocol !== "https:" && u.protocol !== "http:") || u.origin !== origin) {
		return fail(`holds "${origin}", which is not an origin like https://app.example.com (scheme, host, optional port; no path or trailing slash)`);
	}
	return origin;
});

const addressRanges = commaList("comma-separated IP addresses and CIDR ranges", (entry, fail) =>
	parseAddressRange(entry) ? entry : fail(`holds "${entry}", which is not an IP address or CIDR range`)
);

const topicArns = commaList("comma-separated SNS topic ARNs", (arn, fail) =>
	/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/.test(arn) ? arn : fail(`holds an invalid topic ARN "${arn}"`)
);

const previousKeys = commaList(`comma-separated keys, each ${AES_KEY_FORMAT.replace(/ \(.*\)$/, "")}`, aesKey);

const authorizationParams = orEmpty(
	parsed("form-encoded parameters (`a=1&b=2`)", (value, fail) => {
		const params = Object.fromEntries(new URLSearchParams(value));
		for (const key of Object.keys(params)) {
			if (RESERVED_AUTHORIZATION_PARAMS.includes(key)) fail(`may not set "${key}": the platform sets it`);
		}
		return params;
	}),
	() => ({})
);

/** An SMSC to bind to, from SMPP_URL. The password never leaves this object (see SECURITY.md); SMPP 3.4 limits system_id to 15 octets and password to 8. */
export interface SmppConfig {
	host: string;
	port: number;
	tls: boolean;
	systemId: string;
	password: string;
}

const smppUrl = parsed("`smpp://system_id:password@host:port` (`ssmpp://` for TLS)", (value, fail): SmppConfig => {
	const u = URL.canParse(value) ? new URL(value) : undefined;
	// The messages name the variable only: the URL carries the SMSC password.
	if (!u) return fail("must be a URL");
	if (u.protocol !== "smpp:" && u.protocol !== "ssmpp:") return fail("must use smpp: or ssmpp:");
	const systemId = decodeURIComponent(u.username);
	const password = decodeURIComponent(u.password);
	if (!systemId || !password) return fail("must carry the credentials: smpp://system_id:password@host:port");
	if (systemId.length > 15 || password.length > 8) return fail("holds a system_id over 15 or a password over 8 characters (SMPP 3.4 limits)");
	if (!u.hostname || (u.pathname !== "" && u.pathname !== "/") || u.search || u.hash) return fail("must be smpp://system_id:password@host:port with nothing after the port");
	const tls = u.protocol === "ssmpp:";
	return { host: u.hostname.replace(/^\[|\]$/g, ""), port: u.port ? Number(u.port) : tls ? 3550 : 2775, tls, systemId, password };
});

const vapidSubject = parsed("a `mailto:` or `https:` URL", (value, fail) => {
	const mailto = /^mailto:[^\s@<>"]+@[^\s@<>"]+$/.test(value);
	if (!mailto && !(URL.canParse(value) && new URL(value).protocol === "https:")) fail("must be a mailto: or https: URL");
	return value;
});

const snsHostPattern = parsed("a regular expression anchored with `^` and `$`", (source, fail) => {
	let pattern: RegExp;
	try {
		pattern = new RegExp(source);
	} catch {
		return fail("must be a regular expression");
	}
	if (!source.startsWith("^") || !source.endsWith("$")) return fail("must be anchored with ^ and $, or any host containing a match would pass");
	return pattern;
});

const retryDelays = parsed("comma-separated whole numbers of milliseconds", (value, fail) =>
	/^\d+(,\d+)*$/.test(value) ? value.split(",").map(Number) : fail("must be comma-separated whole numbers of milliseconds")
);

const customAuthSecret = parsed("at least 32 characters", (value, fail) => (value.length < 32 ? fail("must be at least 32 characters") : value));

const anything = text("any text");
const key32 = parsed(AES_KEY_FORMAT, aesKey);

const rateLimit = (value: number, description: string) => variable("Limits", wholeNumber(0, 1_000_000), { default: String(value), description });

export const VARIABLES = {
	// ---- Gateway
	PORT: variable("Gateway", wholeNumber(0, 65535), { default: "8500", description: "Port the gateway listens on." }),
	PUBLIC_URL: variable("Gateway", optional(baseUrl), {
		derivedDefault: "`http://localhost:` + `PORT`",
		example: "http://localhost:8500",
		description:
			"The platform's address as browsers and mail readers reach it: the embedded provider's issuers (`PUBLIC_URL/idp/actors`, `PUBLIC_URL/idp/services`), the social callback and unsubscribe links are built from it. Every node of a cluster must have the same value, so set it there."
	}),
	CORS_ORIGINS: variable("Gateway", corsOrigins, {
		whenUnset: "empty (no CORS headers at all)",
		example: "https://app.example.com",
		description: "Exact origins (`https://app.example.com`) whose pages may read the API's answers; see [Gateway security](api.md#gateway-security)."
	}),
	TRUSTED_PROXIES: variable("Gateway", addressRanges, {
		whenUnset: "empty (the socket's peer is the client)",
		example: "10.0.0.0/8",
		description: "The proxies in front of the gateways; only their `X-Forwarded-For` is read to find the client's address."
	}),

	// ---- Cluster
	SERVICES: variable("Cluster", services, {
		default: "all",
		description: "The services this process runs; `actors` also runs feature flags, and `notifications` also preferences and the console's statistics."
	}),
	NODE_ID: variable("Cluster", optional(anything), {
		whenUnset: "generated (`node-` and 8 random characters)",
		example: "api-1",
		description:
			"This node's Moleculer node id, unique in the cluster. Give each auth node a fixed one: restarted after a crash, it then repairs at once the registrations it cut off (see [Identity providers](accounts.md#identity-providers))."
	}),
	NAMESPACE: variable("Cluster", text("letters, digits, `_`, `.`, `-`", /^[A-Za-z0-9_.-]+$/, "may hold only letters, digits, _ . -"), {
		default: "auth-notify",
		description: "Moleculer namespace, the same on every node of one platform; also the prefix of its Redis keys."
	}),
	NATS_URL: variable("Cluster", optional(url(["nats:", "tls:", "ws:", "wss:"])), {
		whenUnset: "unset (one process, no transporter)",
		secret: true,
		description: "The NATS server that joins the nodes, for example `nats://127.0.0.1:4222` (secret, as it may carry a password); see [Running several nodes](cluster.md)."
	}),
	REQUEST_TIMEOUT_MS: variable("Cluster", wholeNumber(100, 600_000), {
		default: "10000",
		description:
			"How long a call between services may take before it fails (`REQUEST_TIMEOUT`, answered 504); nested calls get what is left of it, and a call fails up to 25 ms after its deadline."
	}),

	// ---- Storage
	DATA_DIR: variable("Storage", { format: "a directory", schema: anything.schema.transform(dir => path.resolve(dir)) }, {
		default: "./data",
		description: "The embedded store (`store.sqlite`), uploaded files (`files/`, without MongoDB) and the file providers' outbox; a gateway-only node uses none of it."
	}),
	MONGODB_URL: variable("Storage", optional(url(["mongodb:", "mongodb+srv:"])), {
		whenUnset: "unset (the embedded SQLite store in `DATA_DIR`)",
		secret: true,
		description: "MongoDB for all data, for example `mongodb://127.0.0.1:27017/auth-notify` (secret, as it may carry a password); see [MongoDB](mongodb.md)."
	}),
	REDIS_URL: variable("Storage", optional(url(["redis:", "rediss:"])), {
		whenUnset: "unset (in-process)",
		secret: true,
		description:
			"Redis for temporary tokens, rate limits, send rates and the cache, shared by every node, for example `redis://127.0.0.1:6379` (secret, as it may carry a password); unset, each process keeps its own."
	}),

	// ---- Operations
	LOG_LEVEL: variable("Operations", choice(LOG_LEVELS), { default: "info", description: "The least important log lines written." }),
	LOG_FORMAT: variable("Operations", choice(["auto", "json", "pretty"]), {
		default: "auto",
		description: "`pretty`: colored one-line logs for a person at a terminal; `json`: one JSON object a line, for collectors; `auto`: pretty when stdout is a terminal, else json."
	}),
	METRICS_PORT: variable("Operations", optional(wholeNumber(0, 65535)), {
		whenUnset: "unset (metrics off)",
		example: "3030",
		description: "Serve Prometheus metrics at `http://<node>:METRICS_PORT/metrics` (Moleculer's and the notification metrics)."
	}),
	METRICS_SAMPLE_MS: variable("Operations", wholeNumber(100, 600_000), {
		default: "5000",
		description: "How often a notifications node reads queue depth and age for the metrics."
	}),
	OTEL_EXPORTER_OTLP_ENDPOINT: variable("Operations", optional(baseUrl), {
		whenUnset: "unset (traces off)",
		example: "http://127.0.0.1:4318",
		description:
			"Send OpenTelemetry traces over OTLP/HTTP (JSON) to this collector; spans are posted to `/v1/traces` below it (see [Traces](operations.md#traces))."
	}),
	OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: variable("Operations", optional(httpUrl), {
		whenUnset: "`OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`",
		description: "The full URL spans are posted to, instead of the one made from `OTEL_EXPORTER_OTLP_ENDPOINT`; setting it alone turns traces on."
	}),
	OTEL_EXPORTER_OTLP_HEADERS: variable("Operations", otlpHeaders, {
		whenUnset: "none",
		secret: true,
		description: "Headers sent with every export (a collector's API key, say), as `key=value` pairs separated by commas, values percent-encoded."
	}),
	OTEL_SERVICE_NAME: variable("Operations", text("a service name"), { default: "auth-notify", description: "The `service.name` of the spans' resource." }),
	OTEL_BSP_SCHEDULE_DELAY: variable("Operations", wholeNumber(1, 600_000), {
		default: "5000",
		description: "Milliseconds finished spans wait to be exported together."
	}),
	OTEL_TRACES_SAMPLER: variable("Operations", choice(SAMPLERS), {
		default: "parentbased_always_on",
		description:
			"Which traces are kept. Traces start only at the platform's own roots (a request at the gateway, a delivery), so the parent-based samplers decide as the plain ones do."
	}),
	OTEL_TRACES_SAMPLER_ARG: variable("Operations", samplerRatio, {
		default: "1",
		description: "The share of traces kept by `traceidratio` and `parentbased_traceidratio`, from 0 to 1."
	}),
	SHUTDOWN_GRACE_MS: variable("Operations", wholeNumber(0, 600_000), {
		default: "8000",
		description:
			"On SIGTERM or SIGINT, how long requests and uploads under way get to finish before the rest is answered 503 `SHUTTING_DOWN`; the default fits in Docker's 10 s (see [Running in production](operations.md#running-in-production))."
	}),

	// ---- Identity provider
	IDP_ACTOR_POOL_ID: variable("Identity provider", optional(anything), {
		whenUnset: "unset (the embedded provider)",
		example: "us-west-2_AbCdEf123",
		description: "Cognito user pool for users; setting it selects Cognito (see [Cognito](cognito.md))."
	}),
	IDP_ACTOR_CLIENT_ID: variable("Identity provider", optional(anything), {
		whenUnset: "unset (embedded: `embedded-actors`)",
		example: "1example23456789",
		description: "App client of the user pool; with the embedded provider, the `client_id` and `aud` of the tokens it issues."
	}),
	IDP_ACTOR_CLIENT_SECRET: variable("Identity provider", optional(anything), {
		secret: true,
		description: "Cognito: the user pool app client's secret, when it has one (enables `SECRET_HASH`)."
	}),
	IDP_SERVICE_POOL_ID: variable("Identity provider", optional(anything), {
		example: "us-west-2_GhIjKl456",
		description: "Cognito user pool for service accounts."
	}),
	IDP_SERVICE_CLIENT_ID: variable("Identity provider", optional(anything), {
		whenUnset: "unset (embedded: `embedded-services`)",
		example: "2example34567890",
		description: "App client of the service pool; with the embedded provider, the `aud` of service tokens."
	}),
	IDP_SERVICE_CLIENT_SECRET: variable("Identity provider", optional(anything), {
		secret: true,
		description: "Cognito: the service pool app client's secret, when it has one."
	}),
	IDP_SERVICE_ACCOUNT_USERNAME: variable("Identity provider", optional(anything), {
		example: "platform",
		description:
			"The account the platform's own services sign in with for their service tokens (required with Cognito); without it the embedded provider signs them directly."
	}),
	IDP_SERVICE_ACCOUNT_PASSWORD: variable("Identity provider", optional(anything), {
		secret: true,
		description: "That account's password."
	}),
	IDP_ENDPOINT: variable("Identity provider", optional(httpUrl), {
		whenUnset: "unset (AWS default)",
		example: "http://127.0.0.1:9229",
		description: "Cognito API endpoint override, for example cognito-local's."
	}),
	CLOUD_REGION: variable("Identity provider", text("an AWS region", /^[a-z0-9-]+$/, "must look like us-west-2"), {
		default: "us-west-2",
		description: "AWS region of Cognito, SES and SMS."
	}),
	IDP_ACCESS_TOKEN_TTL_SECONDS: variable("Identity provider", wholeNumber(5, 86400), {
		default: "3600",
		description: "Embedded provider: lifetime of access, ID and service tokens, in seconds."
	}),
	IDP_REFRESH_TOKEN_TTL_SECONDS: variable("Identity provider", wholeNumber(300, 365 * 86400), {
		default: "2592000",
		description: "Embedded provider: lifetime of a refresh token, in seconds (30 days by default)."
	}),
	REFRESH_TOKEN_REUSE_INTERVAL_SECONDS: variable("Identity provider", wholeNumber(0, 300), {
		default: "10",
		description:
			"Embedded provider: a rotated refresh token presented again within this many seconds gets the same successor (parallel tabs); later it is reuse and ends the session. `0` turns the grace off."
	}),
	IDP_KEY_ENCRYPTION_KEY: variable("Identity provider", optional(key32), {
		whenUnset: "unset (signing keys stored in clear)",
		secret: true,
		description:
			"Embedded provider: seals the private signing keys in the store (AES-256-GCM). Set the same key on the nodes that sign (`auth`, `documents`); a key stored in clear is sealed at the next start, and a wrong or missing key stops the start. Cognito: seals each session's refresh token in the platform's session record, so ending one session by its id also revokes it at the pool (`RevokeToken`); unset, only its hash is kept."
	}),
	IDP_CUSTOM_AUTH_SECRET: variable("Identity provider", optional(customAuthSecret), {
		secret: true,
		description: "Cognito with social sign-in: shared with the pool's custom-auth triggers (see [Cognito](cognito.md#cognito-and-social-sign-in))."
	}),
	BOOTSTRAP_ADMIN_EMAIL: variable("Identity provider", optional(anything), {
		example: "admin@example.com",
		description: "Makes sure this administrator (group `admin`) exists at start, with `BOOTSTRAP_ADMIN_PASSWORD`."
	}),
	BOOTSTRAP_ADMIN_PASSWORD: variable("Identity provider", optional(anything), {
		secret: true,
		description: "That administrator's password."
	}),
	ACCOUNT_REPAIR_GRACE_SECONDS: variable("Identity provider", wholeNumber(1, 86400), {
		default: "300",
		description:
			"How long an account creation may take before auth nodes repair it as cut off by a crash (see [Identity providers](accounts.md#identity-providers)); also their repair interval, up to a minute."
	}),

	// ---- Accounts
	REQUIRE_VERIFIED_EMAIL: variable("Accounts", flag(), {
		default: "false",
		description: "`true`: login and refresh of a user whose email is not verified answer 403 `EMAIL_NOT_VERIFIED` (see [Account lifecycle](accounts.md#account-lifecycle))."
	}),
	UI_BASE_URL: variable("Accounts", optional(baseUrl), {
		derivedDefault: "`PUBLIC_URL` + `/ui`",
		example: "http://localhost:8500/ui",
		description:
			"The web app's address: social sign-in ends there, and the verification and reset mails link to its pages. Unset, they link to the small pages the platform serves itself under `/ui` (see [Quick start](quick-start.md#verify-your-address-and-send-to-yourself))."
	}),
	UI_CALLBACK_PATH: variable("Accounts", text("a path starting with one `/`", /^\/(?!\/)/, "must be a path starting with a single /"), {
		default: "/auth/callback",
		description: "The page under `UI_BASE_URL` that social sign-in sends the browser to, with the temporary token. With `UI_BASE_URL` unset, the platform serves it (at the default, or at a path of one segment): it exchanges the token and says who signed in."
	}),
	UI_VERIFY_EMAIL_PATH: variable("Accounts", uiPath(), {
		default: "/verify-email",
		description: "The page under `UI_BASE_URL` the verification mail links to; the token travels in the fragment (`#token=…`)."
	}),
	UI_MAGIC_LINK_PATH: variable("Accounts", uiPath(), {
		default: "/magic-link",
		description: "The page under `UI_BASE_URL` a one-time code's mail links to (the magic link); the token travels in the fragment."
	}),
	UI_RESET_PASSWORD_PATH: variable("Accounts", uiPath(), {
		default: "/reset-password",
		description: "The page under `UI_BASE_URL` the password reset mail links to; the token travels in the fragment."
	}),
	UI_NOT_ME_PATH: variable("Accounts", uiPath(), {
		default: "/not-me",
		description: "The page under `UI_BASE_URL` a security alert's \"not me\" link opens; the token travels in the fragment (see [Security alerts](accounts.md#security-alerts))."
	}),
	AUDIT_RETENTION_DAYS: variable("Accounts", wholeNumber(1, 3650), {
		default: "400",
		description: "Audit events older than this many days are removed by a periodic sweep (see [Audit timeline](accounts.md#audit-timeline))."
	}),
	LOGIN_LOCKOUT_THRESHOLD: variable("Accounts", wholeNumber(1, 1000), {
		default: "10",
		description: "Failed password sign-ins of one account within 15 minutes that lock its password sign-in (see [Lockout](accounts.md#lockout)); the answer stays 401 `INVALID_CREDENTIALS`."
	}),
	LOGIN_LOCKOUT_SECONDS: variable("Accounts", wholeNumber(1, 86400), {
		default: "900",
		description: "How long a lockout refuses password sign-in; a password reset ends it at once."
	}),
	OTP_FALLBACK_AFTER_SECONDS: variable("Accounts", wholeNumber(1, 3600), {
		default: "20",
		description:
			"A one-time code not SENT within this many seconds (or FAILED, BOUNCED or SUPPRESSED before) also goes out on the account's other verified channel, phone or email (see [One-time codes](accounts.md#one-time-codes-and-magic-links))."
	}),
	OTP_SIGNUP: variable("Accounts", flag(), {
		default: "false",
		description:
			"`true`: POST /auth/otp for an unknown email address sends a code, and its verification creates the account (embedded provider only). `false`: the same 202, and nothing is sent."
	}),
	MFA_ENFORCE: variable("Accounts", choice(["none", "admins", "all"] as const), {
		default: "none",
		description:
			"Who must have a second factor: `admins` (group `admin`) or `all`. A sign-in of such a user without one answers 403 `MFA_ENROLLMENT_REQUIRED` with an `mfaToken` that only the enrolment routes accept (see [Multi-factor authentication](accounts.md#multi-factor-authentication))."
	}),
	STEP_UP_MAX_AGE_SECONDS: variable("Accounts", wholeNumber(1, 86400), {
		default: "300",
		description: "Step-up routes (password change, factor changes) need a sign-in at most this old (`auth_time`), else 401 `STEP_UP_REQUIRED`."
	}),
	MFA_TOTP_ISSUER: variable("Accounts", anything, {
		default: "auth-notify",
		description: "The issuer authenticator apps show beside a TOTP factor (in its `otpauthUri`)."
	}),
	WEBAUTHN_RP_ID: variable("Accounts", optional(text("a domain name", /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, "must be a lower-case domain name (no scheme, port or IP address)")), {
		derivedDefault: "the host of `PUBLIC_URL`",
		example: "localhost",
		description:
			"The WebAuthn relying party id passkeys are bound to: the domain of the pages that register and use them, or a parent of it (see [Passkeys](accounts.md#passkeys)). Changing it strands every passkey registered under the old one."
	}),
	WEBAUTHN_RP_NAME: variable("Accounts", anything, {
		default: "auth-notify",
		description: "The name browsers and authenticators show beside a passkey being registered."
	}),
	WEBAUTHN_ORIGINS: variable("Accounts", optional(corsOrigins), {
		derivedDefault: "`UI_BASE_URL` and `PUBLIC_URL`",
		example: "http://localhost:8500",
		description: "Comma-separated origins of the pages that run passkey ceremonies; a response signed for any other origin is refused."
	}),

	// ---- Social sign-in
	SOCIAL_OAUTH2_CLIENT_ID: variable("Social sign-in", optional(anything), {
		whenUnset: "unset (social sign-in off)",
		example: "platform-client",
		description:
			"OAuth 2.0 client id at the provider. Setting it turns social sign-in on; `SOCIAL_OAUTH2_CLIENT_SECRET` and `OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY` are then required."
	}),
	SOCIAL_OAUTH2_CLIENT_SECRET: variable("Social sign-in", optional(anything), { secret: true, description: "The client's secret at the provider." }),
	SOCIAL_OAUTH2_CLIENT_AUTH_METHOD: variable("Social sign-in", choice(CLIENT_AUTH_METHODS), {
		default: "client_secret_basic",
		description: "How the token request authenticates the client."
	}),
	SOCIAL_OAUTH2_ISSUER: variable("Social sign-in", httpUrl, {
		default: "https://accounts.google.com",
		description: "OpenID Connect issuer for discovery, and the provider's name in linked accounts: set it whenever the three endpoint URLs are set."
	}),
	SOCIAL_OAUTH2_AUTHORIZATION_URL: variable("Social sign-in", optional(httpUrl), {
		whenUnset: "unset (from discovery)",
		example: "https://provider.example.com/authorize",
		description: "Explicit authorization endpoint; with all three endpoint URLs there is no discovery and no ID token check."
	}),
	SOCIAL_OAUTH2_TOKEN_URL: variable("Social sign-in", optional(httpUrl), {
		whenUnset: "unset (from discovery)",
		example: "https://provider.example.com/token",
		description: "Explicit token endpoint."
	}),
	SOCIAL_OAUTH2_USERINFO_URL: variable("Social sign-in", optional(httpUrl), {
		whenUnset: "unset (from discovery)",
		example: "https://provider.example.com/userinfo",
		description: "Explicit userinfo endpoint."
	}),
	SOCIAL_OAUTH2_AUTHORIZATION_PARAMS: variable("Social sign-in", authorizationParams, {
		whenUnset: "empty",
		example: "access_type=offline&prompt=consent",
		description:
			"Extra parameters of the authorization request (Google gives refresh tokens with `access_type=offline&prompt=consent`); the platform's own (`state`, `redirect_uri`, `scope`, PKCE, `nonce`, …) cannot be overridden."
	}),
	SOCIAL_OAUTH2_REDIRECT_URI: variable("Social sign-in", optional(httpUrl), {
		derivedDefault: "`PUBLIC_URL` + `/auth/social/login/callback`",
		example: "http://localhost:8500/auth/social/login/callback",
		description: "This platform's callback URL, exactly as registered at the provider."
	}),
	OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY: variable("Social sign-in", optional(key32), {
		secret: true,
		description: "Encrypts the provider refresh tokens the platform stores (AES-256-GCM); required with social sign-in."
	}),
	OAUTH2_REFRESH_TOKEN_PREVIOUS_KEYS: variable("Social sign-in", previousKeys, {
		whenUnset: "empty",
		secret: true,
		description: "Earlier keys, still accepted for reading while tokens are sealed again under the current one (key rotation)."
	}),
	TEMP_TOKEN_TTL_SECONDS: variable("Social sign-in", wholeNumber(1, 300), {
		default: "300",
		description: "Lifetime of the temporary token social sign-in hands to the web app, in seconds."
	}),

	// ---- Notifications
	NOTIFICATIONS_USER_SEND: variable("Notifications", choice(["self", "off", "any"]), {
		default: "self",
		description:
			"Whom a user token may send to: `self` (EMAIL to its own verified address, PUSH to its own actor, no SMS), `off` (nobody), `any` (anyone: closed deployments only). Services and administrators always send to anyone."
	}),
	NOTIFICATIONS_QUOTA_PER_HOUR: variable("Notifications", wholeNumber(0, 1_000_000), {
		default: "100",
		description:
			"Notifications a user may send per hour (429 `RATE_LIMITED` with `Retry-After` beyond; shared through Redis when `REDIS_URL` is set); `0` is no limit. Services and administrators have none."
	}),
	DISPATCHER_CONCURRENCY: variable("Notifications", wholeNumber(1, 1000), { default: "32", description: "Sends in flight per dispatcher node." }),
	DISPATCHER_POLL_MS: variable("Notifications", wholeNumber(10, 60_000), {
		default: "1000",
		description: "How often a dispatcher looks for due work when no event wakes it (a safety net)."
	}),
	NOTIFICATION_LEASE_MS: variable("Notifications", wholeNumber(200, 3_600_000), {
		default: "60000",
		description: "How long a claimed notification stays with one dispatcher before another may take it over."
	}),
	NOTIFICATION_MAX_ATTEMPTS: variable("Notifications", wholeNumber(1, 100), { default: "8", description: "Attempts before a notification is FAILED." }),
	NOTIFICATION_RETRY_BASE_MS: variable("Notifications", wholeNumber(1, 3_600_000), {
		default: "30000",
		description: "The first retry's wait; each retry doubles it, with jitter between half and all of it."
	}),
	NOTIFICATION_RETRY_MAX_MS: variable("Notifications", wholeNumber(1, 86_400_000), {
		default: "3600000",
		description: "The longest wait between retries (never below `NOTIFICATION_RETRY_BASE_MS`)."
	}),
	EMAIL_SEND_TIMEOUT_MS: variable("Notifications", wholeNumber(100, 120_000), {
		default: "10000",
		description:
			"One send's time limit, on every channel (an SMPP send includes waiting for a bind); with several providers each one tried gets it (see [Provider failover](channels.md#provider-failover))."
	}),

	PROVIDER_FAILURE_THRESHOLD: variable("Notifications", wholeNumber(1, 1000), {
		default: "3",
		description:
			"Consecutive retryable failures after which a provider of `EMAIL_PROVIDERS` or `SMS_PROVIDERS` is skipped (see [Provider failover](channels.md#provider-failover))."
	}),
	PROVIDER_COOLDOWN_SECONDS: variable("Notifications", wholeNumber(1, 86_400), {
		default: "60",
		description: "How long a provider that reached `PROVIDER_FAILURE_THRESHOLD` is skipped before one message tries it again."
	}),

	// ---- Email
	EMAIL_PROVIDER: variable("Email", choice(EMAIL_PROVIDERS), {
		default: "file",
		description: "Where email goes: Amazon SES, an SMTP server, or `.eml` files under `DATA_DIR/outbox` (development). `EMAIL_PROVIDERS` replaces it when set."
	}),
	EMAIL_PROVIDERS: variable("Email", providerList(EMAIL_PROVIDER_NAMES), {
		whenUnset: "unset (`EMAIL_PROVIDER` alone)",
		example: "ses,smtp",
		description:
			"Providers in the order they are tried, for example `ses,smtp`: a retryable failure (timeout, connection error, 5xx, throttling) sends the same message through the next one (see [Provider failover](channels.md#provider-failover))."
	}),
	OUTBOX_THREAD: variable("Email", choice(["own", "store"] as const), {
		default: "own",
		description:
			"Where `EMAIL_PROVIDER=file` composes and writes its `.eml` files: a thread of its own, or the embedded store's thread (SQLite only), which saves about 20 MB of RSS and costs about a tenth of the delivery rate under a full load (see [Memory](operations.md#memory))."
	}),
	OUTBOX_THREAD_NICE: variable("Email", wholeNumber(0, 19), {
		default: "10",
		description:
			"The nice value of `OUTBOX_THREAD=own`'s thread on Linux, from 0 (as the others) to 19: where the cores are short, the threads that accept requests take a core from it at once (see [Thread priority](operations.md#thread-priority)). Raising a thread's nice value needs no privilege; elsewhere than Linux it is ignored."
	}),
	NOTIFICATION_MAIL_FROM_EMAIL: variable("Email", optional(text("an email address", SENDER_ADDRESS, "must be an email address")), {
		derivedDefault: "`noreply@` + `DOMAIN_ROOT`",
		example: "noreply@localhost",
		description: "The sender of every mail (`notification.mail.from-email`)."
	}),
	DOMAIN_ROOT: variable("Email", text("a domain name", /^[A-Za-z0-9.-]+$/, "must be a domain name"), {
		default: "localhost",
		description: "The domain of the default sender."
	}),
	SMTP_URL: variable("Email", optional(url(["smtp:", "smtps:"])), {
		secret: true,
		description: "The SMTP server for `EMAIL_PROVIDER=smtp`, for example `smtp://user:password@mail.example.com:587`; required then."
	}),
	SMTP_BACKUP_URL: variable("Email", optional(url(["smtp:", "smtps:"])), {
		secret: true,
		description: "A second SMTP server, for `smtp-backup` in `EMAIL_PROVIDERS`; required then."
	}),
	AWS_SES_ENDPOINT: variable("Email", optional(httpUrl), {
		whenUnset: "unset (AWS default)",
		example: "http://127.0.0.1:8005",
		description: "SES endpoint override (`aws.ses.endpoint`), for example a local emulator."
	}),
	SES_CONFIGURATION_SET: variable("Email", optional(text("an SES configuration set name", /^[A-Za-z0-9_-]{1,64}$/, "must be a configuration set name")), {
		example: "auth-notify-events",
		description: "The SES configuration set that publishes delivery events."
	}),
	EMAIL_SEND_RATE_PER_SECOND: variable("Email", optional(wholeNumber(0, 100_000)), {
		derivedDefault: "`14` with `ses`, else `0`",
		example: "0",
		description:
			"Emails per second across all dispatcher nodes (with `REDIS_URL`; without it, per node); `0` is no limit. SES accounts start at 14 a second; the others have no account to protect."
	}),

	// ---- SMS
	SMS_PROVIDER: variable("SMS", choice(SMS_PROVIDERS), {
		default: "file",
		description:
			"Where SMS go: JSON files under `DATA_DIR/outbox/sms` (development), AWS End User Messaging, or an SMSC over SMPP (see [SMS](channels.md#sms)). `SMS_PROVIDERS` replaces it when set."
	}),
	SMS_PROVIDERS: variable("SMS", providerList(SMS_PROVIDERS), {
		whenUnset: "unset (`SMS_PROVIDER` alone)",
		example: "aws,smpp",
		description: "Providers in the order they are tried, for example `aws,smpp`; a retryable failure sends the same message through the next one."
	}),
	SMS_ORIGINATION_IDENTITY: variable("SMS", optional(anything), {
		whenUnset: "unset (AWS picks one; the SMSC's default)",
		example: "+15555550100",
		description:
			"The sender. `aws`: a phone number, sender id, pool id or their ARN (`OriginationIdentity`); `smpp`: the `source_addr`, a number (`+` for international) or an alphanumeric sender id of up to 11 characters."
	}),
	AWS_SMS_ENDPOINT: variable("SMS", optional(httpUrl), {
		whenUnset: "unset (AWS default)",
		example: "https://sms-voice.us-west-2.amazonaws.com",
		description: "AWS End User Messaging SMS endpoint override (`sms-voice`), for example a VPC endpoint."
	}),
	SMS_CONFIGURATION_SET: variable("SMS", optional(text("a configuration set name or ARN", /^[A-Za-z0-9_:/.-]{1,256}$/, "must be a configuration set name or ARN")), {
		example: "auth-notify-sms",
		description: "`aws`: the configuration set whose event destination publishes delivery events."
	}),
	SMPP_URL: variable("SMS", optional(smppUrl), {
		secret: true,
		description: "`smpp`: the SMSC and the credentials to bind with; required then, and never logged."
	}),
	SMS_SEND_RATE_PER_SECOND: variable("SMS", optional(wholeNumber(0, 100_000)), {
		derivedDefault: "`1` with `aws`, else `0`",
		example: "0",
		description:
			"SMS per second across all dispatcher nodes (with `REDIS_URL`; without it, per node); `0` is no limit. One a second is the least AWS grants an origination identity; an SMSC says itself when it is too fast."
	}),

	// ---- Push
	PUSH_VAPID_PUBLIC_KEY: variable("Push", optional(vapidPublicKey), {
		whenUnset: "unset (a pair generated once and kept in the store)",
		description:
			"The VAPID public key (as `npx web-push generate-vapid-keys` prints it); set both keys or neither, and they must belong together."
	}),
	PUSH_VAPID_PRIVATE_KEY: variable("Push", optional(vapidPrivateKey), { secret: true, description: "The VAPID private key." }),
	PUSH_VAPID_SUBJECT: variable("Push", optional(vapidSubject), {
		derivedDefault: "`mailto:` + `NOTIFICATION_MAIL_FROM_EMAIL`",
		example: "mailto:noreply@localhost",
		description: "The contact push services may write to about this sender."
	}),
	PUSH_PROVIDER: variable("Push", choice(PUSH_PROVIDERS), {
		default: "web-push",
		description:
			"Where push messages go: the subscribers' push services (Web Push), or JSON files under `DATA_DIR/outbox/push` (development: every PUSH notification is written, subscribed or not, and shows in the console's Outbox)."
	}),
	PUSH_ALLOW_INSECURE_ENDPOINTS: variable("Push", flag(), {
		default: "false",
		description: "**Tests only**: accept `http:`, loopback and private push endpoints."
	}),
	PUSH_SEND_RATE_PER_SECOND: variable("Push", wholeNumber(0, 100_000), {
		default: "0",
		description: "Push sends (each to all of an actor's subscriptions) per second across all dispatcher nodes; `0` is no limit (push services answer 429, which is retried)."
	}),

	// ---- Provider webhooks
	SNS_SIGNING_CERT_HOST_PATTERN: variable("Provider webhooks", snsHostPattern, {
		default: "^sns\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?$",
		description: "The host an SNS message's signing certificate (and SubscribeURL) must come from."
	}),
	SNS_TOPIC_ARNS: variable("Provider webhooks", topicArns, {
		whenUnset: "empty (any topic)",
		example: "arn:aws:sns:us-west-2:123456789012:ses-events",
		description: "The SNS topics whose messages are accepted."
	}),
	WEBHOOK_PROCESSING_ENABLED: variable("Provider webhooks", flag(), {
		default: "true",
		description: "`false`: the webhook answers 200 without changing any data."
	}),

	// ---- Outbound webhooks
	WEBHOOK_ALLOW_PRIVATE_URLS: variable("Outbound webhooks", flag(), {
		default: "false",
		description: "**Tests only**: endpoints may be `http:` and private or loopback addresses."
	}),
	WEBHOOK_TIMEOUT_MS: variable("Outbound webhooks", wholeNumber(100, 60_000), { default: "10000", description: "Deadline of one delivery attempt." }),
	WEBHOOK_RETRY_DELAYS_MS: variable("Outbound webhooks", retryDelays, {
		default: "5000,300000,1800000,7200000,18000000,36000000,36000000",
		description: "The wait before each retry; after the last one the delivery is FAILED. The default is Standard Webhooks' schedule, over 27 hours in all."
	}),
	WEBHOOK_RECOVERY_MARGIN_MS: variable("Outbound webhooks", wholeNumber(100, 3_600_000), {
		default: "120000",
		description:
			"How long after its time an event may still become durable (a busy store, clocks apart): the sweep for deliveries a crashed node did not store looks only at events this old."
	}),
	WEBHOOK_POLL_MS: variable("Outbound webhooks", wholeNumber(10, 60_000), {
		default: "500",
		description: "How often an `outbound` node looks for due deliveries when nothing wakes it."
	}),
	WEBHOOK_CONCURRENCY: variable("Outbound webhooks", wholeNumber(1, 1000), { default: "16", description: "Deliveries one `outbound` node sends at once." }),
	WEBHOOK_ENDPOINT_CONCURRENCY: variable("Outbound webhooks", wholeNumber(1, 1000), {
		default: "2",
		description: "Of those, how many go to one endpoint at once, so a slow or hanging endpoint cannot hold every slot."
	}),
	WEBHOOK_OWNER_CONCURRENCY: variable("Outbound webhooks", wholeNumber(1, 1000), {
		default: "4",
		description: "And how many go to one owner's endpoints together, so neither can one owner with several."
	}),
	WEBHOOK_MAX_ENDPOINTS_PER_OWNER: variable("Outbound webhooks", wholeNumber(1, 1000), {
		default: "10",
		description: "Webhook endpoints one user or service may have; more are refused 409 `WEBHOOK_ENDPOINT_LIMIT_REACHED`."
	}),

	// ---- Limits
	RATE_LIMIT_WINDOW_SECONDS: variable("Limits", wholeNumber(1, 86400), { default: "60", description: "Length of one rate-limit window; every limit below counts within it." }),
	RATE_LIMIT_LOGIN_PER_IP: rateLimit(100, "Login attempts per client address; `0` turns a limit off."),
	RATE_LIMIT_LOGIN_PER_USER: rateLimit(10, "Login attempts per username."),
	RATE_LIMIT_REGISTER_PER_IP: rateLimit(30, "Registrations per client address."),
	RATE_LIMIT_REGISTER_PER_USER: rateLimit(5, "Registrations per email."),
	RATE_LIMIT_REFRESH_PER_IP: rateLimit(300, "Refreshes (both refresh routes together) per client address."),
	RATE_LIMIT_EXCHANGE_PER_IP: rateLimit(300, "Temporary-token exchanges per client address."),
	RATE_LIMIT_FORGOT_PER_IP: rateLimit(30, "`POST /auth/password/forgot` per client address."),
	RATE_LIMIT_FORGOT_PER_USER: rateLimit(3, "`POST /auth/password/forgot` per email."),
	RATE_LIMIT_VERIFICATION_PER_IP: rateLimit(30, "`POST /auth/email/verification` per client address."),
	RATE_LIMIT_VERIFICATION_PER_USER: rateLimit(3, "`POST /auth/email/verification` per user."),
	RATE_LIMIT_REDEEM_PER_IP: rateLimit(60, "`POST /auth/email/verify` and `POST /auth/password/reset` together per client address."),
	RATE_LIMIT_SERVICE_PER_IP: rateLimit(100, "`POST /auth/services/token` per client address."),
	RATE_LIMIT_SERVICE_PER_USER: rateLimit(20, "`POST /auth/services/token` per service account."),
	SSE_MAX_STREAMS_PER_PRINCIPAL: variable("Limits", wholeNumber(1, 100_000), {
		default: "10",
		description: "Live status streams one user or service may hold open on one gateway node (429 beyond)."
	}),
	SSE_MAX_STREAMS_PER_NODE: variable("Limits", wholeNumber(1, 1_000_000), {
		default: "2000",
		description: "Live status streams one gateway node holds open at most (429 beyond)."
	}),
	SSE_HEARTBEAT_MS: variable("Limits", wholeNumber(100, 600_000), {
		default: "15000",
		description: "How often an open stream sends a comment line (and re-reads the timeline for anything a lost broker event did not bring)."
	})
};

export type VariableName = keyof typeof VARIABLES;
/** Every variable's parsed value; undefined where it is unset and has no default of its own. */
export type Values = { [K in VariableName]: (typeof VARIABLES)[K] extends Variable<infer T> ? T : never };

/** The email providers in the order they are tried: EMAIL_PROVIDERS when set, else EMAIL_PROVIDER alone. */
export function emailProviders(v: Pick<Values, "EMAIL_PROVIDER" | "EMAIL_PROVIDERS">): EmailProviderName[] {
	return v.EMAIL_PROVIDERS.length > 0 ? [...new Set(v.EMAIL_PROVIDERS)] : [v.EMAIL_PROVIDER];
}

/** The SMS providers in the order they are tried: SMS_PROVIDERS when set, else SMS_PROVIDER alone. */
export function smsProviders(v: Pick<Values, "SMS_PROVIDER" | "SMS_PROVIDERS">): SmsProviderName[] {
	return v.SMS_PROVIDERS.length > 0 ? [...new Set(v.SMS_PROVIDERS)] : [v.SMS_PROVIDER];
}
