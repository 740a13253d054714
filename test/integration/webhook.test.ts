/**
 * The SNS delivery-outcome webhook against messages signed with a certificate the
 * test made and serves over local HTTPS.
 */
import https from "node:https";
import MessageValidator from "sns-validator";
import type { NotificationDoc } from "../../lib/notifications/model";
import type { SnsMessage } from "../../lib/sns/verify";
import { http, runtime, startPlatform, type Platform } from "../helpers/platform";
import { freePort, waitFor } from "../helpers/processes";
import { serviceToken } from "../helpers/senders";
import { makeCert, notification, sesEvent, sign, startHttpsHost, TOPIC, type HttpsHost, type TestCert } from "../helpers/sns";

const WEBHOOK = "/notifications/webhooks/email-provider";

describe("delivery-outcome webhook", () => {
	let tls: TestCert;
	let host: HttpsHost;
	let foreign: HttpsHost;
	let p: Platform;
	// A service's: it sends to any address.
	let token: string;
	let certUrl: string;

	async function send(): Promise<NotificationDoc> {
		const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: `r${Date.now()}${Math.random()}@example.com`, template: { subject: "s", text: "t" } } });
		expect(res.status).toBe(201);
		const notifications = runtime(p).store().collection<NotificationDoc>("notifications");
		let doc: NotificationDoc | null = null;
		await waitFor("the notification to be SENT", async () => (doc = await notifications.get(res.body.notificationId))?.status === "SENT");
		return doc!;
	}

	async function post(message: SnsMessage | string, contentType = "text/plain; charset=UTF-8") {
		return http(p.baseUrl, "POST", WEBHOOK, { body: typeof message === "string" ? message : JSON.stringify(message), headers: { "content-type": contentType } });
	}

	async function events(id: string): Promise<string[]> {
		const view = await http(p.baseUrl, "GET", `/notifications/${id}`, { token });
		return view.body.events.map((e: { event: string }) => e.event);
	}

	async function status(id: string) {
		return (await runtime(p).store().collection<NotificationDoc>("notifications").get(id))!.status;
	}

	beforeAll(async () => {
		tls = makeCert();
		host = await startHttpsHost(tls, tls.cert);
		foreign = await startHttpsHost(tls, tls.cert);
		p = await startPlatform({ SNS_SIGNING_CERT_HOST_PATTERN: "^localhost:\\d+$" });
		runtime(p).useSnsAgent(new https.Agent({ ca: tls.cert }));
		token = await serviceToken(p);
		certUrl = `https://localhost:${host.port}/SimpleNotificationService-test.pem`;
	});
	afterAll(async () => {
		await p.stop();
		await host.close();
		await foreign.close();
	});

	it.each(["1", "2"] as const)("should accept SignatureVersion %s and record DELIVERED when the signature is valid", async version => {
		const n = await send();
		const message = sign(notification(sesEvent("Delivery", n.providerMessageId!), certUrl, version), tls.key);
		// The reference implementation agrees that this message is authentic.
		const previous = https.globalAgent.options.ca;
		https.globalAgent.options.ca = tls.cert;
		try {
			const validator = new MessageValidator({ test: (h: string) => h === `localhost:${host.port}` } as unknown as RegExp);
			// SigningCertURL is not signed: point the reference at its own path so the cache counts below stay ours.
			const reference = { ...message, SigningCertURL: `https://localhost:${host.port}/reference.pem` };
			await new Promise<void>((resolve, reject) => validator.validate(reference, err => (err ? reject(err) : resolve())));
		} finally {
			https.globalAgent.options.ca = previous;
		}
		const res = await post(message);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ outcome: "recorded" });
		await expect(status(n.id)).resolves.toBe("DELIVERED");
		await expect(events(n.id)).resolves.toEqual(["QUEUED", "SENT", "DELIVERED"]);
	});

	it("should accept application/json as well as text/plain", async () => {
		const n = await send();
		const res = await post(sign(notification(sesEvent("Delivery", n.providerMessageId!), certUrl), tls.key), "application/json");
		expect(res.status).toBe(200);
		await expect(status(n.id)).resolves.toBe("DELIVERED");
	});

	describe("refusals", () => {
		let n: NotificationDoc;
		beforeAll(async () => {
			n = await send();
		});

		const cases: [string, () => SnsMessage][] = [
			[
				"the Message was changed after signing",
				() => ({ ...sign(notification(sesEvent("Bounce", n.providerMessageId!), certUrl), tls.key), Message: JSON.stringify(sesEvent("Complaint", n.providerMessageId!)) })
			],
			["the signature is not SNS's", () => ({ ...sign(notification(sesEvent("Bounce", n.providerMessageId!), certUrl), tls.key), Signature: Buffer.alloc(256, 7).toString("base64") })],
			["the certificate URL is http", () => sign(notification(sesEvent("Bounce", n.providerMessageId!), certUrl.replace("https:", "http:")), tls.key)],
			["the certificate URL is on a foreign host", () => sign(notification(sesEvent("Bounce", n.providerMessageId!), `https://127.0.0.1:${foreign.port}/cert.pem`), tls.key)],
			["the certificate URL does not end in .pem", () => sign(notification(sesEvent("Bounce", n.providerMessageId!), certUrl.replace(".pem", ".txt")), tls.key)],
			["the signature version is unknown", () => sign(notification(sesEvent("Bounce", n.providerMessageId!), certUrl, "2", { SignatureVersion: "3" }), tls.key)]
		];

		it.each(cases)("should answer 403 INVALID_SIGNATURE and change nothing when %s", async (_label, make) => {
			const res = await post(make());
			expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: "INVALID_SIGNATURE" });
			await expect(status(n.id)).resolves.toBe("SENT");
			await expect(events(n.id)).resolves.toEqual(["QUEUED", "SENT"]);
			expect(foreign.total()).toBe(0);
		});

		it("should answer 403 when the topic is not accepted", async () => {
			const q = await startPlatform({ SNS_SIGNING_CERT_HOST_PATTERN: "^localhost:\\d+$", SNS_TOPIC_ARNS: "arn:aws:sns:us-west-2:123456789012:other" });
			try {
				runtime(q).useSnsAgent(new https.Agent({ ca: tls.cert }));
				const res = await http(q.baseUrl, "POST", WEBHOOK, {
					body: JSON.stringify(sign(notification(sesEvent("Bounce", n.providerMessageId!), certUrl), tls.key)),
					headers: { "content-type": "text/plain" }
				});
				expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: "INVALID_SIGNATURE" });
			} finally {
				await q.stop();
			}
		});

		it("should answer 400 MALFORMED_JSON for a body that is not JSON, 400 for a non-SNS body and 415 for other types", async () => {
			expect((await post("{not json")).body.code).toBe("MALFORMED_JSON");
			const notSns = await post(JSON.stringify({ hello: "world" }));
			expect({ status: notSns.status, code: notSns.body.code }).toEqual({ status: 400, code: "VALIDATION_ERROR" });
			const form = await post("a=b", "application/x-www-form-urlencoded");
			expect({ status: form.status, code: form.body.code }).toEqual({ status: 415, code: "UNSUPPORTED_MEDIA_TYPE" });
		});
	});

	it("should record one event when the same message is replayed and sent 20 times at once", async () => {
		const n = await send();
		const message = sign(notification(sesEvent("Delivery", n.providerMessageId!), certUrl), tls.key);
		const results = await Promise.all(Array.from({ length: 20 }, () => post(message)));
		expect(results.every(r => r.status === 200)).toBe(true);
		expect((await post(message)).body).toEqual({ outcome: "duplicate" });
		await expect(events(n.id)).resolves.toEqual(["QUEUED", "SENT", "DELIVERED"]);
	});

	it("should keep BOUNCED whether the bounce comes before or after the delivery", async () => {
		const a = await send();
		await post(sign(notification(sesEvent("Delivery", a.providerMessageId!), certUrl), tls.key));
		await post(sign(notification(sesEvent("Bounce", a.providerMessageId!, { bounce: { bounceType: "Transient", bouncedRecipients: [] } }), certUrl), tls.key));
		await expect(status(a.id)).resolves.toBe("BOUNCED");

		const b = await send();
		await post(sign(notification(sesEvent("Bounce", b.providerMessageId!, { bounce: { bounceType: "Transient", bouncedRecipients: [] } }), certUrl), tls.key));
		await post(sign(notification(sesEvent("Delivery", b.providerMessageId!), certUrl), tls.key));
		await expect(status(b.id)).resolves.toBe("BOUNCED");
		await expect(events(b.id)).resolves.toEqual(["QUEUED", "SENT", "BOUNCED", "DELIVERED"]);
	});

	it("should record COMPLAINT, read eventType as well as notificationType, and suppress the complainant", async () => {
		const n = await send();
		const event = { eventType: "Complaint", mail: { messageId: n.providerMessageId }, complaint: { complainedRecipients: [{ emailAddress: n.to.toUpperCase() }] } };
		expect((await post(sign(notification(event, certUrl), tls.key))).status).toBe(200);
		await expect(status(n.id)).resolves.toBe("COMPLAINT");
		await expect(runtime(p).store().collection("suppressions").get(n.to.toLowerCase())).resolves.toMatchObject({ reason: "COMPLAINT" });
	});

	it("should answer 200 and change nothing for unknown message ids, other event types and missing fields", async () => {
		const n = await send();
		for (const event of [sesEvent("Delivery", "no-such-id"), sesEvent("Send", n.providerMessageId!), { mail: {} }, { notificationType: "Bounce" }, "not an object"]) {
			const res = await post(sign(notification(event as object, certUrl), tls.key));
			expect(res.status).toBe(200);
		}
		const raw = sign({ ...notification({}, certUrl), Message: "{broken" }, tls.key);
		expect((await post(raw)).status).toBe(200);
		await expect(events(n.id)).resolves.toEqual(["QUEUED", "SENT"]);
	});

	it("should suppress a permanently bounced recipient so the next send is SUPPRESSED, and not a transient one", async () => {
		const n = await send();
		const bounce = { bounce: { bounceType: "Permanent", bouncedRecipients: [{ emailAddress: n.to }] } };
		expect((await post(sign(notification(sesEvent("Bounce", n.providerMessageId!, bounce), certUrl), tls.key))).status).toBe(200);
		const again = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: n.to, template: { subject: "s", text: "t" } } });
		const doc = runtime(p).store().collection<NotificationDoc>("notifications");
		await waitFor("the next send to be suppressed", async () => (await doc.get(again.body.notificationId))?.status === "SUPPRESSED");

		const t = await send();
		const transient = { bounce: { bounceType: "Transient", bouncedRecipients: [{ emailAddress: t.to }] } };
		await post(sign(notification(sesEvent("Bounce", t.providerMessageId!, transient), certUrl), tls.key));
		await expect(runtime(p).store().collection("suppressions").get(t.to)).resolves.toBeNull();
	});

	describe("subscription confirmations", () => {
		const confirm = (url: string) =>
			sign(
				{ Type: "SubscriptionConfirmation", MessageId: `m-${Date.now()}`, TopicArn: TOPIC, Message: "confirm", Timestamp: new Date().toISOString(), SignatureVersion: "2", SigningCertURL: certUrl, SubscribeURL: url, Token: "tok" },
				tls.key
			);

		it("should GET the SubscribeURL exactly once after verifying, and nothing for a forged message", async () => {
			const before = host.hits.get("/confirm") ?? 0;
			const ok = await post(confirm(`https://localhost:${host.port}/confirm?Action=ConfirmSubscription&Token=tok`));
			expect(ok.status).toBe(200);
			expect(ok.body).toEqual({ outcome: "confirmed" });
			expect(host.hits.get("/confirm")).toBe(before + 1);

			const forged = { ...confirm(`https://localhost:${host.port}/confirm?x=1`), Token: "changed" };
			const refused = await post(forged);
			expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: "INVALID_SIGNATURE" });
			expect(host.hits.get("/confirm")).toBe(before + 1);
		});

		it("should answer 403 INVALID_SIGNATURE and fetch nothing when the SubscribeURL host is not allowed", async () => {
			const certFetches = host.hits.get("/SimpleNotificationService-test.pem") ?? 0;
			const outside = await post(confirm(`https://127.0.0.1:${foreign.port}/confirm?Token=tok`));
			expect({ status: outside.status, code: outside.body.code }).toEqual({ status: 403, code: "INVALID_SIGNATURE" });
			expect(foreign.total()).toBe(0);
			expect(host.hits.get("/SimpleNotificationService-test.pem") ?? 0).toBe(certFetches);
		});

		it("should answer 503, so SNS sends it again, when an allowed SubscribeURL cannot be reached", async () => {
			const unreachable = await post(confirm(`https://localhost:${await freePort()}/confirm?Token=tok`));
			expect({ status: unreachable.status, code: unreachable.body.code }).toEqual({ status: 503, code: "UPSTREAM_UNAVAILABLE" });
			expect(unreachable.headers.get("retry-after")).toBe("30");
		});
	});

	it("should suppress only the notification's own recipient whatever addresses the event names", async () => {
		const n = await send();
		const forged = { eventType: "Complaint", mail: { messageId: n.providerMessageId }, complaint: { complainedRecipients: [{ emailAddress: "victim@example.com" }] } };
		expect((await post(sign(notification(forged, certUrl), tls.key))).status).toBe(200);
		await expect(runtime(p).store().collection("suppressions").get("victim@example.com")).resolves.toBeNull();
		await expect(runtime(p).store().collection("suppressions").get(n.to.toLowerCase())).resolves.toBeNull();
	});

	it("should answer 503, so SNS retries, when the certificate cannot be fetched", async () => {
		const n = await send();
		const closed = `https://localhost:${await freePort()}/SimpleNotificationService-gone.pem`;
		const res = await post(sign(notification(sesEvent("Delivery", n.providerMessageId!), closed), tls.key));
		expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: "UPSTREAM_UNAVAILABLE" });
		await expect(status(n.id)).resolves.toBe("SENT");
	});

	it("should ask SNS to retry an event that arrives before SENT is recorded, and record it after", async () => {
		const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: "early@example.com", template: { subject: "s", text: "t" } } });
		const id = res.body.notificationId as string;
		const notifications = runtime(p).store().collection<NotificationDoc>("notifications");
		// Hold it where the dispatcher is between SES's answer and the SENT write.
		await waitFor("the dispatcher to finish it", async () => (await notifications.get(id))?.status === "SENT");
		const sent = (await notifications.get(id))!;
		await notifications.updateMany({ id }, { $set: { status: "PROCESSING" }, $unset: ["providerMessageId"] });
		const event = { ...sesEvent("Delivery", sent.providerMessageId!), mail: { messageId: sent.providerMessageId, tags: { notificationId: [id] } } };
		const early = await post(sign(notification(event, certUrl), tls.key));
		expect({ status: early.status, code: early.body.code }).toEqual({ status: 503, code: "UPSTREAM_UNAVAILABLE" });
		await notifications.updateMany({ id }, { $set: { status: "SENT", providerMessageId: sent.providerMessageId } });
		expect((await post(sign(notification(event, certUrl), tls.key))).body).toEqual({ outcome: "recorded" });
		await expect(status(id)).resolves.toBe("DELIVERED");
	});

	it("should answer 200 to an UnsubscribeConfirmation without any data change", async () => {
		const m = sign(
			{ Type: "UnsubscribeConfirmation", MessageId: "u1", TopicArn: TOPIC, Message: "bye", Timestamp: new Date().toISOString(), SignatureVersion: "2", SigningCertURL: certUrl, SubscribeURL: `https://localhost:${host.port}/confirm`, Token: "t" },
			tls.key
		);
		const before = host.hits.get("/confirm") ?? 0;
		expect((await post(m)).body).toEqual({ outcome: "unsubscribed" });
		expect(host.hits.get("/confirm") ?? 0).toBe(before);
	});

	it("should fetch the certificate once and then answer from the cache", async () => {
		const n = await send();
		const before = host.hits.get("/SimpleNotificationService-test.pem") ?? 0;
		await post(sign(notification(sesEvent("Delivery", n.providerMessageId!), certUrl), tls.key));
		expect(host.hits.get("/SimpleNotificationService-test.pem") ?? 0).toBe(before);
		expect(before).toBe(1);
	});
});

