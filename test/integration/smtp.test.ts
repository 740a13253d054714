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
import { serviceToken } from "../helpers/senders";

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
			const token = await serviceToken(p);
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

	it("should drop a timed-out connection so a late 250 never counts, and keep one Message-ID across attempts", async () => {
		// A real SMTP server that is slow on the first connection of each notification:
		// every step answers within the socket's idle timeout, but the whole exchange
		// outlasts the platform's send timeout. Later connections are answered at once.
		// It takes a message only when it can still answer on an open connection, as an
		// MTA does.
		const SEND_TIMEOUT_MS = 400;
		const STEP_MS = 150;
		const NOTIFICATIONS = 5;
		const attempts = new Map<string, string[]>();
		const delivered: string[] = [];
		const closed = new Set<string>();
		const slow = new Set<string>();
		let connections = 0;
		// Armed once registration's own verification mail has gone through, so the slow connections are the notifications'.
		let armed = false;
		const step = (session: { id: string }, done: () => void) => (slow.has(session.id) ? setTimeout(done, STEP_MS) : done());
		const server = new SMTPServer({
			authOptional: true,
			disabledCommands: ["STARTTLS"],
			onConnect(session, cb) {
				if (armed && ++connections <= NOTIFICATIONS) slow.add(session.id);
				step(session, () => cb());
			},
			onMailFrom(_address, session, cb) {
				step(session, () => cb());
			},
			onRcptTo(_address, session, cb) {
				step(session, () => cb());
			},
			onClose(session) {
				closed.add(session.id);
			},
			onData(stream, session, cb) {
				const chunks: Buffer[] = [];
				stream.on("data", c => chunks.push(c));
				stream.on("end", () => {
					const raw = Buffer.concat(chunks).toString("utf8");
					const notificationId = /^X-Notification-Id: (\S+)/im.exec(raw)![1];
					const messageId = /^Message-ID: (\S+)/im.exec(raw)![1];
					attempts.set(notificationId, [...(attempts.get(notificationId) ?? []), messageId]);
					step(session, () => {
						if (closed.has(session.id)) return;
						delivered.push(notificationId);
						cb();
					});
				});
			}
		});
		await new Promise<void>(r => server.listen(0, "127.0.0.1", r));
		const url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
		const p = await startPlatform({
			EMAIL_PROVIDER: "smtp",
			SMTP_URL: url,
			EMAIL_SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS),
			NOTIFICATION_RETRY_BASE_MS: "50",
			NOTIFICATION_MAX_ATTEMPTS: "3",
			DISPATCHER_POLL_MS: "20",
			NOTIFICATION_MAIL_FROM_EMAIL: "sender@example.org"
		});
		try {
			// A registration's verification mail goes first; the notifications are a service's, to any address.
			expect((await http(p.baseUrl, "POST", "/auth/register", { json: newUser() })).status).toBe(201);
			const token = await serviceToken(p);
			await waitFor("the verification mail to be delivered", async () => delivered.length === 1);
			armed = true;
			const ids: string[] = [];
			for (let i = 0; i < NOTIFICATIONS; i++) {
				const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { to: `late${i}@example.com`, template: { subject: "Hi", text: "late" } } });
				expect(res.status).toBe(201);
				ids.push(res.body.notificationId);
			}
			const coll = runtime(p).store().collection<NotificationDoc>("notifications");
			await waitFor("every notification to finish", async () => (await coll.find({ id: { $in: ids } })).every(n => ["SENT", "FAILED"].includes(n.status)), 20000);
			// Whatever a slow first connection was still going to do has happened by now.
			await waitFor("the slow connections to end", async () => [...slow].every(id => closed.has(id)));
			for (const id of ids) {
				const n = (await coll.get(id))!;
				expect(n).toMatchObject({ status: "SENT", attempts: 2 });
				// Taken once; every copy that reached the server carried the same Message-ID.
				expect(delivered.filter(d => d === id)).toHaveLength(1);
				expect(new Set(attempts.get(id))).toEqual(new Set([`<${id}@example.org>`]));
			}
		} finally {
			await p.stop();
			await new Promise<void>(r => server.close(() => r()));
		}
	});
});
