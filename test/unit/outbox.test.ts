/**
 * The dev inbox (lib/outbox): what the file providers wrote, read back as the
 * console shows it. Mails are composed by the email provider's own composer, so the
 * decoding is checked against what the platform really writes.
 */
import fs from "node:fs";
import path from "node:path";
import { FilePushChannel } from "../../lib/channels/push-file";
import { FileEmailProvider } from "../../lib/email/file";
import { decodeWords, parseMail } from "../../lib/email/parse";
import { compose } from "../../lib/email/mime";
import { fileSources, Outbox } from "../../lib/outbox";
import { FileSmsProvider } from "../../lib/sms/file";
import { tempDir } from "../helpers/platform";

const N1 = "0190a5c4-0000-7000-8000-000000000001";
const N2 = "0190a5c4-0000-7000-8000-000000000002";
const TOKEN = "Ab_cD-ef0123456789Ab_cD-ef0123456789Ab_cD-ef0123456789Ab_cD-ef0123456789";
const LINK = `http://localhost:8500/ui/verify-email#token=${TOKEN}`;

describe("reading back a mail the file provider wrote", () => {
	it("should decode quoted-printable bodies so a long link with = in it is the one sent", async () => {
		const raw = await compose({
			notificationId: N1,
			from: "noreply@example.com",
			to: "grace@example.com",
			subject: "Grüße — verify your address, a subject long enough to be folded into encoded words",
			text: `Héllo Grace,\nverify: ${LINK}\n`,
			html: `<p style="color:#333">Héllo <a href="${LINK}">verify</a></p>`,
			unsubscribeUrl: "http://localhost:8500/unsubscribe/abc"
		});
		// The file really holds the encoded form a reader would copy wrongly.
		expect(raw.toString("utf8")).toContain("=3D");
		const mail = parseMail(raw);
		expect(mail.text).toBe(`Héllo Grace,\nverify: ${LINK}\n`);
		expect(mail.html).toBe(`<p style="color:#333">Héllo <a href="${LINK}">verify</a></p>`);
		const header = (name: string) => mail.headers.find(h => h.name.toLowerCase() === name)?.value;
		expect(header("subject")).toBe("Grüße — verify your address, a subject long enough to be folded into encoded words");
		expect(header("to")).toBe("grace@example.com");
		expect(header("list-unsubscribe")).toBe("<http://localhost:8500/unsubscribe/abc>");
		expect(header("x-notification-id")).toBe(N1);
	});

	it("should decode base64 parts, a single-part mail and B-encoded words", () => {
		const body = Buffer.from("Zürich ✓", "utf8").toString("base64");
		const raw = `Subject: =?utf-8?B?${Buffer.from("Zürich ✓").toString("base64")}?=\nContent-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n${body}\n`;
		expect(parseMail(raw)).toEqual({ headers: [{ name: "Subject", value: "Zürich ✓" }, expect.anything(), expect.anything()], text: "Zürich ✓" });
		expect(decodeWords("=?UTF-8?Q?a_b?= =?UTF-8?Q?=C3=A9?= c")).toBe("a bé c");
	});
});

describe("the outbox listing", () => {
	let root: string;
	beforeEach(() => (root = tempDir()));
	afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

	it("should list email, SMS and push newest first across channels, a page at a time", async () => {
		const outbox = path.join(root, "outbox");
		const email = await new FileEmailProvider(outbox).send({ notificationId: N1, from: "noreply@example.com", to: "ada@example.com", subject: "Hello Ada", text: "First." });
		const sms = await new FileSmsProvider(path.join(outbox, "sms")).send({ notificationId: N2, to: "+15550100", text: "Your code is 123456" });
		const push = await new FilePushChannel(path.join(outbox, "push")).send(N2, "actor-1", { subject: "Ping", text: "Pushed" });
		const pushKey = `${N2}.${push.messageId}`;
		expect(JSON.parse(fs.readFileSync(path.join(outbox, "push", `${pushKey}.json`), "utf8"))).toEqual({ notificationId: N2, to: "actor-1", payload: { notificationId: N2, title: "Ping", body: "Pushed" } });
		// Distinct times, oldest first: email, SMS, push. Files of another shape are not messages.
		const times = [1_700_000_000, 1_700_000_100, 1_700_000_200];
		fs.utimesSync(path.join(outbox, `${N1}.${email.messageId}.eml`), times[0], times[0]);
		fs.utimesSync(path.join(outbox, "sms", `${N2}.${sms.messageId}.json`), times[1], times[1]);
		fs.utimesSync(path.join(outbox, "push", `${pushKey}.json`), times[2], times[2]);
		fs.writeFileSync(path.join(outbox, "notes.eml"), "Subject: not a message\n\n");

		const reader = new Outbox(fileSources(root));
		const all = await reader.list();
		expect(all.nextCursor).toBeUndefined();
		expect(all.items).toEqual([
			{ id: `push.${pushKey}`, channel: "PUSH", notificationId: N2, to: "actor-1", subject: "Ping", preview: "Pushed", createdAt: new Date(times[2] * 1000).toISOString() },
			{ id: `sms.${N2}.${sms.messageId}`, channel: "SMS", notificationId: N2, to: "+15550100", preview: "Your code is 123456", createdAt: new Date(times[1] * 1000).toISOString() },
			{ id: `email.${N1}.${email.messageId}`, channel: "EMAIL", notificationId: N1, to: "ada@example.com", subject: "Hello Ada", preview: "First.", createdAt: new Date(times[0] * 1000).toISOString() }
		]);

		const first = await reader.list({ limit: 2 });
		expect(first.items.map(i => i.channel)).toEqual(["PUSH", "SMS"]);
		const second = await reader.list({ limit: 2, cursor: first.nextCursor });
		expect(second).toEqual({ items: [all.items[2]] });

		const mail = await reader.get(all.items[2].id);
		expect(mail).toMatchObject({ channel: "EMAIL", from: "noreply@example.com", text: "First.", subject: "Hello Ada" });
		expect(await reader.get(all.items[1].id)).toMatchObject({ channel: "SMS", text: "Your code is 123456", from: null });
		expect(await reader.get(all.items[0].id)).toMatchObject({ channel: "PUSH", payload: { notificationId: N2, title: "Ping", body: "Pushed" } });
	});

	it.each([
		["a path out of the folder", `email.../../store.sqlite`],
		["a name with a slash", `email.${N1}/x`],
		["an unknown channel", `fax.${N1}.${N2}`],
		["a name of another shape", "email.notes"],
		["a message that is not there", `email.${N1}.${N2}`]
	])("should find nothing for %s", async (_what, id) => {
		expect(await new Outbox(fileSources(root)).get(id)).toBeNull();
	});

	it("should refuse a cursor it did not give out", async () => {
		await expect(new Outbox(fileSources(root)).list({ cursor: "bm90LWEtY3Vyc29y" })).rejects.toMatchObject({ code: 400 });
	});
});
