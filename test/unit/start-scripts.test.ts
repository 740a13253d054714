/**
 * `npm start` serves in seconds on an unchanged checkout: `npm install` compiles once
 * (prepare), and every start only brings the build up to date with `tsc -b`, which
 * compiles what changed and nothing when nothing did (bench/start.ts measures it).
 * These are the rules that keep it so, read from package.json and the tsconfig files.
 */
import fs from "node:fs";
import path from "node:path";
import { PLATFORM_NODE_ARGS, PLATFORM_PROCESS_ENV } from "../../harness/processes";

const ROOT = path.join(__dirname, "../..");
const json = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), "utf8"));
const { scripts } = json("package.json") as { scripts: Record<string, string> };

/** The projects after `tsc -b`, as their tsconfig files. */
function projectsOf(script: string): string[] {
	const m = /^tsc -b ((?:[\w./-]+ ?)+)$/.exec(script);
	if (!m) throw new Error(`not a tsc -b build: ${script}`);
	return m[1]!.trim().split(" ").map(p => (p.endsWith(".json") ? p : `${p}/tsconfig.json`));
}

/** The effective compiler options (one level of extends is all the project uses). */
function optionsOf(project: string): Record<string, any> {
	const config = json(project);
	const base = config.extends ? optionsOf(path.join(path.dirname(project), config.extends)) : {};
	return { ...base, ...config.compilerOptions };
}

const FRONT_ENDS = ["client/tsconfig.json", "examples/web/tsconfig.json", "console/tsconfig.json"];

describe("the start scripts", () => {
	it("should compile at install and only bring the build up to date at each start", () => {
		expect(scripts.prepare).toBe("npm run build:app --silent -- --force");
		expect(scripts.prestart).toBe("npm run build:app --silent");
		// Runs the compiled build as it is, with the memory settings of docs/benchmarks.md (issue 39).
		const env = Object.entries(PLATFORM_PROCESS_ENV).map(([k, v]) => `${k}=${v}`);
		expect(scripts.start).toBe([...env, "exec node", ...PLATFORM_NODE_ARGS, "dist/index.js"].join(" "));
		// The image starts it the same way.
		expect(fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8")).toContain(`\nENV NODE_OPTIONS="${PLATFORM_NODE_ARGS.join(" ")}" ${env.join(" ")}\n`);
		expect(projectsOf(scripts["build:app"]!)).toEqual(["tsconfig.app.json", ...FRONT_ENDS]);
	});

	it("should type-check everything, tests included, in npm run build and npm test", () => {
		expect(projectsOf(scripts.build!)).toEqual(["tsconfig.json", ...FRONT_ENDS]);
		expect(scripts.test).toMatch(/^npm run build --silent && jest/);
		expect(json("tsconfig.json").include).toEqual(expect.arrayContaining(["harness", "bench", "test"]));
	});

	it("should build for start the platform alone, with the same compiler options as the full build", () => {
		const app = json("tsconfig.app.json");
		expect(app.extends).toBe("./tsconfig.json");
		const full = json("tsconfig.json").include as string[];
		expect(app.include).toEqual(full.filter(dir => !["harness", "bench", "test"].includes(dir)));
		expect(Object.keys(app.compilerOptions).sort()).toEqual(["tsBuildInfoFile", "types"]);
	});

	// tsc -b trusts a project's build info: outputs deleted while it stays are not rebuilt.
	it.each(["tsconfig.json", "tsconfig.app.json", ...FRONT_ENDS])("should build %s incrementally, with its build info inside its output folder", project => {
		const options = optionsOf(project);
		expect(options.incremental === true || options.composite === true).toBe(true);
		const dir = path.dirname(project);
		const info = path.join(dir, options.tsBuildInfoFile);
		expect(path.relative(path.join(dir, options.outDir), info)).not.toMatch(/^\.\./);
	});

	it("should give the full build and the start build each their own build info", () => {
		expect(optionsOf("tsconfig.json").tsBuildInfoFile).not.toBe(optionsOf("tsconfig.app.json").tsBuildInfoFile);
	});

	it("should re-check the example app when the SDK's declarations change (a project reference)", () => {
		expect(json("examples/web/tsconfig.json").references).toEqual([{ path: "../../client" }]);
		expect(optionsOf("client/tsconfig.json").composite).toBe(true);
	});
});
