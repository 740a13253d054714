/**
 * A stand-in for SNS's side of the webhook, built from real parts: a certificate
 * made by the test (openssl), served over local HTTPS, and messages signed with its
 * key exactly as SNS signs them.
 */
import { execFileSync } from "node:child_process";
import { createSign, randomUUID } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { canonicalString, type SnsMessage } from "../lib/sns/verify";

export interface TestCert {
	key: string;
	cert: string;
}

/** A self-signed certificate for localhost (TLS) that also signs SNS messages. */
export function makeCert(): TestCert {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sns-cert-"));
	try {
		execFileSync("openssl", [
			"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
			"-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
			"-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")
		], { stdio: "ignore" });
		return { key: fs.readFileSync(path.join(dir, "key.pem"), "utf8"), cert: fs.readFileSync(path.join(dir, "cert.pem"), "utf8") };
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

export interface HttpsHost {
	port: number;
	/** Requests seen, by path. */
	hits: Map<string, number>;
	total(): number;
	close(): Promise<void>;
}

/** Serves the certificate at /cert.pem and answers 200 to /confirm*; counts every request. */
export async function startHttpsHost(tls: TestCert, served: string): Promise<HttpsHost> {
	const hits = new Map<string, number>();
	const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
		const p = new URL(req.url ?? "/", "https://x").pathname;
		hits.set(p, (hits.get(p) ?? 0) + 1);
		if (p.endsWith(".pem")) {
			res.writeHead(200, { "content-type": "application/x-pem-file" });
			res.end(served);
		} else if (p.startsWith("/confirm")) {
			res.writeHead(200);
			res.end("<ConfirmSubscriptionResponse/>");
		} else {
			res.writeHead(404);
			res.end();
		}
	});
	await new Promise<void>(r => server.listen(0, "127.0.0.1", r));
	return {
		port: (server.address() as AddressInfo).port,
		hits,
		total: () => [...hits.values()].reduce((a, b) => a + b, 0),
		close: () => new Promise<void>(r => server.close(() => r()))
	};
}

export const TOPIC = "arn:aws:sns:us-west-2:123456789012:ses-events";

export function sign(m: Omit<SnsMessage, "Signature">, key: string): SnsMessage {
	const s = createSign(m.SignatureVersion === "1" ? "RSA-SHA1" : "RSA-SHA256");
	s.update(canonicalString(m as SnsMessage), "utf8");
	return { ...m, Signature: s.sign(key, "base64") } as SnsMessage;
}

export function notification(event: object, certUrl: string, version: "1" | "2" = "2", overrides: Partial<SnsMessage> = {}): Omit<SnsMessage, "Signature"> {
	return {
		Type: "Notification",
		MessageId: randomUUID(),
		TopicArn: TOPIC,
		Message: JSON.stringify(event),
		Timestamp: new Date().toISOString(),
		SignatureVersion: version,
		SigningCertURL: certUrl,
		...overrides
	};
}

export function sesEvent(type: "Delivery" | "Bounce" | "Complaint" | "Send", messageId: string, extra: object = {}): object {
	return { notificationType: type, mail: { messageId, destination: ["x@example.com"] }, ...extra };
}
