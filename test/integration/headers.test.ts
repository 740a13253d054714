/**
 * Headers every answer carries, caching of answers that hold tokens, and CORS: off
 * by default, and by exact origin when CORS_ORIGINS lists some.
 */
import { http, newUser, startPlatform, type HttpResult, type Platform } from "../helpers/platform";

const APP = "https://app.example.test";

function corsHeaders(res: HttpResult): Record<string, string> {
	return Object.fromEntries([...res.headers].filter(([name]) => name.startsWith("access-control-")));
}

describe("response headers", () => {
	let p: Platform;
	let tokens: { accessToken: string; refreshToken: string; actorId: string };

	beforeAll(async () => {
		p = await startPlatform();
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		expect(reg.status).toBe(201);
		tokens = reg.body;
	});
	afterAll(() => p.stop());

	const sample: [string, () => Promise<HttpResult>, number][] = [
		["a health check", () => http(p.baseUrl, "GET", "/health/live"), 200],
		["the JWKS", () => http(p.baseUrl, "GET", "/.well-known/jwks.json"), 200],
		["an actor", () => http(p.baseUrl, "GET", `/actors/${tokens.actorId}`, { token: tokens.accessToken }), 200],
		["a validation error", () => http(p.baseUrl, "POST", "/auth/login", { json: {} }), 400],
		["a missing token", () => http(p.baseUrl, "GET", `/actors/${tokens.actorId}`), 401],
		["an unknown route", () => http(p.baseUrl, "GET", "/no/such/route"), 404],
		["a body the parser refuses", () => http(p.baseUrl, "POST", "/notifications", { token: tokens.accessToken, body: "{", headers: { "content-type": "application/json" } }), 400]
	];

	it.each(sample)("should send nosniff and no-referrer on %s", async (_label, send, status) => {
		const res = await send();
		expect(res.status).toBe(status);
		expect(res.headers.get("x-content-type-options")).toBe("nosniff");
		expect(res.headers.get("referrer-policy")).toBe("no-referrer");
		expect(res.headers.get("x-request-id")).toBeTruthy();
	});

	it("should forbid caching every answer of the auth routes, successes and failures alike", async () => {
		const user = newUser();
		const answers = [
			await http(p.baseUrl, "POST", "/auth/register", { json: user }),
			await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: user.password } }),
			await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: tokens.refreshToken } }),
			await http(p.baseUrl, "POST", "/auth/login", { json: { username: user.email, password: "Wrong-Passw0rd" } }),
			await http(p.baseUrl, "POST", "/auth/tokens/exchange", { json: { token: "A".repeat(43) } })
		];
		expect(answers.map(a => a.status)).toEqual([201, 200, 200, 401, 401]);
		for (const a of answers) expect(a.headers.get("cache-control")).toBe("no-store");
	});

	it("should send no CORS header at all, and answer no preflight, when CORS_ORIGINS is empty", async () => {
		const simple = await http(p.baseUrl, "GET", "/health/live", { headers: { origin: APP } });
		expect(simple.status).toBe(200);
		expect(corsHeaders(simple)).toEqual({});
		expect(simple.headers.get("vary")).toBeNull();
		const preflight = await http(p.baseUrl, "OPTIONS", "/auth/login", { headers: { origin: APP, "access-control-request-method": "POST" } });
		expect({ status: preflight.status, code: preflight.body.code }).toEqual({ status: 404, code: "NOT_FOUND" });
		expect(corsHeaders(preflight)).toEqual({});
	});
});

describe("CORS with an allowlist", () => {
	let p: Platform;
	beforeAll(async () => {
		p = await startPlatform({ CORS_ORIGINS: `${APP},http://localhost:3000` });
	});
	afterAll(() => p.stop());

	it("should allow an origin on the list to read answers, failures included", async () => {
		for (const url of ["/health/live", "/no/such/route"]) {
			const res = await http(p.baseUrl, "GET", url, { headers: { origin: APP } });
			expect(corsHeaders(res)).toEqual({ "access-control-allow-origin": APP, "access-control-expose-headers": "Location, Retry-After, X-Request-Id" });
			expect(res.headers.get("vary")).toBe("Origin");
		}
		const parseFailure = await http(p.baseUrl, "POST", "/auth/login", { body: "{", headers: { origin: APP, "content-type": "application/json" } });
		expect(parseFailure.status).toBe(400);
		expect(parseFailure.headers.get("access-control-allow-origin")).toBe(APP);
	});

	it("should answer a preflight from an origin on the list without running anything", async () => {
		const res = await http(p.baseUrl, "OPTIONS", "/notifications", {
			headers: { origin: "http://localhost:3000", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" }
		});
		expect(res.status).toBe(204);
		expect(corsHeaders(res)).toEqual({
			"access-control-allow-origin": "http://localhost:3000",
			"access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE",
			"access-control-allow-headers": "Authorization, Content-Type, Idempotency-Key, Last-Event-ID, X-Request-Id",
			"access-control-expose-headers": "Location, Retry-After, X-Request-Id",
			"access-control-max-age": "600"
		});
		expect(res.headers.get("access-control-allow-credentials")).toBeNull();
	});

	it.each([
		["another site", "https://evil.example"],
		["a longer host that starts with the allowed one", `${APP}.evil.example`],
		["a prefix of the allowed origin", "https://app.example"],
		["the allowed host over http", APP.replace("https:", "http:")],
		["the allowed origin with a trailing slash", `${APP}/`],
		["the opaque origin null", "null"]
	])("should give %s no CORS header and no preflight", async (_label, origin) => {
		const res = await http(p.baseUrl, "GET", "/health/live", { headers: { origin } });
		expect(res.status).toBe(200);
		expect(corsHeaders(res)).toEqual({});
		expect(res.headers.get("vary")).toBe("Origin");
		const preflight = await http(p.baseUrl, "OPTIONS", "/auth/login", { headers: { origin, "access-control-request-method": "POST" } });
		expect(preflight.status).toBe(404);
		expect(corsHeaders(preflight)).toEqual({});
	});
});
