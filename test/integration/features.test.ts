/**
 * Feature flags through the gateway, and the mixin other services read them with,
 * in one process with the embedded store.
 */
import type { Service, ServiceSchema } from "moleculer";
import { decodeJwt } from "jose";
import { FeatureFlagsMixin, type FeatureFlagMethods } from "../../mixins/feature-flags.mixin";
import { raceOneFlag } from "../helpers/flag-races";
import { http, newUser, runtime, startPlatform, type HttpResult, type Platform } from "../helpers/platform";

const PROBLEM = "application/problem+json; charset=utf-8";

function expectProblem(res: HttpResult, status: number, code: string) {
	expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
	expect(res.headers.get("content-type")).toBe(PROBLEM);
}

describe("feature flags", () => {
	let p: Platform;
	let admin: string;
	let adminSub: string;
	let user: string;

	const flags = () => runtime(p).store().collection<{ id: string; valueJson: string; updatedAt: string }>("feature_flags");
	const put = (name: string, body: string, token = admin, type = "application/json") =>
		http(p.baseUrl, "PUT", `/admin/features/${name}`, { token, body, headers: { "content-type": type } });

	beforeAll(async () => {
		p = await startPlatform({ BOOTSTRAP_ADMIN_EMAIL: "root@example.com", BOOTSTRAP_ADMIN_PASSWORD: "Root-Passw0rd" });
		const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: "root@example.com", password: "Root-Passw0rd" } });
		admin = login.body.accessToken;
		adminSub = decodeJwt(admin).sub!;
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		user = reg.body.accessToken;
	});
	afterAll(() => p.stop());

	describe("through the gateway", () => {
		it("should answer 200 with the value, who and when when an administrator sets a flag", async () => {
			const before = new Date().toISOString();
			const res = await put("notifications.low-priority", JSON.stringify({ paused: true }));
			expect(res.status).toBe(200);
			expect(res.body).toEqual({ featureName: "notifications.low-priority", value: { paused: true }, updatedAt: expect.any(String), updatedBy: adminSub });
			expect(res.body.updatedAt >= before && res.body.updatedAt <= new Date().toISOString()).toBe(true);
			await expect(flags().get("notifications.low-priority")).resolves.toMatchObject({ valueJson: '{"paused":true}', updatedBy: adminSub });
		});

		it("should read one flag and list them all by name when an administrator asks", async () => {
			const set = await put("alpha.flag", JSON.stringify({ enabled: false }));
			const one = await http(p.baseUrl, "GET", "/admin/features/alpha.flag", { token: admin });
			expect(one.status).toBe(200);
			expect(one.body).toEqual(set.body);
			const all = await http(p.baseUrl, "GET", "/admin/features", { token: admin });
			expect(all.status).toBe(200);
			const names = all.body.items.map((f: { featureName: string }) => f.featureName);
			expect(names).toEqual([...names].sort());
			expect(all.body.items).toContainEqual(set.body);
		});

		it("should replace the whole value and record the new time when a flag is set again", async () => {
			const first = await put("replace.me", JSON.stringify({ a: 1, b: 2 }));
			const second = await put("replace.me", JSON.stringify({ c: 3 }));
			expect(second.status).toBe(200);
			expect(second.body.value).toEqual({ c: 3 });
			expect(second.body.updatedAt >= first.body.updatedAt).toBe(true);
			const read = await http(p.baseUrl, "GET", "/admin/features/replace.me", { token: admin });
			expect(read.body.value).toEqual({ c: 3 });
		});

		it("should keep keys MongoDB refuses in updates when the value has them", async () => {
			const value = { $set: { "a.b": [1, null, "x"] }, "dotted.key": true, nested: { $where: "1" } };
			const res = await put("odd.keys", JSON.stringify(value));
			expect(res.status).toBe(200);
			const read = await http(p.baseUrl, "GET", "/admin/features/odd.keys", { token: admin });
			expect(read.body.value).toEqual(value);
		});

		it("should store the last acknowledged write, its updatedAt never going back, when PUTs of one flag race", async () => {
			for (let round = 0; round < 20; round++) {
				const name = `race.${round}`;
				await raceOneFlag({
					put: value => put(name, JSON.stringify(value)),
					stored: async () => {
						const doc = await flags().get(name);
						return doc && { value: JSON.parse(doc.valueJson), updatedAt: doc.updatedAt };
					}
				});
			}
		});

		it("should answer 404 FEATURE_NOT_FOUND when the flag was never set", async () => {
			expectProblem(await http(p.baseUrl, "GET", "/admin/features/never.set", { token: admin }), 404, "FEATURE_NOT_FOUND");
		});

		it.each([
			["an array", "[1,2]"],
			["null", "null"],
			["a number", "42"],
			["a string", '"on"'],
			["a boolean", "true"],
			["empty", ""]
		])("should answer 400 VALIDATION_ERROR and store nothing when the body is %s", async (_label, body) => {
			expectProblem(await put("not.an.object", body), 400, "VALIDATION_ERROR");
			await expect(flags().get("not.an.object")).resolves.toBeNull();
		});

		it("should answer 400 MALFORMED_JSON when the body is not JSON", async () => {
			expectProblem(await put("broken.json", '{"enabled":'), 400, "MALFORMED_JSON");
		});

		it("should answer 415 when the body is not sent as JSON", async () => {
			expectProblem(await put("form.body", "enabled=true", admin, "application/x-www-form-urlencoded"), 415, "UNSUPPORTED_MEDIA_TYPE");
		});

		it.each([["Upper"], ["-leading"], ["with%20space"], ["%C3%BC"], ["x".repeat(101)]])("should answer 400 when the flag name is %s", async name => {
			expectProblem(await put(name, "{}"), 400, "VALIDATION_ERROR");
			expectProblem(await http(p.baseUrl, "GET", `/admin/features/${name}`, { token: admin }), 400, "VALIDATION_ERROR");
		});

		it("should answer 403 FORBIDDEN to a user who is not an administrator, and change nothing", async () => {
			await put("guarded", JSON.stringify({ enabled: true }));
			expectProblem(await put("guarded", JSON.stringify({ enabled: false }), user), 403, "FORBIDDEN");
			expectProblem(await http(p.baseUrl, "GET", "/admin/features/guarded", { token: user }), 403, "FORBIDDEN");
			expectProblem(await http(p.baseUrl, "GET", "/admin/features", { token: user }), 403, "FORBIDDEN");
			await expect(flags().get("guarded")).resolves.toMatchObject({ valueJson: '{"enabled":true}' });
		});

		it("should answer 403 SERVICE_NOT_ALLOWED to a service", async () => {
			const token = await runtime(p).serviceTokens.get("auth");
			expectProblem(await put("guarded", "{}", token), 403, "SERVICE_NOT_ALLOWED");
		});

		it("should answer 401 without a token", async () => {
			expectProblem(await put("guarded", "{}", ""), 401, "UNAUTHORIZED");
			expectProblem(await http(p.baseUrl, "GET", "/admin/features"), 401, "UNAUTHORIZED");
		});
	});

	describe("read by other services through the mixin", () => {
		let reader: Service & FeatureFlagMethods;

		beforeAll(async () => {
			reader = p.broker.createService({ name: "flag-reader", mixins: [FeatureFlagsMixin] } as ServiceSchema) as Service & FeatureFlagMethods;
			await p.broker.waitForServices("flag-reader");
		});

		it("should see a change made through the API at once when both are on this node", async () => {
			await put("reader.sees", JSON.stringify({ enabled: true }));
			await expect(reader.featureFlag("reader.sees")).resolves.toEqual({ enabled: true });
			await put("reader.sees", JSON.stringify({ enabled: false }));
			await expect(reader.featureFlag("reader.sees")).resolves.toEqual({ enabled: false });
		});

		it("should answer undefined when the flag was never set", async () => {
			await expect(reader.featureFlag("reader.never")).resolves.toBeUndefined();
		});

		it("should keep serving its cached value until features.changed arrives", async () => {
			await put("reader.cached", JSON.stringify({ n: 1 }));
			await expect(reader.featureFlag("reader.cached")).resolves.toEqual({ n: 1 });
			// Written behind the service's back, so no event announces it.
			await flags().updateMany({ id: "reader.cached" }, { $set: { valueJson: '{"n":2}' } });
			await expect(reader.featureFlag("reader.cached")).resolves.toEqual({ n: 1 });
			await p.broker.broadcast("features.changed", { featureName: "reader.cached" });
			await expect(reader.featureFlag("reader.cached")).resolves.toEqual({ n: 2 });
		});

		it("should drop every cached flag when the transporter reconnects", async () => {
			await put("reader.reconnect", JSON.stringify({ n: 1 }));
			await expect(reader.featureFlag("reader.reconnect")).resolves.toEqual({ n: 1 });
			await flags().updateMany({ id: "reader.reconnect" }, { $set: { valueJson: '{"n":2}' } });
			await p.broker.broadcastLocal("$transporter.connected", { wasReconnect: true });
			await expect(reader.featureFlag("reader.reconnect")).resolves.toEqual({ n: 2 });
		});

		it("should hand out frozen values so a caller cannot change the cached copy", async () => {
			await put("reader.frozen", JSON.stringify({ list: [1], inner: { a: 1 } }));
			const value = (await reader.featureFlag("reader.frozen")) as { list: number[]; inner: { a: number } };
			expect(Object.isFrozen(value) && Object.isFrozen(value.list) && Object.isFrozen(value.inner)).toBe(true);
		});
	});
});
