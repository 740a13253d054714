/**
 * Secrets stay out of the logs. The platform runs as two real processes over NATS
 * and Redis with LOG_LEVEL=trace, and the test captures everything both write to
 * stdout and stderr while it drives a full run as a client and a browser would:
 * registration, logins (right, wrong, malformed), refresh (rotation and reuse),
 * social sign-in through a real OAuth 2.0 server with the temporary-token exchange,
 * a notification sent by the dispatcher, its unsubscribe link followed (the signed token
 * is in the URL's path), and a signed SNS webhook. Then every secret the run used or
 * produced is searched for in the captured output, where the gateway's access log has
 * a line for every request.
 *
 * The nodes also export traces to a local OTLP receiver, so the spans of the same run
 * (and Moleculer's debug lines about them) are searched as well.
 *
 * The child processes cannot be handed the test's HTTPS agent, so they trust the
 * test's SNS certificate through NODE_EXTRA_CA_CERTS, which Node reads at start.
 */
import fs from "node:fs";
import path from "node:path";
import Redis from "ioredis";
import { randomBytes } from "node:crypto";
import { sha256 } from "../../lib/crypto";
import { KEYS_COLLECTION, type StoredKey } from "../../lib/idp/keys";
import { SecretBox } from "../../lib/crypto/secretbox";
import { SqliteStore } from "../../lib/store/sqlite";
import { linkToken, waitForMail } from "../helpers/mail";
import { MockProvider } from "../helpers/oauth2-provider";
import { OtlpReceiver } from "../helpers/otlp";
import { http, newUser, tempDir, type HttpResult } from "../helpers/platform";
import { describeNodes, freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { describeWith, NATS_URL, REDIS_URL, uniqueName } from "../helpers/services";
import { makeCert, notification, sesEvent, sign, startHttpsHost, type HttpsHost, type TestCert } from "../helpers/sns";

const UI = "https://ui.logs.test";
const CALLBACK_PATH = "/auth/social/login/callback";
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g;
/** The header may be folded onto a second line (RFC 5322), as a long one is. */
const UNSUBSCRIBE_LINK = /^List-Unsubscribe:\s*<[^>]*\/unsubscribe\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)>\r?$/m;

