/**
 * Verifies Amazon SNS messages: the canonical string SNS signs, SignatureVersion 1
 * (SHA1withRSA) and 2 (SHA256withRSA), with the certificate fetched only over HTTPS
 * from an allowed host, with a timeout, a size cap and a bounded cache.
 *
 * sns-validator (used by the tests as the reference for the same messages) fetches
 * with no timeout, keeps every certificate forever in a module-wide cache and can
 * only use the process-wide HTTPS agent, so the fetch and the cache live here.
 */
import { createVerify, X509Certificate } from "node:crypto";
import https from "node:https";
import { BoundedCache } from "../cache";

export interface SnsMessage {
	Type: string;
	MessageId: string;
	TopicArn: string;
	Message: string;
	Timestamp: string;
	SignatureVersion: string;
	Signature: string;
	SigningCertURL: string;
	Subject?: string;
	SubscribeURL?: string;
	UnsubscribeURL?: string;
	Token?: string;
}

const REQUIRED = ["Type", "MessageId", "TopicArn", "Message", "Timestamp", "SignatureVersion", "Signature", "SigningCertURL"] as const;
const SIGNED_NOTIFICATION = ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"] as const;
const SIGNED_SUBSCRIPTION = ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"] as const;
export const MESSAGE_TYPES = ["Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"] as const;

export class InvalidSignature extends Error {
	constructor(reason: string) {
		super(reason);
		this.name = "InvalidSignature";
	}
}

/** The SubscribeURL, on an allowed host, could not be reached or did not answer 200: the sender should try again. */
export class SubscriptionUnconfirmed extends Error {
	constructor(reason: string) {
		super(`subscription not confirmed: ${reason}`);
		this.name = "SubscriptionUnconfirmed";
	}
}

/** The certificate could not be fetched (network, timeout, not 200): the sender should try again. */
export class CertificateUnavailable extends Error {
	constructor(reason: string) {
		super(`certificate unavailable: ${reason}`);
		this.name = "CertificateUnavailable";
	}
}

export interface VerifierOptions {
	/** Matched against the URL's host (with the port, when one is given). */
	hostPattern: RegExp;
	/** Accepted topics; empty accepts any. */
	topicArns: string[];
	/** Tests pass an agent that trusts their own CA. */
	agent?: https.Agent;
	timeoutMs?: number;
	cacheSize?: number;
	cacheTtlMs?: number;
	now?: () => number;
}

const MAX_CERT_BYTES = 16 * 1024;

/** The string SNS signs: "Key\nValue\n" for each present field, in a fixed order. */
export function canonicalString(m: SnsMessage): string {
	const keys = m.Type === "Notification" ? SIGNED_NOTIFICATION : SIGNED_SUBSCRIPTION;
	let out = "";
	for (const k of keys) {
		const v = (m as unknown as Record<string, unknown>)[k];
		if (typeof v === "string") out += `${k}\n${v}\n`;
	}
	return out;
}

/** True when `raw` is an https URL on an allowed host whose path ends in `suffix`. */
export function allowedUrl(raw: unknown, hostPattern: RegExp, suffix = ""): boolean {
	if (typeof raw !== "string") return false;
	let u: URL;
	try {
		u = new URL(raw);
	} catch {
		return false;
	}
	return u.protocol === "https:" && !u.username && !u.password && hostPattern.test(u.host) && u.pathname.endsWith(suffix);
}

export function isSnsMessage(v: unknown): v is SnsMessage {
	if (!v || typeof v !== "object") return false;
	const o = v as Record<string, unknown>;
	return REQUIRED.every(k => typeof o[k] === "string") && (MESSAGE_TYPES as readonly string[]).includes(o.Type as string);
}

export class SnsVerifier {
	private readonly certificates: BoundedCache<string, X509Certificate>;
	private readonly now: () => number;

	constructor(private readonly opts: VerifierOptions) {
		this.now = opts.now ?? Date.now;
		this.certificates = new BoundedCache(opts.cacheSize ?? 64, this.now);
	}

