/**
 * Attempt limits on login, registration, refresh and exchange, through the gateway:
 * counted in process without Redis, and shared through Redis by two platforms with
 * the same namespace (as two gateway nodes would be).
 */
import Redis from "ioredis";
import { addressKey, userKey } from "../../lib/rate-limit";
import type { Env } from "../../lib/config";
import { http, newUser, startPlatform, type HttpResult, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { describeWith, REDIS_URL, uniqueName } from "../helpers/services";

const PROBLEM = "application/problem+json; charset=utf-8";
const WRONG = "Wrong-Passw0rd";

function expectLimited(res: HttpResult, windowSeconds = 60): void {
	expect({ status: res.status, code: res.body?.code }).toEqual({ status: 429, code: "RATE_LIMITED" });
	expect(res.headers.get("content-type")).toBe(PROBLEM);
	expect(res.headers.get("cache-control")).toBe("no-store");
	const retryAfter = Number(res.headers.get("retry-after"));
	expect(retryAfter).toBeGreaterThanOrEqual(1);
	expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

const login = (p: Platform, username: string, password = WRONG, headers: Record<string, string> = {}) =>
	http(p.baseUrl, "POST", "/auth/login", { json: { username, password }, headers });

/** Everything generous except what a test sets. */
function limits(env: Env): Env {
	return {
		RATE_LIMIT_LOGIN_PER_IP: "1000",
		RATE_LIMIT_LOGIN_PER_USER: "1000",
		RATE_LIMIT_REGISTER_PER_IP: "1000",
		RATE_LIMIT_REGISTER_PER_USER: "1000",
		RATE_LIMIT_REFRESH_PER_IP: "1000",
		RATE_LIMIT_EXCHANGE_PER_IP: "1000",
		...env
	};
}

describe("rate limits in one process", () => {
	describe("per username", () => {
		let p: Platform;
		const user = newUser();
		beforeAll(async () => {
			p = await startPlatform(limits({ RATE_LIMIT_LOGIN_PER_USER: "3" }));
			expect((await http(p.baseUrl, "POST", "/auth/register", { json: user })).status).toBe(201);
		});
		afterAll(() => p.stop());

		it("should answer 429 RATE_LIMITED with Retry-After, even to the right password, when one username passes its login limit", async () => {
			for (let i = 0; i < 3; i++) expect((await login(p, user.email)).status).toBe(401);
			expectLimited(await login(p, user.email, user.password));
			// The same account in another letter case is the same account.
			expectLimited(await login(p, user.email.toUpperCase(), user.password));
		});

		it("should keep answering other usernames from the same address when one username is limited", async () => {
			expect((await login(p, "someone-else@example.com")).body.code).toBe("INVALID_CREDENTIALS");
		});
	});

	describe("per address", () => {
		it("should count every username from one address against the address's login limit", async () => {
			const p = await startPlatform(limits({ RATE_LIMIT_LOGIN_PER_IP: "4" }));
			try {
				for (let i = 0; i < 4; i++) expect((await login(p, `guess${i}@example.com`)).status).toBe(401);
				expectLimited(await login(p, "guess-next@example.com"));
			} finally {
				await p.stop();
			}
		});

		it("should limit registration per address and per email", async () => {
			const p = await startPlatform(limits({ RATE_LIMIT_REGISTER_PER_IP: "3", RATE_LIMIT_REGISTER_PER_USER: "2" }));
			try {
				const taken = newUser();
				expect((await http(p.baseUrl, "POST", "/auth/register", { json: taken })).status).toBe(201);
				expect((await http(p.baseUrl, "POST", "/auth/register", { json: taken })).body.code).toBe("USER_EXISTS");
				// Third attempt for this email: its own limit is passed before the address's.
				expectLimited(await http(p.baseUrl, "POST", "/auth/register", { json: taken }));
				// The address has now made three attempts: a fourth, with a new email, is over its limit too.
				expectLimited(await http(p.baseUrl, "POST", "/auth/register", { json: newUser() }));
			} finally {
				await p.stop();
			}
		});

		it.each([
			["POST /auth/tokens/refresh", "/auth/tokens/refresh", { refreshToken: "unknown" }, "INVALID_REFRESH_TOKEN"],
			["POST /auth/refresh-user-token", "/auth/refresh-user-token", { refreshToken: "unknown" }, "INVALID_REFRESH_TOKEN"],
			["POST /auth/tokens/exchange", "/auth/tokens/exchange", { token: "A".repeat(43) }, "INVALID_TEMPORARY_TOKEN"]
		])("should limit %s per address", async (_label, url, body, code) => {
			const p = await startPlatform(limits({ RATE_LIMIT_REFRESH_PER_IP: "2", RATE_LIMIT_EXCHANGE_PER_IP: "2" }));
			try {
				for (let i = 0; i < 2; i++) expect((await http(p.baseUrl, "POST", url, { json: body })).body.code).toBe(code);
				expectLimited(await http(p.baseUrl, "POST", url, { json: body }));
			} finally {
				await p.stop();
			}
		});

		it("should count both refresh routes as one", async () => {
			const p = await startPlatform(limits({ RATE_LIMIT_REFRESH_PER_IP: "2" }));
			try {
				expect((await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: "unknown" } })).status).toBe(401);
				expect((await http(p.baseUrl, "POST", "/auth/refresh-user-token", { json: { refreshToken: "unknown" } })).status).toBe(401);
				expectLimited(await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: "unknown" } }));
			} finally {
				await p.stop();
			}
		});

		it("should not count a limit that is set to 0", async () => {
			const p = await startPlatform(limits({ RATE_LIMIT_LOGIN_PER_IP: "0", RATE_LIMIT_LOGIN_PER_USER: "0" }));
			try {
				for (let i = 0; i < 12; i++) expect((await login(p, "same@example.com")).status).toBe(401);
			} finally {
				await p.stop();
			}
		});
	});

	describe("client addresses and proxies", () => {
		it("should ignore X-Forwarded-For when no proxy is trusted", async () => {
			const p = await startPlatform(limits({ RATE_LIMIT_LOGIN_PER_IP: "2" }));
			try {
				expect((await login(p, "a@example.com", WRONG, { "x-forwarded-for": "203.0.113.1" })).status).toBe(401);
				expect((await login(p, "b@example.com", WRONG, { "x-forwarded-for": "203.0.113.2" })).status).toBe(401);
				expectLimited(await login(p, "c@example.com", WRONG, { "x-forwarded-for": "203.0.113.3" }));
			} finally {
				await p.stop();
			}
		});

		it("should count the client a trusted proxy names, and only the right-most address it vouches for", async () => {
			const p = await startPlatform(limits({ RATE_LIMIT_LOGIN_PER_IP: "2", TRUSTED_PROXIES: "127.0.0.1" }));
			try {
				const from = (xff: string) => login(p, `${Math.random()}@example.com`, WRONG, { "x-forwarded-for": xff });
				expect((await from("203.0.113.1")).status).toBe(401);
				expect((await from("203.0.113.1")).status).toBe(401);
				expectLimited(await from("203.0.113.1"));
				// Another client behind the same proxy has its own budget.
				expect((await from("203.0.113.2")).status).toBe(401);
				// Whatever the client writes to the left of the proxy's entry does not change who it is.
				expectLimited(await from("198.51.100.7, 203.0.113.1"));
			} finally {
				await p.stop();
			}
		});
	});
});

