/**
 * The public keys a verifying node holds: real Ed25519 keys and real jose
 * verification; the source is a counting function standing in for the auth
 * service's jwks action (the multi-process test runs the real one over NATS).
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JWK } from "jose";
import { KeysUnavailableError, PublicKeySet, type KeyLog } from "../../lib/idp/public-keys";

interface TestKey {
	kid: string;
	privateKey: CryptoKey;
	publicJwk: JWK;
}

async function newKey(): Promise<TestKey> {
	const { privateKey, publicKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
	const jwk = await exportJWK(publicKey);
	const kid = await calculateJwkThumbprint(jwk);
	return { kid, privateKey, publicJwk: { ...jwk, kid, alg: "EdDSA", use: "sig" } };
}

const sign = (key: TestKey, kid = key.kid) => new SignJWT({ sub: "s" }).setProtectedHeader({ alg: "EdDSA", kid }).sign(key.privateKey);

describe("PublicKeySet", () => {
	let now: number;
	let published: JWK[];
	let fetches: number;
	let firsts: boolean[];
	let failWith: Error | null;
	let warnings: string[];
	let set: PublicKeySet;
	let a: TestKey;
	let b: TestKey;

	const verify = (token: string) => jwtVerify(token, set.getKey, { algorithms: ["EdDSA"] });

	beforeAll(async () => {
		[a, b] = await Promise.all([newKey(), newKey()]);
	});

	beforeEach(() => {
		now = 1_700_000_000_000;
		published = [a.publicJwk];
		fetches = 0;
		firsts = [];
		failWith = null;
		warnings = [];
		const log: KeyLog = { info: () => undefined, warn: m => warnings.push(m) };
		set = new PublicKeySet({
			fetch: async first => {
				fetches += 1;
				firsts.push(first);
				if (failWith) throw failWith;
				return { keys: published };
			},
			source: "auth.jwks",
			log,
			now: () => now
		});
	});

	it("should fetch once and then answer from the cache when tokens name a known kid", async () => {
		await verify(await sign(a));
		await verify(await sign(a));
		expect(fetches).toBe(1);
	});

	it("should fetch once more and accept the token when it names a kid the set does not hold", async () => {
		await set.ready();
		published = [b.publicJwk, a.publicJwk];
		now += 10_000;

		await expect(verify(await sign(b))).resolves.toMatchObject({ payload: { sub: "s" } });
		expect(fetches).toBe(2);
	});

	it("should not fetch again for unknown kids within the cooldown, and once after it", async () => {
		await set.ready();
		now += 10_000;
		await expect(verify(await sign(b, "forged-1"))).rejects.toMatchObject({ code: "ERR_JWKS_NO_MATCHING_KEY" });
		expect(fetches).toBe(2);

		await Promise.all(["forged-2", "forged-3", "forged-4"].map(async kid => expect(verify(await sign(b, kid))).rejects.toMatchObject({ code: "ERR_JWKS_NO_MATCHING_KEY" })));
		expect(fetches).toBe(2);

		now += 10_000;
		await expect(verify(await sign(b, "forged-5"))).rejects.toMatchObject({ code: "ERR_JWKS_NO_MATCHING_KEY" });
		expect(fetches).toBe(3);
	});

	it("should share one fetch among concurrent first uses", async () => {
		const tokens = await Promise.all([sign(a), sign(a), sign(a)]);
		await Promise.all(tokens.map(verify));
		expect(fetches).toBe(1);
	});

	it("should refuse to be ready, saying why in one log line, when the keys cannot be fetched", async () => {
		failWith = new Error("Service 'auth.jwks' is not found.");

		await expect(set.ready()).rejects.toBeInstanceOf(KeysUnavailableError);
		await expect(set.ready()).rejects.toThrow("The signing keys could not be obtained from auth.jwks: Service 'auth.jwks' is not found.");
		now += 2_000;
		await expect(verify(await sign(a))).rejects.toBeInstanceOf(KeysUnavailableError);

		expect(fetches).toBe(2);
		expect(warnings).toEqual(["The signing keys could not be obtained from auth.jwks: Service 'auth.jwks' is not found."]);
	});

	it("should become ready once the source answers after a failure", async () => {
		failWith = new Error("timeout");
		await expect(set.ready()).rejects.toBeInstanceOf(KeysUnavailableError);
		failWith = null;
		now += 2_000;

		await expect(set.ready()).resolves.toBeUndefined();
		await expect(verify(await sign(a))).resolves.toBeDefined();
	});

	it("should keep verifying with the held keys when a renewal after the maximum age fails", async () => {
		await set.ready();
		failWith = new Error("timeout");
		now += 301_000;

		await expect(verify(await sign(a))).resolves.toBeDefined();
		await expect(set.ready()).resolves.toBeUndefined();
		expect(fetches).toBe(2);
	});

	it("should tell the source which fetch is a first one (no keys held), also after a first one failed", async () => {
		failWith = new Error("Service 'auth.jwks' is not found.");
		await expect(set.ready()).rejects.toBeInstanceOf(KeysUnavailableError);
		expect(set.held).toBe(false);
		failWith = null;
		now += 2_000;
		await set.ready();
		expect(set.held).toBe(true);
		now += 301_000;
		await set.ready();

		expect(firsts).toEqual([true, true, false]);
	});

	it("should drop a key the source no longer publishes once the maximum age has passed", async () => {
		await verify(await sign(a));
		published = [b.publicJwk];
		now += 301_000;

		await expect(verify(await sign(a))).rejects.toMatchObject({ code: "ERR_JWKS_NO_MATCHING_KEY" });
	});

	it.each([
		["a private key", async () => ({ keys: [{ ...(await exportJWK((await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true })).privateKey)), kid: "x" }] })],
		["no keys", async () => ({ keys: [] })],
		["no key set", async () => null]
	])("should refuse an answer holding %s", async (_label, answer) => {
		const body = await answer();
		const refusing = new PublicKeySet({ fetch: async () => body as never, source: "auth.jwks" });
		await expect(refusing.ready()).rejects.toBeInstanceOf(KeysUnavailableError);
	});
});
