/**
 * The compiled path of Liquid rendering (issue 38): a part whose parsed templates use
 * only a common subset of Liquid is turned once into plain closures that write the same
 * text LiquidJS's renderer would, at a small fraction of the cost of its generators.
 * LiquidJS still parses every part, and renders every part outside the subset; it is
 * also the judge of every case the closures are not sure of: whenever one meets
 * something it does not reproduce exactly, it stops and the part is rendered by
 * LiquidJS from the start (a render has no side effects in the subset, so starting
 * again is safe). test/unit/liquid-compile.test.ts renders templates through both and
 * requires the same text.
 *
 * The subset, as LiquidJS parses it (under liquid.ts's options, checked here):
 * - text; `{% comment %}`, `{% # %}` and `{% raw %}`;
 * - outputs of an expression with no filter but the engine's outputEscape (which
 *   LiquidJS adds to every output) or with `| raw` alone;
 * - `if`/`elsif`/`else` and `unless`, conditions without filters;
 * - `for x in <operand>` with an optional `else`, without limit, offset or reversed,
 *   and `forloop.index`, `index0`, `rindex`, `rindex0`, `first`, `last` and `length`;
 * - expressions of operands joined by ==, !=, <, >, <=, >=, contains, and, or and not,
 *   each operand a variable path (dots, `[0]`, `["key"]`, `[other.path]`), a string, a
 *   number, true, false or nil.
 *
 * Reproduced as LiquidJS 10.30 does them (the source, and the tests, say so):
 * - lookup with ownPropertyOnly: a variable is read from the variables when `name in`
 *   them (own or inherited) and only if it is an own property, else from the engine's
 *   globals; `size`, `first` and `last` of arrays, strings and objects; a negative
 *   `[index]` counts from the end;
 * - truth: only false, nil and undefined are false (not 0, "" or []);
 * - `for` over an array, a non-empty string (one item), an object (its [key, value]
 *   pairs), anything else (no item: the else branch);
 * - comparisons with JavaScript's operators, arrays equal element by element, nil
 *   equal to null and undefined and never greater or smaller;
 * - a step (what liquid.ts's drive() counts) for each text piece, output and tag
 *   rendered, and the same error past the limit: the render is handed to LiquidJS,
 *   which stops at the same step; the render time limit; an output past `maxChars` is
 *   handed to LiquidJS too (liquid.ts refuses it after LiquidJS ends).
 *
 * What LiquidJS does with values JSON cannot hold (functions, which it calls; drops;
 * objects with toLiquid, next or equals methods; class instances such as Date; objects
 * with Symbol.iterator) the closures do not try: meeting one hands the render over.
 */
import {
	AssertionError,
	CommentTag,
	defaultOperators,
	ForTag,
	IfTag,
	InlineCommentTag,
	isFalsy,
	isTruthy,
	Output,
	RawTag,
	RenderError,
	TypeGuards,
	UnlessTag,
	version,
	type Liquid,
	type Template,
	type Token
} from "liquidjs";

/** What a compiled part renders with: the state of one render. */
interface State {
	/** A copy of the variables, as liquid.ts gives LiquidJS's Context. */
	readonly env: Record<string, unknown>;
	readonly globals: object;
	out: string;
	steps: number;
	readonly stepLimit: number;
	readonly maxChars: number;
	readonly deadline: number;
	/** Per enclosing for loop (by depth): the item, its index (from 0), the number of items. */
	readonly item: unknown[];
	readonly index: number[];
	readonly length: number[];
}

type Node = (s: State) => void;
type Expr = (s: State) => unknown;

/** Thrown inside a compiled render to hand the render to LiquidJS; not an Error, so no stack is taken. */
const HANDOFF = Object.freeze({ handoff: true });

export interface CompiledPart {
	readonly nodes: Node[];
	/** Nested for loops at most. */
	readonly depth: number;
	readonly globals: object;
	readonly renderLimitMs: number;
}

const hasOwn = Object.prototype.hasOwnProperty;
const objectToString = Object.prototype.toString;
/** LiquidJS's isArray. */
const isArray = (v: unknown): v is unknown[] => objectToString.call(v) === "[object Array]";

/**
 * A value read while rendering, as the closures take it: an object must be a plain
 * object or array (as JSON makes them) without the methods LiquidJS would call (toLiquid
 * when reading from it; next, as an iterator, when it yields it; equals, as a
 * comparable); a function LiquidJS would call. Anything else hands the render over.
 */
