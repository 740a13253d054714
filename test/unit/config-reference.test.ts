/**
 * The configuration reference (docs/configuration.md) and .env.example are written from
 * the one configuration schema (lib/config/variables.ts) by `npm run config:docs`; the
 * committed files must be exactly what the schema makes today, and what they promise
 * (defaults, examples, secrets) must be what loading does.
 */
import fs from "node:fs";
import path from "node:path";
import { loadConfig, validateEnv, VARIABLES, type Env, type VariableName } from "../../lib/config";
import { ENV_EXAMPLE_FILE, REFERENCE_FILE, drift, fieldHint, renderEnvExample, renderReference } from "../../lib/config/reference";
import type { Variable } from "../../lib/config/variables";
import { ROOT, anchors } from "../helpers/docs";

const committed = (file: string) => (fs.existsSync(path.join(ROOT, file)) ? fs.readFileSync(path.join(ROOT, file), "utf8") : undefined);
const variables = Object.entries(VARIABLES) as [VariableName, Variable][];
/** A fixed node id: the generated one is the only part of a configuration that differs between two loads. */
const load = (env: Env) => loadConfig({ NODE_ID: "reference-test", ...env });

describe("the generated configuration files", () => {
	it.each([
		[REFERENCE_FILE, renderReference],
		[ENV_EXAMPLE_FILE, renderEnvExample]
	])("should hold in %s exactly what the schema makes", (file, render) => {
		expect(drift(file, committed(file), render())).toBeNull();
	});

	it("should name the file, the first differing line and the command that fixes it when a committed file drifts", () => {
		const generated = renderReference();
		const edited = generated.replace("| `PORT` |", "| `PORT` (edited by hand) |");
		const line = generated.split("\n").findIndex(l => l.startsWith("| `PORT` |")) + 1;
		expect(drift(REFERENCE_FILE, edited, generated)).toBe(`docs/configuration.md differs from the schema at line ${line}: run \`npm run config:docs\` and commit the result`);
		expect(drift(ENV_EXAMPLE_FILE, undefined, renderEnvExample())).toBe(".env.example is missing: run `npm run config:docs` and commit the result");
	});

	it("should point each variable's hint at its section of the reference", () => {
		const sections = anchors(renderReference());
		for (const [name] of variables) {
			const target = /docs\/configuration\.md#([\w-]+)/.exec(fieldHint(name))?.[1];
			expect({ name, target, found: target !== undefined && sections.has(target) }).toEqual({ name, target, found: true });
		}
	});

	it("should list every variable once in each file, in a table row and as a line to uncomment", () => {
		const reference = renderReference();
		const example = renderEnvExample();
		for (const [name] of variables) {
			expect(reference.split(`\n| \`${name}\` |`).length - 1).toBe(1);
			expect(example.split(`\n#${name}=`).length - 1).toBe(1);
		}
	});
});

describe("the configuration schema", () => {
	it("should read every variable of the schema from the environment, and nothing else", () => {
		const read = new Set<string>();
		const env = new Proxy<Env>({}, { get: (_t, name) => (typeof name === "string" && read.add(name), undefined) });
		loadConfig(env);
		expect([...read].sort()).toEqual(variables.map(([name]) => name).sort());
	});

	it("should describe and group every variable, and give a secret no example", () => {
		for (const [name, v] of variables) {
			expect({ name, described: v.description.length > 10, format: v.format.length > 0 }).toEqual({ name, described: true, format: true });
			if (v.secret) expect({ name, example: v.example }).toEqual({ name, example: undefined });
		}
	});

	it("should apply each documented default: setting a variable to it changes nothing", () => {
		const unset = load({});
		const withDefaults = variables.filter(([, v]) => v.default !== undefined);
		expect(withDefaults.length).toBeGreaterThan(60);
		for (const [name, v] of withDefaults) expect({ name, config: load({ [name]: v.default }) }).toEqual({ name, config: unset });
	});

	it("should show, for a default that follows other variables, the value it takes when nothing is set", () => {
		const unset = load({});
		const derived = variables.filter(([, v]) => v.derivedDefault !== undefined);
		expect(derived.map(([name]) => name)).toEqual(expect.arrayContaining(["PUBLIC_URL", "SOCIAL_OAUTH2_REDIRECT_URI", "NOTIFICATION_MAIL_FROM_EMAIL"]));
		for (const [name, v] of derived) expect({ name, config: load({ [name]: v.example }) }).toEqual({ name, config: unset });
	});

	it("should give only examples the variable accepts", () => {
		for (const [name, v] of variables.filter(([, v]) => v.example !== undefined)) {
			expect({ name, problems: validateEnv({ [name]: v.example }).filter(p => p.variable === name) }).toEqual({ name, problems: [] });
		}
	});

	it("should never repeat a secret's value in a problem or its hint", () => {
		const marker = "Zq9SecretMarker";
		const bad: Env = Object.fromEntries(variables.filter(([, v]) => v.secret).map(([name]) => [name, `x${marker}:/@ ${marker}`]));
		const problems = validateEnv(bad);
		expect(problems.map(p => p.variable)).toEqual(expect.arrayContaining(["IDP_KEY_ENCRYPTION_KEY", "SMPP_URL", "MONGODB_URL", "PUSH_VAPID_PRIVATE_KEY"]));
		expect(problems.filter(p => `${p.problem} ${p.hint}`.includes(marker))).toEqual([]);
	});
});
