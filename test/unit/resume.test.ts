/**
 * Content sniffing and file names of resumes, as pure functions.
 */
import { contentDisposition, RESUME_CONTENT_TYPES, ResumeSniffer, resumeFilename, type ResumeKind } from "../../lib/resume";
import { ACCEPTED, PDF, REFUSED } from "../helpers/resumes";

function sniff(bytes: Buffer, chunkSize = bytes.length || 1): ResumeKind | null {
	const sniffer = new ResumeSniffer();
	for (let i = 0; i < bytes.length; i += chunkSize) sniffer.push(bytes.subarray(i, i + chunkSize));
	return sniffer.finish();
}

const kindOf = (contentType: string) => (Object.keys(RESUME_CONTENT_TYPES) as ResumeKind[]).find(k => RESUME_CONTENT_TYPES[k] === contentType);

describe("ResumeSniffer", () => {
	it.each(ACCEPTED)("should recognise %s whether it arrives whole or byte by byte", (_label, bytes, _name, contentType) => {
		expect(sniff(bytes)).toBe(kindOf(contentType));
		expect(sniff(bytes, 1)).toBe(kindOf(contentType));
	});

	it.each(REFUSED)("should refuse %s whether it arrives whole or byte by byte", (_label, bytes) => {
		expect(sniff(bytes)).toBeNull();
		expect(sniff(bytes, 1)).toBeNull();
	});

	it("should rule out an executable as soon as its first chunk arrives", () => {
		const sniffer = new ResumeSniffer();
		expect(sniffer.push(Buffer.from("MZ\x90\x00\x03\x00\x00\x00", "latin1"))).toBe(false);
		expect(sniffer.push(PDF)).toBe(false);
		expect(sniffer.finish()).toBeNull();
	});

	it("should accept text shorter than any signature when it is clean UTF-8", () => {
		expect(sniff(Buffer.from("Hi"))).toBe("txt");
		expect(sniff(Buffer.from("%PDF"))).toBe("txt");
	});

	it("should refuse text when it ends inside a multi-byte character", () => {
		expect(sniff(Buffer.from([0x41, 0xc3]))).toBeNull();
	});

	it("should refuse text with a control character when it is otherwise UTF-8", () => {
		expect(sniff(Buffer.from("Ada\u001bLovelace"))).toBeNull();
		expect(sniff(Buffer.from("Ada\u0085Lovelace"))).toBeNull();
	});
});

describe("resumeFilename", () => {
	it.each([
		["cv.pdf", "pdf", "cv.pdf"],
		["CV.PDF", "pdf", "CV.PDF"],
		["cv", "pdf", "cv.pdf"],
		["notes.html", "txt", "notes.html.txt"],
		["notes.text", "txt", "notes.text"],
		["../../etc/passwd", "txt", "passwd.txt"],
		["C:\\Users\\ada\\cv.docx", "docx", "cv.docx"],
		["cv\u202Efdp.exe", "pdf", "cvfdp.exe.pdf"],
		["a\u0000b\nc.rtf", "rtf", "abc.rtf"],
		["", "doc", "resume.doc"],
		[undefined, "pdf", "resume.pdf"],
		["..", "pdf", "resume.pdf"],
		[".pdf", "pdf", ".pdf.pdf"]
	] as [string | undefined, ResumeKind, string][])("should turn %j, when the bytes are %s, into %j", (given, kind, expected) => {
		expect(resumeFilename(given, kind)).toBe(expected);
	});

	it("should keep the extension and whole characters when the name is too long", () => {
		const name = resumeFilename(`${"é".repeat(300)}.pdf`, "pdf");
		expect(Array.from(name)).toHaveLength(200);
		expect(name.endsWith("é.pdf")).toBe(true);
	});
});

describe("contentDisposition", () => {
	it("should give an ASCII fallback and the exact UTF-8 name when the name has quotes, percent signs and non-ASCII", () => {
		expect(contentDisposition('Lebenslauf "Ada" 100% ö(1).pdf')).toBe(
			`attachment; filename="Lebenslauf _Ada_ 100_ _(1).pdf"; filename*=UTF-8''Lebenslauf%20%22Ada%22%20100%25%20%C3%B6%281%29.pdf`
		);
	});
});
