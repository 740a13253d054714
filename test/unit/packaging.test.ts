/**
 * The Dockerfile, .dockerignore and LICENSE (no Docker engine runs here, so the rules
 * are read from the files): the image installs under the allowScripts policy, ships
 * exactly one Node, the one package.json pins, and checks its own health.
 */
import fs from "node:fs";
import path from "node:path";

const ROOT = path.join(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const pkg = JSON.parse(read("package.json"));

/** The Dockerfile's instructions, continuation lines joined, comments left out. */
function instructions(text: string): string[] {
	return text
		.replace(/\\\n/g, " ")
		.split("\n")
		.map(l => l.trim())
		.filter(l => l && !l.startsWith("#"));
}

/** Each stage's instructions, from its FROM on. */
function stages(text: string): string[][] {
	const out: string[][] = [];
	for (const line of instructions(text)) {
		if (/^FROM /i.test(line)) out.push([]);
		out.at(-1)?.push(line);
	}
	return out;
}

describe("Dockerfile", () => {
	const all = stages(read("Dockerfile"));
	const final = all.at(-1)!;

	it("should install with npm ci under the strict allowScripts policy, every time it installs packages", () => {
		const installs = all.flat().filter(l => /\bnpm (ci|install|i)\b/.test(l) && !/npm install --global [^&]*\bnpm@/.test(l));
		expect(installs.length).toBeGreaterThan(0);
		for (const line of installs) {
			expect(line).toContain("--strict-allow-scripts");
			expect(line).not.toMatch(/--ignore-scripts|--dangerously-allow-all-scripts/);
		}
		// The one install script approved: the `node` package's, which brings the pinned Node.
		expect(pkg.allowScripts.node).toBe(true);
	});

	it("should base the final stage on an image without Node and run the pinned package's binary", () => {
		const base = final[0]!.split(/\s+/)[1]!;
		expect(base).not.toMatch(/node/i);
		expect(final).toContain("COPY --from=build /app/node_modules ./node_modules");
		expect(final.find(l => l.startsWith("ENV "))).toMatch(/PATH=\/app\/node_modules\/\.bin:\$PATH/);
		expect(final.at(-1)).toBe('CMD ["node", "dist/index.js"]');
	});

	it("should fail the build unless the image's one Node binary is the pinned one", () => {
		const check = final.find(l => l.startsWith("RUN ") && l.includes("find / -xdev -type f -name node"));
		expect(check).toContain('= /app/node_modules/node/bin/node');
		expect(check).toContain("require(\"./package.json\").dependencies.node");
		expect(pkg.dependencies.node).toMatch(/^\d+\.\d+\.\d+$/);
	});

	it("should check its health with node's fetch through the compiled health check, not curl", () => {
		const health = final.filter(l => l.startsWith("HEALTHCHECK "));
		expect(health).toHaveLength(1);
		expect(health[0]).toMatch(/ CMD \["node", "\/app\/dist\/lib\/healthcheck\.js"\]$/);
		expect(health[0]).not.toMatch(/curl|wget/);
		expect(fs.existsSync(path.join(ROOT, "lib", "healthcheck.ts"))).toBe(true);
	});

	it("should run as an unprivileged user", () => {
		expect(final.filter(l => l.startsWith("USER "))).toEqual(["USER node"]);
	});
});

describe(".dockerignore", () => {
	it("should keep the local install, builds and data out of the image's sources", () => {
		const lines = read(".dockerignore").split("\n").map(l => l.trim());
		expect(lines).toEqual(expect.arrayContaining(["**/node_modules", "**/dist", "data"]));
	});
});

describe("LICENSE", () => {
	it("should be the MIT licence package.json names, held by the project's contributors", () => {
		const text = read("LICENSE");
		expect(pkg.license).toBe("MIT");
		expect(text.split("\n")[0]).toBe("MIT License");
		expect(text).toMatch(/^Copyright \(c\) \d{4} auth-notify contributors$/m);
		expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
	});

	it("should ship with the client SDK package, word for word", () => {
		expect(read("client/LICENSE")).toBe(read("LICENSE"));
		expect(JSON.parse(read("client/package.json")).files).toContain("LICENSE");
	});
});
