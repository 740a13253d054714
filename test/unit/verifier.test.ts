/**
 * Token verification against the embedded provider's real keys: a table of bad
 * tokens that must all be refused with 401, and the tokens that must pass.
 */
import fs from "node:fs";
import path from "node:path";
import { createRemoteJWKSet, generateKeyPair, exportJWK, SignJWT, decodeJwt, type CryptoKey, type JWTPayload } from "jose";
import { TokenVerifier } from "../../lib/auth/verifier";
import { SessionDenyList } from "../../lib/sessions/deny-list";
import { PublicKeySet } from "../../lib/idp/public-keys";
import { EmbeddedIdentityProvider, embeddedTrust } from "../../lib/idp/embedded";
import { loadSigningKey, type SigningKey } from "../../lib/idp/keys";
import { SqliteStore } from "../../lib/store/sqlite";
import { testConfig } from "../helpers/platform";

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

describe("TokenVerifier", () => {
	let idp: EmbeddedIdentityProvider;
	let key: SigningKey;
	let store: SqliteStore;
	let verifier: TokenVerifier;
	let dataDir: string;
	let access: string;
	let id: string;
	let service: string;

	beforeAll(async () => {
		const config = testConfig();
		dataDir = config.dataDir;
		store = new SqliteStore(path.join(dataDir, "store.sqlite"));
		key = await loadSigningKey(store);
		idp = new EmbeddedIdentityProvider({ config: config.idp, publicUrl: config.publicUrl, store, key });
		verifier = new TokenVerifier(idp.trust());
		await idp.createUser({ email: "v@example.com", password: "Passw0rd-ok", firstName: "V", lastName: "W" });
		const set = await idp.login("v@example.com", "Passw0rd-ok");
		access = set.accessToken;
		id = set.idToken;
		service = (await idp.serviceToken("auth")).token;
	});

	afterAll(async () => {
		await store.close();
		fs.rmSync(dataDir, { recursive: true, force: true });
	});

	/** Signs claims like a real access token, with overrides, using `signer` (default: the real key). */
	async function forge(overrides: JWTPayload, opts: { signer?: CryptoKey | Uint8Array; alg?: string; header?: object } = {}) {
		const claims = { ...decodeJwt(access), ...overrides };
		return new SignJWT(claims)
			.setProtectedHeader({ alg: opts.alg ?? "EdDSA", kid: key.kid, ...(opts.header ?? {}) })
			.sign(opts.signer ?? key.privateKey);
	}

	it("should accept a user's access token and return the user", async () => {
		await expect(verifier.verify(access)).resolves.toMatchObject({ kind: "user", username: "v@example.com", isAdmin: false });
	});

	it("should refuse a token of an ended session, cached or not, with the invalid token's 401, and keep the others", async () => {
		const denied = new SessionDenyList();
		const v = new TokenVerifier({ ...idp.trust(), denied });
		const other = (await idp.login("v@example.com", "Passw0rd-ok")).accessToken;
		await expect(v.verify(access)).resolves.toMatchObject({ kind: "user" });
		const sid = decodeJwt(access).sid as string;
		denied.add([{ sid, until: Date.now() + 60_000 }]);
		expect(v.cached(access)).toBeUndefined();
		await expect(v.verify(access)).rejects.toMatchObject({ code: 401, type: "UNAUTHORIZED" });
		await expect(new TokenVerifier({ ...idp.trust(), denied }).verify(access)).rejects.toMatchObject({ code: 401, type: "UNAUTHORIZED" });
		await expect(v.verify(other)).resolves.toMatchObject({ kind: "user" });
		await expect(v.verify(service)).resolves.toMatchObject({ kind: "service" });
	});

	it("should drop a denial once no access token of its session can be valid", () => {
		let now = 1000;
		const denied = new SessionDenyList(() => now);
		denied.add([{ sid: "s1", until: 2000 }, { sid: "s2", until: 500 }]);
		expect([denied.has("s1"), denied.has("s2"), denied.has("s3")]).toEqual([true, false, false]);
		now = 2000;
		expect(denied.has("s1")).toBe(false);
		expect(denied.size).toBe(0);
	});

	it("should accept a service ID token and return the service id", async () => {
		await expect(verifier.verify(service)).resolves.toMatchObject({ kind: "service", serviceId: "auth" });
	});

	const cases: [string, () => Promise<string>][] = [
		["empty", async () => ""],
		["not a JWT", async () => "hello"],
		["alg none", async () => `${b64({ alg: "none", typ: "JWT" })}.${b64(decodeJwt(access))}.`],
		[
			"HS256 signed with the public key",
			async () => forge({}, { alg: "HS256", signer: new TextEncoder().encode(JSON.stringify(key.publicJwk)) })
		],
		["HS256 signed with the raw public key bytes", async () => forge({}, { alg: "HS256", signer: Buffer.from(key.publicJwk.x!, "base64url") })],
		[
			"signed by another key with the same kid",
			async () => {
				const other = await generateKeyPair("EdDSA", { crv: "Ed25519" });
				return forge({}, { signer: other.privateKey });
			}
		],
		[
			"carrying its own key in the jwk header",
			async () => {
				const other = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
				return forge({}, { signer: other.privateKey, header: { jwk: await exportJWK(other.publicKey) } });
			}
		],
		["expired", async () => forge({ exp: Math.floor(Date.now() / 1000) - 60, iat: Math.floor(Date.now() / 1000) - 3600 })],
		["from another issuer", async () => forge({ iss: "https://evil.example.com/idp/actors" })],
		["for another client", async () => forge({ client_id: "someone-else" })],
		["without token_use", async () => forge({ token_use: undefined })],
		["with a user claiming custom:service_id", async () => forge({ "custom:service_id": "auth" })],
		[
			"with a tampered payload",
			async () => {
				const [h, , s] = access.split(".");
				return `${h}.${b64({ ...decodeJwt(access), "cognito:groups": ["admin"] })}.${s}`;
			}
		],
		["an ID token used as an access token", async () => id],
		[
			"a service token for another audience",
			async () => {
				const claims = { ...decodeJwt(service), aud: "another-client" };
				return new SignJWT(claims).setProtectedHeader({ alg: "EdDSA", kid: key.kid }).sign(key.privateKey);
			}
		],
		[
			"a service token from the actor pool",
			async () => forge({ token_use: "id", aud: decodeJwt(service).aud as string, "custom:service_id": "auth" })
		],
		["too long", async () => "a".repeat(10000)]
	];

	it.each(cases)("should refuse with 401 when the token is %s", async (_name, make) => {
		const token = await make();
		await expect(verifier.verify(token)).rejects.toMatchObject({ code: 401, type: "UNAUTHORIZED" });
	});

	it("should answer 503, not 401, when the provider's keys cannot be fetched", async () => {
		const trust = idp.trust();
		const unreachable = new TokenVerifier({ ...trust, actors: { ...trust.actors, keys: createRemoteJWKSet(new URL("http://127.0.0.1:1/.well-known/jwks.json")) } });
		await expect(unreachable.verify(access)).rejects.toMatchObject({ code: 503, type: "UPSTREAM_UNAVAILABLE" });
	});

	it("should answer 503, not 401, when a node cannot obtain the embedded provider's public keys", async () => {
		const keys = new PublicKeySet({ fetch: () => Promise.reject(new Error("Service 'auth.jwks' is not found.")), source: "auth.jwks" });
		const config = testConfig();
		fs.rmSync(config.dataDir, { recursive: true, force: true });
		const keyless = new TokenVerifier(embeddedTrust(config.idp, config.publicUrl, keys.getKey));
		await expect(keyless.verify(access)).rejects.toMatchObject({ code: 503, type: "UPSTREAM_UNAVAILABLE" });
	});

	it("should accept tokens with public keys alone when they come from the provider's JWKS", async () => {
		const keys = new PublicKeySet({ fetch: () => idp.jwks(), source: "auth.jwks" });
		const config = testConfig();
		fs.rmSync(config.dataDir, { recursive: true, force: true });
		const publicOnly = new TokenVerifier(embeddedTrust(config.idp, config.publicUrl, keys.getKey));
		await expect(publicOnly.verify(access)).resolves.toMatchObject({ kind: "user" });
		await expect(publicOnly.verify(service)).resolves.toMatchObject({ kind: "service", serviceId: "auth" });
	});

	it("should answer a cached token only for the very token verified, never for its signature on another payload", async () => {
		const v = new TokenVerifier(idp.trust());
		await expect(v.verify(access)).resolves.toMatchObject({ kind: "user" });
		expect(v.cached(access)).toMatchObject({ kind: "user", username: "v@example.com" });
		const [h, , s] = access.split(".");
		const pasted = `${h}.${b64({ ...decodeJwt(access), "cognito:groups": ["admin"] })}.${s}`;
		expect(v.cached(pasted)).toBeUndefined();
		await expect(v.verify(pasted)).rejects.toMatchObject({ code: 401 });
		// The refused token did not displace the verified one.
		expect(v.cached(access)).toMatchObject({ kind: "user" });
	});

	it("should stop accepting a cached token when it expires", async () => {
		let now = Date.now();
		const v = new TokenVerifier({ ...idp.trust(), now: () => now });
		await expect(v.verify(access)).resolves.toMatchObject({ kind: "user" });
		now = (decodeJwt(access).exp! + 10) * 1000;
		expect(v.cached(access)).toBeUndefined();
		await expect(v.verify(access)).rejects.toMatchObject({ code: 401 });
	});
});
