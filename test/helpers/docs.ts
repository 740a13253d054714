/**
 * The project's documentation as the tests read it: README.md, SECURITY.md and every
 * page under docs/, with what a reader would see as headings and links (nothing inside
 * fenced code blocks or inline code counts).
 */
import fs from "node:fs";
import path from "node:path";

export const ROOT = path.join(__dirname, "..", "..");

export interface DocFile {
	/** Relative to the repository root, with forward slashes. */
	file: string;
	text: string;
}

function read(file: string): DocFile {
	return { file, text: fs.readFileSync(path.join(ROOT, file), "utf8") };
}

/** README.md and docs/*.md: where a route or a variable may be documented. */
export function manualFiles(): DocFile[] {
	const pages = fs.readdirSync(path.join(ROOT, "docs")).filter(name => name.endsWith(".md")).sort();
	return [read("README.md"), ...pages.map(name => read(`docs/${name}`))];
}

/** Every Markdown file whose links must resolve. */
export function linkedFiles(): DocFile[] {
	return [...manualFiles(), read("SECURITY.md")];
}

/** The text outside fenced code blocks, line by line (fence lines themselves blank). */
function proseLines(text: string): string[] {
	let fenced = false;
	return text.split("\n").map(line => {
		if (/^\s*(```|~~~)/.test(line)) {
			fenced = !fenced;
			return "";
		}
		return fenced ? "" : line;
	});
}

/** Inline code removed, so `[x](y)` inside backticks is not a link. */
function withoutCodeSpans(line: string): string {
	return line.replace(/(`+)[^`]*?\1/g, "");
}

/** The anchor GitHub gives a heading (github-slugger): lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function anchors(text: string): Set<string> {
	const seen = new Map<string, number>();
	const out = new Set<string>();
	for (const line of proseLines(text)) {
		const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!m) continue;
		const base = m[1]
			.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
			.replace(/ /g, "-");
		const n = seen.get(base) ?? 0;
		seen.set(base, n + 1);
		out.add(n ? `${base}-${n}` : base);
	}
	return out;
}

export interface Link {
	line: number;
	target: string;
}

/** The targets of inline links and images, `[text](target)` and `![alt](target "title")`. */
export function links(text: string): Link[] {
	const out: Link[] = [];
	proseLines(text).forEach((raw, i) => {
		for (const m of withoutCodeSpans(raw).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ line: i + 1, target: m[1] });
	});
	return out;
}
