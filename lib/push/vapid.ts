/**
 * The VAPID key pair (RFC 8292) the platform signs push requests with: from
 * PUSH_VAPID_PUBLIC_KEY and PUSH_VAPID_PRIVATE_KEY, or else generated once and kept
 * in the store (`push_vapid_keys`) under a fixed id, so of nodes that start at once
 * on an empty store one inserts and the others read the winner. The private key is
 * sealed like the signing keys (lib/crypto/sealed-keys.ts, IDP_KEY_ENCRYPTION_KEY).
 * Browsers bind their subscriptions to the public key: a new pair orphans every
 * subscription, so the stored pair is never replaced.
 */
import { createECDH } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import type { Config } from "../config";
import { KeySeal, type PrivatePart } from "../crypto/sealed-keys";
import { DuplicateKeyError, type Store } from "../store";
import type { VapidDetails } from "./send";

export const VAPID_COLLECTION = "push_vapid_keys";
const KEY_ID = "vapid";

export interface StoredVapidKey extends PrivatePart {
	id: string;
	/** base64url of the uncompressed P-256 point: what browsers pass as applicationServerKey. */
	publicKey: string;
	createdAt: string;
}

function rawPublicKey(jwk: JWK): string {
	return Buffer.concat([Buffer.from([0x04]), Buffer.from(jwk.x!, "base64url"), Buffer.from(jwk.y!, "base64url")]).toString("base64url");
}

async function generate(seal: KeySeal, now: number): Promise<StoredVapidKey> {
	const { privateKey } = await generateKeyPair("ES256", { extractable: true });
	const jwk = await exportJWK(privateKey);
	return { id: KEY_ID, publicKey: rawPublicKey(jwk), createdAt: new Date(now).toISOString(), ...seal.seal(KEY_ID, jwk) };
}

async function stored(store: Store, seal: KeySeal, now: number): Promise<StoredVapidKey> {
	const keys = store.collection<StoredVapidKey>(VAPID_COLLECTION);
	const existing = await keys.get(KEY_ID);
	if (existing) return existing;
	try {
		return await keys.insert(await generate(seal, now));
	} catch (err) {
		// Another node inserted first: its pair is the one.
		if (!(err instanceof DuplicateKeyError)) throw err;
		const winner = await keys.get(KEY_ID);
		if (!winner) throw new Error(`No VAPID key in ${VAPID_COLLECTION} after another node created one`);
		return winner;
	}
}

const sealFor = (config: Config) => new KeySeal(VAPID_COLLECTION, "VAPID key", config.idp.keyEncryptionKey);

/** The pair and subject to sign with. ConfigError naming IDP_KEY_ENCRYPTION_KEY when the stored key does not open. */
export async function loadVapidKeys(store: Store, config: Config, now = Date.now()): Promise<VapidDetails> {
	const push = config.notifications.push;
	if (push.vapidKeys) return { subject: push.vapidSubject, ...push.vapidKeys };
	const seal = sealFor(config);
	const doc = await stored(store, seal, now);
	await seal.sealStored(store.collection<StoredVapidKey>(VAPID_COLLECTION));
	const jwk = seal.open(doc);
	// A record whose private part belongs to another key would sign JWTs no push service accepts.
	const ecdh = createECDH("prime256v1");
	ecdh.setPrivateKey(Buffer.from(jwk.d ?? "", "base64url"));
	if (ecdh.getPublicKey().toString("base64url") !== doc.publicKey) throw new Error(`The VAPID key in ${VAPID_COLLECTION} does not match its public key`);
	return { subject: push.vapidSubject, publicKey: doc.publicKey, privateKey: jwk.d! };
}

/**
 * What `GET /notifications/push/vapid-public-key` answers. It never opens the private
 * key, so a node without the key-encryption key can serve it; on an empty store it
 * creates the pair.
 */
export async function vapidPublicKey(store: Store, config: Config, now = Date.now()): Promise<string> {
	const push = config.notifications.push;
	if (push.vapidKeys) return push.vapidKeys.publicKey;
	return (await stored(store, sealFor(config), now)).publicKey;
}
