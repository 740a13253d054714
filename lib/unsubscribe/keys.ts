/**
 * The keys unsubscribe links are signed with (HMAC-SHA256), managed by the platform:
 * generated on first use into the store (`unsubscribe_keys`), sealed like the other
 * keys (lib/crypto/sealed-keys.ts, IDP_KEY_ENCRYPTION_KEY), each under its own kid with a
 * generation. The newest signs; every stored key verifies, so a rotation
 * (rotateUnsubscribeKey, `npm run rotate-unsubscribe-key`) keeps every link already
 * mailed working until its key's record is deleted. Checking a link reads no record
 * of it: the keys are held in memory and re-read only for a kid not seen yet.
 */
import { createSecretKey, randomBytes, type KeyObject } from "node:crypto";
import type { Config } from "../config";
import { KeySeal, type PrivatePart } from "../crypto/sealed-keys";
import { DuplicateKeyError, type Store } from "../store";

export const UNSUBSCRIBE_KEYS = "unsubscribe_keys";
/** How often an unknown kid may make a node read the keys again. */
const RELOAD_MIN_MS = 30_000;

export interface StoredUnsubscribeKey extends PrivatePart {
	/** The kid: random, short, part of every token. */
	id: string;
	generation: number;
	createdAt: string;
}

export interface UnsubscribeKey {
	kid: string;
	/**
	 * A KeyObject, not the bytes: HMAC with a KeyObject is about a quarter of the cost
	 * with a Buffer (which Node makes a key of on every call), and every email signs a
	 * token.
	 */
	secret: KeyObject;
}

const sealFor = (config: Pick<Config, "idp">) => new KeySeal(UNSUBSCRIBE_KEYS, "unsubscribe key", config.idp.keyEncryptionKey);

function newKey(seal: KeySeal, generation: number, now: number): StoredUnsubscribeKey {
	const id = randomBytes(6).toString("base64url");
	return { id, generation, createdAt: new Date(now).toISOString(), ...seal.seal(id, { kty: "oct", k: randomBytes(32).toString("base64url") }) };
}

async function all(store: Store): Promise<StoredUnsubscribeKey[]> {
	return store.collection<StoredUnsubscribeKey>(UNSUBSCRIBE_KEYS).find({}, { sort: { generation: -1 } });
}

/** Adds a key one generation above the newest (the first one when there is none); it signs from now on. */
export async function rotateUnsubscribeKey(store: Store, config: Pick<Config, "idp">, now = Date.now()): Promise<string> {
	const seal = sealFor(config);
	const keys = store.collection<StoredUnsubscribeKey>(UNSUBSCRIBE_KEYS);
	for (;;) {
		const newest = (await all(store))[0];
		try {
			return (await keys.insert(newKey(seal, (newest?.generation ?? 0) + 1, now))).id;
		} catch (err) {
			// Another node took this generation: read again and go one above.
			if (!(err instanceof DuplicateKeyError)) throw err;
		}
	}
}

export class UnsubscribeKeys {
	private keys: Map<string, UnsubscribeKey> | null = null;
	private current: UnsubscribeKey | null = null;
	private loading: Promise<void> | null = null;
	private loadedAt = 0;

	constructor(private readonly store: () => Store, private readonly config: Pick<Config, "idp">) {}

	private load(): Promise<void> {
		this.loading ??= (async () => {
			let stored = await all(this.store());
			if (stored.length === 0) {
				try {
					await this.store().collection<StoredUnsubscribeKey>(UNSUBSCRIBE_KEYS).insert(newKey(sealFor(this.config), 1, Date.now()));
				} catch (err) {
					if (!(err instanceof DuplicateKeyError)) throw err;
				}
				stored = await all(this.store());
			}
			const seal = sealFor(this.config);
			await seal.sealStored(this.store().collection<StoredUnsubscribeKey>(UNSUBSCRIBE_KEYS));
			const keys = new Map(stored.map(doc => [doc.id, { kid: doc.id, secret: createSecretKey(Buffer.from(seal.open(doc).k ?? "", "base64url")) }]));
			this.keys = keys;
			this.current = keys.get(stored[0].id)!;
			this.loadedAt = Date.now();
		})().finally(() => (this.loading = null));
		return this.loading;
	}

	/** The key new links are signed with. */
	async signing(): Promise<UnsubscribeKey> {
		if (!this.current) await this.load();
		return this.current!;
	}

	/** The key of this kid, or null; a kid not known yet re-reads the store at most every 30 s. */
	async byKid(kid: string): Promise<UnsubscribeKey | null> {
		if (!this.keys || (!this.keys.has(kid) && Date.now() - this.loadedAt > RELOAD_MIN_MS)) await this.load();
		return this.keys!.get(kid) ?? null;
	}
}
