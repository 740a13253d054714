/**
 * Every alias declared in services/api-gateway/routes.ts gets the policy it declares,
 * on the running gateway over real HTTP. The cases are read from the table itself, so
 * a new declaration is tested without a new test.
 *
 * The services behind the aliases are stand-ins: this is about what the gateway does
 * with each declaration, which needs every alias to succeed or fail on demand. The real
 * services do that only with each one's own preconditions (a provider round-trip, a
 * temporary token, a stored resume); their suites test them through the gateway.
 */
import { Readable } from "node:stream";
import type { Context, ServiceSchema } from "moleculer";
import { RATE_LIMITED_ROUTES, type Env } from "../../lib/config";
import { badRequest } from "../../lib/errors";
import { addressKey, userKey } from "../../lib/rate-limit";
import { BINDING_COOKIE } from "../../lib/social/state";
import { ROUTES } from "../../services/api-gateway/routes";
import type { AppliedPolicy } from "../../services/api-gateway/types";
import { http, runtime, startPlatform, type HttpResult, type Platform } from "../helpers/platform";

interface Declared {
	label: string;
	method: string;
	url: string;
	action: string;
	authentication: boolean;
	/** The route's body kind and policy, overridden by the alias's own: what the declaration means. */
	policy: AppliedPolicy;
}

/** Path parameters the gateway's own actions check against a list (by route path and name): a value they serve. */
const PROBE_VALUES: Record<string, string> = { "/docs:file": "init.js", "/console:file": "console.css", "/ui:page": "verify-email" };

const DECLARED: Declared[] = ROUTES.flatMap(route =>
	Object.entries(route.aliases).map(([match, declared]) => {
		const [method, path] = match.split(" ");
		const { action, ...own } = typeof declared === "string" ? { action: declared } : declared;
		const url = `/${route.path}/${path}`.replace(/\/+/g, "/").replace(/(.)\/$/, "$1").replace(/:(\w+)/g, (_m, name: string) => PROBE_VALUES[`${route.path}:${name}`] ?? "probe");
		return { label: `${method} ${url}`, method, url, action, authentication: route.authentication, policy: { body: route.body, ...route.policy, ...own } };
	})
);

/** The gateway's own actions (health) are real; every other action gets a stand-in. */
const STANDING_IN = DECLARED.filter(d => !d.action.startsWith("api."));
/** A DELETE names what it removes in its path; a body it is sent is never read. */
const TAKES_BODY = DECLARED.filter(d => d.method !== "GET" && d.method !== "DELETE");

const UI = "https://ui.example.test";
const UI_PATH = "/signed-in";
const PROBLEM = "application/problem+json; charset=utf-8";
const ADDRESS = "127.0.0.1";

let p: Platform;
let token: string;
let failing = false;
let calls: { action: string; socialBinding?: string }[] = [];

function standIns(): ServiceSchema[] {
	const byService = new Map<string, string[]>();
	for (const { action } of STANDING_IN) {
		const [service, name] = action.split(".");
		byService.set(service, [...new Set([...(byService.get(service) ?? []), name])]);
	}
	return [...byService].map(([name, actions]) => ({
		name,
		actions: Object.fromEntries(
			actions.map(action => [
				action,
				{
					visibility: "published",
					auth: "public",
					async handler(ctx: Context<unknown, { socialBinding?: string }>) {
						// This process verifies tokens with the keys auth.jwks publishes; it fetches them itself, not through the gateway.
						if (ctx.caller !== "api") return (await runtime(p).idp()).jwks();
						calls.push({ action: `${name}.${action}`, socialBinding: ctx.meta.socialBinding });
						// An upload's file arrives as the call's stream; read to its end, as the real action would.
						if (ctx.stream instanceof Readable) ctx.stream.resume();
						if (failing) throw badRequest("The stand-in fails on demand.");
						return { ok: true };
					}
				}
			])
		)
	}));
}

/** A request each alias accepts: its method, its body kind, a token where the route wants one. */
function send(d: Declared, opts: { query?: string; fields?: Record<string, unknown>; headers?: Record<string, string> } = {}): Promise<HttpResult> {
	const headers: Record<string, string> = { ...opts.headers };
	if (d.authentication) headers.authorization = `Bearer ${token}`;
	const url = d.url + (opts.query ?? "");
	const fields = opts.fields ?? {};
	if (d.method === "GET") return http(p.baseUrl, d.method, url, { headers });
	switch (d.policy.body) {
		case "multipart": {
			const form = new FormData();
			form.append("resume", new Blob(["probe"], { type: "application/pdf" }), "probe.pdf");
			return http(p.baseUrl, d.method, url, { body: form, headers });
		}
		case "sns":
			return http(p.baseUrl, d.method, url, { body: JSON.stringify(fields), headers: { ...headers, "content-type": "text/plain" } });
		case "one-click":
			return http(p.baseUrl, d.method, url, { body: "List-Unsubscribe=One-Click", headers: { ...headers, "content-type": "application/x-www-form-urlencoded" } });
		default:
			return http(p.baseUrl, d.method, url, { json: fields, headers });
	}
}

async function counted(key: string): Promise<number> {
	return Number((await runtime(p).kv().get(key)) ?? 0);
}

