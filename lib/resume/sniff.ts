/**
 * Decides what a resume is from its bytes, never from the client's file name or
 * Content-Type, while the bytes stream past: it keeps a few bytes at a time, answers
 * "impossible" as early as the bytes allow, and names the type at the end.
 *
 * - pdf: starts with "%PDF-"
 * - rtf: starts with "{\rtf"
 * - doc: an OLE2 compound file holding a "WordDocument" stream (other OLE2 files,
 *   such as spreadsheets or MSI installers, are refused)
 * - docx: a ZIP holding "[Content_Types].xml" and "word/document.xml", without a
 *   macro project
 * - txt: UTF-8 without NUL or control characters other than tab, line breaks and form feed
 */
export type ResumeKind = "pdf" | "doc" | "docx" | "rtf" | "txt";

export const RESUME_CONTENT_TYPES: Record<ResumeKind, string> = {
	pdf: "application/pdf",
	doc: "application/msword",
	docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	rtf: "application/rtf",
	txt: "text/plain"
};

export const RESUME_EXTENSIONS: Record<ResumeKind, readonly string[]> = {
	pdf: [".pdf"],
	doc: [".doc"],
	docx: [".docx"],
	rtf: [".rtf"],
	txt: [".txt", ".text"]
};

const MAGIC: { kind: Exclude<ResumeKind, "txt">; bytes: Buffer }[] = [
	{ kind: "pdf", bytes: Buffer.from("%PDF-", "latin1") },
	{ kind: "rtf", bytes: Buffer.from("{\\rtf", "latin1") },
	{ kind: "doc", bytes: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) },
	{ kind: "docx", bytes: Buffer.from([0x50, 0x4b, 0x03, 0x04]) }
];
const HEAD_BYTES = Math.max(...MAGIC.map(m => m.bytes.length));

/** C0 controls except tab, LF, FF, CR; DEL; C1 controls. */
const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f]/;

/** Finds a byte sequence across chunk boundaries, keeping only needle-length bytes. */
class Needle {
	found = false;
	private tail = Buffer.alloc(0);

	constructor(private readonly needle: Buffer) {}

	feed(chunk: Buffer): void {
		if (this.found) return;
		const hay = this.tail.length ? Buffer.concat([this.tail, chunk]) : chunk;
		if (hay.includes(this.needle)) {
			this.found = true;
			return;
		}
		this.tail = Buffer.from(hay.subarray(Math.max(0, hay.length - (this.needle.length - 1))));
	}
}

interface Check {
	/** False once the bytes so far rule the type out. */
	feed(chunk: Buffer): boolean;
	/** True when everything fed makes a complete file of the type. */
	end(): boolean;
}

function markers(required: string[], forbidden: string[], encoding: BufferEncoding): Check {
	const need = required.map(s => new Needle(Buffer.from(s, encoding)));
	const deny = forbidden.map(s => new Needle(Buffer.from(s, encoding)));
	return {
		feed(chunk) {
			for (const n of [...need, ...deny]) n.feed(chunk);
			return !deny.some(n => n.found);
		},
		end: () => need.every(n => n.found) && !deny.some(n => n.found)
	};
}

function utf8Text(): Check {
	const decoder = new TextDecoder("utf-8", { fatal: true });
	const clean = (text: string) => !CONTROL.test(text);
	return {
		feed(chunk) {
			try {
				return clean(decoder.decode(chunk, { stream: true }));
			} catch {
				return false;
			}
		},
		end() {
			try {
				return clean(decoder.decode());
			} catch {
				return false;
			}
		}
	};
}

const CHECKS: Record<ResumeKind, () => Check> = {
	pdf: () => ({ feed: () => true, end: () => true }),
	rtf: () => ({ feed: () => true, end: () => true }),
	doc: () => markers(["WordDocument"], [], "utf16le"),
	docx: () => markers(["[Content_Types].xml", "word/document.xml"], ["vbaProject.bin"], "latin1"),
	txt: utf8Text
};

export class ResumeSniffer {
	private head: Buffer[] = [];
	private headLength = 0;
	private kind: ResumeKind | undefined;
	private check: Check | undefined;
	private failed = false;

	/** Feeds the next chunk; false as soon as the bytes cannot be any accepted type. */
	push(chunk: Buffer): boolean {
		if (this.failed) return false;
		if (!this.check) {
			this.head.push(chunk);
			this.headLength += chunk.length;
			if (this.headLength < HEAD_BYTES) return true;
			return this.start();
		}
		this.failed = !this.check.feed(chunk);
		return !this.failed;
	}

	/** After the last chunk: the type, or null when it is none of the accepted ones. */
	finish(): ResumeKind | null {
		if (!this.check && !this.failed) this.start();
		if (this.failed || !this.check || !this.check.end()) return null;
		return this.kind ?? null;
	}

	private start(): boolean {
		const head = Buffer.concat(this.head);
		this.head = [];
		this.kind = MAGIC.find(m => head.subarray(0, m.bytes.length).equals(m.bytes))?.kind ?? "txt";
		this.check = CHECKS[this.kind]();
		this.failed = !this.check.feed(head);
		return !this.failed;
	}
}