describeWith("NATS", "secrets in the logs of a full run", () => {
	describeWith("Redis", "with Redis", () => {
		const provider = new MockProvider();
		const receiver = new OtlpReceiver();
		const secrets = new Map<string, string>();
		const keep = (label: string, value: string | null | undefined) => {
			if (!value) throw new Error(`the run produced no ${label}`);
			secrets.set(label, value);
			return value;
		};
		let nodes: NodeProcess[] = [];
		let dataDir: string;
		let tls: TestCert;
		let certHost: HttpsHost;
		let redis: Redis;
		let namespace: string;
		let baseUrl: string;
		let log = "";

		beforeAll(async () => {
			await provider.start();
			tls = makeCert();
			certHost = await startHttpsHost(tls, tls.cert);
			redis = new Redis(REDIS_URL);
			dataDir = tempDir();
			const caFile = path.join(dataDir, "sns-ca.pem");
			fs.writeFileSync(caFile, tls.cert);
			const port = await freePort();
			baseUrl = `http://127.0.0.1:${port}`;
			namespace = uniqueName("log-secrets");
			const env = {
				LOG_LEVEL: "trace",
				NATS_URL,
				REDIS_URL,
				NAMESPACE: namespace,
				DATA_DIR: dataDir,
				PUBLIC_URL: baseUrl,
				DISPATCHER_POLL_MS: "100",
				NODE_EXTRA_CA_CERTS: caFile,
				SNS_SIGNING_CERT_HOST_PATTERN: "^localhost:\\d+$",
				BOOTSTRAP_ADMIN_EMAIL: "root@example.com",
				BOOTSTRAP_ADMIN_PASSWORD: keep("bootstrap admin password", `Admin-${randomBytes(12).toString("hex")}-9`),
				IDP_SERVICE_ACCOUNT_USERNAME: "platform-services",
				IDP_SERVICE_ACCOUNT_PASSWORD: keep("service account password", `Svc-${randomBytes(12).toString("hex")}-9`),
				SOCIAL_OAUTH2_CLIENT_ID: "log-test-client",
				SOCIAL_OAUTH2_CLIENT_SECRET: keep("OAuth client secret", `client-secret-${randomBytes(16).toString("hex")}`),
				SOCIAL_OAUTH2_ISSUER: provider.issuer,
				SOCIAL_OAUTH2_REDIRECT_URI: `${baseUrl}${CALLBACK_PATH}`,
				OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY: keep("encryption key", randomBytes(32).toString("base64")),
				OAUTH2_REFRESH_TOKEN_PREVIOUS_KEYS: keep("previous encryption key", randomBytes(32).toString("base64")),
				IDP_KEY_ENCRYPTION_KEY: keep("key-encryption key", randomBytes(32).toString("base64")),
				OTEL_EXPORTER_OTLP_ENDPOINT: await receiver.start(),
				OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${keep("OTLP API key", randomBytes(16).toString("hex"))}`,
				UI_BASE_URL: UI,
				// Reuse of a rotated token is shown at once below, without the grace.
				REFRESH_TOKEN_REUSE_INTERVAL_SECONDS: "0"
			};
			nodes = [
				startNode({ ...env, SERVICES: "api-gateway,auth,notifications,webhooks", PORT: String(port), NODE_ID: "logs-api" }),
				startNode({ ...env, SERVICES: "actors,documents,dispatcher", NODE_ID: "logs-data" })
			];
			// The JWKS comes from the auth service: once it answers, logins can (and waiting on logins would spend their rate limit).
			await waitFor("the gateway and the auth service", async () => (await http(baseUrl, "GET", "/.well-known/jwks.json")).status === 200, 50_000, 250, () => describeNodes(nodes));
		}, 70_000);

		afterAll(async () => {
			await Promise.all(nodes.map(n => n.stop()));
			redis?.disconnect();
			await certHost?.close();
			await provider.stop();
			await receiver.stop();
			if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
		});

		const post = (url: string, json: unknown, headers: Record<string, string> = {}, token?: string) => http(baseUrl, "POST", url, { json, headers, token });
		const expectStatus = (res: HttpResult, status: number) => expect({ status: res.status, code: res.body?.code }).toEqual(expect.objectContaining({ status }));

		it("should drive the whole run", async () => {
			const admin = await post("/auth/login", { username: "root@example.com", password: secrets.get("bootstrap admin password") });
			expectStatus(admin, 200);
			keep("admin access token", admin.body.accessToken);
			keep("admin refresh token", admin.body.refreshToken);
			// The data node may still be starting: the actor service answers 404 once it is there.
			await waitFor("the actor service", async () => (await http(baseUrl, "GET", "/actors/00000000-0000-4000-8000-000000000000", { token: admin.body.accessToken })).status === 404, 30_000);

			const user = newUser({ password: keep("user password", `User-${randomBytes(12).toString("hex")}-9`) });
			const reg = await post("/auth/register", user, { "x-request-id": "log-test-register" });
			expectStatus(reg, 201);
			keep("registration access token", reg.body.accessToken);
			keep("registration ID token", reg.body.idToken);
			keep("registration refresh token", reg.body.refreshToken);

			const login = await post("/auth/login", { username: user.email, password: user.password }, { "x-request-id": "log-test-login" });
			expectStatus(login, 200);
			keep("login access token", login.body.accessToken);
			keep("login ID token", login.body.idToken);
			const rotated = keep("login refresh token", login.body.refreshToken);

			expectStatus(await post("/auth/login", { username: user.email, password: keep("wrong password", `Wrong-${randomBytes(12).toString("hex")}-9`) }), 401);
			expectStatus(await http(baseUrl, "POST", "/auth/login", { body: `{"username":"${user.email}","password":"${keep("password in malformed JSON", `Broken-${randomBytes(12).toString("hex")}`)}"`, headers: { "content-type": "application/json" } }), 400);
			expectStatus(await post("/auth/login", { username: user.email, password: [keep("password of the wrong type", `Array-${randomBytes(12).toString("hex")}`)] }, { "x-request-id": "log-test-invalid" }), 400);
			expectStatus(await post("/auth/login", { username: user.email, password: keep("overlong password", `Long-${randomBytes(12).toString("hex")}`).padEnd(1100, "x") }), 400);
			expectStatus(await post("/auth/register", { ...newUser(), password: keep("password breaking the policy", `weak${randomBytes(6).toString("hex")}`) }), 422);

			const refreshed = await post("/auth/tokens/refresh", { refreshToken: rotated });
			expectStatus(refreshed, 200);
			keep("refreshed access token", refreshed.body.accessToken);
			keep("refreshed refresh token", refreshed.body.refreshToken);
			// Reusing the rotated token revokes its family; both answers and the revocation must stay out of the log.
			expectStatus(await post("/auth/refresh-user-token", { refreshToken: rotated }), 401);
			expectStatus(await post("/auth/tokens/refresh", { refreshToken: keep("unknown refresh token", `unknown-${randomBytes(24).toString("base64url")}`) }), 401);

			expectStatus(await http(baseUrl, "GET", `/actors/${reg.body.actorId}`, { token: reg.body.accessToken }), 200);
			const [h, p] = reg.body.accessToken.split(".");
			const forged = keep("forged token", `${h}.${p}.${randomBytes(64).toString("base64url")}`);
			expectStatus(await http(baseUrl, "GET", `/actors/${reg.body.actorId}`, { token: forged }), 401);

			// The account lifecycle: its mails carry tokens, which the log must never see.
			const verifyMail = await waitForMail(dataDir, user.email, /Verify your email/, 1, 30_000);
			keep("verification link", verifyMail.text.match(/https:\S+#token=\S+/)?.[0]);
			const verifyToken = keep("verification token", linkToken(verifyMail, UI, "/verify-email"));
			expectStatus(await post("/auth/email/verify", { token: verifyToken }), 200);
			expectStatus(await post("/auth/password/forgot", { email: user.email }), 202);
			const resetToken = keep("reset token", linkToken(await waitForMail(dataDir, user.email, /Reset your password/, 1, 30_000), UI, "/reset-password"));
			const resetPassword = keep("password set by reset", `Reset-${randomBytes(12).toString("hex")}-9`);
			expectStatus(await post("/auth/password/reset", { token: resetToken, password: resetPassword }), 204);
			expectStatus(await post("/auth/password/reset", { token: resetToken, password: resetPassword }), 401);
			const relogin = await post("/auth/login", { username: user.email, password: resetPassword });
			expectStatus(relogin, 200);
			keep("access token after reset", relogin.body.accessToken);
			const changed = keep("password set by change", `Changed-${randomBytes(12).toString("hex")}-9`);
			expectStatus(await post("/auth/password/change", { currentPassword: resetPassword, newPassword: changed }, {}, relogin.body.accessToken), 204);
			expectStatus(await post("/auth/logout", { refreshToken: keep("signed-out refresh token", relogin.body.refreshToken) }), 204);

			// Social sign-in, the test playing the browser.
			const start = await http(baseUrl, "GET", "/auth/social/login?returnTo=/settings");
			expectStatus(start, 302);
			const authorizeUrl = new URL(start.headers.get("location")!);
			const state = keep("OAuth state", authorizeUrl.searchParams.get("state"));
			const pending = JSON.parse((await redis.get(`${namespace}:kv:social:state:${sha256(state)}`))!);
			keep("PKCE code verifier", pending.codeVerifier);
			const cookie = start.headers.get("set-cookie")!.split(";")[0];
			keep("browser binding", cookie.split("=")[1]);
			const atProvider = await fetch(authorizeUrl, { redirect: "manual" });
			const callbackUrl = new URL(atProvider.headers.get("location")!);
			keep("authorization code", callbackUrl.searchParams.get("code"));
			const callback = await http(baseUrl, "GET", callbackUrl.pathname + callbackUrl.search, { headers: { cookie } });
			expectStatus(callback, 302);
			const temporary = keep("temporary token", new URL(callback.headers.get("location")!).searchParams.get("token"));
			// A replayed callback fails (the state is used) and is logged as a failed sign-in.
			const replay = await http(baseUrl, "GET", callbackUrl.pathname + callbackUrl.search, { headers: { cookie } });
			expect(new URL(replay.headers.get("location")!).searchParams.get("error")).toBe("INVALID_STATE");
			const exchanged = await post("/auth/tokens/exchange", { token: temporary });
			expectStatus(exchanged, 200);
			keep("exchanged access token", exchanged.body.accessToken);
			keep("exchanged refresh token", exchanged.body.refreshToken);
			expectStatus(await post("/auth/tokens/exchange", { token: temporary }), 401);
			provider.issuedTokens.forEach((t, i) => keep(`provider token ${i + 1}`, t));
			keep("client authentication header", provider.tokenRequests[0]?.authorization?.replace(/^Basic /, ""));

			// A notification (the administrator's: it goes to another address), sent by the dispatcher on the other node, then its delivery webhook.
			const sent = await post("/notifications", { to: "log-test@example.com", template: { subject: "Hello {{name}}", text: "Hi {{name}}" }, variables: { name: "Ada" } }, { "idempotency-key": "log-test-1" }, admin.body.accessToken);
			expectStatus(sent, 201);
			let providerMessageId = "";
			await waitFor("the notification to be sent", async () => {
				const view = await http(baseUrl, "GET", `/notifications/${sent.body.notificationId}`, { token: admin.body.accessToken });
				providerMessageId = view.body.providerMessageId ?? "";
				return view.body.status === "SENT";
			});
			const message = sign(notification(sesEvent("Delivery", providerMessageId), `https://localhost:${certHost.port}/SimpleNotificationService-log.pem`), tls.key);
			keep("SNS signature", message.Signature);
			const webhook = await http(baseUrl, "POST", "/notifications/webhooks/email-provider", { body: JSON.stringify(message), headers: { "content-type": "text/plain; charset=UTF-8" } });
			expect({ status: webhook.status, body: webhook.body }).toEqual({ status: 200, body: { outcome: "recorded" } });
			const tampered = { ...message, Signature: keep("tampered SNS signature", randomBytes(256).toString("base64")) };
			expectStatus(await http(baseUrl, "POST", "/notifications/webhooks/email-provider", { body: JSON.stringify(tampered), headers: { "content-type": "text/plain" } }), 403);

			// The mail's unsubscribe link carries its signed token in the path, which the access log must not show.
			const sentMail = await waitForMail(dataDir, "log-test@example.com", /Hello Ada/, 1, 30_000);
			const unsubscribeToken = keep("unsubscribe token", UNSUBSCRIBE_LINK.exec(fs.readFileSync(sentMail.file, "utf8"))?.[1]);
			expectStatus(await http(baseUrl, "GET", `/unsubscribe/${unsubscribeToken}`), 200);
			expectStatus(await http(baseUrl, "POST", `/unsubscribe/${unsubscribeToken}`, { body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } }), 200);

			const store = new SqliteStore(path.join(dataDir, "store.sqlite"));
			try {
				const [key] = await store.collection<StoredKey>(KEYS_COLLECTION).find({});
				const kek = new SecretBox(Buffer.from(secrets.get("key-encryption key")!, "base64"));
				keep("identity provider private key", JSON.parse(kek.open(key.sealedPrivateJwk!, `${KEYS_COLLECTION}:${key.id}`)).d);
			} finally {
				await store.close();
			}

			await Promise.all(nodes.map(n => n.stop()));
			log = nodes.map(n => n.output()).join("\n");
		}, 120_000);

		it("should have logged the run at trace level, so that the search below means something", () => {
			const lines = log.split("\n").filter(l => l.startsWith("{"));
			expect(lines.length).toBeGreaterThan(200);
			// Moleculer writes nothing at trace on these paths; the detail is at debug, which trace includes.
			expect(lines.filter(l => l.includes('"level":20')).length).toBeGreaterThan(100);
			for (const requestId of ["log-test-register", "log-test-login", "log-test-invalid"]) expect(log).toContain(`"requestID":"${requestId}"`);
			// The refused parameters were logged as an error, which is where a password of the wrong type would show.
			expect(log).toMatch(/"requestID":"log-test-invalid","err":\{[^\n]*"errType":"VALIDATION_ERROR"[^\n]*"msg":"The 'auth.login' request is rejected."/);
			expect(log).toContain("<= Request 'actors.register'");
			expect(log).toMatch(/"code":"INVALID_STATE"[^\n]*"msg":"Social sign-in failed"/);
		});

		it("should have written an access line for each request, with the credentials in URLs replaced", () => {
			const access = log
				.split("\n")
				.filter(l => l.startsWith("{") && l.includes('"msg":"HTTP request"'))
				.map(l => JSON.parse(l) as { level: number; method: string; path: string; status: number; requestId?: string });
			expect(access.length).toBeGreaterThan(30);
			expect(access.every(l => l.level === 30)).toBe(true);
			expect(access.find(l => l.requestId === "log-test-login")).toMatchObject({ method: "POST", path: "/auth/login", status: 200 });
			expect(access.filter(l => l.path.startsWith("/unsubscribe/")).map(l => `${l.method} ${l.path} ${l.status}`)).toEqual(["GET /unsubscribe/[redacted] 200", "POST /unsubscribe/[redacted] 200"]);
			const callbacks = access.filter(l => l.path.startsWith(CALLBACK_PATH));
			expect(callbacks.map(l => l.status)).toEqual([302, 302]);
			for (const line of callbacks) {
				expect(line.path).toMatch(/[?&]code=\[redacted\]/);
				expect(line.path).not.toMatch(/=(?!\[redacted\])/);
			}
		});

		it("should find none of the run's secrets in the log", () => {
			expect(log).not.toBe("");
			expect(secrets.size).toBeGreaterThan(30);
			const found = [...secrets].filter(([, value]) => log.includes(value)).map(([label]) => label);
			expect(found).toEqual([]);
		});

		it("should find no JWT at all in the log, service tokens included", () => {
			expect(log).not.toBe("");
			expect(log.match(JWT) ?? []).toEqual([]);
		});

		it("should find none of the run's secrets, and no JWT, in its traces", () => {
			const routes = new Set(receiver.spans.map(s => s.attributes["http.route"]));
			// The stop sent the last spans: the run's sign-ins, the social callback and the webhook are all there.
			for (const route of ["/auth/login", "/auth/social/login/callback", "/auth/tokens/exchange", "/notifications/webhooks/email-provider"]) expect(routes.has(route)).toBe(true);
			const traces = JSON.stringify(receiver.spans);
			const found = [...secrets].filter(([, value]) => traces.includes(value)).map(([label]) => label);
			expect(found).toEqual([]);
			expect(traces.match(JWT) ?? []).toEqual([]);
		});
	});
});
