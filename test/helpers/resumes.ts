/**
 * Resume files for tests, one of each accepted type and files that must be refused
 * whatever they are called. PDF, RTF, text and ZIPs are real files; the OLE2 ones
 * carry only what the sniffer reads.
 */
import { crc32 } from "node:zlib";

/** A real ZIP archive with stored (uncompressed) entries. */
export function zip(entries: Record<string, string>): Buffer {
	const locals: Buffer[] = [];
	const centrals: Buffer[] = [];
	let offset = 0;
	for (const [name, text] of Object.entries(entries)) {
		const nameBytes = Buffer.from(name, "utf8");
		const data = Buffer.from(text, "utf8");
		const crc = crc32(data);
		const local = Buffer.alloc(30);
		local.writeUInt32LE(0x04034b50, 0);
		local.writeUInt16LE(20, 4);
		local.writeUInt32LE(crc, 14);
		local.writeUInt32LE(data.length, 18);
		local.writeUInt32LE(data.length, 22);
		local.writeUInt16LE(nameBytes.length, 26);
		const central = Buffer.alloc(46);
		central.writeUInt32LE(0x02014b50, 0);
		central.writeUInt16LE(20, 4);
		central.writeUInt16LE(20, 6);
		central.writeUInt32LE(crc, 16);
		central.writeUInt32LE(data.length, 20);
		central.writeUInt32LE(data.length, 24);
		central.writeUInt16LE(nameBytes.length, 28);
		central.writeUInt32LE(offset, 42);
		locals.push(local, nameBytes, data);
		centrals.push(central, nameBytes);
		offset += local.length + nameBytes.length + data.length;
	}
	const directory = Buffer.concat(centrals);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(Object.keys(entries).length, 8);
	end.writeUInt16LE(Object.keys(entries).length, 10);
	end.writeUInt32LE(directory.length, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...locals, directory, end]);
}

/** The OLE2 signature and the given directory entry names (UTF-16LE): not a complete compound file. */
export function ole2(...streams: string[]): Buffer {
	const signature = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
	return Buffer.concat([signature, Buffer.alloc(504), ...streams.map(s => Buffer.concat([Buffer.from(s, "utf16le"), Buffer.alloc(64 - s.length * 2)])), Buffer.alloc(512)]);
}

export const PDF = Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n", "latin1");
export const DOCX_ENTRIES = { "[Content_Types].xml": "<Types/>", "_rels/.rels": "<Relationships/>", "word/document.xml": "<w:document/>" };

export const ACCEPTED: [string, Buffer, string, string][] = [
	["a PDF", PDF, "cv.pdf", "application/pdf"],
	["a DOC", ole2("Root Entry", "WordDocument", "1Table"), "cv.doc", "application/msword"],
	["a DOCX", zip(DOCX_ENTRIES), "cv.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
	["an RTF", Buffer.from("{\\rtf1\\ansi Ada Lovelace\\par}", "latin1"), "cv.rtf", "application/rtf"],
	["a UTF-8 text", Buffer.from("\uFEFFAda Lovelace\r\nAnalyste née 1815\tLondon\f\n", "utf8"), "cv.txt", "text/plain"]
];

export const REFUSED: [string, Buffer][] = [
	["a Windows executable", Buffer.concat([Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]), Buffer.from("This program cannot be run in DOS mode.")])],
	["an ELF executable", Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(56)])],
	["a spreadsheet ZIP", zip({ "[Content_Types].xml": "<Types/>", "xl/workbook.xml": "<workbook/>" })],
	["a macro-enabled document", zip({ ...DOCX_ENTRIES, "word/vbaProject.bin": "macros" })],
	["an OLE2 file without a Word stream", ole2("Root Entry", "Workbook")],
	["a PNG image", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])],
	["text that is not UTF-8", Buffer.from([0x41, 0x64, 0x61, 0xe9, 0x20, 0x4c, 0x6f, 0x76, 0x65])],
	["text with a NUL byte", Buffer.from("Ada\u0000Lovelace", "utf8")]
];
