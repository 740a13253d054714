/**
 * The pure parts of social sign-in: returnTo, the pending state, the binding
 * cookie, temporary tokens (on the in-process store with a controlled clock), the
 * mapping of userinfo claims and the codes failures become.
 */
import { Errors } from "moleculer";
import { loadConfig } from "../../lib/config";
import { randomToken, sha256 } from "../../lib/crypto";
import { ClientError, UpstreamError } from "../../lib/errors";
import { MemoryKeyValue } from "../../lib/kv/memory";
import { SocialFailure } from "../../lib/social/failure";
import { toProfile } from "../../lib/social/provider";
import { failureCode, uiCallbackUrl } from "../../lib/social/redirect";
import { BINDING_COOKIE, STATE_TTL_SECONDS, SignInStates, bindingCookie, checkReturnTo, readCookie } from "../../lib/social/state";
import { TemporaryTokens, temporaryTokenKey, type AuthIdentity } from "../../lib/social/temp-tokens";

const identity: AuthIdentity = {
	sub: "7c7ad8c2-5f0b-4d3e-9f44-1c2b3a4d5e6f",
	username: "ada@example.com",
	provider: "https://accounts.google.com",
	providerSubject: "1234567890",
	authenticatedAt: "2030-01-01T00:00:00.000Z"
};

