/**
 * Provider circuits shared across dispatcher nodes through Redis, as OS processes over
 * real NATS (harness/cluster.ts) with EMAIL_PROVIDERS=smtp,smtp-backup on two real SMTP
 * servers. One dispatcher finds the first server refusing (421) and takes it out; it
 * stops, and a fresh dispatcher that never saw a failure skips the first server from its
 * first message, because it reads the shared circuit. GET /admin/providers, answered by
 * the api node (which runs no dispatcher), shows what it collects from the dispatcher
 * over the broker: down, then up once the fresh node's probe went through.
 */
import { Cluster } from "../../harness/cluster";
import { requireBuild } from "../../harness/processes";
import type { EventDoc, NotificationDoc } from "../../lib/notifications/model";
import type { ProviderHealth } from "../../lib/delivery";
import { http } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { describeWith, NATS_URL, REDIS_URL } from "../helpers/services";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp-servers";

/** Long enough for a dispatcher to stop and another to start inside it (a few seconds on a busy machine). */
const COOLDOWN_SECONDS = 12;

describeWith("NATS", "provider circuits across dispatcher nodes", () => {
	describeWith("Redis", "with REDIS_URL", () => {
		let cluster: Cluster;
		let primary: TestSmtp;
		let backup: TestSmtp;

		beforeAll(async () => {
			requireBuild();
			primary = await startTestSmtp();
			backup = await startTestSmtp();
			cluster = await Cluster.start({
				label: "failover",
				startTimeoutMs: 30000,
				natsUrl: NATS_URL,
				env: {
					REDIS_URL,
					EMAIL_PROVIDERS: "smtp,smtp-backup",
					SMTP_URL: primary.url,
					SMTP_BACKUP_URL: backup.url,
					PROVIDER_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS),
					NOTIFICATION_MAIL_FROM_EMAIL: "sender@example.org",
					DISPATCHER_POLL_MS: "100"
				}
			});
		}, 60000);
		afterAll(async () => {
			await cluster?.stop();
			await primary?.stop();
			await backup?.stop();
		});

		const notifications = () => cluster.store.collection<NotificationDoc>("notifications");

		async function sendAndSettle(to: string): Promise<{ id: string; provider: unknown; node: string }> {
			const res = await http(cluster.base, "POST", "/notifications", { token: cluster.admin, json: { to, template: { subject: "Hi", text: "Hello" } } });
			expect(res.status).toBe(201);
			const id = res.body.notificationId as string;
			await waitFor(`${to} to be sent`, async () => (await notifications().get(id))?.status === "SENT", 20000, 250, () => cluster.output());
			const sent = (await cluster.store.collection<EventDoc>("notification_events").find({ notificationId: id, event: "SENT" }))[0];
			return { id, provider: sent.detail?.provider, node: sent.seq.split(".")[1] };
		}

		async function smtpState(): Promise<ProviderHealth> {
			const res = await http(cluster.base, "GET", "/admin/providers", { token: cluster.admin });
			expect(res.status).toBe(200);
			return (res.body.items as ProviderHealth[]).find(i => i.channel === "EMAIL" && i.name === "smtp")!;
		}

		it("should skip the first provider on a fresh node once another node took it out, and show it down, then up, from the api node", async () => {
			await cluster.startDispatchers(1);
			// The registration mail the harness queued goes out first, through a working first server.
			await waitFor("the queue to drain", async () => (await notifications().count({ status: { $in: ["QUEUED", "PROCESSING"] } })) === 0, 20000, 250, () => cluster.output());

			primary.refuseData = { code: 421, message: "Service not available" };
			const first = [];
			for (let i = 0; i < 3; i++) first.push(await sendAndSettle(`node-a${i}@example.com`));
			expect(first.map(s => s.provider)).toEqual(["smtp-backup", "smtp-backup", "smtp-backup"]);
			expect(primary.offered.filter(m => !m.accepted).map(m => m.notificationId)).toEqual(first.map(s => s.id));
			const down = await smtpState();
			expect(down).toMatchObject({ state: "down", consecutiveFailures: 3, lastError: "SMTP_421" });

			await cluster.stopDispatchers();
			await cluster.startDispatchers(1);
			const offers = primary.offered.length;
			const fresh = await sendAndSettle("node-b@example.com");
			expect(Date.now()).toBeLessThan(Date.parse(down.since) + COOLDOWN_SECONDS * 1000);
			expect(fresh.node).not.toBe(first[0].node);
			expect(fresh.provider).toBe("smtp-backup");
			expect(primary.offered).toHaveLength(offers);
			expect(await smtpState()).toMatchObject({ state: "down", consecutiveFailures: 3 });

			primary.refuseData = null;
			await waitFor("the cooldown to end", async () => Date.now() >= Date.parse(down.since) + COOLDOWN_SECONDS * 1000 + 50);
			const probe = await sendAndSettle("node-b-probe@example.com");
			expect(probe.provider).toBe("smtp");
			expect(primary.offered.filter(m => m.notificationId === probe.id)).toMatchObject([{ accepted: true, messageId: `<${probe.id}@example.org>` }]);
			expect(await smtpState()).toMatchObject({ state: "up", consecutiveFailures: 0 });
		}, 120000);
	});
});
