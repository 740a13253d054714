/**
 * The platform in one process, driven over real HTTP through the gateway.
 */
import type { ServiceSchema } from "moleculer";
import Redis from "ioredis";
import { decodeJwt } from "jose";
import { describeWith, REDIS_URL, uniqueName } from "../helpers/services";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";

const PROBLEM = "application/problem+json; charset=utf-8";

function expectProblem(res: { status: number; headers: Headers; body: any }, status: number, code: string) {
	expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
	expect(res.headers.get("content-type")).toBe(PROBLEM);
	expect(res.body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String) });
	expect(res.body.requestId).toBe(res.headers.get("x-request-id"));
}

describe("gateway, auth and actors in one process", () => {
	let p: Platform;
	let user: ReturnType<typeof newUser>;
	let tokens: any;

	beforeAll(async () => {
		p = await startPlatform({ BOOTSTRAP_ADMIN_EMAIL: "root@example.com", BOOTSTRAP_ADMIN_PASSWORD: "Root-Passw0rd" });
		user = newUser();
		const res = await http(p.baseUrl, "POST", "/auth/register", { json: user });
		expect(res.status).toBe(201);
		tokens = res.body;
	});
	afterAll(() => p.stop());

	describe("the happy path", () => {
		it("should return a token set, the actor id and a Location when registering", () => {
			expect(tokens).toMatchObject({
				accessToken: expect.any(String),
				idToken: expect.any(String),
				refreshToken: expect.any(String),
				tokenType: "Bearer",
				actorId: decodeJwt(tokens.accessToken).sub
			});
			expect(tokens.expiresAt).toBe(decodeJwt(tokens.accessToken).exp);
			expect(tokens.expiresIn).toBeGreaterThan(0);
		});

		it("should log in, read the actor, and refresh when the credentials are right", async () => {
			const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } });
			expect(login.status).toBe(200);
			expect(login.headers.get("cache-control")).toBe("no-store");
			const actor = await http(p.baseUrl, "GET", `/actors/${tokens.actorId}`, { token: login.body.accessToken });
			expect(actor.status).toBe(200);
			expect(actor.body).toEqual({
				actorId: tokens.actorId,
				email: user.email.toLowerCase(),
				firstName: user.firstName,
				lastName: user.lastName,
				createdAt: expect.any(String),
				updatedAt: expect.any(String)
			});
			const refreshed = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: login.body.refreshToken } });
			expect(refreshed.status).toBe(200);
			expect(refreshed.body).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String), tokenType: "Bearer" });
			const viaBff = await http(p.baseUrl, "POST", "/auth/refresh-user-token", { json: { refreshToken: refreshed.body.refreshToken } });
			expect(viaBff.status).toBe(200);
		});

		it("should find actors by query when actorId is given", async () => {
			const found = await http(p.baseUrl, "GET", `/actor?actorId=${tokens.actorId}`, { token: tokens.accessToken });
			expect(found.status).toBe(200);
			expect(found.body.items.map((a: any) => a.actorId)).toEqual([tokens.actorId]);
			const none = await http(p.baseUrl, "GET", `/actor?actorId=00000000-0000-4000-8000-000000000000`, { token: tokens.accessToken });
			expect(none.body).toEqual({ items: [] });
		});

		it("should publish the embedded provider's public keys when asked for the JWKS", async () => {
			const res = await http(p.baseUrl, "GET", "/.well-known/jwks.json");
			expect(res.status).toBe(200);
			expect(res.body.keys).toHaveLength(1);
			expect(res.body.keys[0]).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" });
			expect(res.body.keys[0].d).toBeUndefined();
		});

		it("should report live and ready when the store answers and the signing keys are held", async () => {
			await expect(http(p.baseUrl, "GET", "/health/live")).resolves.toMatchObject({ status: 200, body: { status: "ok" } });
			await expect(http(p.baseUrl, "GET", "/health/ready")).resolves.toMatchObject({ status: 200, body: { status: "ok", checks: { store: "ok", keys: "ok" } } });
		});
	});

	describe("problem documents", () => {
		it("should answer 400 MALFORMED_JSON when the body is not JSON", async () => {
			const res = await http(p.baseUrl, "POST", "/auth/login", { body: '{"username":', headers: { "content-type": "application/json" } });
			expectProblem(res, 400, "MALFORMED_JSON");
		});

		it("should answer 400 VALIDATION_ERROR with field problems and without echoing secrets", async () => {
			const res = await http(p.baseUrl, "POST", "/auth/register", { json: { email: "not-an-email", password: 12345678, firstName: "" } });
			expectProblem(res, 400, "VALIDATION_ERROR");
			const fields = res.body.errors.map((e: any) => e.field).sort();
			expect(fields).toEqual(expect.arrayContaining(["email", "password", "firstName", "lastName"]));
			expect(JSON.stringify(res.body)).not.toContain("12345678");
			expect(JSON.stringify(res.body)).not.toContain("not-an-email");
		});

		it("should answer 400 when the body has unknown fields", async () => {
			const res = await http(p.baseUrl, "POST", "/auth/login", { json: { username: "a@b.c", password: "x", admin: true } });
			expectProblem(res, 400, "VALIDATION_ERROR");
		});

		it("should answer 400 when a path id is not a UUID", async () => {
			expectProblem(await http(p.baseUrl, "GET", "/actors/not-a-uuid", { token: tokens.accessToken }), 400, "VALIDATION_ERROR");
		});

		it("should answer 400 when GET /actor has no actorId", async () => {
			expectProblem(await http(p.baseUrl, "GET", "/actor", { token: tokens.accessToken }), 400, "VALIDATION_ERROR");
		});

		const BARE_CHALLENGE = 'Bearer realm="auth-notify"';
		const REFUSED_TOKEN = 'Bearer realm="auth-notify", error="invalid_token", error_description="The token is invalid or expired."';

		it("should answer 401 UNAUTHORIZED with the bare Bearer challenge when the request has no token", async () => {
			const res = await http(p.baseUrl, "GET", `/actors/${tokens.actorId}`);
			expectProblem(res, 401, "UNAUTHORIZED");
			expect(res.headers.get("www-authenticate")).toBe(BARE_CHALLENGE);
		});

		it.each([
			["a malformed token", "abc"],
			["a forged token", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."]
		])("should answer 401 UNAUTHORIZED with error=invalid_token when the request has %s", async (_label, token) => {
			const res = await http(p.baseUrl, "GET", `/actors/${tokens.actorId}`, { token });
			expectProblem(res, 401, "UNAUTHORIZED");
			expect(res.headers.get("www-authenticate")).toBe(REFUSED_TOKEN);
		});

		it("should answer 401 with error=invalid_token when the token's signature is not the provider's", async () => {
			const [h, payload] = tokens.accessToken.split(".");
			const res = await http(p.baseUrl, "GET", `/actors/${tokens.actorId}`, { token: `${h}.${payload}.${"A".repeat(86)}` });
			expectProblem(res, 401, "UNAUTHORIZED");
			expect(res.headers.get("www-authenticate")).toBe(REFUSED_TOKEN);
		});

		it("should accept the Bearer scheme in any letter case", async () => {
			const res = await http(p.baseUrl, "GET", `/actors/${tokens.actorId}`, { headers: { authorization: `bearer ${tokens.accessToken}` } });
			expect(res.status).toBe(200);
			expect(res.headers.get("www-authenticate")).toBeNull();
		});

		it("should answer 401 with the bare challenge when the Authorization scheme is not Bearer (RFC 6750: no error code)", async () => {
			const res = await http(p.baseUrl, "GET", `/actors/${tokens.actorId}`, { headers: { authorization: `Basic ${tokens.accessToken}` } });
			expectProblem(res, 401, "UNAUTHORIZED");
			expect(res.headers.get("www-authenticate")).toBe(BARE_CHALLENGE);
		});

		it("should answer 401 with error=invalid_token when an ID token is sent instead of an access token", async () => {
			const res = await http(p.baseUrl, "GET", `/actors/${tokens.actorId}`, { token: tokens.idToken });
			expectProblem(res, 401, "UNAUTHORIZED");
			expect(res.headers.get("www-authenticate")).toBe('Bearer realm="auth-notify", error="invalid_token", error_description="An access token is required."');
		});

		it("should answer 401 INVALID_CREDENTIALS with the bare challenge when the password is wrong", async () => {
			const res = await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: "Wrong-Passw0rd" } });
			expectProblem(res, 401, "INVALID_CREDENTIALS");
			expect(res.headers.get("www-authenticate")).toBe(BARE_CHALLENGE);
		});

		it("should answer 401 INVALID_CREDENTIALS with the bare challenge when a valid token comes with a wrong current password", async () => {
			const other = newUser();
			const reg = await http(p.baseUrl, "POST", "/auth/register", { json: other });
			const res = await http(p.baseUrl, "POST", "/auth/password/change", { token: reg.body.accessToken, json: { currentPassword: "Wrong-Passw0rd-1", newPassword: "Other-Horse-9" } });
			expectProblem(res, 401, "INVALID_CREDENTIALS");
			// The access token was fine: a client must not drop it.
			expect(res.headers.get("www-authenticate")).toBe(BARE_CHALLENGE);
		});

		it("should answer 401 INVALID_REFRESH_TOKEN with the bare challenge when the refresh token is unknown", async () => {
			const res = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: "nope" } });
			expectProblem(res, 401, "INVALID_REFRESH_TOKEN");
			expect(res.headers.get("www-authenticate")).toBe(BARE_CHALLENGE);
		});

		it("should name the allowed values of an enum parameter, in the query and in the body", async () => {
			const list = await http(p.baseUrl, "GET", "/notifications?status=SHIPPED", { token: tokens.accessToken });
			expectProblem(list, 400, "VALIDATION_ERROR");
			expect(list.body.errors).toEqual([
				{ field: "status", message: "The 'status' field must be one of: QUEUED, PROCESSING, SENT, DELIVERED, BOUNCED, COMPLAINT, FAILED, SUPPRESSED, UNSUBSCRIBED, CANCELLED, DIGESTED, THROTTLED." }
			]);
			const send = await http(p.baseUrl, "POST", "/notifications", { token: tokens.accessToken, json: { to: user.email, priority: "LO", template: { subject: "s", text: "t" } } });
			expectProblem(send, 400, "VALIDATION_ERROR");
			expect(send.body.errors).toEqual([{ field: "priority", message: "The 'priority' field must be one of: CRITICAL, HIGH, NORMAL, LOW." }]);
		});

		it("should answer 404 ACTOR_NOT_FOUND when the actor does not exist", async () => {
			const res = await http(p.baseUrl, "GET", "/actors/00000000-0000-4000-8000-000000000000", { token: tokens.accessToken });
			expectProblem(res, 404, "ACTOR_NOT_FOUND");
		});

		it("should answer 404 NOT_FOUND when no route matches, with or without a token", async () => {
			expectProblem(await http(p.baseUrl, "GET", "/no/such/route"), 404, "NOT_FOUND");
			expectProblem(await http(p.baseUrl, "GET", "/no/such/route", { token: tokens.accessToken }), 404, "NOT_FOUND");
		});

		it("should answer 409 USER_EXISTS when the email is taken, in any letter case", async () => {
			const res = await http(p.baseUrl, "POST", "/auth/register", { json: { ...user, email: user.email.toUpperCase() } });
			expectProblem(res, 409, "USER_EXISTS");
		});

		it("should answer 422 INVALID_PASSWORD when the password breaks the policy", async () => {
			const res = await http(p.baseUrl, "POST", "/auth/register", { json: newUser({ password: "password" }) });
			expectProblem(res, 422, "INVALID_PASSWORD");
			expect(JSON.stringify(res.body)).not.toContain('"password"');
		});

		it("should answer 413 PAYLOAD_TOO_LARGE when the JSON body exceeds 1 MiB", async () => {
			const res = await http(p.baseUrl, "POST", "/auth/login", { json: { username: "x".repeat(1024 * 1024 + 10), password: "y" } });
			expectProblem(res, 413, "PAYLOAD_TOO_LARGE");
		});

		it("should answer 415 UNSUPPORTED_MEDIA_TYPE when a JSON route gets another content type", async () => {
			const res = await http(p.baseUrl, "POST", "/auth/login", { body: "username=a&password=b", headers: { "content-type": "application/x-www-form-urlencoded" } });
			expectProblem(res, 415, "UNSUPPORTED_MEDIA_TYPE");
		});

		it.each([
			["POST", "/notifications"],
			["GET", "/notifications/00000000-0000-4000-8000-000000000000"],
			["POST", "/templates"],
			["PUT", "/templates/00000000-0000-4000-8000-000000000000"],
			["GET", "/templates/00000000-0000-4000-8000-000000000000"],
			["GET", "/resumes/00000000-0000-4000-8000-000000000000"],
			["GET", "/resumes/00000000-0000-4000-8000-000000000000/content"],
			["GET", "/admin/features"],
			["GET", "/admin/features/x"],
			["PUT", "/admin/features/x"],
			["GET", "/actors/00000000-0000-4000-8000-000000000000"],
			["GET", "/actor?actorId=x"]
		])("should answer 401 when %s %s has no token", async (method, url) => {
			const json = method === "GET" ? undefined : {};
			expectProblem(await http(p.baseUrl, method, url, { json }), 401, "UNAUTHORIZED");
		});
	});

	describe("request ids", () => {
		it("should echo a well-formed X-Request-Id when the client sends one", async () => {
			const res = await http(p.baseUrl, "GET", "/health/live", { headers: { "x-request-id": "abc-123" } });
			expect(res.headers.get("x-request-id")).toBe("abc-123");
		});

		it("should not take an X-Correlation-Id as the request id (moleculer-web would)", async () => {
			const res = await http(p.baseUrl, "GET", "/health/live", { headers: { "x-correlation-id": "corr-123" } });
			expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
			const both = await http(p.baseUrl, "GET", "/health/live", { headers: { "x-correlation-id": "corr-123", "x-request-id": "req-456" } });
			expect(both.headers.get("x-request-id")).toBe("req-456");
		});

		it("should replace a malformed X-Request-Id with a generated one", async () => {
			const res = await http(p.baseUrl, "GET", "/health/live", { headers: { "x-request-id": "a b<script>" } });
			expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
		});
	});

	describe("action authorization inside the cluster", () => {
		const register = { actorId: "11111111-1111-4111-8111-111111111111", email: "svc@example.com", firstName: "S", lastName: "T" };

		it("should answer 401 when a protected action is called without a token", async () => {
			await expect(p.broker.call("actors.get", { id: tokens.actorId })).rejects.toMatchObject({ code: 401, type: "UNAUTHORIZED" });
		});

		it("should answer 403 FORBIDDEN when a user token calls a service-only action", async () => {
			await expect(p.broker.call("actors.register", register, { meta: { authToken: tokens.accessToken } })).rejects.toMatchObject({
				code: 403,
				type: "FORBIDDEN"
			});
		});

		it("should answer 403 SERVICE_NOT_ALLOWED when a service outside the allowed list calls", async () => {
			const token = await runtime(p).serviceTokens.get("actors");
			await expect(p.broker.call("actors.register", register, { meta: { authToken: token } })).rejects.toMatchObject({
				code: 403,
				type: "SERVICE_NOT_ALLOWED"
			});
		});

		it("should admit the allowed service when its token is valid", async () => {
			const token = await runtime(p).serviceTokens.get("auth");
			await expect(p.broker.call("actors.register", register, { meta: { authToken: token } })).resolves.toMatchObject({ actorId: register.actorId });
		});

		it("should not trust a principal placed in meta by the caller", async () => {
			const meta = { user: { kind: "service", serviceId: "auth" }, principal: { serviceId: "auth" }, authToken: tokens.accessToken };
			await expect(p.broker.call("actors.remove", { actorId: register.actorId }, { meta })).rejects.toMatchObject({ code: 403 });
		});

		it("should stop serving a cached profile when the actor is removed", async () => {
			const token = await runtime(p).serviceTokens.get("auth");
			const actorId = "22222222-2222-4222-8222-222222222222";
			await p.broker.call("actors.register", { ...register, actorId, email: "cached@example.com" }, { meta: { authToken: token } });
			await expect(p.broker.call("actors.get", { id: actorId }, { meta: { authToken: token } })).resolves.toMatchObject({ actorId });
			await expect(p.broker.call("actors.remove", { actorId }, { meta: { authToken: token } })).resolves.toEqual({ removed: true });
			await expect(p.broker.call("actors.get", { id: actorId }, { meta: { authToken: token } })).rejects.toMatchObject({
				code: 404,
				type: "ACTOR_NOT_FOUND"
			});
		});

		it("should answer each actor with its own profile when two ids share the cache's key", async () => {
			const token = await runtime(p).serviceTokens.get("auth");
			// The cache keys a profile by the id's last 12 characters (services/actors.service.ts): these two share them.
			const ids = ["33333333-3333-4333-8333-aaaaaaaaaaaa", "44444444-4444-4444-8444-aaaaaaaaaaaa"];
			for (const [i, actorId] of ids.entries()) {
				await p.broker.call("actors.register", { ...register, actorId, email: `shared-key-${i}@example.com` }, { meta: { authToken: token } });
			}
			for (let round = 0; round < 2; round++) {
				for (const [i, actorId] of ids.entries()) {
					await expect(p.broker.call("actors.get", { id: actorId }, { meta: { authToken: token } })).resolves.toMatchObject({ actorId, email: `shared-key-${i}@example.com` });
				}
			}
			// Removing one leaves the other readable.
			await p.broker.call("actors.remove", { actorId: ids[0] }, { meta: { authToken: token } });
			await expect(p.broker.call("actors.get", { id: ids[1] }, { meta: { authToken: token } })).resolves.toMatchObject({ actorId: ids[1] });
			await expect(p.broker.call("actors.get", { id: ids[0] }, { meta: { authToken: token } })).rejects.toMatchObject({ code: 404 });
		});

		it("should refuse every call when an action declares no auth rule", async () => {
			const svc = p.broker.createService({ name: "undeclared", actions: { open: { handler: () => "should never run" } } } as ServiceSchema);
			await p.broker.waitForServices("undeclared");
			const token = await runtime(p).serviceTokens.get("auth");
			await expect(p.broker.call("undeclared.open", {}, { meta: { authToken: token } })).rejects.toMatchObject({ code: 403 });
			await p.broker.destroyService(svc);
		});
	});
});

