/**
 * The embedded provider's signing key: Ed25519, generated on first start and kept
 * under DATA_DIR/keys. Several processes may start at once; the first to link its
 * file wins and the others read that one, so every node signs and verifies with
 * the same key.
 */
import fs from "node:fs";
import path from "node:path";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";

export const SIGNING_ALG = "EdDSA";

export interface SigningKey {
	kid: string;
	privateKey: CryptoKey;
	publicJwk: JWK;
}

async function create(file: string): Promise<void> {
	const { privateKey } = await generateKeyPair(SIGNING_ALG, { crv: "Ed25519", extractable: true });
	const jwk = await exportJWK(privateKey);
	const kid = await calculateJwkThumbprint({ kty: jwk.kty!, crv: jwk.crv!, x: jwk.x! });
	const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
	fs.writeFileSync(tmp, JSON.stringify({ ...jwk, kid, alg: SIGNING_ALG, use: "sig" }), { mode: 0o600 });
	try {
		fs.linkSync(tmp, file);
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
	} finally {
		fs.unlinkSync(tmp);
	}
}

export async function loadSigningKey(dataDir: string): Promise<SigningKey> {
	const dir = path.join(dataDir, "keys");
	const file = path.join(dir, "idp-signing-key.json");
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	if (!fs.existsSync(file)) await create(file);
	const jwk = JSON.parse(fs.readFileSync(file, "utf8")) as JWK & { kid: string };
	if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || !jwk.d) {
		throw new Error(`The signing key in ${file} is not an Ed25519 private key`);
	}
	const privateKey = (await importJWK(jwk, SIGNING_ALG)) as CryptoKey;
	const publicJwk: JWK = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid: jwk.kid, alg: SIGNING_ALG, use: "sig" };
	return { kid: jwk.kid, privateKey, publicJwk };
}
