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
import { KeySeal, type PrivatePart } from "../crypto/sealed-keys";
import { DuplicateKeyError, type Collection, type Store } from "../store";

export const SIGNING_ALG = "EdDSA";
export const KEYS_COLLECTION = "idp_keys";
/** Where versions before the store kept the one key, under DATA_DIR. */
export const LEGACY_KEY_FILE = path.join("keys", "idp-signing-key.json");

export interface SigningKey {
	kid: string;
	privateKey: CryptoKey;
	publicJwk: JWK;
}

export interface StoredKey extends PrivatePart {
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
}

export interface KeyOptions {
	/** Seals private keys at rest. */
	keyEncryptionKey?: Buffer;
	/** DATA_DIR: a key file left there by an earlier version is imported into an empty store. */
	dataDir?: string;
	log?: { info(message: string): void };
	now?: () => number;
}

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

function toStored(jwk: JWK, generation: number, seal: KeySeal, createdAt: string): StoredKey {
	const kid = jwk.kid!;
	return { id: kid, generation, status: "active", createdAt, publicJwk: publicPart(jwk), ...seal.seal(kid, jwk) };
}

async function open(doc: StoredKey, seal: KeySeal): Promise<SigningKey> {
	const jwk = seal.open(doc);
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

/**
 * The key this node signs with: the newest active one in the store, created when
 * there is none (or imported from an earlier version's key file when the store has
 * never held a key). ConfigError naming IDP_KEY_ENCRYPTION_KEY when it does not open.
 */
export async function loadSigningKey(store: Store, opts: KeyOptions = {}): Promise<SigningKey> {
	const keys = store.collection<StoredKey>(KEYS_COLLECTION);
	const seal = new KeySeal(KEYS_COLLECTION, "signing key", opts.keyEncryptionKey);
	let active = await newestActive(keys);
	if (!active) {
		const newest = await keys.findOne({}, { sort: { generation: -1 } });
		const legacy = newest ? null : legacyKey(opts.dataDir);
		if (legacy && (legacy.kty !== "OKP" || legacy.crv !== "Ed25519" || !legacy.d || legacy.kid !== (await thumbprint(legacy)))) {
			throw new Error(`${path.join(opts.dataDir!, LEGACY_KEY_FILE)} does not hold an Ed25519 private key under its thumbprint kid`);
		}
		const doc = toStored(legacy ?? (await generate()), (newest?.generation ?? 0) + 1, seal, new Date((opts.now ?? Date.now)()).toISOString());
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
	await seal.sealStored(keys);
	return open(active, seal);
}

/** The public keys to publish: every active key, and retired ones until they expire. */
export async function publishedKeys(store: Store, now: number): Promise<JWK[]> {
	const at = new Date(now).toISOString();
	const docs = await store.collection<StoredKey>(KEYS_COLLECTION).find({}, { sort: { generation: -1 } });
	return docs.filter(d => d.status === "active" || (d.expiresAt !== undefined && d.expiresAt > at)).map(d => d.publicJwk);
}

/**
 * The key this node signs with, followed across rotations: read from the store at most
 * every `refreshMs` (a rotation on another node is followed within that time; the old
 * key stays published long after), and at once after a rotation here.
 */
export class SigningKeyRing {
	private cached: { key: SigningKey; at: number } | null;
	private pending: Promise<SigningKey> | null = null;
	private readonly keys: Collection<StoredKey>;
	private readonly seal: KeySeal;
	private readonly now: () => number;

	constructor(
		private readonly store: Store,
		initial: SigningKey,
		private readonly opts: KeyOptions & { refreshMs?: number } = {}
	) {
		this.keys = store.collection<StoredKey>(KEYS_COLLECTION);
		this.seal = new KeySeal(KEYS_COLLECTION, "signing key", opts.keyEncryptionKey);
		this.now = opts.now ?? Date.now;
		this.cached = { key: initial, at: this.now() };
	}

	current(): Promise<SigningKey> {
		const cached = this.cached;
		if (cached && this.now() - cached.at < (this.opts.refreshMs ?? KEY_REFRESH_MS)) return Promise.resolve(cached.key);
		this.pending ??= (async () => {
			const active = await newestActive(this.keys);
			// A store without an active key (cannot happen through this module) keeps the one held.
			const key = active && active.id !== cached?.key.kid ? await open(active, this.seal) : (cached?.key ?? (await loadSigningKey(this.store, this.opts)));
			this.cached = { key, at: this.now() };
			return key;
		})().finally(() => (this.pending = null));
		return this.pending;
	}

	/**
	 * A new key signs from now on; the keys it replaces are retired and stay published
	 * for `retireAfterSec` (the longest lifetime of a token they signed, plus a margin),
	 * so every token they signed verifies until it expires. Answers the new kid.
	 */
	async rotate(retireAfterSec: number): Promise<string> {
		for (let attempt = 0; ; attempt++) {
			const newest = await this.keys.findOne({}, { sort: { generation: -1 } });
			const generation = (newest?.generation ?? 0) + 1;
			const nowIso = new Date(this.now()).toISOString();
			const doc = toStored(await generate(), generation, this.seal, nowIso);
			try {
				await this.keys.insert(doc);
			} catch (err) {
				// Another rotation took this generation: try the next one.
				if (err instanceof DuplicateKeyError && attempt < 5) continue;
				throw err;
			}
			await this.keys.updateMany(
				{ status: "active", generation: { $lt: generation } },
				{ $set: { status: "retired", retiredAt: nowIso, expiresAt: new Date(this.now() + retireAfterSec * 1000).toISOString() } }
			);
			this.cached = { key: await open(doc, this.seal), at: this.now() };
			return doc.id;
		}
	}
}

/** How often a signing node looks for a key rotated elsewhere. */
const KEY_REFRESH_MS = 5_000;
/**
 * How much longer than a token's lifetime a retired key stays published: covers the
 * time a node signs with it before it sees the rotation, and clock skew.
 */
export const RETIRE_MARGIN_SEC = 120;
