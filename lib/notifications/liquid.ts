/**
 * The template engine: LiquidJS, sandboxed. Templates come from callers, so nothing in
 * one may reach past the variables it is given or run unbounded:
 * - no file system: the include, render and layout tags (and block, layout's partner)
 *   are refused when the template is parsed, and the in-memory `templates` map is empty;
 * - own properties only, so `{{ x.constructor }}` or `{{ x.__proto__.y }}` read nothing
 *   a variable does not itself hold;
 * - unknown filters are a parse error rather than silently skipped;
 * - limits: template size (parseLimit), time per render (renderLimit), the number of
 *   tags, outputs and text pieces one render may produce (templateLimit: every loop
 *   iteration counts), memory for strings and arrays made while rendering
 *   (memoryLimit), and the size of each rendered part.
 * Dates are formatted in UTC unless the `date` filter names a time zone
 * (`{{ at | date: "%H:%M", "Europe/Berlin" }}`, any IANA name).
 */
import { Liquid, Output, Tag, type TagToken, type Template } from "liquidjs";
import { BoundedCache } from "../cache";
import { sha256 } from "../crypto";

/** The largest template part accepted (the create action's `max` too). */
export const MAX_PART_CHARS = 512 * 1024;
/** The most one render of one part may take; its event loop is blocked meanwhile. */
export const RENDER_LIMIT_MS = 100;
/** Tags, outputs and text pieces one render may produce (every loop iteration counts). */
export const RENDER_STEP_LIMIT = 100_000;
/** Bytes of strings and arrays one render may allocate (ranges, appends, joins...). */
export const RENDER_MEMORY_LIMIT = 16 * 1024 * 1024;
/** The largest rendered part. */
export const MAX_OUTPUT_CHARS = 1024 * 1024;

