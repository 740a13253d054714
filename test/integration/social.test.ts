/**
 * Social sign-in through the gateway, against a real OAuth 2.0 / OpenID Connect
 * server (oauth2-mock-server) and real Redis. The test plays the browser: it follows
 * each redirect itself and carries the binding cookie, as a browser would.
 */
import { randomBytes } from "node:crypto";
import { AdminGetUserCommand } from "@aws-sdk/client-cognito-identity-provider";
import Redis from "ioredis";
import { decodeJwt } from "jose";
import { AccountLocks } from "../../lib/accounts/locks";
import { Secret, TOTP } from "otpauth";
import { randomToken, sha256 } from "../../lib/crypto";
import { SecretBox, SecretBoxError } from "../../lib/crypto/secretbox";
import { SOCIAL_IDENTITIES, refreshTokenAad, type SocialIdentity } from "../../lib/social/accounts";
import { temporaryTokenKey } from "../../lib/social/temp-tokens";
import type { Env } from "../../lib/config";
import { cognitoEnv, createPools, startCognitoLocal, type CognitoLocal } from "../helpers/cognito-local";
import { MockProvider, providerUser, type ProviderUser } from "../helpers/oauth2-provider";
import { http, newUser, runtime, startPlatform, type HttpResult, type Platform } from "../helpers/platform";
import { freePort, waitFor } from "../helpers/processes";
import { describeWith, REDIS_URL, uniqueName } from "../helpers/services";

const CLIENT_ID = "platform-client";
const CLIENT_SECRET = "platform-client-secret";
const KEY = randomBytes(32);
const UI = "https://app.example.test";
const UI_PATH = "/signed-in";
const CALLBACK_PATH = "/auth/social/login/callback";

async function socialEnv(provider: MockProvider, extra: Env = {}): Promise<Env> {
	const port = await freePort();
	return {
		PORT: String(port),
		SOCIAL_OAUTH2_CLIENT_ID: CLIENT_ID,
		SOCIAL_OAUTH2_CLIENT_SECRET: CLIENT_SECRET,
		SOCIAL_OAUTH2_ISSUER: provider.issuer,
		SOCIAL_OAUTH2_REDIRECT_URI: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
		OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY: KEY.toString("base64"),
		UI_BASE_URL: UI,
		UI_CALLBACK_PATH: UI_PATH,
		...extra
	};
}

interface Started {
	res: HttpResult;
	authorizeUrl: URL;
	/** The binding cookie as the browser sends it back: name=value. */
	cookie: string;
}

async function startSignIn(p: Platform, query = ""): Promise<Started> {
	const res = await http(p.baseUrl, "GET", `/auth/social/login${query}`);
	expect(res.status).toBe(302);
	return { res, authorizeUrl: new URL(res.headers.get("location")!), cookie: res.headers.get("set-cookie")!.split(";")[0] };
}

/** The provider signs the user in at once and redirects to our callback. */
async function authorize(url: URL): Promise<URL> {
	const res = await fetch(url, { redirect: "manual" });
	expect(res.status).toBe(302);
	return new URL(res.headers.get("location")!);
}

function callback(p: Platform, url: URL, cookie?: string): Promise<HttpResult> {
	return http(p.baseUrl, "GET", url.pathname + url.search, { headers: cookie ? { cookie } : {} });
}

/** Where the callback sent the browser. */
function uiRedirect(res: HttpResult): URL {
	expect(res.status).toBe(302);
	expect(res.headers.get("cache-control")).toBe("no-store");
	expect(res.headers.get("referrer-policy")).toBe("no-referrer");
	expect(res.headers.get("set-cookie")).toMatch(/^social_signin=; Path=\/auth\/social\/login\/callback; Max-Age=0; HttpOnly; SameSite=Lax$/);
	const location = new URL(res.headers.get("location")!);
	expect(location.origin + location.pathname).toBe(UI + UI_PATH);
	return location;
}

async function signIn(p: Platform, query = ""): Promise<{ token: string; location: URL }> {
	const started = await startSignIn(p, query);
	const location = uiRedirect(await callback(p, await authorize(started.authorizeUrl), started.cookie));
	const token = location.searchParams.get("token");
	expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
	return { token: token!, location };
}

function exchange(p: Platform, token: string): Promise<HttpResult> {
	return http(p.baseUrl, "POST", "/auth/tokens/exchange", { json: { token } });
}