async function addressCounts(): Promise<Record<string, number>> {
	const counts: Record<string, number> = {};
	for (const bucket of RATE_LIMITED_ROUTES) counts[bucket] = await counted(addressKey(bucket, ADDRESS));
	return counts;
}

beforeAll(async () => {
	const generous: Env = Object.fromEntries(RATE_LIMITED_ROUTES.map(b => [`RATE_LIMIT_${b.toUpperCase()}_PER_IP`, "1000000"]));
	p = await startPlatform({ ...generous, SERVICES: "api-gateway", UI_BASE_URL: UI, UI_CALLBACK_PATH: UI_PATH });
	for (const schema of standIns()) p.broker.createService(schema);
	await p.broker.waitForServices([...new Set(STANDING_IN.map(d => d.action.split(".")[0]))]);
	token = await runtime(p).serviceTokens.get("documents");
});
afterAll(() => p.stop());
beforeEach(() => {
	failing = false;
	calls = [];
});

describe("the declared gateway routes", () => {
	it("should declare every policy at least once, so none of the cases below is empty", () => {
		const policies = DECLARED.map(d => d.policy);
		expect(new Set(policies.map(x => x.body))).toEqual(new Set(["none", "json", "sns", "multipart", "flag", "one-click"]));
		for (const bucket of RATE_LIMITED_ROUTES) expect(policies.some(x => x.rateLimit?.bucket === bucket)).toBe(true);
		expect(policies.some(x => x.rateLimit?.userField)).toBe(true);
		expect(policies.some(x => x.noStore)).toBe(true);
		expect(policies.some(x => x.bodyParamsOnly)).toBe(true);
		expect(policies.some(x => x.bindingCookie)).toBe(true);
		expect(policies.some(x => x.failure === "ui-redirect")).toBe(true);
	});

	it.each(DECLARED.map(d => [d.label, d] as const))("should answer a request of the declared shape on %s, caching as declared", async (_label, d) => {
		const res = await send(d);
		expect(res.status).toBe(200);
		if (d.policy.noStore) {
			expect(res.headers.get("cache-control")).toBe("no-store");
			expect(res.headers.get("pragma")).toBe("no-cache");
		} else {
			expect(res.headers.get("pragma")).toBeNull();
		}
	});

	it.each(DECLARED.map(d => [d.label, d] as const))("should count an attempt on %s only in the bucket it declares", async (_label, d) => {
		const username = `probe-${Date.now()}-${Math.random()}@example.com`;
		const before = await addressCounts();
		const userField = d.policy.rateLimit?.userField;
		const res = await send(d, { fields: userField ? { [userField]: username } : {} });
		expect(res.status).toBe(200);
		const expected = { ...before };
		if (d.policy.rateLimit) expected[d.policy.rateLimit.bucket] += 1;
		expect(await addressCounts()).toEqual(expected);
		if (d.policy.rateLimit && userField) await expect(counted(userKey(d.policy.rateLimit.bucket, username))).resolves.toBe(1);
	});

	it.each(TAKES_BODY.map(d => [d.label, d] as const))("should refuse a query string on %s only when it takes its parameters from the body", async (_label, d) => {
		const res = await send(d, { query: "?password=in-the-url" });
		if (d.policy.bodyParamsOnly) {
			expect({ status: res.status, code: res.body?.code }).toEqual({ status: 400, code: "VALIDATION_ERROR" });
			expect(calls).toEqual([]);
		} else {
			expect(res.status).toBe(200);
		}
	});

	it.each(TAKES_BODY.map(d => [d.label, d] as const))("should take a text/plain body on %s only when its body kind is sns", async (_label, d) => {
		const res = await http(p.baseUrl, d.method, d.url, {
			body: "{}",
			headers: { "content-type": "text/plain", ...(d.authentication ? { authorization: `Bearer ${token}` } : {}) }
		});
		if (d.policy.body === "sns") {
			expect(res.status).toBe(200);
		} else {
			expect({ status: res.status, code: res.body?.code }).toEqual({ status: 415, code: "UNSUPPORTED_MEDIA_TYPE" });
			expect(calls).toEqual([]);
		}
	});

	it.each(STANDING_IN.map(d => [d.label, d] as const))("should hand %s the sign-in binding cookie only when it declares so", async (_label, d) => {
		const res = await send(d, { headers: { cookie: `other=1; ${BINDING_COOKIE}=probe-binding` } });
		expect(res.status).toBe(200);
		expect(calls).toEqual([{ action: d.action, socialBinding: d.policy.bindingCookie ? "probe-binding" : undefined }]);
	});

	it.each(STANDING_IN.map(d => [d.label, d] as const))("should answer a failure of %s in the form it declares", async (_label, d) => {
		failing = true;
		const res = await send(d);
		expect(calls.map(c => c.action)).toEqual([d.action]);
		if (d.policy.failure === "ui-redirect") {
			expect(res.status).toBe(302);
			expect(res.headers.get("location")).toBe(`${UI}${UI_PATH}?error=INVALID_REQUEST`);
			expect(res.headers.get("cache-control")).toBe("no-store");
		} else {
			expect({ status: res.status, code: res.body?.code }).toEqual({ status: 400, code: "VALIDATION_ERROR" });
			expect(res.headers.get("content-type")).toBe(PROBLEM);
		}
	});
});
