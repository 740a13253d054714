/**
 * AES-256-GCM for secrets kept at rest (the social provider's refresh tokens).
 * Each sealed value names the key it was sealed under, so the key can be rotated:
 * new values use the current key, and values sealed under an earlier one open for
 * as long as that key stays configured. The associated data binds a value to its
 * owner: a ciphertext copied to another record does not open there.
 *
 * Format: `v1.<kid>.<iv>.<ciphertext>.<tag>`, base64url parts, a random 96-bit IV
 * per value and a 128-bit tag.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const VERSION = "v1";
const ALGORITHM = "aes-256-gcm";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "SecretBoxError";
	}
}

/** A public name for a key: a truncated hash, which reveals nothing about a random 256-bit key. */
export function keyId(key: Buffer): string {
	return createHash("sha256").update("secretbox-kid:").update(key).digest("base64url").slice(0, 16);
}

export class SecretBox {
	readonly currentKid: string;
	private readonly keys = new Map<string, Buffer>();

	constructor(current: Buffer, previous: readonly Buffer[] = []) {
		for (const key of [current, ...previous]) {
			if (key.length !== KEY_BYTES) throw new Error(`AES-256-GCM keys are ${KEY_BYTES} bytes`);
		}
		this.currentKid = keyId(current);
		this.keys.set(this.currentKid, current);
		for (const key of previous) if (!this.keys.has(keyId(key))) this.keys.set(keyId(key), key);
	}

	seal(plaintext: string, associatedData: string): string {
		const iv = randomBytes(IV_BYTES);
		const cipher = createCipheriv(ALGORITHM, this.keys.get(this.currentKid)!, iv, { authTagLength: TAG_BYTES });
		cipher.setAAD(Buffer.from(associatedData, "utf8"));
		const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
		return [VERSION, this.currentKid, iv, ciphertext, cipher.getAuthTag()]
			.map(part => (typeof part === "string" ? part : part.toString("base64url")))
			.join(".");
	}

	/** SecretBoxError when the value is malformed, names an unknown key, or fails authentication. */
	open(sealed: string, associatedData: string): string {
		const parts = sealed.split(".");
		if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretBoxError("Not a sealed value.");
		const key = this.keys.get(parts[1]);
		if (!key) throw new SecretBoxError("Sealed under a key that is not configured.");
		const [iv, ciphertext, tag] = parts.slice(2).map(p => Buffer.from(p, "base64url"));
		// A shorter tag would be accepted by GCM and weaken the check; only ours is.
		if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError("Not a sealed value.");
		const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
		decipher.setAAD(Buffer.from(associatedData, "utf8"));
		decipher.setAuthTag(tag);
		try {
			return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
		} catch {
			throw new SecretBoxError("The value does not open with this key and associated data.");
		}
	}

	/** True when the value was sealed under an earlier key. */
	isStale(sealed: string): boolean {
		return sealed.split(".")[1] !== this.currentKid;
	}
}