function expectUiError(res: HttpResult, code: string): void {
	const location = uiRedirect(res);
	expect([...location.searchParams]).toEqual([["error", code]]);
}

function expectProblem(res: HttpResult, status: number, code: string): void {
	expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
	expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
}

/** Counts of what a sign-in of this provider user would have created. */
async function traces(p: Platform, user: ProviderUser) {
	const store = runtime(p).store();
	return {
		idpUsers: await store.collection("idp_users").count({ username: user.email?.toLowerCase() ?? "" }),
		actors: await store.collection("actors").count({ email: user.email?.toLowerCase() ?? "" }),
		links: await store.collection(SOCIAL_IDENTITIES).count({ subject: user.sub })
	};
}

const NONE = { idpUsers: 0, actors: 0, links: 0 };
const ONE = { idpUsers: 1, actors: 1, links: 1 };

describeWith("Redis", "social sign-in with an OpenID provider and Redis", () => {
	const provider = new MockProvider();
	let p: Platform;
	let namespace: string;
	let redis: Redis;

	beforeAll(async () => {
		await provider.start();
		namespace = uniqueName("social");
		p = await startPlatform(await socialEnv(provider, { REDIS_URL, NAMESPACE: namespace }));
		redis = new Redis(REDIS_URL);
	});
	afterAll(async () => {
		redis?.disconnect();
		await p?.stop();
		await provider.stop();
	});
	beforeEach(() => {
		provider.user = providerUser();
	});

	const redisKey = (key: string) => `${namespace}:kv:${key}`;

	it("should redirect to the provider with the code flow, the exact redirect URI, a 256-bit state, PKCE S256 and a nonce when sign-in starts", async () => {
		const { res, authorizeUrl, cookie } = await startSignIn(p);

		expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${provider.issuer}/authorize`);
		const q = Object.fromEntries(authorizeUrl.searchParams);
		expect(q).toEqual({
			response_type: "code",
			client_id: CLIENT_ID,
			redirect_uri: p.config.social.redirectUri,
			scope: "openid email profile",
			state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
			code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
			code_challenge_method: "S256",
			nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/)
		});
		expect(res.headers.get("set-cookie")).toMatch(/^social_signin=[A-Za-z0-9_-]{43}; Path=\/auth\/social\/login\/callback; Max-Age=600; HttpOnly; SameSite=Lax$/);
		expect(res.headers.get("cache-control")).toBe("no-store");
		expect(res.headers.get("referrer-policy")).toBe("no-referrer");
		// Kept server-side under the state's hash, with a short TTL, and bound to the cookie by its hash only.
		const key = redisKey(`social:state:${sha256(q.state)}`);
		const ttl = await redis.ttl(key);
		expect(ttl).toBeGreaterThan(0);
		expect(ttl).toBeLessThanOrEqual(600);
		const record = JSON.parse((await redis.get(key))!);
		expect(record.bindingHash).toBe(sha256(cookie.split("=")[1]));
		expect(sha256(record.codeVerifier)).toBe(q.code_challenge);
		expect(record.nonce).toBe(q.nonce);
		expect(JSON.stringify(record)).not.toContain(cookie.split("=")[1]);
	});

	it("should sign a new user in end to end and exchange the temporary token for a working access token when the provider vouches for the email", async () => {
		const user = provider.user;
		const before = provider.tokenRequests.length;
		const started = await startSignIn(p, "?returnTo=%2Fsettings%3Ftab%3D1");
		const challenge = started.authorizeUrl.searchParams.get("code_challenge");
		const callbackUrl = await authorize(started.authorizeUrl);
		expect(callbackUrl.href.startsWith(`${p.config.social.redirectUri}?`)).toBe(true);

		const location = uiRedirect(await callback(p, callbackUrl, started.cookie));

		expect([...location.searchParams.keys()]).toEqual(["token", "returnTo"]);
		expect(location.searchParams.get("returnTo")).toBe("/settings?tab=1");
		const token = location.searchParams.get("token")!;
		expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
		// Our own token request: client authentication and the PKCE verifier of this sign-in.
		expect(provider.tokenRequests.slice(before)).toEqual([
			{
				authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`,
				body: {
					grant_type: "authorization_code",
					code: callbackUrl.searchParams.get("code"),
					redirect_uri: p.config.social.redirectUri,
					code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/)
				}
			}
		]);
		expect(sha256(provider.tokenRequests[before].body.code_verifier as string)).toBe(challenge);
		// Stored only under its SHA-256, with the five-minute lifetime, bound to who signed in with which provider.
		const key = redisKey(temporaryTokenKey(token));
		expect(await redis.ttl(key)).toBeGreaterThan(290);
		const identity = JSON.parse((await redis.get(key))!);
		expect(identity).toEqual({
			sub: expect.any(String),
			username: user.email,
			provider: provider.issuer,
			providerSubject: user.sub,
			authenticatedAt: expect.any(String)
		});
		expect(await redis.keys(`${namespace}:*${token}*`)).toEqual([]);

		const exchanged = await exchange(p, token);

		expect(exchanged.status).toBe(200);
		expect(exchanged.headers.get("cache-control")).toBe("no-store");
		expect(exchanged.headers.get("referrer-policy")).toBe("no-referrer");
		expect(exchanged.body).toEqual({
			accessToken: expect.any(String),
			idToken: expect.any(String),
			refreshToken: expect.any(String),
			expiresAt: decodeJwt(exchanged.body.accessToken).exp,
			expiresIn: expect.any(Number),
			tokenType: "Bearer"
		});
		expect(decodeJwt(exchanged.body.accessToken).sub).toBe(identity.sub);
		const actor = await http(p.baseUrl, "GET", `/actors/${identity.sub}`, { token: exchanged.body.accessToken });
		expect(actor.status).toBe(200);
		expect(actor.body).toMatchObject({ actorId: identity.sub, email: user.email, firstName: "Grace", lastName: "Hopper" });
		await expect(traces(p, user)).resolves.toEqual(ONE);
		await expect(redis.exists(key)).resolves.toBe(0);
		// The platform's refresh token works like any other.
		const refreshed = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: exchanged.body.refreshToken } });
		expect(refreshed.status).toBe(200);
	});

	it("should map a second sign-in to the same user and actor when the same provider user returns, even with a new email", async () => {
		const user = provider.user;
		const first = await exchange(p, (await signIn(p)).token);
		provider.user = { ...user, email: `renamed-${user.email}` };

		const second = await exchange(p, (await signIn(p)).token);

		expect(second.status).toBe(200);
		expect(decodeJwt(second.body.accessToken).sub).toBe(decodeJwt(first.body.accessToken).sub);
		await expect(traces(p, user)).resolves.toEqual(ONE);
		await expect(runtime(p).store().collection("actors").count({ email: provider.user.email! })).resolves.toBe(0);
	});

	it("should ask a user with a second factor for it after the exchange, and spend the temporary token", async () => {
		const first = await exchange(p, (await signIn(p)).token);
		expect(first.status).toBe(200);
		expect(decodeJwt(first.body.accessToken).amr).toEqual([]);
		const started = await http(p.baseUrl, "POST", "/auth/mfa/totp", { token: first.body.accessToken, json: {} });
		expect(started.status).toBe(201);
		const seed = new TOTP({ secret: Secret.fromBase32(started.body.secret) });
		const confirmed = await http(p.baseUrl, "POST", `/auth/mfa/totp/${started.body.factorId}/confirm`, { token: first.body.accessToken, json: { code: seed.generate() } });
		expect(confirmed.status).toBe(200);

		const { token } = await signIn(p);
		const gated = await exchange(p, token);
		expect(gated.status).toBe(403);
		expect(gated.body).toMatchObject({ code: "MFA_REQUIRED", mfaToken: expect.any(String), factors: ["totp", "recovery"] });
		expectProblem(await exchange(p, token), 401, "INVALID_TEMPORARY_TOKEN");
		const verified = await http(p.baseUrl, "POST", "/auth/mfa/verify", { json: { mfaToken: gated.body.mfaToken, type: "totp", code: seed.generate({ timestamp: Date.now() + 30_000 }) } });
		expect(verified.status).toBe(200);
		expect(decodeJwt(verified.body.accessToken)).toMatchObject({ sub: decodeJwt(first.body.accessToken).sub, amr: ["otp", "mfa"] });
	});

	it("should store the provider's refresh token as ciphertext that opens only with the right key and associated data", async () => {
		const user = provider.user;
		await signIn(p);
		const plaintext = provider.refreshTokens.at(-1)!;

		const link = (await runtime(p).store().collection<SocialIdentity>(SOCIAL_IDENTITIES).findOne({ subject: user.sub }))!;

		expect(link.refreshToken).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
		expect(link.refreshToken).not.toContain(plaintext);
		expect(new SecretBox(KEY).open(link.refreshToken!, refreshTokenAad(link))).toBe(plaintext);
		expect(() => new SecretBox(randomBytes(32)).open(link.refreshToken!, refreshTokenAad(link))).toThrow(SecretBoxError);
		expect(() => new SecretBox(KEY).open(link.refreshToken!, refreshTokenAad({ ...link, userSub: "another-user" }))).toThrow(SecretBoxError);
		expect(() => new SecretBox(KEY).open(link.refreshToken!, refreshTokenAad({ ...link, provider: "https://other.example" }))).toThrow(SecretBoxError);
	});

	it("should give exactly one 200 when 100 exchanges of one token run in parallel", async () => {
		const { token } = await signIn(p);

		const results = await Promise.all(Array.from({ length: 100 }, () => exchange(p, token)));

		expect(results.filter(r => r.status === 200)).toHaveLength(1);
		const refused = results.filter(r => r.status !== 200);
		expect(refused).toHaveLength(99);
		for (const r of refused) expectProblem(r, 401, "INVALID_TEMPORARY_TOKEN");
	});

	it("should answer 401 INVALID_TEMPORARY_TOKEN without echoing the token when it is replayed or unknown", async () => {
		const { token } = await signIn(p);
		expect((await exchange(p, token)).status).toBe(200);

		const replayed = await exchange(p, token);
		const unknown = await exchange(p, randomToken(32));

		for (const res of [replayed, unknown]) {
			expectProblem(res, 401, "INVALID_TEMPORARY_TOKEN");
			expect(res.headers.get("cache-control")).toBe("no-store");
		}
		expect(JSON.stringify(replayed.body)).not.toContain(token);
	});

	it("should answer 401 INVALID_TEMPORARY_TOKEN to a locked account's exchange, and sign it in again once unlocked", async () => {
		const first = await exchange(p, (await signIn(p)).token);
		expect(first.status).toBe(200);
		const sub = decodeJwt(first.body.accessToken).sub!;
		const locks = new AccountLocks(() => runtime(p).store());
		await locks.lock(sub, "test");
		try {
			expectProblem(await exchange(p, (await signIn(p)).token), 401, "INVALID_TEMPORARY_TOKEN");
		} finally {
			await locks.unlock(sub);
		}
		expect((await exchange(p, (await signIn(p)).token)).status).toBe(200);
	});

	it("should refuse a temporary token in the URL and leave it usable from the body", async () => {
		const { token } = await signIn(p);

		const inQuery = await http(p.baseUrl, "POST", `/auth/tokens/exchange?token=${token}`, { json: {} });
		const inBoth = await http(p.baseUrl, "POST", `/auth/tokens/exchange?token=${token}`, { json: { token } });

		expectProblem(inQuery, 400, "VALIDATION_ERROR");
		expectProblem(inBoth, 400, "VALIDATION_ERROR");
		expect(JSON.stringify([inQuery.body, inBoth.body])).not.toContain(token);
		expect((await exchange(p, token)).status).toBe(200);
	});

	it("should answer 401 when the temporary token has expired", async () => {
		const short = await startPlatform(await socialEnv(provider, { REDIS_URL, NAMESPACE: uniqueName("social-ttl"), TEMP_TOKEN_TTL_SECONDS: "1" }));
		try {
			const { token } = await signIn(short);
			const key = `${short.config.namespace}:kv:${temporaryTokenKey(token)}`;
			expect(await redis.pttl(key)).toBeGreaterThan(0);
			expect(await redis.pttl(key)).toBeLessThanOrEqual(1000);

			await waitFor("the temporary token to expire in Redis", async () => (await redis.exists(key)) === 0, 10000);

			expectProblem(await exchange(short, token), 401, "INVALID_TEMPORARY_TOKEN");
		} finally {
			await short.stop();
		}
	});

	describe("failures end at the UI with an error code and create nothing", () => {
		type Case = [label: string, code: string, exchangesCode: boolean, run: () => Promise<HttpResult>];

		const withCallback = async (change: (url: URL) => void, cookie?: (started: Started) => string | undefined) => {
			const started = await startSignIn(p);
			const url = await authorize(started.authorizeUrl);
			change(url);
			return callback(p, url, cookie ? cookie(started) : started.cookie);
		};
		const plain = () => withCallback(() => undefined);

		const cases: Case[] = [
			["the state is not one the platform issued", "INVALID_STATE", false, () => withCallback(url => url.searchParams.set("state", randomToken(32)))],
			["the state is missing", "INVALID_STATE", false, () => withCallback(url => url.searchParams.delete("state"))],
			["the browser sends no binding cookie", "INVALID_STATE", false, () => withCallback(() => undefined, () => undefined)],
			["the binding cookie belongs to another browser", "INVALID_STATE", false, async () => {
				const other = await startSignIn(p);
				return withCallback(() => undefined, () => other.cookie);
			}],
			["the callback carries no code", "INVALID_REQUEST", false, () => withCallback(url => url.searchParams.delete("code"))],
			["the user declines at the provider", "ACCESS_DENIED", false, async () => {
				provider.denyNextAuthorization("access_denied", "The user said no");
				return plain();
			}],
			["the provider reports another error", "PROVIDER_ERROR", false, async () => {
				provider.denyNextAuthorization("temporarily_unavailable", "<script>internal detail</script>");
				return plain();
			}],
			["the token endpoint refuses the code", "TOKEN_EXCHANGE_FAILED", true, async () => {
				provider.failNextTokenRequest(400, { error: "invalid_grant", error_description: "code expired" });
				return plain();
			}],
			["the ID token carries another nonce", "INVALID_ID_TOKEN", true, async () => {
				provider.tamperNextIdToken(claims => (claims.nonce = randomToken(32)));
				return plain();
			}],
			["the ID token was issued to another client", "INVALID_ID_TOKEN", true, async () => {
				provider.tamperNextIdToken(claims => (claims.aud = "another-client"));
				return plain();
			}],
			["the userinfo call fails", "USERINFO_FAILED", true, async () => {
				provider.failNextUserinfo(401, { error: "invalid_token" });
				return plain();
			}],
			["userinfo has no email", "USERINFO_FAILED", true, async () => {
				provider.user = { ...provider.user, email: undefined };
				return plain();
			}],
			["userinfo describes another user than the ID token", "USERINFO_FAILED", true, async () => {
				provider.tamperNextIdToken(claims => (claims.sub = "someone-else"));
				return plain();
			}],
			["the provider does not vouch for the email", "EMAIL_NOT_VERIFIED", true, async () => {
				provider.user = { ...provider.user, email_verified: false };
				return plain();
			}]
		];

		it.each(cases)("should redirect with the error code and create nothing when %s", async (_label, code, exchangesCode, run) => {
			const user = provider.user;
			const before = provider.tokenRequests.length;

			const res = await run();

			expectUiError(res, code);
			expect(res.headers.get("location")).not.toMatch(/script|detail|expired|said/);
			expect(provider.tokenRequests.length - before).toBe(exchangesCode ? 1 : 0);
			await expect(traces(p, user)).resolves.toEqual(NONE);
		});

		it("should redirect with INVALID_STATE and exchange nothing when a callback is replayed", async () => {
			const started = await startSignIn(p);
			const url = await authorize(started.authorizeUrl);
			uiRedirect(await callback(p, url, started.cookie));
			const before = provider.tokenRequests.length;

			expectUiError(await callback(p, url, started.cookie), "INVALID_STATE");

			expect(provider.tokenRequests.length).toBe(before);
			await expect(traces(p, provider.user)).resolves.toEqual(ONE);
		});

		it("should redirect with INVALID_REQUEST when the callback repeats a parameter", async () => {
			const res = await withCallback(url => url.searchParams.append("code", "second"));

			expectUiError(res, "INVALID_REQUEST");
		});
	});

	describe("an existing account with the same email", () => {
		it("should refuse to link and create nothing when the provider does not vouch for the email", async () => {
			const registered = newUser();
			expect((await http(p.baseUrl, "POST", "/auth/register", { json: registered })).status).toBe(201);
			provider.user = providerUser({ email: registered.email, email_verified: false });

			const started = await startSignIn(p);
			expectUiError(await callback(p, await authorize(started.authorizeUrl), started.cookie), "EMAIL_NOT_VERIFIED");

			await expect(runtime(p).store().collection(SOCIAL_IDENTITIES).count({ subject: provider.user.sub })).resolves.toBe(0);
		});

		it("should refuse to link by email, create nothing and leave the account as it was, even when the provider vouches for the email", async () => {
			const registered = newUser();
			expect((await http(p.baseUrl, "POST", "/auth/register", { json: registered })).status).toBe(201);
			provider.user = providerUser({ email: registered.email.toUpperCase(), email_verified: "true" });

			const started = await startSignIn(p);
			expectUiError(await callback(p, await authorize(started.authorizeUrl), started.cookie), "ACCOUNT_EXISTS");

			await expect(runtime(p).store().collection(SOCIAL_IDENTITIES).count({ subject: provider.user.sub })).resolves.toBe(0);
			const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: registered.email, password: registered.password } });
			expect(login.status).toBe(200);
		});
	});

	describe("returnTo", () => {
		it.each([
			["an absolute URL", "https://evil.example/x"],
			["a scheme-relative URL", "//evil.example/x"],
			["a backslash authority", "/\\evil.example"],
			["a javascript: URL", "javascript:alert(1)"],
			["a path without a leading slash", "settings"],
			["a control character", "/a\tb"],
			["an encoded line break", "/a\r\nLocation: https://evil.example"]
		])("should answer 400 and start nothing when returnTo is %s", async (_label, returnTo) => {
			const keysBefore = await redis.keys(redisKey("social:state:*"));

			const res = await http(p.baseUrl, "GET", `/auth/social/login?returnTo=${encodeURIComponent(returnTo)}`);

			expectProblem(res, 400, "VALIDATION_ERROR");
			expect(res.body.errors).toEqual([{ field: "returnTo", message: "must be a relative path" }]);
			expect(res.headers.get("set-cookie")).toBeNull();
			expect(await redis.keys(redisKey("social:state:*"))).toEqual(keysBefore);
		});
	});

	describe("when the actor service is down", () => {
		it("should remove the identity-provider user again and redirect with SOCIAL_LOGIN_UNAVAILABLE", async () => {
			const alone = await startPlatform(await socialEnv(provider, { SERVICES: "api-gateway,auth", REDIS_URL, NAMESPACE: uniqueName("social-alone") }));
			try {
				const user = provider.user;
				const started = await startSignIn(alone);

				expectUiError(await callback(alone, await authorize(started.authorizeUrl), started.cookie), "SOCIAL_LOGIN_UNAVAILABLE");

				await expect(traces(alone, user)).resolves.toEqual(NONE);
			} finally {
				await alone.stop();
			}
		});
	});
});