	get hostPattern(): RegExp {
		return this.opts.hostPattern;
	}

	/** Throws InvalidSignature unless the message is authentic and from an accepted topic. */
	async verify(m: SnsMessage): Promise<void> {
		if (m.SignatureVersion !== "1" && m.SignatureVersion !== "2") throw new InvalidSignature("unsupported signature version");
		if (this.opts.topicArns.length && !this.opts.topicArns.includes(m.TopicArn)) throw new InvalidSignature("topic not accepted");
		if (m.Type !== "Notification" && (typeof m.SubscribeURL !== "string" || typeof m.Token !== "string")) {
			throw new InvalidSignature("subscription message without SubscribeURL or Token");
		}
		// SNS's own confirmation URL is on its own host: another one is refused before anything is fetched.
		if (m.Type === "SubscriptionConfirmation" && !allowedUrl(m.SubscribeURL, this.opts.hostPattern)) {
			throw new InvalidSignature("SubscribeURL not allowed");
		}
		if (!allowedUrl(m.SigningCertURL, this.opts.hostPattern, ".pem")) throw new InvalidSignature("certificate URL not allowed");
		const cert = await this.certificate(m.SigningCertURL);
		const verifier = createVerify(m.SignatureVersion === "1" ? "RSA-SHA1" : "RSA-SHA256");
		verifier.update(canonicalString(m), "utf8");
		let ok = false;
		try {
			ok = verifier.verify(cert.publicKey, m.Signature, "base64");
		} catch {
			ok = false;
		}
		if (!ok) throw new InvalidSignature("signature does not match");
	}

	private certificate(url: string): Promise<X509Certificate> {
		return this.certificates.getOrLoad(url, () => this.fetch(url), () => this.now() + (this.opts.cacheTtlMs ?? 3600_000));
	}

	private fetch(url: string): Promise<X509Certificate> {
		return new Promise((resolve, reject) => {
			const unavailable = (reason: string) => reject(new CertificateUnavailable(reason));
			const fail = (reason: string) => reject(new InvalidSignature(`certificate refused: ${reason}`));
			const req = https.get(url, { agent: this.opts.agent, timeout: this.opts.timeoutMs ?? 5000 }, res => {
				if (res.statusCode !== 200) {
					res.resume();
					return unavailable(`status ${res.statusCode}`);
				}
				const chunks: Buffer[] = [];
				let size = 0;
				res.on("data", (d: Buffer) => {
					size += d.length;
					if (size > MAX_CERT_BYTES) {
						req.destroy();
						return fail("too large");
					}
					chunks.push(d);
				});
				res.on("end", () => {
					try {
						const cert = new X509Certificate(Buffer.concat(chunks));
						const nowDate = new Date(this.now());
						if (new Date(cert.validFrom) > nowDate || new Date(cert.validTo) < nowDate) return fail("expired");
						resolve(cert);
					} catch {
						fail("not a certificate");
					}
				});
				res.on("error", () => unavailable("read error"));
			});
			req.on("timeout", () => {
				req.destroy();
				unavailable("timeout");
			});
			req.on("error", () => unavailable("connection error"));
		});
	}

	/**
	 * GET on a subscription URL. Throws InvalidSignature, fetching nothing, unless it is
	 * https on an allowed host; SubscriptionUnconfirmed when it does not answer 200.
	 */
	async confirm(url: string): Promise<void> {
		if (!allowedUrl(url, this.opts.hostPattern)) throw new InvalidSignature("SubscribeURL not allowed");
		return new Promise((resolve, reject) => {
			const req = https.get(url, { agent: this.opts.agent, timeout: this.opts.timeoutMs ?? 5000 }, res => {
				res.resume();
				if (res.statusCode === 200) resolve();
				else reject(new SubscriptionUnconfirmed(`status ${res.statusCode}`));
			});
			req.on("timeout", () => req.destroy());
			req.on("error", () => reject(new SubscriptionUnconfirmed("connection error")));
		});
	}
}