/** A template that cannot be parsed or rendered, with where. */
export class TemplateError extends Error {
	constructor(
		message: string,
		readonly line?: number,
		readonly column?: number
	) {
		super(message);
	}
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(s: string): string {
	return s.replace(/[&<>"']/g, c => HTML_ESCAPES[c]!);
}

/** A value as text: objects and arrays as JSON, as `{{name}}` templates always wrote them. */
export function asText(value: unknown): string {
	if (value == null) return "";
	if (typeof value === "string") return value;
	if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
	if (value instanceof Date) return value.toISOString();
	return JSON.stringify(value) ?? "";
}

/** Tags that would read templates from somewhere else: refused when parsed. */
const FILE_TAGS = ["include", "render", "layout", "block"] as const;

function engine(escape: (value: unknown) => string): Liquid {
	const liquid = new Liquid({
		ownPropertyOnly: true,
		strictFilters: true,
		strictVariables: false,
		templates: {},
		relativeReference: false,
		dynamicPartials: false,
		timezoneOffset: 0,
		parseLimit: MAX_PART_CHARS,
		renderLimit: RENDER_LIMIT_MS,
		memoryLimit: RENDER_MEMORY_LIMIT,
		outputEscape: escape
	});
	for (const name of FILE_TAGS) {
		liquid.registerTag(
			name,
			class extends Tag {
				constructor(token: TagToken, remain: unknown, l: Liquid) {
					super(token, remain as never, l);
					throw new Error(`the ${name} tag is not available: templates cannot read other templates or files`);
				}
				*render(): Generator<unknown, void, unknown> {}
			}
		);
	}
	return liquid;
}

/** HTML parts escape every output (`| raw` opts out); subjects and text parts write values as they are. */
const html = engine(v => escapeHtml(asText(v)));
const plain = engine(asText);

export type PartKind = "html" | "plain";

const engineFor = (kind: PartKind) => (kind === "html" ? html : plain);

type Parsed =
	| {
			templates: Template[];
			/** Variable paths the part needs given: see requiredPaths. */
			required: string[];
	  }
	| { error: TemplateError };

/**
 * Parsed parts by kind and text: a stored template is parsed once per node, not per
 * send, and a part that does not parse is refused again without parsing it again.
 * Parsed parts keep their text, so only parts up to CACHED_PART_CHARS are kept
 * (at most PARSED_MAX × that in memory); failures are kept whatever their size, under
 * the text's hash.
 */
const PARSED_MAX = 500;
const CACHED_PART_CHARS = 64 * 1024;
const parsed = new BoundedCache<string, Parsed>(PARSED_MAX);

function positionOf(err: unknown): { line?: number; column?: number } {
	const token = (err as { token?: { getPosition?: () => [number, number] } }).token;
	const pos = token?.getPosition?.();
	return pos ? { line: pos[0], column: pos[1] } : {};
}

/** Liquid's message ends with ", line:3, col:1"; the position is given apart. */
function messageOf(err: unknown): string {
	const message = err instanceof Error ? err.message : String(err);
	return message.replace(/, line:\d+, col:\d+$/, "");
}

function toTemplateError(err: unknown): TemplateError {
	if (err instanceof TemplateError) return err;
	const { line, column } = positionOf(err);
	return new TemplateError(messageOf(err), line, column);
}

/**
 * What a send cannot do without: the variables of outputs at the top level (outside
 * any if, unless, case or for, so a condition can test for what may be absent) that
 * have no `default` filter and were not assigned by the template itself.
 */
function requiredPaths(liquid: Liquid, templates: Template[]): string[] {
	const locals = new Set(Object.keys(liquid.analyzeSync(templates, { partials: false }).locals));
	const names = new Set<string>();
	for (const t of templates) {
		if (!(t instanceof Output) || t.value.filters.some(f => f.name === "default")) continue;
		for (const segments of liquid.globalVariableSegmentsSync([t], { partials: false })) {
			const path: string[] = [];
			for (const s of segments) {
				if (typeof s !== "string" && typeof s !== "number") break;
				path.push(String(s));
			}
			if (path.length && !locals.has(path[0]!)) names.add(path.join("."));
		}
	}
	return [...names];
}

/** Parses a part (cached), or throws TemplateError with the line. */
function parse(part: string, kind: PartKind): { templates: Template[]; required: string[] } {
	if (part.length > MAX_PART_CHARS) throw new TemplateError(`The template is longer than ${MAX_PART_CHARS} characters.`);
	const key = part.length > 1024 ? `${kind}#${sha256(part)}` : `${kind}=${part}`;
	let result = parsed.get(key);
	if (!result) {
		const liquid = engineFor(kind);
		try {
			const templates = liquid.parse(part);
			result = { templates, required: requiredPaths(liquid, templates) };
		} catch (err) {
			result = { error: toTemplateError(err) };
		}
		if ("error" in result || part.length <= CACHED_PART_CHARS) parsed.set(key, result, Number.POSITIVE_INFINITY);
	}
	if ("error" in result) throw result.error;
	return result;
}

/** Throws TemplateError (with the line) when the part is not a valid template. */
export function checkLiquid(part: string, kind: PartKind): void {
	parse(part, kind);
}

/** The variable paths a Liquid part needs (see requiredPaths). */
export function liquidVariables(part: string, kind: PartKind): string[] {
	return parse(part, kind).required;
}

/** Renders a part within the limits, or throws TemplateError with the line. */
export function renderLiquid(part: string, kind: PartKind, vars: Record<string, unknown>): string {
	const { templates } = parse(part, kind);
	let out: unknown;
	try {
		out = engineFor(kind).renderSync(templates, vars, { templateLimit: RENDER_STEP_LIMIT });
	} catch (err) {
		throw toTemplateError(err);
	}
	const text = asText(out);
	if (text.length > MAX_OUTPUT_CHARS) throw new TemplateError(`The rendered template is longer than ${MAX_OUTPUT_CHARS} characters.`);
	return text;
}
