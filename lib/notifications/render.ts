/**
 * `{{name}}` templates. Variables in HTML parts are escaped; the subject is one
 * line (line breaks would let a variable add mail headers). Each channel uses the
 * parts it needs: EMAIL the subject and html or text, PUSH the subject (the title) and
 * text, SMS the text alone, so a template for SMS may have no subject. A template's variables
 * are checked when a notification is accepted, so a missing one is a clear 422
 * then rather than a broken email later.
 */
import type { TemplateParts, Variables } from "../delivery";

export type { TemplateParts, Variables } from "../delivery";

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/g;

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function lookup(vars: Variables, path: string): unknown {
	let cur: unknown = vars;
	for (const key of path.split(".")) {
		if (cur == null || typeof cur !== "object" || !Object.prototype.hasOwnProperty.call(cur, key)) return undefined;
		cur = (cur as Record<string, unknown>)[key];
	}
	return cur;
}

function text(value: unknown): string {
	if (typeof value === "string") return value;
	if (typeof value === "number" || typeof value === "boolean") return String(value);
	return JSON.stringify(value);
}

/**
 * Adds the variable names `part` uses to `names`. An exec loop on the one expression
 * rather than matchAll, which copies the expression for every part it scans (half
 * of this function's time on every accepted notification).
 */
function scanVariables(part: string, names: Set<string>): void {
	if (!part.includes("{{")) return;
	VARIABLE.lastIndex = 0;
	for (let m = VARIABLE.exec(part); m !== null; m = VARIABLE.exec(part)) names.add(m[1]!);
}

/** The variable names a template uses, in first-use order. */
export function variablesOf(t: TemplateParts): string[] {
	const names = new Set<string>();
	if (t.subject != null) scanVariables(t.subject, names);
	if (t.html != null) scanVariables(t.html, names);
	if (t.text != null) scanVariables(t.text, names);
	return [...names];
}

/** Names the template needs that `vars` lacks (null and undefined count as missing). */
export function missingVariables(t: TemplateParts, vars: Variables): string[] {
	return variablesOf(t).filter(name => lookup(vars, name) == null);
}

function fill(part: string, vars: Variables, escape: (s: string) => string): string {
	return part.replace(VARIABLE, (_m, name: string) => {
		const v = lookup(vars, name);
		return v == null ? "" : escape(text(v));
	});
}

export function render(t: TemplateParts, vars: Variables): TemplateParts {
	const out: TemplateParts = {};
	if (t.subject != null) out.subject = fill(t.subject, vars, s => s).replace(/[\r\n]+/g, " ").trim();
	if (t.html != null) out.html = fill(t.html, vars, s => s.replace(/[&<>"']/g, c => HTML_ESCAPES[c]));
	if (t.text != null) out.text = fill(t.text, vars, s => s);
	return out;
}
