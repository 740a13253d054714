/**
 * The client's file name is only ever data: cleaned for display and for the download's
 * Content-Disposition, never part of a storage path.
 */
import { RESUME_EXTENSIONS, type ResumeKind } from "./sniff";

const MAX_NAME_CHARS = 200;
/** Controls, and the bidirectional overrides that can disguise an extension (cv‮fdp.exe). */
const UNSAFE = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * A display name for the stored file: the last path segment of what the client sent,
 * without control characters, with the extension of the type the bytes really are, so
 * that a saved download opens as what it is (a text file named x.html becomes x.html.txt).
 */
export function resumeFilename(clientName: string | undefined, kind: ResumeKind): string {
	const extensions = RESUME_EXTENSIONS[kind];
	let name = (clientName ?? "").normalize("NFC").replace(UNSAFE, "");
	name = name.slice(Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1).trim();
	if (name === "" || name === "." || name === "..") name = "resume";
	const lower = name.toLowerCase();
	const extension = extensions.find(e => lower.endsWith(e) && lower.length > e.length);
	const stem = extension ? name.slice(0, -extension.length) : name;
	const suffix = extension ? name.slice(-extension.length) : extensions[0];
	// Counted in code points, so a cut never splits a character.
	return Array.from(stem).slice(0, MAX_NAME_CHARS - suffix.length).join("") + suffix;
}

/** RFC 6266 / RFC 8187: an ASCII fallback plus the exact name in UTF-8. */
export function contentDisposition(filename: string): string {
	const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, "_");
	const encoded = encodeURIComponent(filename).replace(/['()*]/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
	return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
