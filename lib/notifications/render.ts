/**
 * Rendering a template's parts. Templates are Liquid (liquid.ts: conditions, loops,
 * filters, sandboxed and bounded); a part whose only Liquid is `{{ path }}` holes, as
 * every template was before Liquid, is filled directly: the same text Liquid writes,
 * at a fraction of the cost on the accept and send paths. Variables in HTML parts are
 * escaped; the subject is one line (line breaks would let a variable add mail headers).
 * Each channel uses the parts it needs: EMAIL the subject and html or text, PUSH the
 * subject (the title) and text, SMS the text alone, IN_APP the subject (the title,
 * optional) and text. A template's variables are checked when a notification is
 * accepted, so a missing one is a clear 422 then rather than a broken email later.
 */
import type { TemplateParts, Variables } from "../delivery";
import { ClientError } from "../errors";
import { asText, checkLiquid, escapeHtml, liquidVariables, renderLiquid, TemplateError, type PartKind } from "./liquid";

export type { TemplateParts, Variables } from "../delivery";
export { TemplateError } from "./liquid";

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/g;

type PartName = keyof TemplateParts;

const PARTS: readonly [PartName, PartKind][] = [
	["subject", "plain"],
	["html", "html"],
	["text", "plain"]
];

function lookup(vars: Variables, path: string): unknown {
	let cur: unknown = vars;
	for (const key of path.split(".")) {
		if (cur == null || typeof cur !== "object" || !Object.prototype.hasOwnProperty.call(cur, key)) return undefined;
		cur = (cur as Record<string, unknown>)[key];
	}
	return cur;
}

/** True when the part's only Liquid is `{{ path }}` holes (or none at all). */
function holesOnly(part: string): boolean {
	if (!part.includes("{")) return true;
	if (part.includes("{%")) return false;
	return !part.replace(VARIABLE, "").includes("{{");
}

/**
 * Adds the variable names `part` needs to `names`. An exec loop on the one expression
 * rather than matchAll, which copies the expression for every part it scans (half
 * of this function's time on every accepted notification).
 */
function scanVariables(part: string, kind: PartKind, names: Set<string>): void {
	if (!part.includes("{{")) return;
	if (!holesOnly(part)) {
		for (const name of liquidVariables(part, kind)) names.add(name);
		return;
	}
	VARIABLE.lastIndex = 0;
	for (let m = VARIABLE.exec(part); m !== null; m = VARIABLE.exec(part)) names.add(m[1]!);
}

/**
 * The variable names a template needs, in first-use order: those of outputs outside
 * any condition or loop that have no `default` filter. A part that is not a valid
 * template adds none (checkTemplate refuses it).
 */
export function variablesOf(t: TemplateParts): string[] {
	const names = new Set<string>();
	for (const [name, kind] of PARTS) {
		const part = t[name];
		if (part == null) continue;
		try {
			scanVariables(part, kind, names);
		} catch (err) {
			if (!(err instanceof TemplateError)) throw err;
		}
	}
	return [...names];
}

/** Names the template needs that `vars` lacks (null and undefined count as missing). */
export function missingVariables(t: TemplateParts, vars: Variables): string[] {
	return variablesOf(t).filter(name => lookup(vars, name) == null);
}

/** 422 TEMPLATE_RENDER_ERROR naming the part (under `field`) and the line. */
export function templateProblem(err: TemplateError, part: string, field = part): ClientError {
	const where = err.line != null ? `${part}, line ${err.line}${err.column != null ? `, column ${err.column}` : ""}` : part;
	const message = `${where}: ${err.message}`;
	return new ClientError(422, "TEMPLATE_RENDER_ERROR", `The template cannot be rendered: ${message}.`, {
		errors: [{ field, message: err.message, ...(err.line != null ? { line: err.line } : {}), ...(err.column != null ? { column: err.column } : {}) }]
	});
}

/** Throws 422 TEMPLATE_RENDER_ERROR (with the line) unless every part is a valid template; `prefix` names the parts' field. */
export function checkTemplate(t: TemplateParts, prefix = ""): void {
	for (const [name, kind] of PARTS) {
		const part = t[name];
		if (part == null || holesOnly(part)) continue;
		try {
			checkLiquid(part, kind);
		} catch (err) {
			if (err instanceof TemplateError) throw templateProblem(err, name, `${prefix}${name}`);
			throw err;
		}
	}
}

function fill(part: string, vars: Variables, kind: PartKind): string {
	return part.replace(VARIABLE, (_m, name: string) => {
		const v = lookup(vars, name);
		if (v == null) return "";
		return kind === "html" ? escapeHtml(asText(v)) : asText(v);
	});
}

/** A part that failed to render: which one, and TemplateError's message and line. */
export class PartRenderError extends TemplateError {
	constructor(
		readonly part: PartName,
		err: TemplateError
	) {
		super(err.message, err.line, err.column);
	}
}

function renderPart(name: PartName, part: string, kind: PartKind, vars: Variables): string {
	if (holesOnly(part)) return fill(part, vars, kind);
	try {
		return renderLiquid(part, kind, vars);
	} catch (err) {
		if (err instanceof TemplateError) throw new PartRenderError(name, err);
		throw err;
	}
}

/** The parts rendered, or PartRenderError when one cannot be (a syntax error, a limit). */
export function render(t: TemplateParts, vars: Variables): TemplateParts {
	const out: TemplateParts = {};
	if (t.subject != null) out.subject = renderPart("subject", t.subject, "plain", vars).replace(/[\r\n]+/g, " ").trim();
	if (t.html != null) out.html = renderPart("html", t.html, "html", vars);
	if (t.text != null) out.text = renderPart("text", t.text, "plain", vars);
	return out;
}
