/**
 * Configuration is read once and a bad value names its variable.
 */
import { createECDH } from "node:crypto";
import { ALL_SERVICES, ConfigError, loadConfig, validateEnv, type Env } from "../../lib/config";

/** As `npx web-push generate-vapid-keys` prints a pair: the private key padded to 32 bytes, since getPrivateKey drops leading zero bytes (one key in 256). */
function vapidPair() {
	const ecdh = createECDH("prime256v1");
	ecdh.generateKeys();
	const privateKey = ecdh.getPrivateKey();
	const padded = Buffer.concat([Buffer.alloc(32 - privateKey.length), privateKey]);
	return { PUSH_VAPID_PUBLIC_KEY: ecdh.getPublicKey().toString("base64url"), PUSH_VAPID_PRIVATE_KEY: padded.toString("base64url") };
}

describe("loadConfig", () => {
	it("should apply the contract's defaults when the environment is empty", () => {
		const c = loadConfig({});
		expect(c).toMatchObject({
			port: 8500,
			services: [...ALL_SERVICES],
			namespace: "auth-notify",
			logLevel: "info",
			uiBaseUrl: "http://localhost:8500/ui",
			uiCallbackPath: "/auth/callback",
			publicUrl: "http://localhost:8500"
		});
		expect(c.natsUrl).toBeUndefined();
		expect(c.redisUrl).toBeUndefined();
		expect(c.mongodbUrl).toBeUndefined();
		expect(c.idp).toMatchObject({ kind: "embedded", region: "us-west-2" });
		expect(c.social.redirectUri).toBe("http://localhost:8500/auth/social/login/callback");
		expect(c.dataDir).toMatch(/\/data$/);
		expect(c.accountRepairGraceMs).toBe(300_000);
	});

	it("should build the public address, and the social callback, from PORT when PUBLIC_URL is unset", () => {
		const c = loadConfig({ PORT: "9100" });
		expect(c.publicUrl).toBe("http://localhost:9100");
		expect(c.social.redirectUri).toBe("http://localhost:9100/auth/social/login/callback");
	});

	it("should take PUBLIC_URL as set, without its trailing slash, whatever the port", () => {
		const c = loadConfig({ PORT: "9100", PUBLIC_URL: "https://auth.example.com/" });
		expect(c.publicUrl).toBe("https://auth.example.com");
		expect(c.social.redirectUri).toBe("https://auth.example.com/auth/social/login/callback");
	});

	it("should select Cognito when IDP_ACTOR_POOL_ID is set with its companions", () => {
		const c = loadConfig({
			IDP_ACTOR_POOL_ID: "us-west-2_a",
			IDP_ACTOR_CLIENT_ID: "c",
			IDP_SERVICE_POOL_ID: "us-west-2_b",
			IDP_SERVICE_CLIENT_ID: "d",
			IDP_SERVICE_ACCOUNT_USERNAME: "svc",
			IDP_SERVICE_ACCOUNT_PASSWORD: "pw"
		});
		expect(c.idp.kind).toBe("cognito");
	});

	it("should run only the named services when SERVICES lists some", () => {
		expect(loadConfig({ SERVICES: "actors, auth,actors" }).services).toEqual(["actors", "auth"]);
	});

	const key32 = Buffer.alloc(32, 1).toString("base64");
	const social: Env = { SOCIAL_OAUTH2_CLIENT_ID: "client", SOCIAL_OAUTH2_CLIENT_SECRET: "secret", OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY: key32 };
	const cognito: Env = {
		IDP_ACTOR_POOL_ID: "us-west-2_a",
		IDP_ACTOR_CLIENT_ID: "c",
		IDP_SERVICE_POOL_ID: "us-west-2_b",
		IDP_SERVICE_CLIENT_ID: "d",
		IDP_SERVICE_ACCOUNT_USERNAME: "svc",
		IDP_SERVICE_ACCOUNT_PASSWORD: "pw"
	};
	const explicitEndpoints: Env = {
		SOCIAL_OAUTH2_AUTHORIZATION_URL: "https://p.example/authorize",
		SOCIAL_OAUTH2_TOKEN_URL: "https://p.example/token",
		SOCIAL_OAUTH2_USERINFO_URL: "https://p.example/userinfo"
	};

	it("should leave social sign-in off with a five-minute temporary token when SOCIAL_OAUTH2_CLIENT_ID is unset", () => {
		expect(loadConfig({}).social).toMatchObject({
			enabled: false,
			issuer: "https://accounts.google.com",
			clientAuthMethod: "client_secret_basic",
			authorizationParams: {},
			previousEncryptionKeys: [],
			temporaryTokenTtl: 300
		});
	});

	it("should turn social sign-in on with its options when the client, secret and key are set", () => {
		const previous = Buffer.alloc(32, 2).toString("base64");
		const c = loadConfig({
			...social,
			...cognito,
			IDP_CUSTOM_AUTH_SECRET: "x".repeat(32),
			SOCIAL_OAUTH2_CLIENT_AUTH_METHOD: "client_secret_post",
			SOCIAL_OAUTH2_AUTHORIZATION_PARAMS: "access_type=offline&prompt=consent",
			OAUTH2_REFRESH_TOKEN_PREVIOUS_KEYS: ` ${previous} ,`,
			TEMP_TOKEN_TTL_SECONDS: "1"
		});
		expect(c.social).toMatchObject({
			enabled: true,
			clientAuthMethod: "client_secret_post",
			authorizationParams: { access_type: "offline", prompt: "consent" },
			previousEncryptionKeys: [Buffer.alloc(32, 2)],
			temporaryTokenTtl: 1
		});
		expect(c.idp.customAuthSecret).toBe("x".repeat(32));
	});

	it("should answer no origin, trust no proxy and apply the documented rate limits when the gateway variables are unset", () => {
		expect(loadConfig({}).gateway).toEqual({
			corsOrigins: [],
			trustedProxies: [],
			live: { maxPerPrincipal: 10, maxPerNode: 2000, heartbeatMs: 15000 },
			rateLimits: {
				windowSeconds: 60,
				routes: {
					login: { perIp: 100, perUser: 10 },
					register: { perIp: 30, perUser: 5 },
					refresh: { perIp: 300, perUser: 0 },
					exchange: { perIp: 300, perUser: 0 },
					forgot: { perIp: 30, perUser: 3 },
					verification: { perIp: 30, perUser: 3 },
					redeem: { perIp: 60, perUser: 0 },
					service: { perIp: 100, perUser: 20 }
				}
			}
		});
	});

	it("should read the CORS origins, trusted proxies and limits when they are set", () => {
		const c = loadConfig({
			CORS_ORIGINS: "https://app.example.com, http://localhost:3000",
			TRUSTED_PROXIES: "10.0.0.0/8,::1",
			RATE_LIMIT_WINDOW_SECONDS: "300",
			RATE_LIMIT_LOGIN_PER_USER: "0",
			RATE_LIMIT_EXCHANGE_PER_IP: "7"
		});
		expect(c.gateway.corsOrigins).toEqual(["https://app.example.com", "http://localhost:3000"]);
		expect(c.gateway.trustedProxies).toEqual(["10.0.0.0/8", "::1"]);
		expect(c.gateway.rateLimits.windowSeconds).toBe(300);
		expect(c.gateway.rateLimits.routes.login).toEqual({ perIp: 100, perUser: 0 });
		expect(c.gateway.rateLimits.routes.exchange.perIp).toBe(7);
	});

	it("should accept explicit endpoints when the issuer names the provider", () => {
		expect(loadConfig({ ...social, ...explicitEndpoints, SOCIAL_OAUTH2_ISSUER: "https://p.example" }).social.enabled).toBe(true);
	});

	const bad: [string, Env][] = [
		["PORT", { PORT: "eighty" }],
		["PORT", { PORT: "70000" }],
		["SERVICES", { SERVICES: "actors,billing" }],
		["LOG_LEVEL", { LOG_LEVEL: "loud" }],
		["LOG_FORMAT", { LOG_FORMAT: "colour" }],
		["NATS_URL", { NATS_URL: "http://127.0.0.1:4222" }],
		["REDIS_URL", { REDIS_URL: "not a url" }],
		["MONGODB_URL", { MONGODB_URL: "postgres://x" }],
		["REQUEST_TIMEOUT_MS", { REQUEST_TIMEOUT_MS: "5" }],
		["NAMESPACE", { NAMESPACE: "a b" }],
		["UI_CALLBACK_PATH", { UI_CALLBACK_PATH: "//evil.example.com" }],
		["UI_BASE_URL", { UI_BASE_URL: "javascript:alert(1)" }],
		["CLOUD_REGION", { CLOUD_REGION: "US WEST" }],
		["IDP_ACTOR_CLIENT_ID", { IDP_ACTOR_POOL_ID: "pool" }],
		["BOOTSTRAP_ADMIN_PASSWORD", { BOOTSTRAP_ADMIN_EMAIL: "a@example.com" }],
		["IDP_SERVICE_ACCOUNT_PASSWORD", { IDP_SERVICE_ACCOUNT_USERNAME: "svc" }],
		["OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY", { OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY: "not base64!" }],
		["OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY", { OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY: key32.slice(0, 20) }],
		["OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY", { ...social, OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY: "" }],
		["IDP_KEY_ENCRYPTION_KEY", { IDP_KEY_ENCRYPTION_KEY: "not base64!" }],
		["IDP_KEY_ENCRYPTION_KEY", { IDP_KEY_ENCRYPTION_KEY: key32.slice(0, 20) }],
		["OAUTH2_REFRESH_TOKEN_PREVIOUS_KEYS", { OAUTH2_REFRESH_TOKEN_PREVIOUS_KEYS: `${key32},${key32.slice(0, 20)}` }],
		["SOCIAL_OAUTH2_CLIENT_SECRET", { ...social, SOCIAL_OAUTH2_CLIENT_SECRET: "" }],
		["SOCIAL_OAUTH2_CLIENT_AUTH_METHOD", { SOCIAL_OAUTH2_CLIENT_AUTH_METHOD: "private_key_jwt" }],
		["SOCIAL_OAUTH2_AUTHORIZATION_PARAMS", { SOCIAL_OAUTH2_AUTHORIZATION_PARAMS: "prompt=consent&redirect_uri=https://evil.example" }],
		["SOCIAL_OAUTH2_ISSUER", { ...social, ...explicitEndpoints }],
		["SOCIAL_OAUTH2_TOKEN_URL", { SOCIAL_OAUTH2_TOKEN_URL: "file:///etc/passwd" }],
		["TEMP_TOKEN_TTL_SECONDS", { TEMP_TOKEN_TTL_SECONDS: "301" }],
		["TEMP_TOKEN_TTL_SECONDS", { TEMP_TOKEN_TTL_SECONDS: "0" }],
		["IDP_CUSTOM_AUTH_SECRET", { ...social, ...cognito }],
		["IDP_CUSTOM_AUTH_SECRET", { IDP_CUSTOM_AUTH_SECRET: "too-short" }],
		["CORS_ORIGINS", { CORS_ORIGINS: "*" }],
		["CORS_ORIGINS", { CORS_ORIGINS: "https://app.example.com/" }],
		["CORS_ORIGINS", { CORS_ORIGINS: "https://app.example.com/path" }],
		["CORS_ORIGINS", { CORS_ORIGINS: "https://APP.example.com" }],
		["CORS_ORIGINS", { CORS_ORIGINS: "app.example.com" }],
		["CORS_ORIGINS", { CORS_ORIGINS: "null" }],
		["TRUSTED_PROXIES", { TRUSTED_PROXIES: "10.0.0.0/8,proxy.internal" }],
		["TRUSTED_PROXIES", { TRUSTED_PROXIES: "10.0.0.0/40" }],
		["RATE_LIMIT_WINDOW_SECONDS", { RATE_LIMIT_WINDOW_SECONDS: "0" }],
		["RATE_LIMIT_LOGIN_PER_IP", { RATE_LIMIT_LOGIN_PER_IP: "-1" }],
		["RATE_LIMIT_REGISTER_PER_USER", { RATE_LIMIT_REGISTER_PER_USER: "many" }],
		["ACCOUNT_REPAIR_GRACE_SECONDS", { ACCOUNT_REPAIR_GRACE_SECONDS: "0" }],
		["SMS_PROVIDER", { SMS_PROVIDER: "twilio" }],
		["SMPP_URL", { SMS_PROVIDER: "smpp" }],
		["SMPP_URL", { SMPP_URL: "http://acme:s3cret@smsc.example.com" }],
		["SMPP_URL", { SMPP_URL: "smpp://smsc.example.com:2775" }],
		["SMPP_URL", { SMPP_URL: "smpp://acme@smsc.example.com:2775" }],
		["SMPP_URL", { SMPP_URL: "smpp://acme:longer-than-8@smsc.example.com:2775" }],
		["SMPP_URL", { SMPP_URL: "smpp://acme:s3cret@smsc.example.com:2775/path" }],
		["SMS_ORIGINATION_IDENTITY", { SMS_PROVIDER: "smpp", SMPP_URL: "smpp://acme:s3cret@smsc.example.com", SMS_ORIGINATION_IDENTITY: "A-very-long-sender" }],
		["SMS_ORIGINATION_IDENTITY", { SMS_ORIGINATION_IDENTITY: "bad sender!" }],
		["SMS_CONFIGURATION_SET", { SMS_CONFIGURATION_SET: "has spaces" }],
		["AWS_SMS_ENDPOINT", { AWS_SMS_ENDPOINT: "ftp://sms.example.com" }],
		["SMS_SEND_RATE_PER_SECOND", { SMS_SEND_RATE_PER_SECOND: "-1" }],
		["PUSH_SEND_RATE_PER_SECOND", { PUSH_SEND_RATE_PER_SECOND: "fast" }],
		["PUSH_VAPID_PRIVATE_KEY", { PUSH_VAPID_PUBLIC_KEY: vapidPair().PUSH_VAPID_PUBLIC_KEY }],
		["PUSH_VAPID_PUBLIC_KEY", { PUSH_VAPID_PRIVATE_KEY: vapidPair().PUSH_VAPID_PRIVATE_KEY }],
		["PUSH_VAPID_PUBLIC_KEY", { ...vapidPair(), PUSH_VAPID_PUBLIC_KEY: vapidPair().PUSH_VAPID_PUBLIC_KEY }],
		["PUSH_VAPID_PUBLIC_KEY", { ...vapidPair(), PUSH_VAPID_PUBLIC_KEY: "not+base64url" }],
		["PUSH_VAPID_PRIVATE_KEY", { ...vapidPair(), PUSH_VAPID_PRIVATE_KEY: Buffer.alloc(31, 1).toString("base64url") }],
		["PUSH_VAPID_PRIVATE_KEY", { ...vapidPair(), PUSH_VAPID_PRIVATE_KEY: Buffer.alloc(32, 0).toString("base64url") }],
		["PUSH_VAPID_SUBJECT", { PUSH_VAPID_SUBJECT: "http://ops.example.com" }],
		["PUSH_VAPID_SUBJECT", { PUSH_VAPID_SUBJECT: "ops@example.com" }],
		["PUSH_ALLOW_INSECURE_ENDPOINTS", { PUSH_ALLOW_INSECURE_ENDPOINTS: "yes" }]
	];

	/** What loadConfig throws for this environment. */
	function failure(env: Env): unknown {
		try {
			loadConfig(env);
		} catch (err) {
			return err;
		}
		return undefined;
	}

	it.each(bad)("should fail naming %s when it is invalid", (variable, env) => {
		const err = failure(env);
		expect(err).toBeInstanceOf(ConfigError);
		expect((err as ConfigError).variable).toBe(variable);
		expect((err as Error).message).toContain(variable);
	});

	it.each([
		["LOG_LEVEL", "fatal, error, warn, info, debug, trace, silent"],
		["LOG_FORMAT", "auto, json, pretty"],
		["EMAIL_PROVIDER", "ses, smtp, file"],
		["SMS_PROVIDER", "file, aws, smpp"],
		["NOTIFICATIONS_USER_SEND", "self, off, any"],
		["SOCIAL_OAUTH2_CLIENT_AUTH_METHOD", "client_secret_basic, client_secret_post"]
	])("should name every allowed value of %s when it holds another", (variable, allowed) => {
		expect(() => loadConfig({ [variable]: "other" })).toThrow(`Invalid configuration: ${variable} must be one of ${allowed} (got "other")`);
	});

	it("should find no problem in an empty environment", () => {
		expect(validateEnv({})).toEqual([]);
	});

	it("should report every problem at once, each variable's own before the rules between them, each with a hint", () => {
		const env: Env = { PORT: "eighty", LOG_LEVEL: "loud", EMAIL_PROVIDER: "smtp", SOCIAL_OAUTH2_CLIENT_ID: "client" };
		const problems = validateEnv(env);
		expect(problems.map(p => p.variable)).toEqual(["PORT", "LOG_LEVEL", "SOCIAL_OAUTH2_CLIENT_SECRET", "OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY", "SMTP_URL"]);
		expect(problems[0]).toEqual({
			variable: "PORT",
			problem: 'must be a whole number (got "eighty")',
			hint: "Set PORT to a whole number from 0 to 65535, or unset it for the default (8500); see docs/configuration.md#gateway."
		});
		expect(problems.find(p => p.variable === "SMTP_URL")?.hint).toMatch(/^Set SMTP_URL to smtp:\/\//);
		expect(problems.filter(p => p.hint.length < 20)).toEqual([]);
		const err = failure(env);
		expect(err).toBeInstanceOf(ConfigError);
		expect(err).toMatchObject({ variable: "PORT", message: 'Invalid configuration: PORT must be a whole number (got "eighty")', problems });
	});

	it("should report one problem for a VAPID private key of the wrong length", () => {
		const short = { ...vapidPair(), PUSH_VAPID_PRIVATE_KEY: Buffer.alloc(31, 1).toString("base64url") };
		expect(validateEnv(short).map(p => `${p.variable} ${p.problem}`)).toEqual(["PUSH_VAPID_PRIVATE_KEY must be a P-256 private key: 32 bytes in base64url"]);
	});

	it("should skip a rule whose input is itself invalid", () => {
		expect(validateEnv({ EMAIL_PROVIDER: "smpt" }).map(p => p.variable)).toEqual(["EMAIL_PROVIDER"]);
		expect(validateEnv({ EMAIL_PROVIDER: "smtp" }).map(p => p.variable)).toEqual(["SMTP_URL"]);
	});

	it("should accept a 32-byte base64 encryption key without echoing it in errors", () => {
		expect(loadConfig({ OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY: key32 }).social.refreshTokenEncryptionKey).toHaveLength(32);
	});

	it("should deliver SMS to files and push by Web Push with a stored key, at no send rate, when nothing is set", () => {
		const n = loadConfig({}).notifications;
		expect(n.sms).toEqual({ provider: "file", providers: ["file"], from: undefined, awsEndpoint: undefined, configurationSet: undefined, smpp: undefined });
		expect(n.push).toEqual({ provider: "web-push", vapidKeys: undefined, vapidSubject: "mailto:noreply@localhost", allowInsecureEndpoints: false });
		expect(loadConfig({ PUSH_PROVIDER: "file" }).notifications.push.provider).toBe("file");
		expect(n.sendRates).toEqual({ EMAIL: 0, SMS: 0, PUSH: 0, IN_APP: 0 });
	});

	it("should run the file outbox on a thread of its own unless OUTBOX_THREAD=store, and refuse anything else", () => {
		expect(loadConfig({}).notifications.outboxThread).toBe("own");
		expect(loadConfig({ OUTBOX_THREAD: "store" }).notifications.outboxThread).toBe("store");
		expect(validateEnv({ OUTBOX_THREAD: "main" }).map(p => p.variable)).toEqual(["OUTBOX_THREAD"]);
	});

	it("should read the failover lists in order, fall back to the single providers, and take the circuit's defaults", () => {
		const single = loadConfig({ EMAIL_PROVIDER: "ses" }).notifications;
		expect([single.emailProviders, single.sms.providers, single.providerCircuit]).toEqual([["ses"], ["file"], { failureThreshold: 3, cooldownMs: 60_000 }]);
		const n = loadConfig({
			EMAIL_PROVIDER: "file",
			EMAIL_PROVIDERS: " smtp, smtp-backup ,smtp",
			SMTP_URL: "smtp://a.example.com:25",
			SMTP_BACKUP_URL: "smtp://b.example.com:25",
			SMS_PROVIDERS: "aws,file",
			PROVIDER_FAILURE_THRESHOLD: "5",
			PROVIDER_COOLDOWN_SECONDS: "2"
		}).notifications;
		expect([n.emailProvider, n.emailProviders, n.sms.provider, n.sms.providers]).toEqual(["smtp", ["smtp", "smtp-backup"], "aws", ["aws", "file"]]);
		expect(n.providerCircuit).toEqual({ failureThreshold: 5, cooldownMs: 2000 });
		expect(n.sendRates).toMatchObject({ EMAIL: 0, SMS: 1 });
		expect(loadConfig({ EMAIL_PROVIDERS: "smtp,ses", SMTP_URL: "smtp://a.example.com" }).notifications.sendRates.EMAIL).toBe(14);
	});

	it("should refuse an unknown provider in a list and a listed provider without its settings", () => {
		expect(validateEnv({ EMAIL_PROVIDERS: "ses,sendgrid" }).map(p => `${p.variable} ${p.problem}`)).toEqual([
			'EMAIL_PROVIDERS names an unknown provider "sendgrid" (known: ses, smtp, file, smtp-backup)'
		]);
		expect(validateEnv({ EMAIL_PROVIDERS: "smtp-backup,smtp" }).map(p => p.variable)).toEqual(["SMTP_URL", "SMTP_BACKUP_URL"]);
		expect(validateEnv({ SMS_PROVIDERS: "aws,smpp" }).map(p => `${p.variable} ${p.problem}`)).toEqual(["SMPP_URL is required when SMS_PROVIDERS lists smpp"]);
		expect(validateEnv({ SMS_PROVIDERS: "smpp", SMPP_URL: "smpp://id:pw@127.0.0.1:2775", SMS_ORIGINATION_IDENTITY: "a/b" }).map(p => p.variable)).toEqual([
			"SMS_ORIGINATION_IDENTITY"
		]);
		expect(validateEnv({ PROVIDER_COOLDOWN_SECONDS: "0" }).map(p => p.variable)).toEqual(["PROVIDER_COOLDOWN_SECONDS"]);
	});

	it("should limit each channel's send rate by its provider's account and its own variable", () => {
		expect(loadConfig({ EMAIL_PROVIDER: "ses", SMS_PROVIDER: "aws" }).notifications.sendRates).toEqual({ EMAIL: 14, SMS: 1, PUSH: 0, IN_APP: 0 });
		const n = loadConfig({ EMAIL_SEND_RATE_PER_SECOND: "5", SMS_SEND_RATE_PER_SECOND: "20", PUSH_SEND_RATE_PER_SECOND: "100" }).notifications;
		expect(n.sendRates).toEqual({ EMAIL: 5, SMS: 20, PUSH: 100, IN_APP: 0 });
		expect(n.sendRatePerSecond).toBe(5);
	});

	it("should read the SMSC's address and credentials from SMPP_URL", () => {
		const sms = loadConfig({ SMS_PROVIDER: "smpp", SMPP_URL: "smpp://acme:s%40cret@smsc.example.com:2776", SMS_ORIGINATION_IDENTITY: "ACME" }).notifications.sms;
		expect(sms).toMatchObject({ provider: "smpp", from: "ACME", smpp: { host: "smsc.example.com", port: 2776, tls: false, systemId: "acme", password: "s@cret" } });
		expect(loadConfig({ SMPP_URL: "ssmpp://acme:pw@[::1]" }).notifications.sms.smpp).toEqual({ host: "::1", port: 3550, tls: true, systemId: "acme", password: "pw" });
	});

	it("should never echo SMPP_URL, which carries the SMSC password, in its errors", () => {
		expect(() => loadConfig({ SMPP_URL: "smpp://acme:s3cret@smsc.example.com:2775/x" })).toThrow(ConfigError);
		try {
			loadConfig({ SMPP_URL: "smpp://acme:s3cret@smsc.example.com:2775/x" });
		} catch (err) {
			expect((err as Error).message).not.toContain("s3cret");
		}
	});

	it("should take a matching VAPID pair and subject from the environment", () => {
		const pair = vapidPair();
		const push = loadConfig({ ...pair, PUSH_VAPID_SUBJECT: "https://ops.example.com/contact", PUSH_ALLOW_INSECURE_ENDPOINTS: "true" }).notifications.push;
		expect(push).toEqual({ provider: "web-push", vapidKeys: { publicKey: pair.PUSH_VAPID_PUBLIC_KEY, privateKey: pair.PUSH_VAPID_PRIVATE_KEY }, vapidSubject: "https://ops.example.com/contact", allowInsecureEndpoints: true });
	});

	it("should seal signing keys only when IDP_KEY_ENCRYPTION_KEY is set", () => {
		expect(loadConfig({}).idp.keyEncryptionKey).toBeUndefined();
		expect(loadConfig({ IDP_KEY_ENCRYPTION_KEY: key32 }).idp.keyEncryptionKey).toEqual(Buffer.alloc(32, 1));
	});

	it("should trace only with an OTLP endpoint, posting to its /v1/traces unless the traces endpoint is given", () => {
		expect(loadConfig({}).tracing).toBeUndefined();
		expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }).tracing).toEqual({
			url: "http://collector:4318/v1/traces",
			headers: {},
			serviceName: "auth-notify",
			scheduleDelayMs: 5000,
			sampleRatio: 1
		});
		const c = loadConfig({
			OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
			OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example.com/otlp/v1/traces",
			OTEL_SERVICE_NAME: "notify-eu",
			OTEL_BSP_SCHEDULE_DELAY: "200",
			OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
			OTEL_TRACES_SAMPLER_ARG: "0.25",
			OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=abc%3D%3D, Authorization=Basic%20dXNlcjpwYXNz"
		});
		expect(c.tracing).toEqual({
			url: "https://traces.example.com/otlp/v1/traces",
			headers: { "x-api-key": "abc==", Authorization: "Basic dXNlcjpwYXNz" },
			serviceName: "notify-eu",
			scheduleDelayMs: 200,
			sampleRatio: 0.25
		});
		expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_TRACES_SAMPLER: "always_off", OTEL_TRACES_SAMPLER_ARG: "0.5" }).tracing?.sampleRatio).toBe(0);
	});

	it("should refuse a malformed OTLP setting by its name, never echoing a header's value", () => {
		expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow("OTEL_EXPORTER_OTLP_ENDPOINT must use http: or https:");
		expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_EXPORTER_OTLP_HEADERS: "no-equals-sign" })).toThrow(/^Invalid configuration: OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs/);
		expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_TRACES_SAMPLER: "jaeger_remote" })).toThrow("OTEL_TRACES_SAMPLER must be one of");
		expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "1.5" })).toThrow("OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1");
		const bad = () => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=s3cr3t%zz" });
		expect(bad).toThrow(ConfigError);
		expect(bad).not.toThrow(/s3cr3t/);
	});
});

