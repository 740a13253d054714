/**
 * The template engine: LiquidJS, sandboxed. Templates come from callers, so nothing in
 * one may reach past the variables it is given or run unbounded:
 * - no file system: the include, render and layout tags (and block, layout's partner)
 *   are refused when the template is parsed, and the in-memory `templates` map is empty;
 * - own properties only, so `{{ x.constructor }}` or `{{ x.__proto__.y }}` read nothing
 *   a variable does not itself hold;
 * - unknown filters are a parse error rather than silently skipped;
 * - limits: template size (parseLimit), time per render (renderLimit), the number of
 *   tags, outputs and text pieces one render may produce (RENDER_STEP_LIMIT, counted
 *   by drive() below: LiquidJS 10.30 declares a templateLimit option but does not
 *   enforce it), memory for strings and arrays made while rendering (memoryLimit),
 *   and the size of each rendered part.
 * Dates are formatted in UTC unless the `date` filter names a time zone
 * (`{{ at | date: "%H:%M", "Europe/Berlin" }}`, any IANA name).
 *
 * Rendering has two ways (issue 38's throughput goal). LiquidJS parses every part; a
 * part that uses only text, outputs without filters (or `| raw`), if/elsif/else,
 * unless and plain `for` loops is compiled once (liquid-compile.ts) into closures that
 * write the text LiquidJS would, within the same step, time and size limits, several
 * times faster than LiquidJS's render generators. Every other part, and every render
 * the closures are not sure of (a limit reached, a value JSON cannot hold), is rendered
 * by LiquidJS through drive(). test/unit/liquid-compile.test.ts renders both ways and
 * requires the same text.
 */
import { Context, Liquid, Output, Tag, toValueSync, type TagToken, type Template } from "liquidjs";
import { BoundedCache } from "../cache";
import { sha256 } from "../crypto";
import { compileLiquid, renderCompiled, type CompiledPart } from "./liquid-compile";

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
		// Named, so LiquidJS does not ask Intl for the host's default: that made the
		// process's first Intl.DateTimeFormat, which keeps 5 MB of ICU data resident.
		locale: "en-US",
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

interface ParsedPart {
	templates: Template[];
	/** Variable paths the part needs given: see requiredPaths. */
	required: string[];
	/** The part compiled (liquid-compile.ts) on its first render; null when it is not in the compiled subset. */
	compiled?: CompiledPart | null;
}

type Parsed = ParsedPart | { error: TemplateError };

/**
 * Parsed parts by text and kind: a stored template is parsed once per node, not per
 * send, and a part that does not parse is refused again without parsing it again.
 * Parsed parts keep their text, so only parts up to CACHED_PART_CHARS are kept
 * (at most PARSED_MAX × that in memory), under the text itself: a lookup hashes the
 * part's string once (V8 keeps a string's hash), where a key built per call (a prefix
 * plus the text, or a digest of it) cost a copy or a SHA-256 of the part on every
 * accept and every send. Failures of longer parts are kept under the text's hash.
 */
const PARSED_MAX = 500;
const CACHED_PART_CHARS = 64 * 1024;
const parsed = new BoundedCache<string, Partial<Record<PartKind, Parsed>>>(PARSED_MAX);
const longFailures = new BoundedCache<string, TemplateError>(PARSED_MAX);

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

/** Parses a part, or throws TemplateError with the line. */
function parseUncached(part: string, kind: PartKind): Parsed {
	const liquid = engineFor(kind);
	try {
		const templates = liquid.parse(part);
		return { templates, required: requiredPaths(liquid, templates) };
	} catch (err) {
		return { error: toTemplateError(err) };
	}
}