describe("delivery-outcome webhook with processing disabled by configuration", () => {
	it("should answer 200 and change nothing", async () => {
		const tls = makeCert();
		const host = await startHttpsHost(tls, tls.cert);
		const p = await startPlatform({ SNS_SIGNING_CERT_HOST_PATTERN: "^localhost:\\d+$", WEBHOOK_PROCESSING_ENABLED: "false" });
		try {
			runtime(p).useSnsAgent(new https.Agent({ ca: tls.cert }));
			const res = await http(p.baseUrl, "POST", "/notifications", { token: await serviceToken(p), json: { to: "off@example.com", template: { subject: "s", text: "t" } } });
			const coll = runtime(p).store().collection<NotificationDoc>("notifications");
			let doc: NotificationDoc | null = null;
			await waitFor("SENT", async () => (doc = await coll.get(res.body.notificationId))?.status === "SENT");
			const message = sign(notification(sesEvent("Bounce", doc!.providerMessageId!, { bounce: { bounceType: "Permanent", bouncedRecipients: [{ emailAddress: "off@example.com" }] } }), `https://localhost:${host.port}/c.pem`), tls.key);
			const hook = await http(p.baseUrl, "POST", WEBHOOK, { body: JSON.stringify(message), headers: { "content-type": "text/plain" } });
			expect(hook.status).toBe(200);
			expect(hook.body).toEqual({ outcome: "disabled" });
			await expect(coll.get(res.body.notificationId)).resolves.toMatchObject({ status: "SENT" });
			await expect(runtime(p).store().collection("suppressions").count({})).resolves.toBe(0);
		} finally {
			await p.stop();
			await host.close();
		}
	});
});