describe("npm start with a bad variable", () => {
	const start = (env: Record<string, string>) => {
		const { spawnSync } = require("node:child_process") as typeof import("node:child_process");
		const path = require("node:path") as typeof import("node:path");
		const entry = path.join(__dirname, "../../dist/index.js");
		return spawnSync(process.execPath, [entry], { env: { PATH: process.env.PATH, ...env }, encoding: "utf8", timeout: 20000 });
	};

	it("should exit non-zero and name the variable", () => {
		const r = start({ PORT: "nope" });
		expect(r.status).not.toBe(0);
		expect(r.stderr).toContain("PORT");
	});

	it("should stop with exit code 78 and print every problem with how to fix it", () => {
		const r = start({ PORT: "nope", SMS_PROVIDER: "smpp" });
		expect(r.status).toBe(78);
		expect(r.stderr).toContain('Invalid configuration: PORT must be a whole number (got "nope")\n  Set PORT to a whole number from 0 to 65535');
		expect(r.stderr).toContain("Invalid configuration: SMPP_URL is required when SMS_PROVIDER is smpp\n  Set SMPP_URL to smpp://");
	});

	it("should stop with exit code 78 and a message that names the key but not its value when the encryption key is bad", () => {
		const key = Buffer.alloc(16, 7).toString("base64");
		const r = start({ OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY: key });
		expect(r.status).toBe(78);
		expect(r.stderr).toContain("Invalid configuration: OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY must decode to 32 bytes (got 16)");
		expect(r.stderr).not.toContain(key);
	});
});