function clock() {
	let now = 1_900_000_000_000;
	return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("checkReturnTo", () => {
	it.each(["/", "/settings", "/a/b?tab=1#top", "/caf%C3%A9", "/a//b"])("should accept %s when it is a path on the UI", value => {
		expect(checkReturnTo(value)).toBe(value);
	});

	it.each([
		"",
		"settings",
		"https://evil.example",
		"//evil.example",
		"/\\evil.example",
		"\\\\evil.example",
		"javascript:alert(1)",
		"/a\u0000b",
		"/a\nb",
		"/a\u007fb",
		"/a\\b",
		`/${"a".repeat(2048)}`
	])("should refuse %j with 400 VALIDATION_ERROR when it could leave the UI", value => {
		expect(() => checkReturnTo(value)).toThrow(expect.objectContaining({ code: 400, type: "VALIDATION_ERROR" }));
	});
});

describe("SignInStates", () => {
	it("should return the pending sign-in once when the state and this browser's binding come back", async () => {
		const kv = new MemoryKeyValue();
		const states = new SignInStates(kv);
		const { state, binding, pending } = await states.create("/next");

		expect(pending).toEqual({ bindingHash: sha256(binding), codeVerifier: expect.any(String), nonce: expect.any(String), returnTo: "/next" });
		await expect(states.consume(state, binding)).resolves.toEqual(pending);
		await expect(states.consume(state, binding)).resolves.toBeNull();
	});

	it("should consume the state and return null when another browser's binding comes with it", async () => {
		const states = new SignInStates(new MemoryKeyValue());
		const mine = await states.create();
		const theirs = await states.create();

		await expect(states.consume(mine.state, theirs.binding)).resolves.toBeNull();
		await expect(states.consume(mine.state, mine.binding)).resolves.toBeNull();
	});

	it.each([
		["no binding", undefined],
		["a malformed binding", "short"],
		["a binding that is an array", ["a", "b"]]
	])("should return null when the callback brings %s", async (_label, binding) => {
		const states = new SignInStates(new MemoryKeyValue());
		const { state } = await states.create();

		await expect(states.consume(state, binding)).resolves.toBeNull();
	});

	it("should return null when the state has expired", async () => {
		const c = clock();
		const states = new SignInStates(new MemoryKeyValue(c.now));
		const { state, binding } = await states.create();

		c.advance(STATE_TTL_SECONDS * 1000);

		await expect(states.consume(state, binding)).resolves.toBeNull();
	});
});

describe("the binding cookie", () => {
	it("should be HttpOnly, SameSite=Lax, limited to the callback path, and Secure when the callback is HTTPS", () => {
		expect(bindingCookie("https://api.example.com/auth/social/login/callback", "v")).toBe(
			`${BINDING_COOKIE}=v; Path=/auth/social/login/callback; Max-Age=600; HttpOnly; SameSite=Lax; Secure`
		);
		expect(bindingCookie("http://localhost:8500/auth/social/login/callback", "v")).not.toContain("Secure");
	});

	it("should be read by name from a Cookie header with other cookies", () => {
		expect(readCookie(`a=1; ${BINDING_COOKIE}=xyz; b=2`, BINDING_COOKIE)).toBe("xyz");
		expect(readCookie(`x${BINDING_COOKIE}=no`, BINDING_COOKIE)).toBeUndefined();
		expect(readCookie(undefined, BINDING_COOKIE)).toBeUndefined();
	});
});

describe("TemporaryTokens", () => {
	it("should issue 32 random bytes in base64url stored only under their SHA-256, and consume them once", async () => {
		const kv = new MemoryKeyValue();
		const tokens = new TemporaryTokens(kv, 300);

		const token = await tokens.issue(identity);

		expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(Buffer.from(token, "base64url")).toHaveLength(32);
		expect(temporaryTokenKey(token)).toBe(`social:temp:${sha256(token)}`);
		await expect(kv.get(temporaryTokenKey(token))).resolves.toBe(JSON.stringify(identity));
		await expect(tokens.consume(token)).resolves.toEqual(identity);
		await expect(tokens.consume(token)).rejects.toMatchObject({ code: 401, type: "INVALID_TEMPORARY_TOKEN" });
	});

	it("should refuse the token with 401 when its lifetime has passed", async () => {
		const c = clock();
		const tokens = new TemporaryTokens(new MemoryKeyValue(c.now), 300);
		const token = await tokens.issue(identity);

		c.advance(300 * 1000);

		await expect(tokens.consume(token)).rejects.toMatchObject({ code: 401, type: "INVALID_TEMPORARY_TOKEN" });
	});

	it.each(["", "short", randomToken(32) + "x", "a".repeat(42) + "!"])("should refuse %j with 401 when it is not a token's shape", async value => {
		await expect(new TemporaryTokens(new MemoryKeyValue(), 300).consume(value)).rejects.toMatchObject({ code: 401, type: "INVALID_TEMPORARY_TOKEN" });
	});
});

describe("toProfile", () => {
	it("should map the standard claims and lower-case the email when userinfo has them", () => {
		expect(toProfile({ sub: "s1", email: " Ada@Example.COM ", email_verified: true, given_name: "Ada", family_name: "Lovelace" })).toEqual({
			subject: "s1",
			email: "ada@example.com",
			emailVerified: true,
			firstName: "Ada",
			lastName: "Lovelace"
		});
	});

	it.each([
		[{ name: "Grace Brewster Hopper" }, "Grace", "Brewster Hopper"],
		[{ name: "Cher" }, "Cher", "-"],
		[{}, "ada", "-"],
		[{ given_name: "  A\u0000da  ", family_name: "x".repeat(300) }, "Ada", "x".repeat(100)]
	])("should fill in names from %j when given or family name is missing or unclean", (claims, firstName, lastName) => {
		expect(toProfile({ sub: "s", email: "ada@example.com", ...claims })).toMatchObject({ firstName, lastName });
	});

	it.each([
		[true, true],
		["true", true],
		[false, false],
		["yes", false],
		[undefined, false]
	])("should read email_verified %j as %s", (value, verified) => {
		expect(toProfile({ sub: "s", email: "a@example.com", email_verified: value }).emailVerified).toBe(verified);
	});

	it.each([
		["no sub", { email: "a@example.com" }],
		["a sub that is not a string", { sub: 42, email: "a@example.com" }],
		["no email", { sub: "s" }],
		["an email without a domain", { sub: "s", email: "ada@" }]
	])("should fail with USERINFO_FAILED when userinfo has %s", (_label, claims) => {
		expect(() => toProfile(claims)).toThrow(expect.objectContaining({ code: "USERINFO_FAILED" }));
	});
});

describe("failureCode", () => {
	it.each([
		["a sign-in failure", new SocialFailure("INVALID_STATE", "x"), "INVALID_STATE"],
		["an unavailable dependency", new UpstreamError("Redis is down"), "SOCIAL_LOGIN_UNAVAILABLE"],
		["a service that is not running", new Errors.ServiceNotFoundError({ action: "actors.register" }), "SOCIAL_LOGIN_UNAVAILABLE"],
		["a rate limit", new ClientError(429, "RATE_LIMITED", "slow down"), "SOCIAL_LOGIN_UNAVAILABLE"],
		["invalid parameters", new Errors.ValidationError("bad", "VALIDATION_ERROR", []), "INVALID_REQUEST"],
		["a conflict", new ClientError(409, "USER_EXISTS", "taken"), "INTERNAL"],
		["anything else", new Error("boom"), "INTERNAL"]
	])("should give %s the code %s", (_label, err, code) => {
		expect(failureCode(err)).toBe(code);
	});
});

describe("uiCallbackUrl", () => {
	it("should build the address from configuration only and encode the query", () => {
		const config = loadConfig({ UI_BASE_URL: "https://app.example.com/base/", UI_CALLBACK_PATH: "/cb" });

		expect(uiCallbackUrl(config, { token: "t", returnTo: "/a?b=1&c" })).toBe("https://app.example.com/base/cb?token=t&returnTo=%2Fa%3Fb%3D1%26c");
	});
});
