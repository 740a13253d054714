/**
 * Email failover between two real SMTP servers (smtp-server on loopback):
 * EMAIL_PROVIDERS=smtp,smtp-backup. The first refuses with 421 or stops accepting
 * connections; the same message, with the same Message-ID, arrives at the second; the
 * circuit takes the first out after PROVIDER_FAILURE_THRESHOLD failures, GET
 * /admin/providers shows it down, then probing with one message after the cooldown,
 * then up. A permanent 550 is the recipient's problem and is not failed over. SMS
 * fails over the same way: SMS_PROVIDERS=smpp,file with an SMSC that cannot be reached.
 */
import fs from "node:fs";
import path from "node:path";
import type { EventDoc, NotificationDoc } from "../../lib/notifications/model";
import type { ProviderHealth } from "../../lib/delivery";
import { http, runtime, startPlatform } from "../helpers/platform";
import { freePort, waitFor } from "../helpers/processes";
import { ADMIN_ENV, adminToken, serviceToken } from "../helpers/senders";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp-servers";

const FROM = "sender@example.org";
const COOLDOWN_SECONDS = 1;

async function scene() {
	const primary = await startTestSmtp();
	const backup = await startTestSmtp();
	for (const s of [primary, backup]) s.refuseRecipient = address => (address.startsWith("nobody@") ? { code: 550, message: "No such user" } : null);
	const p = await startPlatform({
		...ADMIN_ENV,
		EMAIL_PROVIDERS: "smtp,smtp-backup",
		SMTP_URL: primary.url,
		SMTP_BACKUP_URL: backup.url,
		PROVIDER_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS),
		EMAIL_SEND_TIMEOUT_MS: "3000",
		NOTIFICATION_RETRY_BASE_MS: "50",
		DISPATCHER_POLL_MS: "20",
		NOTIFICATION_MAIL_FROM_EMAIL: FROM
	});
	const token = await serviceToken(p);
	const admin = await adminToken(p.baseUrl);
	const store = runtime(p).store();
	return {
		p,
		primary,
		backup,
		async send(to: string): Promise<string> {
			const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to, template: { subject: "Hi", text: "Hello" } } });
			expect(res.status).toBe(201);
			return res.body.notificationId;
		},
		async settled(id: string): Promise<NotificationDoc> {
			let doc: NotificationDoc | null = null;
			await waitFor(`${id} to be sent or fail`, async () => ["SENT", "FAILED"].includes((doc = await store.collection<NotificationDoc>("notifications").get(id))?.status ?? ""));
			return doc!;
		},
		async sentDetail(id: string): Promise<Record<string, unknown> | undefined> {
			const events = await store.collection<EventDoc>("notification_events").find({ notificationId: id }, { sort: { seq: 1 } });
			return events.find(e => e.event === "SENT")?.detail;
		},
		async providers(): Promise<ProviderHealth[]> {
			const res = await http(p.baseUrl, "GET", "/admin/providers", { token: admin });
			expect(res.status).toBe(200);
			return res.body.items;
		},
		async provider(name: string): Promise<ProviderHealth> {
			return (await this.providers()).find(i => i.channel === "EMAIL" && i.name === name)!;
		},
		async close(): Promise<void> {
			await p.stop();
			await primary.stop().catch(() => undefined);
			await backup.stop();
		}
	};
}

type Scene = Awaited<ReturnType<typeof scene>>;

/** Sends one notification that the first server fails and the second takes: the same Message-ID on both. */
async function failsOver(s: Scene, to: string, failedAtFirst: (id: string) => boolean): Promise<void> {
	const id = await s.send(to);
	expect(await s.settled(id)).toMatchObject({ status: "SENT", attempts: 1 });
	expect(await s.sentDetail(id)).toMatchObject({ provider: "smtp-backup" });
	const taken = s.backup.offered.filter(m => m.notificationId === id);
	expect(taken).toMatchObject([{ accepted: true, to: [to], messageId: `<${id}@example.org>` }]);
	expect(failedAtFirst(id)).toBe(true);
}

function offeredTo(server: TestSmtp, id: string) {
	return server.offered.filter(m => m.notificationId === id);
}

