/**
 * The README and the pages under docs/ are the platform's manual: every variable the
 * configuration reads and every route the gateway serves has an entry in one of them,
 * and every benchmark and benchmark variable one in docs/benchmarks.md. The lists are
 * read from the code (the configuration schema, lib/config/variables.ts, is the list of
 * variables, and nothing else reads the environment; the gateway's routes are
 * services/api-gateway/routes.ts's table; bench/run.ts lists the benchmarks), so a new
 * variable, route or benchmark without an entry fails here.
 */
import fs from "node:fs";
import path from "node:path";
import { VARIABLES } from "../../lib/config";
import { ROUTES } from "../../services/api-gateway/routes";
import { ROOT, manualFiles } from "../helpers/docs";

const manual = manualFiles()
	.map(f => f.text)
	.join("\n");
/** Path parameters compare by place, not by name: `/notifications/{id}` documents `/notifications/:notificationId`. */
const anyParam = (text: string) => text.replace(/\{[^}\n]*\}/g, "{}");
const manualPaths = anyParam(manual);

/** A route as the manual writes it: the method and the path with `{param}` for `:param`. */
function documentedForm(route: string, alias: string): { method: string; path: string } {
	const [method, rest] = alias.split(" ");
	const full = `/${route}/${rest}`.replace(/\/+/g, "/").replace(/(.)\/$/, "$1");
	return { method, path: full.replace(/:(\w+)/g, "{$1}") };
}

function undocumentedRoutes(text: string): string[] {
	const documented = anyParam(text);
	return ROUTES.flatMap(r => Object.keys(r.aliases).map(alias => documentedForm(r.path, alias)))
		.filter(({ path: p }) => !documented.includes(anyParam(p)))
		.map(({ method, path: p }) => `${method} ${p}`);
}

describe("the manual (README.md and docs/*.md)", () => {
	const variables = Object.keys(VARIABLES);

	it("should find every variable in the configuration schema", () => {
		expect(variables.length).toBeGreaterThan(100);
		expect(variables).toEqual(expect.arrayContaining(["PORT", "PUBLIC_URL", "DATA_DIR", "NATS_URL", "NOTIFICATIONS_USER_SEND", "SMPP_URL"]));
	});

	it("should document every variable of the configuration schema", () => {
		const missing = variables.filter(name => !manual.includes(`\`${name}\``));
		expect(missing).toEqual([]);
	});

	it("should document every route the gateway serves", () => {
		const routes = ROUTES.flatMap(r => Object.keys(r.aliases));
		expect(routes.length).toBeGreaterThan(40);
		expect(undocumentedRoutes(manual)).toEqual([]);
	});

	it("should name a route missing from the manual when one is", () => {
		const events = documentedForm("notifications", "GET :notificationId/events").path;
		expect(manualPaths).toContain(anyParam(events));
		expect(undocumentedRoutes(manualPaths.split(anyParam(events)).join(""))).toContain(`GET ${events}`);
	});
});

/** The BENCH_* variables the benchmarks read (through envInt, envIntQuick, envParts or process.env). */
function benchVariables(): string[] {
	const dirs = ["bench", "bench/peers", "harness"];
	const names = new Set<string>();
	for (const dir of dirs) {
		for (const file of fs.readdirSync(path.join(ROOT, dir)).filter(f => f.endsWith(".ts"))) {
			const source = fs.readFileSync(path.join(ROOT, dir, file), "utf8");
			for (const m of source.matchAll(/(?:envInt\w*|envParts)\(\s*"(BENCH_\w+)"|process\.env\.(BENCH_\w+)(?:\?\.| ===)/g)) names.add(m[1] ?? m[2]);
		}
	}
	return [...names].sort();
}

describe("the benchmarks page (docs/benchmarks.md)", () => {
	const page = fs.readFileSync(path.join(ROOT, "docs", "benchmarks.md"), "utf8");

	it("should describe every benchmark bench/run.ts knows, and the profile tool", () => {
		const run = fs.readFileSync(path.join(ROOT, "bench", "run.ts"), "utf8");
		const benches = [...run.matchAll(/^\t\tname: "(\w+)"/gm)].map(m => m[1]);
		expect(benches).toEqual(expect.arrayContaining(["gateway", "compare", "soak"]));
		const missing = [...benches, "profile"].filter(name => !new RegExp(`^### ${name}$`, "m").test(page));
		expect(missing).toEqual([]);
	});

	it("should document every variable the benchmarks read", () => {
		const variables = benchVariables();
		expect(variables).toEqual(expect.arrayContaining(["BENCH_QUICK", "BENCH_ROUNDS", "BENCH_CPU_PROF_DIR", "BENCH_NATS_URL"]));
		expect(variables.filter(name => !page.includes(`\`${name}\``))).toEqual([]);
	});
});