function checked(v: unknown): unknown {
	if (typeof v === "object") {
		if (v !== null) {
			const proto: unknown = Object.getPrototypeOf(v);
			if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) throw HANDOFF;
			const o = v as Record<string, unknown>;
			if (typeof o.toLiquid === "function" || typeof o.next === "function" || typeof o.equals === "function") throw HANDOFF;
		}
	} else if (typeof v === "function") throw HANDOFF;
	return v;
}

/** LiquidJS's readArrayElement with ownPropertyOnly. */
function element(arr: unknown[], index: number): unknown {
	if (index < 0) index = arr.length + index;
	return hasOwn.call(arr, index) ? arr[index] : undefined;
}

/** LiquidJS's readSize. */
function readSize(obj: unknown): unknown {
	const o = obj as Record<string, unknown>;
	if (hasOwn.call(obj, "size") || o.size !== undefined) return o.size;
	if (isArray(obj) || typeof obj === "string") return (obj as { length: number }).length;
	if (typeof obj === "object") return Object.keys(obj as object).length;
	return undefined;
}

/**
 * LiquidJS's Context#readProperty with ownPropertyOnly, for an `obj` that checked()
 * passed (or the variables' copy, or the globals): not a drop, no toLiquid.
 */
function readProperty(obj: unknown, key: unknown): unknown {
	if (obj == null) return obj;
	if (typeof key === "number" && isArray(obj)) return element(obj, key);
	const value = hasOwn.call(obj, key as PropertyKey) ? (obj as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined;
	if (typeof value === "function") throw HANDOFF;
	if (key === "size") return readSize(obj);
	if (key === "first") return isArray(obj) ? element(obj, 0) : value;
	if (key === "last") return isArray(obj) ? element(obj, -1) : value;
	return value;
}

/** Liquid's truth (jsTruthy off), with LiquidJS's nil drop as null. */
function truthy(v: unknown, nil: unknown): boolean {
	return !(v === false || v === undefined || v === null || v === nil);
}

/** LiquidJS's stringify (what `| raw` writes). */
function stringify(v: unknown, nil: unknown): string {
	if (typeof v === "string") return v;
	if (v == null || v === nil) return "";
	if (isArray(v)) {
		let s = "";
		for (const x of v) s += stringify(checked(x), nil);
		return s;
	}
	return String(v);
}

/** The render time limit, as LiquidJS reports it: with the position of the tag being rendered, if any. */
function timeLimit(parent: Template | undefined): Error {
	const err = new AssertionError("template render limit exceeded");
	return parent ? new RenderError(err, parent) : err;
}

/** One step (see drive() in liquid.ts): past the limit the render goes to LiquidJS, which stops at the same step. */
function step(s: State, parent: Template | undefined): void {
	if (++s.steps > s.stepLimit) throw HANDOFF;
	if ((s.steps & 255) === 0 && performance.now() > s.deadline) throw timeLimit(parent);
}

function write(s: State, text: string): void {
	s.out += text;
	if (s.out.length > s.maxChars) throw HANDOFF;
}

function run(nodes: Node[], s: State): void {
	for (let i = 0; i < nodes.length; i++) nodes[i]!(s);
}

const FORLOOP: Record<string, (i: number, n: number) => unknown> = {
	index: i => i + 1,
	index0: i => i,
	rindex: (i, n) => n - i,
	rindex0: (i, n) => n - i - 1,
	first: i => i === 0,
	last: (i, n) => i === n - 1,
	length: (_i, n) => n
};

/** Names a for loop's variable may not have in the subset (the loop's own scope keys, or what would break its lookups). */
const RESERVED_LOOP_NAMES = new Set(["forloop", "continue", "toLiquid", "__proto__"]);

interface Loop {
	variable: string;
	depth: number;
}

class Unsupported extends Error {}

/**
 * The LiquidJS versions whose renderer this file was written against (and read: the
 * lookups, truth, loops and comparisons above are its code). Another version renders
 * every part with LiquidJS until the differential test passes against it and it is
 * added here.
 */
const CHECKED_VERSIONS = /^10\.30\./;

/** Compiles parsed templates, or throws Unsupported. */
class Compiler {
	readonly escape: (value: unknown) => string;
	readonly rawHandler: unknown;
	readonly html: object;
	readonly nil: unknown;
	depth = 0;

	constructor(readonly liquid: Liquid) {
		const o = liquid.options as unknown as Record<string, unknown>;
		const ok =
			CHECKED_VERSIONS.test(version) &&
			o.ownPropertyOnly === true &&
			!o.jsTruthy &&
			!o.strictVariables &&
			!o.lenientIf &&
			!o.keepOutputType &&
			!o.catchAllErrors &&
			o.operators === defaultOperators &&
			typeof o.outputEscape === "function" &&
			typeof o.globals === "object" &&
			o.globals !== null;
		if (!ok) throw new Unsupported("engine options");
		this.escape = o.outputEscape as (value: unknown) => string;
		this.rawHandler = (liquid.filters as Record<string, { handler?: unknown } | undefined>).raw?.handler;
		// What LiquidJS's parser makes of text, and its nil, learnt from a parse.
		const [text, out] = liquid.parse("x{{ nil }}");
		this.html = Object.getPrototypeOf(text) as object;
		this.nil = ((out as Output).value.initial.postfix[0] as unknown as { content: unknown }).content;
	}

	list(templates: Template[], loops: Loop[], parent: Template | undefined): Node[] {
		const nodes: Node[] = [];
		for (const t of templates) {
			const node = this.node(t, loops, parent);
			if (node) nodes.push(node);
		}
		return nodes;
	}

	/** A template's closure; undefined for a comment, which renders nothing and is no step. */
	node(t: Template, loops: Loop[], parent: Template | undefined): Node | undefined {
		const proto = Object.getPrototypeOf(t) as object;
		if (proto === this.html) {
			const str = (t as unknown as { str: string }).str;
			if (typeof str !== "string") throw new Unsupported("text");
			return s => {
				step(s, parent);
				write(s, str);
			};
		}
		if (proto === Output.prototype) return this.output(t as Output, loops, parent);
		if (proto === IfTag.prototype || proto === UnlessTag.prototype) return this.conditional(t as IfTag | UnlessTag, loops, parent);
		if (proto === ForTag.prototype) return this.loop(t as ForTag, loops, parent);
		// Comment tags render nothing, and the raw tag its text, from plain (not generator) render methods, which drive() does not count.
		if (proto === CommentTag.prototype || proto === InlineCommentTag.prototype) return undefined;
		if (proto === RawTag.prototype) {
			const text = (t as unknown as { render(): string }).render();
			return text ? s => write(s, text) : undefined;
		}
		throw new Unsupported("template");
	}

	output(t: Output, loops: Loop[], parent: Template | undefined): Node {
		const value = this.expression(t.value.initial.postfix, loops);
		const filters = t.value.filters as unknown as { name: string; raw: boolean; handler: unknown }[];
		if (filters.length !== 1) throw new Unsupported("filters");
		const f = filters[0]!;
		const nil = this.nil;
		if (f.handler === this.escape && !f.raw) {
			const escape = this.escape;
			return s => {
				step(s, parent);
				write(s, escape(value(s)));
			};
		}
		if (f.name === "raw" && f.raw && f.handler === this.rawHandler) {
			return s => {
				step(s, parent);
				write(s, stringify(value(s), nil));
			};
		}
		throw new Unsupported("filter");
	}

	conditional(t: IfTag | UnlessTag, loops: Loop[], parent: Template | undefined): Node {
		const nil = this.nil;
		const branches = t.branches.map(b => {
			if (b.value.filters.length) throw new Unsupported("filters");
			const test = (b as { test?: unknown }).test;
			if (test !== undefined && test !== isTruthy && test !== isFalsy) throw new Unsupported("test");
			return { negate: test === isFalsy, value: this.expression(b.value.initial.postfix, loops), nodes: this.list(b.templates, loops, t) };
		});
		const otherwise = this.list(t.elseTemplates ?? [], loops, t);
		return s => {
			step(s, parent);
			for (const b of branches) {
				if (truthy(b.value(s), nil) !== b.negate) {
					run(b.nodes, s);
					return;
				}
			}
			run(otherwise, s);
		};
	}

	loop(t: ForTag, loops: Loop[], parent: Template | undefined): Node {
		if (Object.keys(t.hash.hash).length) throw new Unsupported("for modifiers");
		const variable = t.variable;
		if (RESERVED_LOOP_NAMES.has(variable)) throw new Unsupported("loop variable");
		const collection = this.operand(t.collection, loops);
		const d = loops.length;
		this.depth = Math.max(this.depth, d + 1);
		const body = this.list(t.templates, [...loops, { variable, depth: d }], t);
		const otherwise = this.list(t.elseTemplates, loops, t);
		const nil = this.nil;
		return s => {
			step(s, parent);
			const items = enumerable(collection(s), nil);
			const n = items.length;
			if (n === 0) {
				run(otherwise, s);
				return;
			}
			s.length[d] = n;
			let i = 0;
			for (const item of items) {
				s.item[d] = item;
				s.index[d] = i++;
				run(body, s);
			}
		};
	}

	/** An expression in postfix order (LiquidJS's Expression), as a closure; only a well-formed one. */
	expression(postfix: readonly Token[], loops: Loop[]): Expr {
		const stack: Expr[] = [];
		const nil = this.nil;
		for (const token of postfix) {
			if (!TypeGuards.isOperatorToken(token)) {
				stack.push(this.operand(token, loops));
				continue;
			}
			const op = token.operator;
			const r = stack.pop();
			if (!r) throw new Unsupported("expression");
			if (op === "not") {
				stack.push(s => !truthy(r(s), nil));
				continue;
			}
			const l = stack.pop();
			if (!l) throw new Unsupported("expression");
			stack.push(binary(op, l, r, nil));
		}
		if (stack.length !== 1) throw new Unsupported("expression");
		return stack[0]!;
	}

	/** A value: a variable path or a constant. */
	operand(token: Token, loops: Loop[]): Expr {
		if (TypeGuards.isPropertyAccessToken(token)) return this.path(token.variable, token.props, loops);
		if (TypeGuards.isQuotedToken(token) || TypeGuards.isNumberToken(token)) {
			const c = token.content;
			return () => c;
		}
		if (TypeGuards.isLiteralToken(token)) {
			const c = token.content as unknown;
			if (c !== true && c !== false && c !== this.nil) throw new Unsupported("literal");
			return () => c;
		}
		throw new Unsupported("operand");
	}

	path(variable: unknown, props: readonly Token[], loops: Loop[]): Expr {
		if (variable !== undefined || !props.length) throw new Unsupported("path");
		const first = props[0]!;
		if (!TypeGuards.isWordToken(first)) throw new Unsupported("path root");
		const name = first.content;
		const keys = props.slice(1).map(p => this.key(p, loops));
		// The scopes LiquidJS looks the name up in: the for loops' (innermost first: `forloop`, the variable), then the variables, then the globals.
		for (let i = loops.length - 1; i >= 0; i--) {
			const loop = loops[i]!;
			if (name === "forloop") {
				const prop = props[1];
				const get = props.length === 2 && TypeGuards.isWordToken(prop) && hasOwn.call(FORLOOP, prop.content) ? FORLOOP[prop.content]! : undefined;
				if (!get) throw new Unsupported("forloop");
				const d = loop.depth;
				return s => get(s.index[d]!, s.length[d]!);
			}
			if (name === loop.variable) {
				const d = loop.depth;
				return follow(s => checked(s.item[d]), keys);
			}
		}
		return follow(s => {
			const scope = name in s.env ? s.env : s.globals;
			return checked(readProperty(scope, name));
		}, keys);
	}

	/** A property after the first: a name, a string or number in brackets, or a path in brackets. */
	key(token: Token, loops: Loop[]): string | number | Expr {
		if (TypeGuards.isWordToken(token) || TypeGuards.isQuotedToken(token)) return token.content;
		if (TypeGuards.isNumberToken(token)) return token.content;
		if (TypeGuards.isPropertyAccessToken(token)) return this.path(token.variable, token.props, loops);
		throw new Unsupported("property");
	}
}

/** A path's lookups after its root, each value checked. */
function follow(root: Expr, keys: (string | number | Expr)[]): Expr {
	if (keys.length === 0) return root;
	if (keys.length === 1 && typeof keys[0] !== "function") {
		const k = keys[0]!;
		return s => checked(readProperty(root(s), k));
	}
	return s => {
		let v = root(s);
		for (const k of keys) v = checked(readProperty(v, typeof k === "function" ? k(s) : k));
		return v;
	};
}

/** LiquidJS's toEnumerable (what a for loop iterates). */
function enumerable(v: unknown, nil: unknown): unknown[] {
	if (isArray(v)) return v;
	if (typeof v === "string") return v.length > 0 ? [v] : [];
	if (typeof v === "object" && v !== null && v !== nil) {
		if (Symbol.iterator in v) throw HANDOFF;
		const o = v as Record<string, unknown>;
		return Object.keys(o).map(k => [k, o[k]]);
	}
	return [];
}

/** LiquidJS's equals for values checked() passed, and its nil. */
function equals(l: unknown, r: unknown, nil: unknown): boolean {
	if (l === nil) return r == null || r === nil;
	if (r === nil) return l == null;
	if (isArray(l)) {
		if (!isArray(r) || l.length !== r.length) return false;
		for (let i = 0; i < l.length; i++) if (!equals(checked(l[i]), checked(r[i]), nil)) return false;
		return true;
	}
	return l === r;
}

function binary(op: string, l: Expr, r: Expr, nil: unknown): Expr {
	type Cmp = (a: any, b: any) => boolean; // eslint-disable-line @typescript-eslint/no-explicit-any
	const compare = (f: Cmp): Expr => s => {
		const a = l(s);
		const b = r(s);
		return a === nil || b === nil ? false : f(a, b);
	};
	switch (op) {
		case "==":
			return s => equals(l(s), r(s), nil);
		case "!=":
			return s => !equals(l(s), r(s), nil);
		case ">":
			return compare((a, b) => a > b);
		case "<":
			return compare((a, b) => a < b);
		case ">=":
			return compare((a, b) => a >= b);
		case "<=":
			return compare((a, b) => a <= b);
		case "contains":
			return s => {
				let a = l(s);
				const b = r(s);
				if (a === nil) a = null;
				if (isArray(a)) {
					for (const x of a) if (equals(checked(x), b, nil)) return true;
					return false;
				}
				const indexOf = (a as { indexOf?: unknown } | null | undefined)?.indexOf;
				if (typeof indexOf === "function") return (indexOf as (x: unknown) => number).call(a, b === nil ? null : b) > -1;
				return false;
			};
		case "and":
			return s => {
				const a = l(s);
				const b = r(s);
				return truthy(a, nil) && truthy(b, nil);
			};
		case "or":
			return s => {
				const a = l(s);
				const b = r(s);
				return truthy(a, nil) || truthy(b, nil);
			};
		default:
			throw new Unsupported("operator");
	}
}

const compilers = new WeakMap<Liquid, Compiler | null>();

/** The part compiled, or null when it uses anything outside the subset (LiquidJS renders it). */
export function compileLiquid(liquid: Liquid, templates: Template[], renderLimitMs: number): CompiledPart | null {
	// Anything the compiler does not expect (Unsupported, or a parse shape another LiquidJS version makes) leaves the part to LiquidJS.
	let compiler = compilers.get(liquid);
	if (compiler === undefined) {
		try {
			compiler = new Compiler(liquid);
		} catch {
			compiler = null;
		}
		compilers.set(liquid, compiler);
	}
	if (!compiler) return null;
	try {
		compiler.depth = 0;
		const nodes = compiler.list(templates, [], undefined);
		return { nodes, depth: compiler.depth, globals: liquid.options.globals as object, renderLimitMs };
	} catch {
		return null;
	}
}

/**
 * Renders a compiled part: the text, or undefined when the render is LiquidJS's to do
 * (a limit passed, a value outside what the closures take). Throws the render time
 * limit's error as LiquidJS does.
 */
export function renderCompiled(part: CompiledPart, vars: Record<string, unknown>, stepLimit: number, maxChars: number): string | undefined {
	const env = { ...vars };
	// LiquidJS calls a toLiquid method of the variables before reading one.
	if (typeof env.toLiquid === "function") return undefined;
	const s: State = {
		env,
		globals: part.globals,
		out: "",
		steps: 0,
		stepLimit,
		maxChars,
		deadline: performance.now() + part.renderLimitMs,
		item: new Array<unknown>(part.depth),
		index: new Array<number>(part.depth).fill(0),
		length: new Array<number>(part.depth).fill(0)
	};
	try {
		run(part.nodes, s);
	} catch (err) {
		if (err instanceof RenderError || err instanceof AssertionError) throw err;
		// HANDOFF, or anything unforeseen (a stack overflow on deeply nested arrays): LiquidJS decides.
		return undefined;
	}
	return s.out;
}
