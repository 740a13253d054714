/**
 * The dev inbox: what the `file` providers wrote (DATA_DIR/outbox), read back newest
 * first for GET /admin/outbox and the console's Outbox page. Each channel is a
 * source that names its messages and reads one; a channel that keeps its messages
 * elsewhere (in-app, in the store) plugs in as one more source. A message's id is
 * its channel and its key (`email.<notificationId>.<sendId>`), checked against a
 * strict pattern before anything is opened, so an id never names another file.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { badRequest } from "../errors";
import { parseMail, type MailHeader } from "../email/parse";
import { INBOX, type InboxDoc } from "../inbox";
import type { Store } from "../store";

export interface OutboxSummary {
	id: string;
	channel: string;
	notificationId: string;
	to: string;
	/** Email subject or push title. */
	subject?: string;
	/** The start of the text, on one line. */
	preview: string;
	createdAt: string;
}

export interface EmailOutboxMessage extends OutboxSummary {
	channel: "EMAIL";
	from: string;
	headers: MailHeader[];
	text?: string;
	html?: string;
}

export interface SmsOutboxMessage extends OutboxSummary {
	channel: "SMS";
	from: string | null;
	text: string;
}

export interface PushOutboxMessage extends OutboxSummary {
	channel: "PUSH";
	payload: unknown;
}

export interface InAppOutboxMessage extends OutboxSummary {
	channel: "IN_APP";
	/** The recipient actor's id (also in `to`). */
	actorId: string;
	title: string;
	body: string;
	data: Record<string, unknown>;
	/** unread, read or archived, as the recipient left it. */
	state: string;
}

export type OutboxMessage = EmailOutboxMessage | SmsOutboxMessage | PushOutboxMessage | InAppOutboxMessage | (OutboxSummary & Record<string, unknown>);

export interface OutboxEntry {
	key: string;
	/** Milliseconds since the epoch: when it was written. */
	time: number;
}

