/**
 * The embedded provider's signing keys: Ed25519, kept in the store (`idp_keys`), so
 * every node running the provider reaches the same ones and nothing else needs them.
 * The private part is sealed under the key-encryption key when one is configured.
 *
 * Keys are numbered: the first is generation 1, and the generation is a unique key,
 * so of two nodes that start at once on an empty store one inserts and the other
 * reads the winner. The newest active key signs; the public keys of every active key
 * and of retired keys until their `expiresAt` are published.
 */
import fs from "node:fs";
import path from "node:path";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import { ConfigError } from "../config";
import { SecretBox, SecretBoxError } from "../secretbox";
import { DuplicateKeyError, type Collection, type Store } from "../store";

export const SIGNING_ALG = "EdDSA";
export const KEYS_COLLECTION = "idp_keys";
/** Where versions before the store kept the one key, under DATA_DIR. */
export const LEGACY_KEY_FILE = path.join("keys", "idp-signing-key.json");
const KEK_VARIABLE = "IDP_KEY_ENCRYPTION_KEY";

export interface SigningKey {
	kid: string;
	privateKey: CryptoKey;
	publicJwk: JWK;
}

export interface StoredKey {
	/** The kid: the RFC 7638 thumbprint of the public key. */
	id: string;
	/** Unique: one writer wins each generation. */
	generation: number;
	status: "active" | "retired";
	createdAt: string;
	retiredAt?: string;
	/** A retired key leaves the JWKS then, when no token it signed is valid any more. */
	expiresAt?: string;
	publicJwk: JWK;
	/** Without a key-encryption key only. */
	privateJwk?: JWK;
	/** The private JWK as JSON, sealed (lib/secretbox.ts) with the kid as associated data. */
	sealedPrivateJwk?: string;
}

export interface KeyOptions {
	/** Seals private keys at rest. */
	keyEncryptionKey?: Buffer;
	/** DATA_DIR: a key file left there by an earlier version is imported into an empty store. */
	dataDir?: string;
	log?: { info(message: string): void };
	now?: () => number;
}

const associatedData = (kid: string) => `${KEYS_COLLECTION}:${kid}`;

function publicPart(jwk: JWK): JWK {
	return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid: jwk.kid, alg: SIGNING_ALG, use: "sig" };
}

const thumbprint = (jwk: JWK) => calculateJwkThumbprint({ kty: jwk.kty!, crv: jwk.crv!, x: jwk.x! });

async function generate(): Promise<JWK> {
	const { privateKey } = await generateKeyPair(SIGNING_ALG, { crv: "Ed25519", extractable: true });
	const jwk = await exportJWK(privateKey);
	return { ...jwk, kid: await thumbprint(jwk), alg: SIGNING_ALG, use: "sig" };
}

function legacyKey(dataDir: string | undefined): JWK | null {
	if (!dataDir) return null;
	const file = path.join(dataDir, LEGACY_KEY_FILE);
	if (!fs.existsSync(file)) return null;
	return JSON.parse(fs.readFileSync(file, "utf8")) as JWK;
}

function toStored(jwk: JWK, generation: number, box: SecretBox | null, createdAt: string): StoredKey {
	const kid = jwk.kid!;
	const secret = box ? { sealedPrivateJwk: box.seal(JSON.stringify(jwk), associatedData(kid)) } : { privateJwk: jwk };
	return { id: kid, generation, status: "active", createdAt, publicJwk: publicPart(jwk), ...secret };
}

function privateJwkOf(doc: StoredKey, box: SecretBox | null): JWK {
	if (doc.sealedPrivateJwk === undefined) {
		if (!doc.privateJwk) throw new Error(`The signing key "${doc.id}" in ${KEYS_COLLECTION} has no private part`);
		return doc.privateJwk;
	}
	if (!box) throw new ConfigError(KEK_VARIABLE, `is required: the signing key "${doc.id}" in ${KEYS_COLLECTION} is sealed under one`);
	try {
		return JSON.parse(box.open(doc.sealedPrivateJwk, associatedData(doc.id))) as JWK;
	} catch (err) {
		if (!(err instanceof SecretBoxError)) throw err;
		throw new ConfigError(
			KEK_VARIABLE,
			`does not open the signing key "${doc.id}" in ${KEYS_COLLECTION} (${err.message}): set the key-encryption key it was sealed under`
		);
	}
}