describe("social sign-in with explicit endpoints, client_secret_post and in-process keys", () => {
	const provider = new MockProvider();
	let p: Platform;

	beforeAll(async () => {
		await provider.start();
		p = await startPlatform(
			await socialEnv(provider, {
				SOCIAL_OAUTH2_ISSUER: "https://provider.example",
				SOCIAL_OAUTH2_AUTHORIZATION_URL: `${provider.issuer}/authorize`,
				SOCIAL_OAUTH2_TOKEN_URL: `${provider.issuer}/token`,
				SOCIAL_OAUTH2_USERINFO_URL: `${provider.issuer}/userinfo`,
				SOCIAL_OAUTH2_CLIENT_AUTH_METHOD: "client_secret_post",
				SOCIAL_OAUTH2_AUTHORIZATION_PARAMS: "access_type=offline&prompt=consent"
			})
		);
	});
	afterAll(async () => {
		await p?.stop();
		await provider.stop();
	});

	it("should sign in without discovery or nonce, authenticating the client in the body, and rely on userinfo", async () => {
		provider.user = providerUser({ given_name: undefined, family_name: undefined, name: "Ada King Lovelace" });
		expect(runtime(p).kv().kind).toBe("memory");
		const started = await startSignIn(p);
		expect(started.authorizeUrl.searchParams.has("nonce")).toBe(false);
		expect(started.authorizeUrl.searchParams.get("access_type")).toBe("offline");
		expect(started.authorizeUrl.searchParams.get("prompt")).toBe("consent");
		// Without a JWKS the ID token is not read at all, so its claims cannot matter.
		provider.tamperNextIdToken(claims => (claims.sub = "someone-else"));
		const before = provider.tokenRequests.length;

		const location = uiRedirect(await callback(p, await authorize(started.authorizeUrl), started.cookie));
		const exchanged = await exchange(p, location.searchParams.get("token")!);

		expect(provider.tokenRequests[before]).toEqual({
			authorization: undefined,
			body: expect.objectContaining({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, code_verifier: expect.any(String) })
		});
		expect(exchanged.status).toBe(200);
		const sub = decodeJwt(exchanged.body.accessToken).sub!;
		const actor = await http(p.baseUrl, "GET", `/actors/${sub}`, { token: exchanged.body.accessToken });
		expect(actor.body).toMatchObject({ firstName: "Ada", lastName: "King Lovelace", email: provider.user.email });
		const link = await runtime(p).store().collection<SocialIdentity>(SOCIAL_IDENTITIES).findOne({ subject: provider.user.sub });
		expect(link).toMatchObject({ provider: "https://provider.example", userSub: sub });
	});
});