export interface OutboxSource {
	/** Lower case, the id's prefix: `email`. */
	readonly prefix: string;
	/** Every message's key and time, in any order. */
	entries(): Promise<OutboxEntry[]>;
	/** One message by its key (already checked by `validKey`), or null when there is none. */
	read(key: string): Promise<OutboxMessage | null>;
	validKey(key: string): boolean;
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
/** What the file providers name a message: the notification's id and the send's. */
const FILE_KEY = new RegExp(`^${UUID}\\.${UUID}$`);
export const OUTBOX_ID = /^[a-z][a-z0-9-]{0,15}\.[0-9a-f.-]{1,80}$/;

const oneLine = (text: string | undefined, max = 120) => (text ?? "").replace(/\s+/g, " ").trim().slice(0, max);

async function filesIn(dir: string, ext: string): Promise<OutboxEntry[]> {
	let names: string[];
	try {
		names = await readdir(dir);
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
		throw err;
	}
	const keys = names.filter(n => n.endsWith(ext) && FILE_KEY.test(n.slice(0, -ext.length))).map(n => n.slice(0, -ext.length));
	const entries = await Promise.all(
		keys.map(async key => {
			try {
				return { key, time: (await stat(path.join(dir, key + ext))).mtimeMs };
			} catch {
				return null;
			}
		})
	);
	return entries.filter((e): e is OutboxEntry => e !== null);
}

async function readIfThere(file: string): Promise<{ raw: Buffer; time: number } | null> {
	try {
		const { mtimeMs } = await stat(file);
		return { raw: await readFile(file), time: mtimeMs };
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw err;
	}
}

/** A channel whose provider writes one file per message into `dir`, named `<notificationId>.<sendId><ext>`. */
export function fileSource(prefix: string, dir: string, ext: string, decode: (raw: Buffer, base: OutboxSummary) => OutboxMessage): OutboxSource {
	return {
		prefix,
		entries: () => filesIn(dir, ext),
		validKey: key => FILE_KEY.test(key),
		async read(key) {
			const found = await readIfThere(path.join(dir, key + ext));
			if (!found) return null;
			const { raw, time } = found;
			const base: OutboxSummary = { id: `${prefix}.${key}`, channel: prefix.toUpperCase(), notificationId: key.slice(0, 36), to: "", preview: "", createdAt: new Date(time).toISOString() };
			return decode(raw, base);
		}
	};
}

function emailMessage(raw: Buffer, base: OutboxSummary): EmailOutboxMessage {
	const mail = parseMail(raw);
	const get = (name: string) => mail.headers.find(h => h.name.toLowerCase() === name)?.value ?? "";
	const message: EmailOutboxMessage = {
		...base,
		channel: "EMAIL",
		to: get("to"),
		from: get("from"),
		subject: get("subject"),
		preview: oneLine(mail.text ?? mail.html?.replace(/<[^>]*>/g, " ")),
		headers: mail.headers
	};
	if (mail.text !== undefined) message.text = mail.text;
	if (mail.html !== undefined) message.html = mail.html;
	return message;
}

function smsMessage(raw: Buffer, base: OutboxSummary): SmsOutboxMessage {
	const sms = JSON.parse(raw.toString("utf8")) as { to?: string; from?: string | null; text?: string };
	const text = String(sms.text ?? "");
	return { ...base, channel: "SMS", to: String(sms.to ?? ""), from: sms.from ?? null, text, preview: oneLine(text) };
}

function pushMessage(raw: Buffer, base: OutboxSummary): PushOutboxMessage {
	const push = JSON.parse(raw.toString("utf8")) as { to?: string; payload?: { title?: unknown; body?: unknown } };
	const payload = push.payload ?? {};
	const message: PushOutboxMessage = { ...base, channel: "PUSH", to: String(push.to ?? ""), payload, preview: oneLine(String(payload.body ?? "")) };
	if (typeof payload.title === "string") message.subject = payload.title;
	return message;
}

/** Where the file providers write (lib/email/file.ts, lib/sms/file.ts, lib/channels/push-file.ts). */
export function fileSources(dataDir: string): OutboxSource[] {
	const outbox = path.join(dataDir, "outbox");
	return [
		fileSource("email", outbox, ".eml", emailMessage),
		fileSource("sms", path.join(outbox, "sms"), ".json", smsMessage),
		fileSource("push", path.join(outbox, "push"), ".json", pushMessage)
	];
}

/** How many of the newest in-app messages the dev inbox looks at: it shows what was just written, not an archive. */
export const INBOX_SOURCE_WINDOW = 500;

/**
 * In-app messages, which the IN_APP channel keeps in the store (lib/inbox) rather than in
 * files: the newest ones of every actor. Its keys are notification ids.
 */
export function inboxSource(store: () => Store, window = INBOX_SOURCE_WINDOW): OutboxSource {
	const UUID_KEY = new RegExp(`^${UUID}$`);
	const collection = () => store().collection<InboxDoc>(INBOX);
	return {
		prefix: "in-app",
		validKey: key => UUID_KEY.test(key),
		async entries() {
			const docs = await collection().find({}, { sort: { seq: -1 }, limit: window });
			return docs.map(d => ({ key: d.id, time: Date.parse(d.createdAt) }));
		},
		async read(key) {
			const doc = await collection().get(key);
			if (!doc) return null;
			return {
				id: `in-app.${doc.id}`,
				channel: "IN_APP",
				notificationId: doc.id,
				to: doc.actorId,
				actorId: doc.actorId,
				...(doc.title ? { subject: doc.title } : {}),
				preview: oneLine(doc.body),
				createdAt: doc.createdAt,
				title: doc.title,
				body: doc.body,
				data: doc.data,
				state: doc.state
			};
		}
	};
}

export const OUTBOX_DEFAULT_LIMIT = 50;
export const OUTBOX_MAX_LIMIT = 200;
const CURSOR_PREFIX = "o1:";

interface Located {
	source: OutboxSource;
	id: string;
	key: string;
	time: number;
}

/** Newest first; the same time is ordered by id, so a cursor names one place. */
const newestFirst = (a: { time: number; id: string }, b: { time: number; id: string }) => b.time - a.time || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

function encodeCursor(last: Located): string {
	return Buffer.from(`${CURSOR_PREFIX}${last.time}:${last.id}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): { time: number; id: string } {
	const text = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
	const m = /^o1:(\d+(?:\.\d+)?):(.+)$/.exec(text);
	if (!m || !OUTBOX_ID.test(m[2])) throw badRequest("The 'cursor' is not one this API gave out.", [{ field: "cursor", message: "is not a cursor from a previous page" }]);
	return { time: Number(m[1]), id: m[2] };
}

export interface OutboxPage {
	items: OutboxSummary[];
	nextCursor?: string;
}

function summary(m: OutboxMessage): OutboxSummary {
	const s: OutboxSummary = { id: m.id, channel: m.channel, notificationId: m.notificationId, to: m.to, preview: m.preview, createdAt: m.createdAt };
	if (m.subject !== undefined) s.subject = m.subject;
	return s;
}

export class Outbox {
	constructor(private readonly sources: OutboxSource[]) {}

	/** One page, newest first; messages written since the first page come only before it. */
	async list(q: { cursor?: string; limit?: number } = {}): Promise<OutboxPage> {
		const limit = q.limit ?? OUTBOX_DEFAULT_LIMIT;
		const after = q.cursor ? decodeCursor(q.cursor) : null;
		const all = (await Promise.all(this.sources.map(async source => (await source.entries()).map(e => ({ source, id: `${source.prefix}.${e.key}`, key: e.key, time: e.time })))))
			.flat()
			.filter(e => !after || newestFirst(after, e) < 0)
			.sort(newestFirst);
		const items: OutboxSummary[] = [];
		let last: Located | undefined;
		let i = 0;
		for (; i < all.length && items.length < limit; i++) {
			// A file removed since the listing is passed over.
			const m = await all[i].source.read(all[i].key).catch(() => null);
			if (m) items.push(summary(m));
			last = all[i];
		}
		return i < all.length && last ? { items, nextCursor: encodeCursor(last) } : { items };
	}

	/** One message by id, or null when there is none (an id of another shape included). */
	async get(id: string): Promise<OutboxMessage | null> {
		if (!OUTBOX_ID.test(id)) return null;
		const dot = id.indexOf(".");
		const source = this.sources.find(s => s.prefix === id.slice(0, dot));
		const key = id.slice(dot + 1);
		if (!source || !source.validKey(key)) return null;
		return source.read(key);
	}
}