/** Parses a part (cached), or throws TemplateError with the line. */
function parse(part: string, kind: PartKind): ParsedPart {
	if (part.length > MAX_PART_CHARS) throw new TemplateError(`The template is longer than ${MAX_PART_CHARS} characters.`);
	let result: Parsed | undefined;
	if (part.length <= CACHED_PART_CHARS) {
		let kinds = parsed.get(part);
		result = kinds?.[kind];
		if (!result) {
			result = parseUncached(part, kind);
			if (!kinds) parsed.set(part, (kinds = {}), Number.POSITIVE_INFINITY);
			kinds[kind] = result;
		}
	} else {
		const key = `${kind}#${sha256(part)}`;
		const failure = longFailures.get(key);
		if (failure) throw failure;
		result = parseUncached(part, kind);
		if ("error" in result) longFailures.set(key, result.error, Number.POSITIVE_INFINITY);
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

/** The prototype every generator object inherits (Object.getPrototypeOf(function* () {}).prototype). */
const GENERATOR = Object.getPrototypeOf(function* () {}).prototype as object;
/** The prototype of the generators Render#renderTemplates makes: what each one yields is one tag, output or text piece. */
const RENDER_TEMPLATES = (Object.getPrototypeOf(plain.renderer) as { renderTemplates: { prototype: object } }).renderTemplates.prototype;

/** LiquidJS's test for a nested render step (isIterator), for what is not a generator. */
function isIterator(v: object): v is Iterator<unknown> {
	const it = v as Partial<Record<"next" | "throw" | "return", unknown>>;
	return typeof it.next === "function" && typeof it.throw === "function" && typeof it.return === "function";
}

/**
 * Runs a render to its end: what LiquidJS's toValueSync does (each yielded generator
 * is run and its result, or its error, handed back to the one that yielded it), with
 * an explicit stack rather than recursion and a prototype test rather than four
 * property reads per step, which makes a render about a quarter cheaper. It also counts the tags, outputs and text
 * pieces rendered (each a generator yielded by renderTemplates) and, past
 * `stepLimit`, throws into the step that would exceed it, so the error carries
 * that template's line as LiquidJS's own limits do.
 */
function drive(root: Iterator<unknown>, stepLimit: number): unknown {
	const stack: Iterator<unknown>[] = [root];
	let gen = root;
	let value: unknown;
	let threw = false;
	let steps = 0;
	for (;;) {
		let state: IteratorResult<unknown>;
		try {
			state = threw ? gen.throw!(value) : gen.next(value);
		} catch (err) {
			stack.pop();
			if (stack.length === 0) throw err;
			gen = stack[stack.length - 1]!;
			threw = true;
			value = err;
			continue;
		}
		threw = false;
		value = state.value;
		if (state.done) {
			stack.pop();
			if (stack.length === 0) return value;
			gen = stack[stack.length - 1]!;
			continue;
		}
		if (typeof value !== "object" || value === null) continue;
		if (GENERATOR.isPrototypeOf(value)) {
			if (Object.getPrototypeOf(gen) === RENDER_TEMPLATES && ++steps > stepLimit) {
				threw = true;
				value = new Error(`template limit exceeded: more than ${stepLimit} tags, outputs and text pieces`);
				continue;
			}
			stack.push(value as Iterator<unknown>);
			gen = value as Iterator<unknown>;
			value = undefined;
		} else if (isIterator(value)) {
			try {
				value = toValueSync(value);
			} catch (err) {
				threw = true;
				value = err;
			}
		}
	}
}

/** The per-render options: a synchronous render, the rest from the engine's options (the sandbox above). */
const SYNC = Object.freeze({ sync: true });

/** The part's compiled closures, made on its first render and kept with its parse; null when LiquidJS renders it. */
function compiledOf(p: ParsedPart, kind: PartKind): CompiledPart | null {
	if (p.compiled === undefined) p.compiled = compileLiquid(engineFor(kind), p.templates, RENDER_LIMIT_MS);
	return p.compiled;
}

/** The compiled render: the text, or undefined when LiquidJS is to render the part (see renderCompiled). */
function renderCompiledPart(compiled: CompiledPart, vars: Record<string, unknown>, stepLimit: number): string | undefined {
	try {
		return renderCompiled(compiled, vars, stepLimit, MAX_OUTPUT_CHARS);
	} catch (err) {
		throw toTemplateError(err);
	}
}

/** LiquidJS's render of a parsed part, driven by drive() within the limits. */
function renderLiquidJs(templates: Template[], kind: PartKind, vars: Record<string, unknown>, stepLimit: number): string {
	const liquid = engineFor(kind);
	let out: unknown;
	try {
		// A copy: increment and decrement write to the variables they are given, which
		// would carry a counter from the html part into the text part, and into the
		// notification's own variables.
		out = drive(liquid.renderer.renderTemplates(templates, new Context({ ...vars }, liquid.options, SYNC, { liquid })), stepLimit);
	} catch (err) {
		throw toTemplateError(err);
	}
	const text = asText(out);
	if (text.length > MAX_OUTPUT_CHARS) throw new TemplateError(`The rendered template is longer than ${MAX_OUTPUT_CHARS} characters.`);
	return text;
}

/** Renders a part within the limits (`stepLimit`: tags, outputs and text pieces), or throws TemplateError with the line. */
export function renderLiquid(part: string, kind: PartKind, vars: Record<string, unknown>, stepLimit = RENDER_STEP_LIMIT): string {
	const p = parse(part, kind);
	const compiled = compiledOf(p, kind);
	if (compiled) {
		const text = renderCompiledPart(compiled, vars, stepLimit);
		if (text !== undefined) return text;
	}
	return renderLiquidJs(p.templates, kind, vars, stepLimit);
}

/** Which way renderLiquid renders a part: "compiled" when it is in the compiled subset (a render may still go to LiquidJS). */
export function liquidWay(part: string, kind: PartKind): "compiled" | "liquidjs" {
	return compiledOf(parse(part, kind), kind) ? "compiled" : "liquidjs";
}

/**
 * One way only, for the tests that compare them: "liquidjs" renders with LiquidJS
 * whatever the part; "compiled" answers undefined when the part is not in the subset
 * or the compiled render hands it to LiquidJS.
 */
export function renderLiquidVia(way: "compiled" | "liquidjs", part: string, kind: PartKind, vars: Record<string, unknown>, stepLimit = RENDER_STEP_LIMIT): string | undefined {
	const p = parse(part, kind);
	if (way === "liquidjs") return renderLiquidJs(p.templates, kind, vars, stepLimit);
	const compiled = compiledOf(p, kind);
	return compiled ? renderCompiledPart(compiled, vars, stepLimit) : undefined;
}