describe("social sign-in with the Cognito identity provider (cognito-local)", () => {
	const provider = new MockProvider();
	let local: CognitoLocal;
	let p: Platform;

	beforeAll(async () => {
		local = await startCognitoLocal();
		const pools = await createPools(local);
		await provider.start();
		p = await startPlatform(
			await socialEnv(provider, { ...cognitoEnv(local, pools), IDP_CUSTOM_AUTH_SECRET: "c".repeat(40) })
		);
	}, 30000);
	afterAll(async () => {
		await p?.stop();
		await provider.stop();
		await local?.stop();
	});

	it("should create the Cognito user, the actor and the link once, and map a second sign-in to them", async () => {
		const user = provider.user;
		const links = runtime(p).store().collection<SocialIdentity>(SOCIAL_IDENTITIES);

		await signIn(p);
		const link = (await links.findOne({ subject: user.sub }))!;
		await signIn(p);

		const cognitoUser = await local.admin.send(new AdminGetUserCommand({ UserPoolId: p.config.idp.actorPoolId, Username: user.email }));
		expect(cognitoUser.Username).toBe(link.username);
		expect(cognitoUser.UserAttributes).toEqual(expect.arrayContaining([{ Name: "sub", Value: link.userSub }]));
		await expect(links.count({ subject: user.sub })).resolves.toBe(1);
		await expect(runtime(p).store().collection("actors").count({ id: link.userSub, email: user.email! })).resolves.toBe(1);
	});

	it("should reach Cognito's CUSTOM_AUTH on exchange, which cognito-local answers as unsupported (503)", async () => {
		const { token } = await signIn(p);

		expectProblem(await exchange(p, token), 503, "UPSTREAM_UNAVAILABLE");
	});
});

