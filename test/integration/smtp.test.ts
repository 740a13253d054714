/**
 * The smtp email provider against a real SMTP server on loopback (smtp-server, the
 * nodemailer project's server): delivered messages, permanent 5xx refusals, and
 * temporary 4xx refusals that are retried.
 */
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import type { NotificationDoc } from "../../lib/notifications/model";
import { http, newUser, runtime, startPlatform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";

interface Received {
	from: string;
	to: string[];
	raw: string;
}

async function startSmtp(answer: (to: string) => { code: number; message: string } | null) {
	const received: Received[] = [];
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ["STARTTLS"],
		onRcptTo(address, _session, cb) {
			const refusal = answer(address.address);
			if (!refusal) return cb();
			const err = new Error(refusal.message) as Error & { responseCode: number };
			err.responseCode = refusal.code;
			cb(err);
		},
		onData(stream, session, cb) {
			const chunks: Buffer[] = [];
			stream.on("data", c => chunks.push(c));
			stream.on("end", () => {
				received.push({
					from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
					to: session.envelope.rcptTo.map(r => r.address),
					raw: Buffer.concat(chunks).toString("utf8")
				});
				cb();
			});
		}
	});
	await new Promise<void>(r => server.listen(0, "127.0.0.1", r));
	const port = (server.server.address() as AddressInfo).port;
	return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>(r => server.close(() => r())) };
}

describe("email through SMTP", () => {
	it("should deliver, fail at once on a 5xx refusal, and retry a 4xx refusal until it goes through", async () => {
		let tempfails = 2;
		const smtp = await startSmtp(to => {
			if (to.startsWith("nobody@")) return { code: 550, message: "No such user" };
			if (to.startsWith("busy@") && tempfails-- > 0) return { code: 451, message: "Try again later" };
			return null;
		});
		const p = await startPlatform({ EMAIL_PROVIDER: "smtp", SMTP_URL: smtp.url, NOTIFICATION_RETRY_BASE_MS: "50", DISPATCHER_POLL_MS: "20", NOTIFICATION_MAIL_FROM_EMAIL: "sender@example.org" });
		try {
			const reg = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
			const token = reg.body.accessToken;
			const send = async (to: string) =>
				(await http(p.baseUrl, "POST", "/notifications", { token, json: { to, template: { subject: "Hi {{n}}", html: "<p>{{n}}</p>" }, variables: { n: "<x>" } } })).body.notificationId as string;
			const coll = runtime(p).store().collection<NotificationDoc>("notifications");
			const final = async (id: string) => {
				let doc: NotificationDoc | null = null;
				await waitFor(`${id} to finish`, async () => ["SENT", "FAILED"].includes((doc = await coll.get(id))?.status ?? ""));
				return doc!;
			};

			const ok = await final(await send("ok@example.com"));
			expect(ok).toMatchObject({ status: "SENT", attempts: 1 });
			const mail = smtp.received.find(m => m.to.includes("ok@example.com"))!;
			expect(mail.from).toBe("sender@example.org");
			expect(mail.raw).toContain("<p>&lt;x&gt;</p>");
			expect(mail.raw).toMatch(new RegExp(`^X-Notification-Id: ${ok.id}`, "im"));

			const refused = await final(await send("nobody@example.com"));
			expect(refused).toMatchObject({ status: "FAILED", attempts: 1, lastError: "SMTP_550" });

			const busy = await final(await send("busy@example.com"));
			expect(busy).toMatchObject({ status: "SENT", attempts: 3 });
			expect(smtp.received.filter(m => m.to.includes("busy@example.com"))).toHaveLength(1);
		} finally {
			await p.stop();
			await smtp.close();
		}
	});
});
