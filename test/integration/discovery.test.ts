/**
 * A resource server built on a verifier nobody here wrote (AWS's aws-jwt-verify)
 * trusts the embedded provider the way it trusts a Cognito pool: it reads the
 * issuer's openid-configuration, takes the keys from its jwks_uri, and verifies
 * access, ID and service tokens, before and after a key rotation.
 *
 * aws-jwt-verify fetches only over HTTPS; the test's gateway speaks plain HTTP on
 * loopback, so its fetcher is replaced by one that uses Node's fetch. Parsing the
 * JWKS, choosing the key by kid, checking signature, issuer, audience and expiry
 * stay the library's.
 */
import { JwtVerifier } from "aws-jwt-verify";
import { SimpleJwksCache } from "aws-jwt-verify/jwk";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { freePort } from "../../harness/processes";
import { KEYS_COLLECTION, type StoredKey } from "../../lib/idp/keys";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";

const ADMIN = { email: "admin@example.test", password: "Admin-Passw0rd!" };

const httpFetcher = { fetch: async (uri: string) => (await fetch(uri)).arrayBuffer() };

let p: Platform;
let publicUrl: string;
let admin: string;

beforeAll(async () => {
	const port = await freePort();
	publicUrl = `http://127.0.0.1:${port}`;
	p = await startPlatform({ PORT: String(port), PUBLIC_URL: publicUrl, BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password });
	admin = (await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.email, password: ADMIN.password } })).body.accessToken;
}, 30000);
afterAll(() => p?.stop());

/** What a resource server does with nothing but the issuer's URL. */
async function discover(issuer: string) {
	const res = await fetch(`${issuer}/.well-known/openid-configuration`);
	expect(res.status).toBe(200);
	return (await res.json()) as { issuer: string; jwks_uri: string; id_token_signing_alg_values_supported: string[] };
}

async function verifiers() {
	const actors = await discover(`${publicUrl}/idp/actors`);
	const services = await discover(`${publicUrl}/idp/services`);
	const jwksCache = new SimpleJwksCache({ fetcher: httpFetcher });
	return {
		access: JwtVerifier.create(
			{
				issuer: actors.issuer,
				jwksUri: actors.jwks_uri,
				// Access tokens carry client_id, not aud, as Cognito's do.
				audience: null,
				customJwtCheck: ({ payload }) => {
					if (payload.client_id !== "embedded-actors" || payload.token_use !== "access") throw new Error("not an access token of the actor client");
				}
			},
			{ jwksCache }
		),
		id: JwtVerifier.create({ issuer: actors.issuer, jwksUri: actors.jwks_uri, audience: "embedded-actors" }, { jwksCache }),
		service: JwtVerifier.create({ issuer: services.issuer, jwksUri: services.jwks_uri, audience: "embedded-services" }, { jwksCache })
	};
}

async function tokens() {
	const user = newUser();
	const reg = await http(p.baseUrl, "POST", "/auth/register", { json: user });
	expect(reg.status).toBe(201);
	const account = await http(p.baseUrl, "POST", "/admin/service-accounts", { token: admin, json: { serviceId: `reports-${Date.now()}` } });
	expect(account.status).toBe(201);
	const svc = await http(p.baseUrl, "POST", "/auth/services/token", { json: { username: account.body.username, password: account.body.password } });
	expect(svc.status).toBe(200);
	return { access: reg.body.accessToken as string, id: reg.body.idToken as string, service: svc.body.idToken as string, actorId: reg.body.actorId as string };
}