describe("social sign-in when the auth service is not running", () => {
	const provider = new MockProvider();
	let p: Platform;
	beforeAll(async () => {
		await provider.start();
		p = await startPlatform(await socialEnv(provider, { SERVICES: "api-gateway" }));
	});
	afterAll(async () => {
		await p?.stop();
		await provider.stop();
	});

	it("should answer 503 when sign-in starts and send the callback to the UI with SOCIAL_LOGIN_UNAVAILABLE", async () => {
		expectProblem(await http(p.baseUrl, "GET", "/auth/social/login"), 503, "UPSTREAM_UNAVAILABLE");

		expectUiError(await http(p.baseUrl, "GET", `${CALLBACK_PATH}?code=x&state=${randomToken(32)}`), "SOCIAL_LOGIN_UNAVAILABLE");
	});
});

describe("social sign-in when it is not configured", () => {
	let p: Platform;
	beforeAll(async () => {
		p = await startPlatform({ UI_BASE_URL: UI, UI_CALLBACK_PATH: UI_PATH });
	});
	afterAll(() => p?.stop());

	it("should answer 503 UPSTREAM_UNAVAILABLE saying so when sign-in starts", async () => {
		const res = await http(p.baseUrl, "GET", "/auth/social/login");

		expectProblem(res, 503, "UPSTREAM_UNAVAILABLE");
		expect(res.body.detail).toBe("Social sign-in is not configured on this platform.");
		expect(res.headers.get("retry-after")).toBeNull();
	});

	it("should send the callback to the UI with SOCIAL_LOGIN_UNAVAILABLE", async () => {
		const res = await http(p.baseUrl, "GET", `${CALLBACK_PATH}?code=x&state=${randomToken(32)}`);

		expect(res.status).toBe(302);
		expect(res.headers.get("location")).toBe(`${UI}${UI_PATH}?error=SOCIAL_LOGIN_UNAVAILABLE`);
	});
});
