/**
 * Service accounts for backends outside the platform, for both identity providers
 * (the embedded one, and Cognito played by cognito-local): an administrator creates
 * one through the gateway; the backend (here: plain HTTP from the test, no broker)
 * signs in with it, sends a notification to any address, and cannot sign in once the
 * account is deleted.
 */
import { decodeJwt } from "jose";
import { cognitoEnv, createPools, startCognitoLocal, type CognitoLocal } from "../helpers/cognito-local";
import { waitForMail } from "../helpers/mail";
import { http, newUser, startPlatform, type Platform } from "../helpers/platform";

const ADMIN = { email: "admin@example.test", password: "Admin-Passw0rd!" };

type Kind = "embedded" | "cognito";

let local: CognitoLocal | undefined;
let cognito: Record<string, string> = {};

beforeAll(async () => {
	local = await startCognitoLocal();
	cognito = cognitoEnv(local, await createPools(local));
}, 30000);
afterAll(async () => {
	await local?.stop();
});

describe.each<Kind>(["embedded", "cognito"])("service accounts with the %s identity provider", kind => {
	let p: Platform;
	let admin: string;

	beforeAll(async () => {
		p = await startPlatform({
			...(kind === "cognito" ? cognito : {}),
			BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
			BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password
		});
		const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.email, password: ADMIN.password } });
		expect(login.status).toBe(200);
		admin = login.body.accessToken;
	}, 30000);
	afterAll(() => p?.stop());

	it("should let a backend sign in with an account an administrator created, send a notification to any address, and not sign in once deleted", async () => {
		const serviceId = `billing-${kind}`;
		const created = await http(p.baseUrl, "POST", "/admin/service-accounts", { token: admin, json: { serviceId } });
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({ serviceId, username: `svc-${serviceId}` });
		expect(created.body.password.length).toBeGreaterThanOrEqual(32);

		const listed = await http(p.baseUrl, "GET", "/admin/service-accounts", { token: admin });
		expect(listed.status).toBe(200);
		const item = listed.body.items.find((i: { serviceId: string }) => i.serviceId === serviceId);
		expect(item).toEqual({ serviceId, username: `svc-${serviceId}`, createdAt: expect.any(String) });
		// The configured account of the platform's own nodes is not one of them.
		expect(listed.body.items.every((i: { username: string }) => i.username !== cognito.IDP_SERVICE_ACCOUNT_USERNAME)).toBe(true);

		const signIn = (password: string) => http(p.baseUrl, "POST", "/auth/services/token", { json: { username: created.body.username, password } });
		const tokens = await signIn(created.body.password);
		expect(tokens.status).toBe(200);
		expect(tokens.headers.get("cache-control")).toBe("no-store");
		expect(tokens.body).toMatchObject({ tokenType: "Bearer", accessToken: expect.any(String), refreshToken: expect.any(String) });
		expect(decodeJwt(tokens.body.idToken)["custom:service_id"]).toBe(serviceId);

		const to = `anyone-${Date.now()}@example.org`;
		const sent = await http(p.baseUrl, "POST", "/notifications", {
			token: tokens.body.idToken,
			json: { to, template: { subject: "Invoice ready", text: "Your invoice {{n}} is ready." }, variables: { n: 42 } }
		});
		expect(sent.status).toBe(201);
		const mail = await waitForMail(p.dataDir, to, /Invoice ready/);
		expect(mail.text.trim()).toBe("Your invoice 42 is ready.");

		const wrong = await signIn("not-the-password");
		expect(wrong.status).toBe(401);
		expect(wrong.body.code).toBe("INVALID_CREDENTIALS");

		expect((await http(p.baseUrl, "DELETE", `/admin/service-accounts/${serviceId}`, { token: admin })).status).toBe(204);
		const after = await signIn(created.body.password);
		expect(after.status).toBe(401);
		expect(after.body.code).toBe("INVALID_CREDENTIALS");
		expect((await http(p.baseUrl, "DELETE", `/admin/service-accounts/${serviceId}`, { token: admin })).status).toBe(404);
		const relisted = await http(p.baseUrl, "GET", "/admin/service-accounts", { token: admin });
		expect(relisted.body.items.some((i: { serviceId: string }) => i.serviceId === serviceId)).toBe(false);
	});

	it("should refuse duplicates, the platform's own service ids, bad ids and callers who are not administrators", async () => {
		const serviceId = `dup-${kind}`;
		expect((await http(p.baseUrl, "POST", "/admin/service-accounts", { token: admin, json: { serviceId } })).status).toBe(201);
		for (const id of [serviceId, "auth", "notifications"]) {
			const res = await http(p.baseUrl, "POST", "/admin/service-accounts", { token: admin, json: { serviceId: id } });
			expect({ id, status: res.status, code: res.body.code }).toEqual({ id, status: 409, code: "SERVICE_EXISTS" });
		}
		for (const id of ["", "Upper", "-lead", "a".repeat(64), "x_y"]) {
			expect((await http(p.baseUrl, "POST", "/admin/service-accounts", { token: admin, json: { serviceId: id } })).status).toBe(400);
		}
		const user = newUser();
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: user });
		for (const [method, url, json] of [
			["POST", "/admin/service-accounts", { serviceId: "mine" }],
			["GET", "/admin/service-accounts", undefined],
			["DELETE", `/admin/service-accounts/${serviceId}`, undefined]
		] as const) {
			expect((await http(p.baseUrl, method, url, { token: reg.body.accessToken, json })).status).toBe(403);
			expect((await http(p.baseUrl, method, url, { json })).status).toBe(401);
		}
		// The account of the platform's own nodes signs in only there.
		if (kind === "cognito") {
			const own = await http(p.baseUrl, "POST", "/auth/services/token", {
				json: { username: cognito.IDP_SERVICE_ACCOUNT_USERNAME, password: cognito.IDP_SERVICE_ACCOUNT_PASSWORD }
			});
			expect(own.status).toBe(401);
		}
	});
});
