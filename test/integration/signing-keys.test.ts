/**
 * The embedded provider's signing keys in a real SQLite store: one key however many
 * nodes start at once, sealed under the key-encryption key, the key file of earlier
 * versions imported, and the published set shaped for rotation.
 */
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { TokenVerifier } from "../../lib/auth/verifier";
import { ConfigError, loadConfig, type Config, type Env } from "../../lib/config";
import { createIdentityProvider, type IdentityProvider } from "../../lib/idp";
import { KEYS_COLLECTION, LEGACY_KEY_FILE, loadSigningKey, type StoredKey } from "../../lib/idp/keys";
import { SecretBox } from "../../lib/crypto/secretbox";
import { SqliteStore } from "../../lib/store/sqlite";
import { newUser, testConfig } from "../helpers/platform";
import { startNode } from "../helpers/processes";

const kek = () => randomBytes(32).toString("base64");

describe("signing keys in the store", () => {
	let config: Config;
	let stores: SqliteStore[];

	const openStore = () => {
		const store = new SqliteStore(path.join(config.dataDir, "store.sqlite"));
		stores.push(store);
		return store;
	};
	const provider = (env: Env = {}, store = openStore()) =>
		createIdentityProvider(loadConfig({ LOG_LEVEL: "silent", DATA_DIR: config.dataDir, ...env }), () => store);
	const storedKeys = () => openStore().collection<StoredKey>(KEYS_COLLECTION).find({}, { sort: { generation: 1 } });
	async function tokenOf(idp: IdentityProvider): Promise<string> {
		const u = newUser();
		await idp.createUser(u);
		return (await idp.login(u.email, u.password)).accessToken;
	}

	beforeEach(() => {
		config = testConfig();
		stores = [];
	});
	afterEach(async () => {
		for (const s of stores) await s.close();
		fs.rmSync(config.dataDir, { recursive: true, force: true });
	});

	it("should end with one kid when providers on two store handles start at once on an empty store", async () => {
		const [a, b] = [openStore(), openStore()];
		const idps = await Promise.all([provider({}, a), provider({}, b), provider({}, a), provider({}, b)]);

		const stored = await storedKeys();
		expect(stored).toHaveLength(1);
		const kids = await Promise.all(idps.map(async idp => decodeProtectedHeader(await tokenOf(idp)).kid));
		expect(new Set(kids)).toEqual(new Set([stored[0].id]));
		// A token from one node verifies on another.
		await expect(new TokenVerifier(idps[1].trust()).verify(await tokenOf(idps[0]))).resolves.toMatchObject({ kind: "user" });
	});

	it("should keep the private key only in clear without a key-encryption key", async () => {
		await provider();
		const [doc] = await storedKeys();
		expect(doc).toMatchObject({ generation: 1, status: "active", publicJwk: { kty: "OKP", crv: "Ed25519", kid: doc.id, alg: "EdDSA", use: "sig" } });
		expect(doc.publicJwk).not.toHaveProperty("d");
		expect(doc.privateJwk?.d).toEqual(expect.any(String));
		expect(doc.sealedPrivateJwk).toBeUndefined();
	});

	it("should store the private key sealed under the key-encryption key and no d member in clear", async () => {
		const key = kek();
		const idp = await provider({ IDP_KEY_ENCRYPTION_KEY: key });

		const [doc] = await storedKeys();
		expect(doc.privateJwk).toBeUndefined();
		expect(JSON.stringify(doc)).not.toMatch(/"d"\s*:/);
		const opened = JSON.parse(new SecretBox(Buffer.from(key, "base64")).open(doc.sealedPrivateJwk!, `${KEYS_COLLECTION}:${doc.id}`)) as JWK;
		expect(opened).toMatchObject({ kty: "OKP", crv: "Ed25519", x: doc.publicJwk.x, d: expect.any(String) });
		// Nor is the private scalar anywhere in the database files.
		for (const file of fs.readdirSync(config.dataDir).filter(f => f.startsWith("store.sqlite"))) {
			expect(fs.readFileSync(path.join(config.dataDir, file)).includes(opened.d!)).toBe(false);
		}
		// Bound to its kid: the sealed value does not open under another record's id.
		expect(() => new SecretBox(Buffer.from(key, "base64")).open(doc.sealedPrivateJwk!, `${KEYS_COLLECTION}:another`)).toThrow();
		await expect(new TokenVerifier(idp.trust()).verify(await tokenOf(idp))).resolves.toMatchObject({ kind: "user" });
	});

	it("should seal a key stored in clear when a key-encryption key is configured later, keeping its kid", async () => {
		await provider();
		const [before] = await storedKeys();
		await provider({ IDP_KEY_ENCRYPTION_KEY: kek() });

		const [after] = await storedKeys();
		expect(after.id).toBe(before.id);
		expect(after.privateJwk).toBeUndefined();
		expect(after.sealedPrivateJwk).toMatch(/^v1\./);
	});

	it("should fail naming IDP_KEY_ENCRYPTION_KEY when the key-encryption key is wrong or missing", async () => {
		await provider({ IDP_KEY_ENCRYPTION_KEY: kek() });
		const [doc] = await storedKeys();

		const wrong = provider({ IDP_KEY_ENCRYPTION_KEY: kek() });
		await expect(wrong).rejects.toBeInstanceOf(ConfigError);
		await expect(wrong).rejects.toMatchObject({
			variable: "IDP_KEY_ENCRYPTION_KEY",
			message: expect.stringContaining(`IDP_KEY_ENCRYPTION_KEY does not open the signing key "${doc.id}"`)
		});
		await expect(provider()).rejects.toMatchObject({ variable: "IDP_KEY_ENCRYPTION_KEY", message: expect.stringContaining("is required") });
		await expect(storedKeys()).resolves.toHaveLength(1);
	});

	it("should stop a node's start with that message when its key-encryption key is wrong", async () => {
		await provider({ IDP_KEY_ENCRYPTION_KEY: kek() });
		const node = startNode({ SERVICES: "auth", PORT: "0", DATA_DIR: config.dataDir, IDP_KEY_ENCRYPTION_KEY: kek() });

		const code = await new Promise<number | null>(resolve => node.child.once("exit", resolve));
		expect(code).not.toBe(0);
		expect(node.output()).toContain("Invalid configuration: IDP_KEY_ENCRYPTION_KEY does not open the signing key");
	}, 30000);

	it("should import the key file of earlier versions once, so tokens it signed stay valid", async () => {
		const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
		const jwk = await exportJWK(privateKey);
		const kid = await calculateJwkThumbprint({ kty: jwk.kty!, crv: jwk.crv!, x: jwk.x! });
		const file = path.join(config.dataDir, LEGACY_KEY_FILE);
		fs.mkdirSync(path.dirname(file), { mode: 0o700 });
		fs.writeFileSync(file, JSON.stringify({ ...jwk, kid, alg: "EdDSA", use: "sig" }), { mode: 0o600 });
		const imported: string[] = [];
		const idp = await createIdentityProvider(config, openStore, { info: m => imported.push(m) });
		// A token an earlier version issued with that key.
		const earlier = await new SignJWT(decodeJwt(await tokenOf(idp)))
			.setProtectedHeader({ alg: "EdDSA", kid, typ: "JWT" })
			.sign(privateKey);

		expect((await storedKeys()).map(k => k.id)).toEqual([kid]);
		expect(imported).toEqual([expect.stringContaining(`Imported the signing key "${kid}"`)]);
		await expect(new TokenVerifier(idp.trust()).verify(earlier)).resolves.toMatchObject({ kind: "user" });

		// From then on the file is not needed: without it, and with another file in its place, the key stays.
		fs.rmSync(file);
		await expect(loadSigningKey(openStore(), { dataDir: config.dataDir })).resolves.toMatchObject({ kid });
		const other = await exportJWK((await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true })).privateKey);
		fs.writeFileSync(file, JSON.stringify({ ...other, kid: await calculateJwkThumbprint(other) }), { mode: 0o600 });
		await expect(loadSigningKey(openStore(), { dataDir: config.dataDir })).resolves.toMatchObject({ kid });
		await expect(storedKeys()).resolves.toHaveLength(1);
	});

	it("should create no key directory and no file under DATA_DIR apart from the store", async () => {
		await provider();
		expect(fs.readdirSync(config.dataDir).filter(f => !f.startsWith("store.sqlite"))).toEqual([]);
	});

	it("should sign with the newest active key and publish active keys and retired ones until they expire", async () => {
		const idp = await provider();
		const [first] = await storedKeys();
		const keys = openStore().collection<StoredKey>(KEYS_COLLECTION);
		const retired = (id: string, generation: number, expiresAt: string): StoredKey => ({
			...first,
			id,
			generation,
			status: "retired",
			retiredAt: new Date(Date.now() - 7200_000).toISOString(),
			expiresAt,
			publicJwk: { ...first.publicJwk, kid: id }
		});
		await keys.insert(retired("expired", 0, new Date(Date.now() - 1000).toISOString()));
		await keys.insert(retired("still-valid", -1, new Date(Date.now() + 3600_000).toISOString()));

		expect((await idp.jwks())!.keys.map(k => (k as JWK).kid)).toEqual([first.id, "still-valid"]);
		await expect(loadSigningKey(openStore())).resolves.toMatchObject({ kid: first.id });
	});
});
