/**
 * The console and the example app serve the SDK's modules by fixed lists (no directory
 * is served as such): a module the SDK's entry imports but a list leaves out makes the
 * page's script fail to load. Both lists must name every module the SDK's sources import.
 */
import fs from "node:fs";
import path from "node:path";
import { CLIENT_MODULES } from "../../services/api-gateway/console";

const root = path.resolve(__dirname, "../..");
const src = path.join(root, "client/src");

/** The modules the SDK's sources import at run time (`import type` leaves nothing behind). */
function importedModules(): Set<string> {
	const names = new Set<string>();
	for (const file of fs.readdirSync(src).filter(f => f.endsWith(".ts"))) {
		const text = fs.readFileSync(path.join(src, file), "utf8");
		for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"\.\/([\w-]+)\.js"/gms)) names.add(m[1]);
	}
	return names;
}

describe("the SDK's modules where pages load them", () => {
	const imported = importedModules();

	it("should find the modules the SDK's entry imports", () => {
		expect(imported.has("request")).toBe(true);
	});

	it("should serve every imported SDK module in the console", () => {
		expect([...imported].filter(m => !CLIENT_MODULES.includes(m))).toEqual([]);
	});

	it("should serve every imported SDK module in the example app", () => {
		const serve = fs.readFileSync(path.join(root, "examples/web/serve.mjs"), "utf8");
		const listed = /\.\.\.\[([^\]]*)\]\.map\(m => \[`\/client\//.exec(serve);
		expect(listed).not.toBeNull();
		const names = listed![1].split(",").map(s => s.trim().replace(/"/g, ""));
		expect([...imported].filter(m => !names.includes(m))).toEqual([]);
	});
});
