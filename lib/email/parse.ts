/**
 * Reads back an .eml file the file provider wrote, for the dev inbox: headers with
 * their encoded words decoded (RFC 2047), and the text and HTML bodies with their
 * transfer encoding undone (quoted-printable or base64, RFC 2045) and their charset
 * applied, so a link or a token in them is the one the platform sent, ready to copy.
 * It reads the MIME that nodemailer writes (single part or nested multipart); a part
 * that is neither text/plain nor text/html (an attachment) is skipped.
 */

export interface MailHeader {
	name: string;
	value: string;
}

export interface ParsedMail {
	headers: MailHeader[];
	text?: string;
	html?: string;
}

interface Part {
	headers: MailHeader[];
	/** The body's bytes, one char per byte (latin1), until its charset is known. */
	body: string;
}

function decodeBytes(bytes: Buffer, charset: string | undefined): string {
	try {
		return new TextDecoder(charset || "utf-8").decode(bytes);
	} catch {
		// An unknown charset label: UTF-8 shows ASCII right and marks the rest.
		return new TextDecoder("utf-8").decode(bytes);
	}
}

/** Quoted-printable to bytes: soft line breaks removed, =XX as the byte XX. */
export function decodeQuotedPrintable(text: string): Buffer {
	const joined = text.replace(/=\r?\n/g, "");
	const bytes: number[] = [];
	for (let i = 0; i < joined.length; i++) {
		const hex = joined[i] === "=" ? joined.slice(i + 1, i + 3) : "";
		if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
			bytes.push(parseInt(hex, 16));
			i += 2;
		} else bytes.push(joined.charCodeAt(i) & 0xff);
	}
	return Buffer.from(bytes);
}

const ENCODED_WORD = /=\?([^?\s]+)\?([QqBb])\?([^?\s]*)\?=/g;

/** RFC 2047 encoded words, adjacent ones joined without the white space between them. */
export function decodeWords(value: string): string {
	return value.replace(/(\?=)\s+(=\?)/g, "$1$2").replace(ENCODED_WORD, (_all, charset: string, encoding: string, word: string) => {
		const bytes = encoding.toUpperCase() === "B" ? Buffer.from(word, "base64") : decodeQuotedPrintable(word.replace(/_/g, " "));
		return decodeBytes(bytes, charset.replace(/\*.*$/, ""));
	});
}

function splitPart(raw: string): Part {
	const m = /\r?\n\r?\n/.exec(raw);
	const head = m ? raw.slice(0, m.index) : raw;
	const body = m ? raw.slice(m.index + m[0].length) : "";
	const headers: MailHeader[] = [];
	for (const line of head.split(/\r?\n/)) {
		if (/^[ \t]/.test(line) && headers.length > 0) headers[headers.length - 1].value += ` ${line.trim()}`;
		else {
			const colon = line.indexOf(":");
			if (colon > 0) headers.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
		}
	}
	// Header bytes outside encoded words are UTF-8 when nodemailer writes them raw.
	return { headers: headers.map(h => ({ name: h.name, value: decodeWords(Buffer.from(h.value, "latin1").toString("utf8")) })), body };
}

function header(part: Part, name: string): string {
	return part.headers.find(h => h.name.toLowerCase() === name)?.value ?? "";
}

/** A header's parameter (`boundary`, `charset`), quoted or not. */
function param(value: string, name: string): string | undefined {
	const m = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, "i").exec(value);
	return m ? (m[1] ?? m[2]) : undefined;
}

function bodyText(part: Part, contentType: string): string {
	const encoding = header(part, "content-transfer-encoding").toLowerCase();
	const bytes =
		encoding === "quoted-printable"
			? decodeQuotedPrintable(part.body)
			: encoding === "base64"
				? Buffer.from(part.body.replace(/\s+/g, ""), "base64")
				: Buffer.from(part.body, "latin1");
	return decodeBytes(bytes, param(contentType, "charset"));
}

function collect(part: Part, into: ParsedMail, depth: number): void {
	const contentType = header(part, "content-type") || "text/plain";
	const type = contentType.split(";")[0].trim().toLowerCase();
	const boundary = param(contentType, "boundary");
	if (type.startsWith("multipart/") && boundary && depth < 8) {
		const delimiter = `--${boundary}`;
		const pieces = part.body.split(new RegExp(`\\r?\\n?${delimiter.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:--)?[ \\t]*\\r?\\n?`));
		// The preamble before the first delimiter and the epilogue after the last are not parts.
		for (const piece of pieces.slice(1, -1)) collect(splitPart(piece), into, depth + 1);
		return;
	}
	if (/^attachment/i.test(header(part, "content-disposition"))) return;
	// The writer ends a message with a line break of its own (a multipart's last one belongs to its delimiter).
	if (depth === 0) part = { ...part, body: part.body.replace(/\r?\n$/, "") };
	if (type === "text/plain" && into.text === undefined) into.text = bodyText(part, contentType);
	else if (type === "text/html" && into.html === undefined) into.html = bodyText(part, contentType);
}

/** The message's top-level headers and its first text and HTML bodies, decoded. */
export function parseMail(raw: Buffer | string): ParsedMail {
	const top = splitPart(typeof raw === "string" ? Buffer.from(raw, "utf8").toString("latin1") : raw.toString("latin1"));
	const mail: ParsedMail = { headers: top.headers };
	collect(top, mail, 0);
	return mail;
}
