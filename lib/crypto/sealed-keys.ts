/**
 * Private keys kept in the store (the embedded provider's signing keys, the VAPID
 * key of Web Push): in clear without a key-encryption key, sealed under
 * IDP_KEY_ENCRYPTION_KEY (lib/crypto/secretbox.ts) when one is configured. The associated
 * data is the collection and the key's id, so a sealed key copied to another record
 * does not open there. A key that does not open stops the start with a ConfigError
 * naming the variable.
 */
import type { JWK } from "jose";
import { ConfigError } from "../config";
import { SecretBox, SecretBoxError } from "./secretbox";
import type { Collection } from "../store";

export const KEK_VARIABLE = "IDP_KEY_ENCRYPTION_KEY";

export interface PrivatePart {
	/** Without a key-encryption key only. */
	privateJwk?: JWK;
	/** The private JWK as JSON, sealed with `<collection>:<id>` as associated data. */
	sealedPrivateJwk?: string;
}

type StoredPrivate = PrivatePart & { id: string };

export class KeySeal {
	private readonly box: SecretBox | null;

	/** `what` names the keys in errors ("signing key"). */
	constructor(
		private readonly collection: string,
		private readonly what: string,
		keyEncryptionKey?: Buffer
	) {
		this.box = keyEncryptionKey ? new SecretBox(keyEncryptionKey) : null;
	}

	private associatedData(id: string): string {
		return `${this.collection}:${id}`;
	}

	/** The fields that keep `jwk` in a record with this id. */
	seal(id: string, jwk: JWK): PrivatePart {
		return this.box ? { sealedPrivateJwk: this.box.seal(JSON.stringify(jwk), this.associatedData(id)) } : { privateJwk: jwk };
	}

	open(doc: StoredPrivate): JWK {
		const name = `the ${this.what} "${doc.id}" in ${this.collection}`;
		if (doc.sealedPrivateJwk === undefined) {
			if (!doc.privateJwk) throw new Error(`The ${this.what} "${doc.id}" in ${this.collection} has no private part`);
			return doc.privateJwk;
		}
		if (!this.box) throw new ConfigError(KEK_VARIABLE, `is required: ${name} is sealed under one`);
		try {
			return JSON.parse(this.box.open(doc.sealedPrivateJwk, this.associatedData(doc.id))) as JWK;
		} catch (err) {
			if (!(err instanceof SecretBoxError)) throw err;
			throw new ConfigError(KEK_VARIABLE, `does not open ${name} (${err.message}): set the key-encryption key it was sealed under`);
		}
	}

	/** Keys stored in clear before a key-encryption key was configured are sealed now. */
	async sealStored<T extends StoredPrivate>(keys: Collection<T>): Promise<void> {
		if (!this.box) return;
		for (const doc of await keys.find({ privateJwk: { $exists: true } })) {
			await keys.updateMany({ id: doc.id, privateJwk: { $exists: true } }, { $set: { ...this.seal(doc.id, doc.privateJwk!) }, $unset: ["privateJwk"] });
		}
	}
}
