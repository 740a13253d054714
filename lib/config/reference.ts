/**
 * The configuration reference (docs/configuration.md) and .env.example, written from
 * the schema. Pure: `npm run config:docs` writes what these return, and
 * test/unit/config-reference.test.ts compares them with the committed files.
 */
import { RULES } from "./rules";
import { GROUPS, VARIABLES, type Group, type Variable, type VariableName } from "./variables";

export const REFERENCE_FILE = "docs/configuration.md";
export const ENV_EXAMPLE_FILE = ".env.example";
export const REGENERATE = "npm run config:docs";

const SCHEMA_FILE = "lib/config/variables.ts and rules.ts";

/** Markdown as plain text: code spans and emphasis reduced to their words, a link to its words and the page (links are relative to docs/). */
export function plain(markdown: string): string {
	return markdown
		.replace(/\[([^\]]*)\]\(([^)]*)\)/g, "$1 (docs/$2)")
		.replace(/`([^`]*)`/g, "$1")
		.replace(/\*\*([^*]*)\*\*/g, "$1");
}

/** The reference's anchor of a group's section (GitHub's heading slug). */
export function anchor(group: Group): string {
	return group.toLowerCase().replace(/[^a-z0-9 -]/g, "").replace(/ /g, "-");
}

/** How to fix a variable's own problem: what it takes, and what unsetting it gives. */
export function fieldHint(name: VariableName): string {
	const v: Variable = VARIABLES[name];
	const fallback = v.default ?? (v.derivedDefault && plain(v.derivedDefault));
	const unset = fallback ? `, or unset it for the default (${fallback})` : ", or unset it";
	return `Set ${name} to ${plain(v.format)}${unset}; see docs/configuration.md#${anchor(v.group)}.`;
}

function byGroup(): [Group, [VariableName, Variable][]][] {
	return (Object.keys(GROUPS) as Group[]).map(group => [
		group,
		(Object.entries(VARIABLES) as [VariableName, Variable][]).filter(([, v]) => v.group === group)
	]);
}

/** The Default column: the value, what it follows, or what unset means. */
function defaultText(v: Variable): string {
	if (v.default !== undefined) return `\`${v.default}\``;
	return v.derivedDefault ?? v.whenUnset ?? "unset";
}

const cell = (markdown: string) => markdown.replace(/\|/g, "\\|");

export function renderReference(): string {
	const out = [
		"# Configuration",
		"",
		`<!-- Generated from ${SCHEMA_FILE} by \`${REGENERATE}\`: edit the schema, not this page. -->`,
		"",
		"The platform reads these environment variables once, at start; none is needed to run one",
		"process on one machine. An invalid value stops the start with exit code 78 and one line per",
		"problem, naming the variable and saying how to fix it; the value of a variable marked",
		`**secret** never appears in a message. [\`.env.example\`](../${ENV_EXAMPLE_FILE}) lists every variable with its`,
		"default, ready to copy.",
		""
	];
	for (const [group] of byGroup()) out.push(`- [${group}](#${anchor(group)})`);
	out.push("- [Rules between variables](#rules-between-variables)", "");
	for (const [group, variables] of byGroup()) {
		out.push(`## ${group}`, "", GROUPS[group], "", "| Variable | Meaning | Default | Allowed values |", "|---|---|---|---|");
		for (const [name, v] of variables) {
			const meaning = `${v.secret ? "**Secret.** " : ""}${v.description}`;
			out.push(`| \`${name}\` | ${cell(meaning)} | ${cell(defaultText(v))} | ${cell(v.format)} |`);
		}
		out.push("");
	}
	out.push("## Rules between variables", "", "Checked after each variable's own value; a start stops on any that fails.", "");
	for (const rule of RULES) out.push(`- ${rule.text}`);
	out.push("");
	return out.join("\n");
}

/** Plain text as `# ` comment lines of at most about 90 characters. */
function comment(text: string): string[] {
	const lines: string[] = [];
	let line = "#";
	for (const word of text.split(/\s+/).filter(Boolean)) {
		if (line.length > 1 && line.length + 1 + word.length > 90) {
			lines.push(line);
			line = "#";
		}
		line += ` ${word}`;
	}
	if (line.length > 1) lines.push(line);
	return lines;
}

export function renderEnvExample(): string {
	const out = [
		...comment(
			`auth-notify: every environment variable the platform reads, with its default. Generated from ${SCHEMA_FILE} by \`${REGENERATE}\`; ${REFERENCE_FILE} says more about each.`
		),
		"#",
		...comment(
			"None is needed to start. Copy this file to .env, uncomment and set what you need, and start with `node --env-file=.env dist/index.js` (Docker: `docker run --env-file .env`). Secrets are left empty here: set them in .env or your secret store, never in a committed file."
		),
		""
	];
	for (const [group, variables] of byGroup()) {
		out.push(`# ==== ${group}`, ...comment(plain(GROUPS[group])), "");
		for (const [name, v] of variables) {
			const value = v.default ?? (v.secret ? "" : (v.example ?? ""));
			out.push(
				...comment(`${v.secret ? "Secret. " : ""}${plain(v.description)}`),
				...comment(`Allowed: ${plain(v.format)}. Default: ${plain(defaultText(v))}.`),
				`#${name}=${value}`,
				""
			);
		}
	}
	return `${out.join("\n").trimEnd()}\n`;
}

/** Why a committed file is not what the schema makes, or null when it is. */
export function drift(file: string, committed: string | undefined, generated: string): string | null {
	if (committed === generated) return null;
	const fix = `run \`${REGENERATE}\` and commit the result`;
	if (committed === undefined) return `${file} is missing: ${fix}`;
	const [have, want] = [committed.split("\n"), generated.split("\n")];
	const first = have.findIndex((line, i) => line !== want[i]);
	return `${file} differs from the schema at line ${(first < 0 ? have.length : first) + 1}: ${fix}`;
}