describe("identity provider discovery and key rotation", () => {
	it("should publish an openid-configuration per issuer whose jwks_uri serves the public keys", async () => {
		for (const pool of ["actors", "services"]) {
			const issuer = `${publicUrl}/idp/${pool}`;
			const config = await discover(issuer);
			expect(config).toMatchObject({ issuer, jwks_uri: `${issuer}/.well-known/jwks.json`, id_token_signing_alg_values_supported: ["EdDSA"] });
			const jwks = await http(p.baseUrl, "GET", `/idp/${pool}/.well-known/jwks.json`);
			expect(jwks.status).toBe(200);
			expect(jwks.body).toEqual((await http(p.baseUrl, "GET", "/.well-known/jwks.json")).body);
			expect(jwks.body.keys.every((k: Record<string, unknown>) => !("d" in k))).toBe(true);
		}
		expect((await http(p.baseUrl, "GET", "/idp/other/.well-known/openid-configuration")).status).toBe(400);
	});

	it("should have tokens verified by aws-jwt-verify from discovery before and after a rotation, the old key published until its tokens expire", async () => {
		const verify = await verifiers();
		const before = await tokens();
		await expect(verify.access.verify(before.access)).resolves.toMatchObject({ sub: before.actorId });
		await expect(verify.id.verify(before.id)).resolves.toMatchObject({ sub: before.actorId, email_verified: false });
		await expect(verify.service.verify(before.service)).resolves.toMatchObject({ token_use: "id" });
		// The wrong verifier refuses: issuers and audiences are told apart.
		await expect(verify.service.verify(before.id)).rejects.toThrow();
		await expect(verify.id.verify(before.access)).rejects.toThrow();
		const oldKid = decodeProtectedHeader(before.access).kid;

		expect((await http(p.baseUrl, "POST", "/admin/keys/rotate", {})).status).toBe(401);
		const user = await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.email, password: ADMIN.password } });
		const someone = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		expect((await http(p.baseUrl, "POST", "/admin/keys/rotate", { token: someone.body.accessToken })).status).toBe(403);
		const rotated = await http(p.baseUrl, "POST", "/admin/keys/rotate", { token: user.body.accessToken });
		expect(rotated.status).toBe(201);
		expect(rotated.body.kid).toEqual(expect.any(String));
		expect(rotated.body.kid).not.toBe(oldKid);

		const after = await tokens();
		expect(decodeProtectedHeader(after.access).kid).toBe(rotated.body.kid);
		expect(decodeProtectedHeader(after.service).kid).toBe(rotated.body.kid);
		// The same verifier, with the old key cached, finds the new one by its kid.
		for (const t of [before, after]) {
			await expect(verify.access.verify(t.access)).resolves.toMatchObject({ sub: t.actorId });
			await expect(verify.id.verify(t.id)).resolves.toMatchObject({ sub: t.actorId });
			await expect(verify.service.verify(t.service)).resolves.toMatchObject({ token_use: "id" });
		}
		// The platform's own verifier takes both too.
		for (const t of [before, after]) expect((await http(p.baseUrl, "GET", `/actors/${t.actorId}`, { token: t.access })).status).toBe(200);
		// A fresh resource server sees both keys.
		const fresh = await verifiers();
		await expect(fresh.access.verify(before.access)).resolves.toMatchObject({ sub: before.actorId });

		const keys = runtime(p).store().collection<StoredKey>(KEYS_COLLECTION);
		const old = (await keys.get(oldKid!))!;
		expect(old.status).toBe("retired");
		// Retired for the longest token lifetime (an hour here) plus a margin.
		const ttlMs = p.config.idp.accessTokenTtl * 1000;
		expect(Date.parse(old.expiresAt!) - Date.parse(old.retiredAt!)).toBeGreaterThan(ttlMs);
		// Once every token it signed has expired, it leaves the JWKS.
		await keys.updateMany({ id: oldKid! }, { $set: { expiresAt: new Date(Date.now() - 1000).toISOString() } });
		const published = (await http(p.baseUrl, "GET", "/idp/actors/.well-known/jwks.json")).body.keys.map((k: { kid: string }) => k.kid);
		expect(published).toEqual([rotated.body.kid]);
	});
});

describe("the issuers of a platform started without PUBLIC_URL", () => {
	it("should follow PORT, in the discovery document and in the tokens", async () => {
		const port = await freePort();
		const local = await startPlatform({ PORT: String(port) });
		try {
			const issuer = `http://localhost:${port}/idp/actors`;
			const document = await http(local.baseUrl, "GET", "/idp/actors/.well-known/openid-configuration");
			expect(document.body).toMatchObject({ issuer, jwks_uri: `${issuer}/.well-known/jwks.json` });
			const registered = await http(local.baseUrl, "POST", "/auth/register", { json: newUser() });
			expect(registered.status).toBe(201);
			expect(decodeJwt(registered.body.accessToken).iss).toBe(issuer);
			const me = await http(local.baseUrl, "GET", `/actors/${registered.body.actorId}`, { token: registered.body.accessToken });
			expect(me.status).toBe(200);
		} finally {
			await local.stop();
		}
	});
});