describe("registration is all or nothing", () => {
	async function expectNoTrace(p: Platform, email: string) {
		await expect(runtime(p).store().collection("idp_users").count({ username: email })).resolves.toBe(0);
		await expect(runtime(p).store().collection("actors").count({ email })).resolves.toBe(0);
	}

	it("should remove the identity-provider user and answer 503 when the actor service is down", async () => {
		const p = await startPlatform({ SERVICES: "api-gateway,auth", REQUEST_TIMEOUT_MS: "2000" });
		try {
			const u = newUser();
			const res = await http(p.baseUrl, "POST", "/auth/register", { json: u });
			expect(res.status).toBe(503);
			expect(res.body.code).toBe("UPSTREAM_UNAVAILABLE");
			expect(res.headers.get("retry-after")).toBeTruthy();
			await expectNoTrace(p, u.email);
			const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: u.email, password: u.password } });
			expect(login.status).toBe(401);
		} finally {
			await p.stop();
		}
	});

	it("should remove the identity-provider user and answer 500 without internals when actors.register fails", async () => {
		const p = await startPlatform({ SERVICES: "api-gateway,auth" });
		// Stands in for an actor service whose database write fails: the real one cannot be made to fail on demand.
		p.broker.createService({
			name: "actors",
			actions: {
				register: { auth: ["service:auth"], handler: () => Promise.reject(new Error("disk full at /var/secret/path")) },
				remove: { auth: ["service:auth"], handler: () => ({ removed: false }) }
			}
		} as ServiceSchema);
		await p.broker.waitForServices("actors");
		try {
			const u = newUser();
			const res = await http(p.baseUrl, "POST", "/auth/register", { json: u });
			expect(res.status).toBe(500);
			expect(res.body).toMatchObject({ code: "INTERNAL", detail: "An unexpected error occurred." });
			expect(JSON.stringify(res.body)).not.toContain("secret");
			await expectNoTrace(p, u.email);
			// The email is free again.
			await p.broker.destroyService(p.broker.getLocalService("actors")!);
		} finally {
			await p.stop();
		}
	});
});

describeWith("Redis", "the platform with REDIS_URL", () => {
	it("should use Redis for the key-value store, under the namespace, with no broker cacher, and check it for readiness", async () => {
		const namespace = uniqueName("redis-it");
		const p = await startPlatform({ REDIS_URL, NAMESPACE: namespace });
		try {
			// No action caches its results: a cacher would only hold one more Redis connection per node.
			expect(p.broker.cacher).toBeNull();
			expect(runtime(p).kv().kind).toBe("redis");
			await runtime(p).kv().set("probe", "1", 60);
			const raw = new Redis(REDIS_URL);
			try {
				await expect(raw.get(`${namespace}:kv:probe`)).resolves.toBe("1");
				await raw.del(`${namespace}:kv:probe`);
			} finally {
				raw.disconnect();
			}
			const ready = await http(p.baseUrl, "GET", "/health/ready");
			expect(ready.body).toEqual({ status: "ok", checks: { store: "ok", storage: "ok", redis: "ok", keys: "ok" } });
		} finally {
			await p.stop();
		}
	});
});
