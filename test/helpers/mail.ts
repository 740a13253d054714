/**
 * Reads the mails the file email provider wrote under DATA_DIR/outbox, parsed as a
 * mail client would (quoted-printable and all), waiting for one with a deadline.
 */
import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";

export interface Mail {
	file: string;
	to: string;
	subject: string;
	text: string;
	html: string;
	notificationId: string;
}

async function read(file: string): Promise<Mail> {
	const parsed = await simpleParser(fs.readFileSync(file));
	const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
	return {
		file,
		to: to?.value[0]?.address ?? "",
		subject: parsed.subject ?? "",
		text: parsed.text ?? "",
		html: typeof parsed.html === "string" ? parsed.html : "",
		notificationId: path.basename(file).split(".")[0]
	};
}

/** Every mail in the outbox, oldest first by name (notification ids are UUIDv7). */
export async function outbox(dataDir: string): Promise<Mail[]> {
	const dir = path.join(dataDir, "outbox");
	if (!fs.existsSync(dir)) return [];
	const files = fs.readdirSync(dir).filter(f => f.endsWith(".eml")).sort();
	return Promise.all(files.map(f => read(path.join(dir, f))));
}

/** The `count`-th mail to `to` whose subject matches, waiting up to `ms`. */
export async function waitForMail(dataDir: string, to: string, subject: RegExp, count = 1, ms = 10000): Promise<Mail> {
	const deadline = Date.now() + ms;
	for (;;) {
		const mails = (await outbox(dataDir)).filter(m => m.to === to.toLowerCase() && subject.test(m.subject));
		if (mails.length >= count) return mails[count - 1];
		if (Date.now() > deadline) throw new Error(`No mail #${count} to ${to} matching ${subject} within ${ms} ms (outbox: ${mails.length})`);
		await new Promise(resolve => setTimeout(resolve, 25));
	}
}

/** The token from a lifecycle link in the text part: `<UI>/<path>#token=<token>`. */
export function linkToken(mail: Mail, uiBase: string, uiPath: string): string {
	const m = new RegExp(`${uiBase.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}${uiPath}#token=([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])`).exec(mail.text);
	if (!m) throw new Error(`No ${uiBase}${uiPath}#token= link in the text part:\n${mail.text}`);
	return m[1];
}