describeWith("Redis", "rate limits shared through Redis", () => {
	let redis: Redis;
	beforeAll(() => {
		redis = new Redis(REDIS_URL);
	});
	afterAll(() => redis.disconnect());

	it("should count attempts on two gateways together, under keys that hold no username, and open again when the window ends", async () => {
		const namespace = uniqueName("rate-limit");
		const env = limits({ REDIS_URL, NAMESPACE: namespace, RATE_LIMIT_LOGIN_PER_USER: "3", RATE_LIMIT_WINDOW_SECONDS: "2" });
		const [a, b] = [await startPlatform(env), await startPlatform(env)];
		try {
			const username = `Shared-${Date.now()}@Example.com`;
			expect((await login(a, username)).status).toBe(401);
			expect((await login(b, username)).status).toBe(401);
			expect((await login(a, username)).status).toBe(401);
			expectLimited(await login(b, username), 2);

			const keys = await redis.keys(`${namespace}:kv:rl:*`);
			expect(keys.sort()).toEqual([`${namespace}:kv:${addressKey("login", "127.0.0.1")}`, `${namespace}:kv:${userKey("login", username)}`].sort());
			expect(keys.join(" ").toLowerCase()).not.toContain(username.toLowerCase());
			await expect(redis.get(`${namespace}:kv:${userKey("login", username)}`)).resolves.toBe("4");

			await waitFor("the window to end", async () => (await login(a, username)).status === 401, 10_000);
		} finally {
			await a.stop();
			await b.stop();
			await redis.del(...(await redis.keys(`${namespace}:*`)), `${namespace}:none`);
		}
	});
});
