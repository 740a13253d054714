/**
 * The documentation's links lead somewhere: every relative link in README.md,
 * SECURITY.md and docs/*.md names a file of the repository and, when it has an anchor,
 * a heading of that page. README.md stays a front door, short enough to read through.
 */
import fs from "node:fs";
import path from "node:path";
import { ROOT, anchors, linkedFiles, links, type DocFile } from "../helpers/docs";

const README_MAX_LINES = 450;

/** Links that do not resolve, as `file:line target (why)`. */
function brokenLinks(files: DocFile[]): string[] {
	const texts = new Map(files.map(f => [f.file, f.text]));
	const broken: string[] = [];
	for (const { file, text } of files) {
		for (const { line, target } of links(text)) {
			if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and other absolute addresses
			const [rawPath, anchor] = target.split("#", 2);
			const resolved = rawPath ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(rawPath))) : file;
			const where = `${file}:${line} ${target}`;
			if (resolved.startsWith("..") || !(texts.has(resolved) || fs.existsSync(path.join(ROOT, resolved)))) {
				broken.push(`${where} (no such file)`);
				continue;
			}
			if (anchor === undefined || !resolved.endsWith(".md")) continue;
			const page = texts.get(resolved) ?? fs.readFileSync(path.join(ROOT, resolved), "utf8");
			if (!anchors(page).has(anchor)) broken.push(`${where} (no such heading)`);
		}
	}
	return broken;
}

describe("the documentation's links", () => {
	const files = linkedFiles();

	it("should read README.md, SECURITY.md and the docs pages, and find links in them", () => {
		expect(files.map(f => f.file)).toEqual(expect.arrayContaining(["README.md", "SECURITY.md", "docs/api.md", "docs/configuration.md"]));
		expect(files.flatMap(f => links(f.text)).length).toBeGreaterThan(50);
	});

	it("should lead every relative link to an existing file and heading", () => {
		expect(brokenLinks(files)).toEqual([]);
	});

	it("should report a link to a missing file, a missing heading and a missing anchor on the same page", () => {
		const page: DocFile = {
			file: "docs/example.md",
			text: "# Example\n\n## Real heading\n\n[a](api.md) [b](missing.md) [c](api.md#no-such-heading) [d](#real-heading) [e](#nowhere)\n\n```\n[f](ignored-in-code.md)\n```\n"
		};
		expect(brokenLinks([page])).toEqual([
			"docs/example.md:5 missing.md (no such file)",
			"docs/example.md:5 api.md#no-such-heading (no such heading)",
			"docs/example.md:5 #nowhere (no such heading)"
		]);
	});

	it("should name headings as GitHub does", () => {
		const page = "# T\n\n## Client SDK (`client/`)\n\n## Live delivery status (server-sent events)\n\n## Notes\n\n## Notes\n\n```\n## not a heading\n```\n";
		expect([...anchors(page)]).toEqual(["t", "client-sdk-client", "live-delivery-status-server-sent-events", "notes", "notes-1"]);
	});

	it(`should keep README.md under ${README_MAX_LINES} lines`, () => {
		const readme = files.find(f => f.file === "README.md");
		expect(readme?.text.split("\n").length).toBeLessThanOrEqual(README_MAX_LINES);
	});
});
