/**
 * A real SMTP server on loopback (smtp-server, the nodemailer project's server) whose
 * answers a test switches while it runs: accept, refuse at the end of DATA (after the
 * whole message, so the test sees what was offered), refuse a recipient, hold the
 * final answer, or stop accepting connections altogether and come back on its port.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface OfferedMail {
	to: string[];
	raw: string;
	messageId: string;
	notificationId: string;
	/** Whether the server took it (answered 250). */
	accepted: boolean;
}

export interface Refusal {
	code: number;
	message: string;
}

export interface TestSmtp {
	url: string;
	port: number;
	/** Every message offered to it, taken or refused, in order. */
	offered: OfferedMail[];
	/** Every RCPT TO address, refused or not. */
	recipients: string[];
	/** Refuse every message at the end of DATA with this answer; null accepts. */
	refuseData: Refusal | null;
	/** Refuse a recipient (at RCPT TO) with this answer; null accepts. */
	refuseRecipient: (address: string) => Refusal | null;
	/** While set, the final answer to DATA waits for it. */
	hold: Promise<void> | null;
	/** Stops accepting connections (the port refuses them). */
	stop(): Promise<void>;
	/** Listens again on the same port. */
	restart(): Promise<void>;
}

function refusal(r: Refusal): Error {
	return Object.assign(new Error(r.message), { responseCode: r.code });
}

export async function startTestSmtp(): Promise<TestSmtp> {
	let server: SMTPServer;
	const smtp: TestSmtp = {
		url: "",
		port: 0,
		offered: [],
		recipients: [],
		refuseData: null,
		refuseRecipient: () => null,
		hold: null,
		stop: () => new Promise<void>(r => server.close(() => r())),
		restart: () => listen(smtp.port)
	};
	const create = () =>
		new SMTPServer({
			authOptional: true,
			disabledCommands: ["STARTTLS"],
			logger: false,
			onRcptTo(address, _session, cb) {
				smtp.recipients.push(address.address);
				const r = smtp.refuseRecipient(address.address);
				cb(r ? refusal(r) : undefined);
			},
			onData(stream, session, cb) {
				const chunks: Buffer[] = [];
				stream.on("data", c => chunks.push(c));
				stream.on("end", async () => {
					const raw = Buffer.concat(chunks).toString("utf8");
					const mail: OfferedMail = {
						to: session.envelope.rcptTo.map(r => r.address),
						raw,
						messageId: /^Message-ID: (\S+)/im.exec(raw)?.[1] ?? "",
						notificationId: /^X-Notification-Id: (\S+)/im.exec(raw)?.[1] ?? "",
						accepted: false
					};
					smtp.offered.push(mail);
					if (smtp.hold) await smtp.hold;
					const r = smtp.refuseData;
					mail.accepted = !r;
					cb(r ? refusal(r) : null);
				});
			}
		});
	const listen = async (port: number) => {
		server = create();
		await new Promise<void>((resolve, reject) => {
			server.server.once("error", reject);
			server.listen(port, "127.0.0.1", () => resolve());
		});
		smtp.port = (server.server.address() as AddressInfo).port;
		smtp.url = `smtp://127.0.0.1:${smtp.port}`;
	};
	await listen(0);
	return smtp;
}