async function open(doc: StoredKey, box: SecretBox | null): Promise<SigningKey> {
	const jwk = privateJwkOf(doc, box);
	if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || !jwk.d || !jwk.x) {
		throw new Error(`The signing key "${doc.id}" in ${KEYS_COLLECTION} is not an Ed25519 private key`);
	}
	// A record whose private part belongs to another key must not sign under this kid.
	if ((await thumbprint(jwk)) !== doc.id || jwk.x !== doc.publicJwk.x) {
		throw new Error(`The signing key "${doc.id}" in ${KEYS_COLLECTION} does not match its kid`);
	}
	const privateKey = (await importJWK({ ...jwk, kid: doc.id }, SIGNING_ALG)) as CryptoKey;
	return { kid: doc.id, privateKey, publicJwk: doc.publicJwk };
}

const newestActive = (keys: Collection<StoredKey>) => keys.findOne({ status: "active" }, { sort: { generation: -1 } });

/** Keys stored in clear before a key-encryption key was configured are sealed now. */
async function sealStored(keys: Collection<StoredKey>, box: SecretBox): Promise<void> {
	for (const doc of await keys.find({ privateJwk: { $exists: true } })) {
		const sealed = box.seal(JSON.stringify(doc.privateJwk), associatedData(doc.id));
		await keys.updateMany({ id: doc.id, privateJwk: { $exists: true } }, { $set: { sealedPrivateJwk: sealed }, $unset: ["privateJwk"] });
	}
}

/**
 * The key this node signs with: the newest active one in the store, created when
 * there is none (or imported from an earlier version's key file when the store has
 * never held a key). ConfigError naming IDP_KEY_ENCRYPTION_KEY when it does not open.
 */
export async function loadSigningKey(store: Store, opts: KeyOptions = {}): Promise<SigningKey> {
	const keys = store.collection<StoredKey>(KEYS_COLLECTION);
	const box = opts.keyEncryptionKey ? new SecretBox(opts.keyEncryptionKey) : null;
	let active = await newestActive(keys);
	if (!active) {
		const newest = await keys.findOne({}, { sort: { generation: -1 } });
		const legacy = newest ? null : legacyKey(opts.dataDir);
		if (legacy && (legacy.kty !== "OKP" || legacy.crv !== "Ed25519" || !legacy.d || legacy.kid !== (await thumbprint(legacy)))) {
			throw new Error(`${path.join(opts.dataDir!, LEGACY_KEY_FILE)} does not hold an Ed25519 private key under its thumbprint kid`);
		}
		const doc = toStored(legacy ?? (await generate()), (newest?.generation ?? 0) + 1, box, new Date((opts.now ?? Date.now)()).toISOString());
		try {
			await keys.insert(doc);
			if (legacy) {
				opts.log?.info(`Imported the signing key "${doc.id}" from ${path.join(opts.dataDir!, LEGACY_KEY_FILE)} into the store; the file is no longer read.`);
			}
		} catch (err) {
			// Another node inserted this generation first: its key is the one.
			if (!(err instanceof DuplicateKeyError)) throw err;
		}
		active = await newestActive(keys);
		if (!active) throw new Error(`No active signing key in ${KEYS_COLLECTION} after creating one`);
	}
	if (box) await sealStored(keys, box);
	return open(active, box);
}

/** The public keys to publish: every active key, and retired ones until they expire. */
export async function publishedKeys(store: Store, now: number): Promise<JWK[]> {
	const at = new Date(now).toISOString();
	const docs = await store.collection<StoredKey>(KEYS_COLLECTION).find({}, { sort: { generation: -1 } });
	return docs.filter(d => d.status === "active" || (d.expiresAt !== undefined && d.expiresAt > at)).map(d => d.publicJwk);
}