describe("email provider failover between two SMTP servers", () => {
	it("should send through the second with the same Message-ID while the first answers 421, take the first out, and probe it back up after the cooldown", async () => {
		const s = await scene();
		try {
			const both = await s.providers();
			expect(both.filter(i => i.channel === "EMAIL")).toEqual([
				{ channel: "EMAIL", name: "smtp", state: "up", consecutiveFailures: 0, since: expect.any(String) },
				{ channel: "EMAIL", name: "smtp-backup", state: "up", consecutiveFailures: 0, since: expect.any(String) }
			]);
			expect(both.filter(i => i.channel === "SMS").map(i => i.name)).toEqual(["file"]);

			// A mailbox that does not exist is the recipient's problem: no other provider is asked.
			const refused = await s.settled(await s.send("nobody@example.com"));
			expect(refused).toMatchObject({ status: "FAILED", attempts: 1, lastError: "SMTP_550" });
			expect(s.primary.recipients).toEqual(["nobody@example.com"]);
			expect(s.backup.recipients).toEqual([]);
			expect(await s.provider("smtp")).toMatchObject({ state: "up", consecutiveFailures: 0 });

			const ok = await s.send("first@example.com");
			expect(await s.settled(ok)).toMatchObject({ status: "SENT" });
			expect(await s.sentDetail(ok)).toMatchObject({ provider: "smtp" });

			// The first answers 421 at the end of DATA: the same message goes to the second at once.
			s.primary.refuseData = { code: 421, message: "Service not available, closing transmission channel" };
			for (let i = 1; i <= 3; i++) {
				await failsOver(s, `user${i}@example.com`, id => {
					const offered = offeredTo(s.primary, id);
					return offered.length === 1 && !offered[0].accepted && offered[0].messageId === `<${id}@example.org>`;
				});
			}
			const down = await s.provider("smtp");
			expect(down).toMatchObject({ state: "down", consecutiveFailures: 3, lastError: "SMTP_421" });
			expect(await s.provider("smtp-backup")).toMatchObject({ state: "up", consecutiveFailures: 0 });

			// Down: skipped, so the next message costs no try at the first.
			const tried = s.primary.offered.length;
			await failsOver(s, "user4@example.com", () => s.primary.offered.length === tried);

			// It recovers; after the cooldown one message probes it, and holds the probe until the test lets the answer go.
			s.primary.refuseData = null;
			let release!: () => void;
			s.primary.hold = new Promise<void>(r => (release = r));
			await waitFor("the cooldown to end", async () => Date.now() >= Date.parse(down.since) + COOLDOWN_SECONDS * 1000 + 50);
			const probe = await s.send("user5@example.com");
			await waitFor("the first provider to be probed", async () => (await s.provider("smtp")).state === "probing");
			release();
			s.primary.hold = null;
			expect(await s.settled(probe)).toMatchObject({ status: "SENT", attempts: 1 });
			expect(await s.sentDetail(probe)).toMatchObject({ provider: "smtp" });
			expect(offeredTo(s.primary, probe)).toMatchObject([{ accepted: true, messageId: `<${probe}@example.org>` }]);
			expect(offeredTo(s.backup, probe)).toEqual([]);
			expect(await s.provider("smtp")).toMatchObject({ state: "up", consecutiveFailures: 0, lastError: "SMTP_421" });
		} finally {
			await s.close();
		}
	}, 60000);

	it("should fail over while the first stops accepting connections, and use it again once it is back", async () => {
		const s = await scene();
		try {
			await s.primary.stop();
			for (let i = 1; i <= 3; i++) await failsOver(s, `down${i}@example.com`, id => offeredTo(s.primary, id).length === 0);
			const down = await s.provider("smtp");
			expect(down).toMatchObject({ state: "down", consecutiveFailures: 3, lastError: "ESOCKET" });

			await s.primary.restart();
			await waitFor("the cooldown to end", async () => Date.now() >= Date.parse(down.since) + COOLDOWN_SECONDS * 1000 + 50);
			const back = await s.send("back@example.com");
			expect(await s.settled(back)).toMatchObject({ status: "SENT" });
			expect(await s.sentDetail(back)).toMatchObject({ provider: "smtp" });
			expect(offeredTo(s.primary, back)).toMatchObject([{ accepted: true, messageId: `<${back}@example.org>` }]);
			expect(await s.provider("smtp")).toMatchObject({ state: "up", consecutiveFailures: 0 });
		} finally {
			await s.close();
		}
	}, 60000);
});

describe("SMS provider failover", () => {
	it("should write the SMS to the file outbox while the SMSC cannot be reached, and show the SMSC down", async () => {
		const closed = await freePort();
		const p = await startPlatform({
			...ADMIN_ENV,
			SMS_PROVIDERS: "smpp,file",
			SMPP_URL: `smpp://acme:secret@127.0.0.1:${closed}`,
			EMAIL_SEND_TIMEOUT_MS: "300",
			DISPATCHER_POLL_MS: "20"
		});
		try {
			const token = await serviceToken(p);
			const store = runtime(p).store();
			for (let i = 0; i < 3; i++) {
				const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { channel: "SMS", to: `+1415555010${i}`, template: { text: "Your code is 123456" } } });
				expect(res.status).toBe(201);
				const id = res.body.notificationId as string;
				await waitFor(`${id} to be sent`, async () => (await store.collection<NotificationDoc>("notifications").get(id))?.status === "SENT");
				const events = await store.collection<EventDoc>("notification_events").find({ notificationId: id, event: "SENT" });
				expect(events.map(e => e.detail)).toEqual([{ attempt: 1, providerMessageId: expect.any(String), provider: "file", segments: 1 }]);
				expect(fs.readdirSync(path.join(p.dataDir, "outbox", "sms")).filter(f => f.startsWith(`${id}.`) && f.endsWith(".json"))).toHaveLength(1);
			}
			const res = await http(p.baseUrl, "GET", "/admin/providers", { token: await adminToken(p.baseUrl) });
			expect(res.body.items.filter((i: ProviderHealth) => i.channel === "SMS")).toEqual([
				{ channel: "SMS", name: "smpp", state: "down", consecutiveFailures: 3, lastError: "SEND_TIMEOUT", since: expect.any(String) },
				{ channel: "SMS", name: "file", state: "up", consecutiveFailures: 0, since: expect.any(String) }
			]);
		} finally {
			await p.stop();
		}
	}, 60000);
});
