/**
 * A push service on loopback that does what a real one must: it verifies the VAPID
 * JWT (ES256, `aud` the endpoint's origin, `exp` within 24 h, signed by the key in
 * `k=`) and decrypts the aes128gcm payload with the subscriber's private key and auth
 * secret (http_ece, the library web-push itself encrypts with), then answers by path.
 * HTTPS with the given certificate, plain HTTP without one (PUSH_ALLOW_INSECURE_ENDPOINTS).
 */
import { createECDH, randomBytes, randomUUID, type ECDH } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { decrypt } from "http_ece";
import { importJWK, jwtVerify, type JWTPayload } from "jose";
import type { TestCert } from "./sns";

export interface Received {
	path: string;
	headers: Record<string, string | string[] | undefined>;
	vapidKey: string;
	jwt: JWTPayload;
	payload: Record<string, unknown>;
}

interface Subscriber {
	ecdh: ECDH;
	auth: Buffer;
}

/**
 * What PushSubscription.toJSON() gives in a browser. Registration resolves the endpoint's
 * name and nothing resolves public names here: a public address literal stands in.
 */
export function browserSubscription(endpoint = `https://1.1.1.1/send/${randomUUID()}`) {
	const ecdh = createECDH("prime256v1");
	return { endpoint, expirationTime: null, keys: { p256dh: ecdh.generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") } };
}

/** Status by the endpoint path's first segment. */
export const ANSWERS: Record<string, number> = { ok: 201, gone404: 404, gone410: 410, big: 413, busy: 429, down: 500 };

export async function startPushService(tls?: TestCert) {
	const subscribers = new Map<string, Subscriber>();
	const received: Received[] = [];
	const refused: string[] = [];
	let hung = 0;
	const handler: http.RequestListener = (req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", c => chunks.push(c));
		req.on("end", async () => {
			const p = new URL(req.url ?? "/", origin).pathname;
			if (p.startsWith("/hang/")) return void (hung += 1);
			try {
				const m = /^vapid t=([^,\s]+), k=([A-Za-z0-9_-]+)$/.exec(req.headers.authorization ?? "");
				if (!m) throw new Error("no VAPID authorization");
				const k = Buffer.from(m[2], "base64url");
				const key = await importJWK({ kty: "EC", crv: "P-256", x: k.subarray(1, 33).toString("base64url"), y: k.subarray(33).toString("base64url") }, "ES256");
				const { payload: jwt } = await jwtVerify(m[1], key, { algorithms: ["ES256"], audience: origin });
				if (typeof jwt.exp !== "number" || jwt.exp > Date.now() / 1000 + 24 * 3600) throw new Error("exp more than 24 h ahead");
				const sub = subscribers.get(p);
				if (!sub) throw new Error(`no subscriber at ${p}`);
				const plain = decrypt(Buffer.concat(chunks), { version: "aes128gcm", privateKey: sub.ecdh, authSecret: sub.auth });
				received.push({ path: p, headers: req.headers, vapidKey: m[2], jwt, payload: JSON.parse(plain.toString("utf8")) });
				const status = ANSWERS[p.split("/")[1]] ?? 400;
				res.writeHead(status, status === 201 ? { location: `${origin}/messages/${randomUUID()}` } : {});
				res.end();
			} catch (err) {
				refused.push((err as Error).message);
				res.writeHead(400);
				res.end();
			}
		});
	};
	const server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, handler) : http.createServer(handler);
	await new Promise<void>(r => server.listen(0, "127.0.0.1", r));
	const port = (server.address() as AddressInfo).port;
	const scheme = tls ? "https" : "http";
	const origin = `${scheme}://127.0.0.1:${port}`;
	return {
		origin,
		received,
		refused,
		hung: () => hung,
		/** A browser's subscription at `/<kind>/<id>`: its own ECDH key pair and auth secret. */
		subscribe(kind: string, host = "127.0.0.1") {
			const ecdh = createECDH("prime256v1");
			ecdh.generateKeys();
			const auth = randomBytes(16);
			const p = `/${kind}/${randomUUID()}`;
			subscribers.set(p, { ecdh, auth });
			return { endpoint: `${scheme}://${host}:${port}${p}`, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } };
		},
		close: () => new Promise<void>(r => server.close(() => r()))
	};
}

