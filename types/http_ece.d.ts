/** Encrypted Content-Encoding for HTTP (RFC 8188), as the tests use it to decrypt Web Push payloads. */
declare module "http_ece" {
	import type { ECDH } from "node:crypto";

	interface EceParams {
		version?: "aes128gcm" | "aesgcm";
		/** The receiver's key pair. */
		privateKey?: ECDH;
		/** base64url, or the raw bytes. */
		authSecret?: string | Buffer;
		dh?: string | Buffer;
	}

	export function decrypt(buffer: Buffer, params: EceParams): Buffer;
	export function encrypt(buffer: Buffer, params: EceParams): Buffer;
}