describe("delivery-outcome webhook with processing disabled by the feature flag", () => {
	it("should answer 200 and change nothing while notifications.webhook-processing is { enabled: false }, and process again after", async () => {
		const tls = makeCert();
		const host = await startHttpsHost(tls, tls.cert);
		const p = await startPlatform({ SNS_SIGNING_CERT_HOST_PATTERN: "^localhost:\\d+$", BOOTSTRAP_ADMIN_EMAIL: "root@example.com", BOOTSTRAP_ADMIN_PASSWORD: "Root-Passw0rd" });
		try {
			runtime(p).useSnsAgent(new https.Agent({ ca: tls.cert }));
			const admin = (await http(p.baseUrl, "POST", "/auth/login", { json: { username: "root@example.com", password: "Root-Passw0rd" } })).body.accessToken;
			const res = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "flag@example.com", template: { subject: "s", text: "t" } } });
			const coll = runtime(p).store().collection<NotificationDoc>("notifications");
			let doc: NotificationDoc | null = null;
			await waitFor("SENT", async () => (doc = await coll.get(res.body.notificationId))?.status === "SENT");
			const flag = "/admin/features/notifications.webhook-processing";
			expect((await http(p.baseUrl, "PUT", flag, { token: admin, json: { enabled: false } })).status).toBe(200);
			const certUrl = `https://localhost:${host.port}/c.pem`;
			const first = sign(notification(sesEvent("Delivery", doc!.providerMessageId!), certUrl), tls.key);
			const off = await http(p.baseUrl, "POST", WEBHOOK, { body: JSON.stringify(first), headers: { "content-type": "text/plain" } });
			expect({ status: off.status, body: off.body }).toEqual({ status: 200, body: { outcome: "disabled" } });
			await expect(coll.get(res.body.notificationId)).resolves.toMatchObject({ status: "SENT" });

			expect((await http(p.baseUrl, "PUT", flag, { token: admin, json: { enabled: true } })).status).toBe(200);
			const on = await http(p.baseUrl, "POST", WEBHOOK, { body: JSON.stringify(first), headers: { "content-type": "text/plain" } });
			expect(on.body).toEqual({ outcome: "recorded" });
			await expect(coll.get(res.body.notificationId)).resolves.toMatchObject({ status: "DELIVERED" });
		} finally {
			await p.stop();
			await host.close();
		}
	});
});
