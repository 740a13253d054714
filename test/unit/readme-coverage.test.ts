/**
 * The README is the platform's manual: every variable the configuration reads and
 * every route the gateway serves has an entry there. Both lists are read from the code
 * (lib/config.ts is the one place that reads the environment; the gateway's routes are
 * services/api-gateway/routes.ts's table), so a new variable or route without a README
 * entry fails here.
 */
import fs from "node:fs";
import path from "node:path";
import { ROUTES } from "../../services/api-gateway/routes";

const ROOT = path.join(__dirname, "..", "..");
const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
/** Path parameters compare by place, not by name: `/notifications/{id}` documents `/notifications/:notificationId`. */
const anyParam = (text: string) => text.replace(/\{[^}\n]*\}/g, "{}");
const readmePaths = anyParam(readme);

/** Names config.ts reads: the second argument of its readers (str(env, "NAME"), int(env, "NAME", ...)). */
function configVariables(): string[] {
	const source = fs.readFileSync(path.join(ROOT, "lib", "config.ts"), "utf8");
	const names = new Set<string>();
	for (const m of source.matchAll(/\(\s*env\s*,\s*"([A-Z][A-Z0-9_]+)"/g)) names.add(m[1]);
	return [...names].sort();
}

/** A route as the README writes it: the method and the path with `{param}` for `:param`. */
function documentedForm(route: string, alias: string): { method: string; path: string } {
	const [method, rest] = alias.split(" ");
	const full = `/${route}/${rest}`.replace(/\/+/g, "/").replace(/(.)\/$/, "$1");
	return { method, path: full.replace(/:(\w+)/g, "{$1}") };
}

describe("the README", () => {
	const variables = configVariables();

	it("should find the variables config.ts reads (the reader pattern still matches)", () => {
		expect(variables.length).toBeGreaterThan(50);
		expect(variables).toEqual(expect.arrayContaining(["PORT", "DATA_DIR", "NATS_URL", "NOTIFICATIONS_USER_SEND"]));
	});

	it("should document every variable the configuration reads", () => {
		const missing = variables.filter(name => !readme.includes(`\`${name}\``));
		expect(missing).toEqual([]);
	});

	it("should document every route the gateway serves", () => {
		const routes = ROUTES.flatMap(r => Object.keys(r.aliases).map(alias => documentedForm(r.path, alias)));
		expect(routes.length).toBeGreaterThan(40);
		const missing = routes.filter(({ path: p }) => !readmePaths.includes(anyParam(p))).map(({ method, path: p }) => `${method} ${p}`);
		expect(missing).toEqual([]);
	});
});
