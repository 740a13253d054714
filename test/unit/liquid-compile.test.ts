/**
 * The compiled way of rendering Liquid (lib/notifications/liquid-compile.ts) against
 * LiquidJS: the same templates and variables rendered both ways must give the same
 * text, within the same step limit; templates outside the subset, and values JSON
 * cannot hold, must go to LiquidJS.
 */
import { Liquid, type Template } from "liquidjs";
import { asText, escapeHtml, liquidWay, MAX_OUTPUT_CHARS, renderLiquid, renderLiquidVia, TemplateError, type PartKind } from "../../lib/notifications/liquid";
import { compileLiquid, renderCompiled } from "../../lib/notifications/liquid-compile";
import { LIQUID_TEMPLATE, LIQUID_VARIABLES } from "../../bench/workload";

type Vars = Record<string, unknown>;

/** LiquidJS itself, with liquid.ts's sandbox options and escaping, rendering synchronously: a third opinion. */
const reference: Record<PartKind, Liquid> = {
	plain: new Liquid({ ownPropertyOnly: true, strictFilters: true, strictVariables: false, timezoneOffset: 0, outputEscape: asText }),
	html: new Liquid({ ownPropertyOnly: true, strictFilters: true, strictVariables: false, timezoneOffset: 0, outputEscape: (v: unknown) => escapeHtml(asText(v)) })
};

/** Variables as a notification's are: JSON, parsed (so "__proto__" is an own key). */
const json = (text: string): Vars => JSON.parse(text) as Vars;

const KINDS: PartKind[] = ["plain", "html"];

/** A render's text, or its error's message. */
function outcome(render: () => string | undefined): string | undefined | { error: string } {
	try {
		return render();
	} catch (err) {
		return { error: (err as Error).message };
	}
}

/**
 * Both ways of one render, as the differential tests require them: when LiquidJS
 * renders, the compiled way renders the same text; when LiquidJS fails, the compiled
 * way hands over (or fails the same way), so renderLiquid fails as LiquidJS does.
 */
function compare(template: string, kind: PartKind, vars: Vars, stepLimit?: number): { liquidjs: ReturnType<typeof outcome>; compiled: ReturnType<typeof outcome> } {
	const liquidjs = outcome(() => renderLiquidVia("liquidjs", template, kind, vars, stepLimit));
	const compiled = outcome(() => renderLiquidVia("compiled", template, kind, vars, stepLimit));
	const ways = outcome(() => renderLiquid(template, kind, vars, stepLimit));
	const context = { template, kind, vars, stepLimit };
	if (typeof liquidjs === "string") expect({ ...context, compiled }).toEqual({ ...context, compiled: liquidjs });
	else if (compiled !== undefined) expect({ ...context, compiled }).toEqual({ ...context, compiled: liquidjs });
	expect({ ...context, renderLiquid: ways }).toEqual({ ...context, renderLiquid: liquidjs });
	return { liquidjs, compiled };
}

/** Renders both ways (and with LiquidJS's own renderSync) and requires the same text, the compiled way not handing over. */
function expectSame(template: string, vars: Vars, kind: PartKind): string {
	const liquidjs = renderLiquidVia("liquidjs", template, kind, vars);
	const compiled = renderLiquidVia("compiled", template, kind, vars);
	const ref = reference[kind].parseAndRenderSync(template, vars) as string;
	expect({ template, kind, vars, text: compiled }).toEqual({ template, kind, vars, text: liquidjs });
	expect(ref).toBe(liquidjs);
	return compiled!;
}

describe("the compiled way renders what LiquidJS does", () => {
	const people = json(
		JSON.stringify({
			name: "Ada <Lovelace> & \"Co\" 'x'",
			n: 3,
			zero: 0,
			neg: -1.5,
			t: true,
			f: false,
			nothing: null,
			empty_s: "",
			s: "hello",
			tags: ["a", "<b>", 7, null, true, [1, 2]],
			none: [],
			items: [
				{ title: "Tea & cups", price: 4, tags: ["hot"], size: 2, first: "F" },
				{ title: "Jam", price: 12, tags: [] },
				{ title: null, price: "12", on: false }
			],
			user: { name: "U", city: "Oslo", address: { street: "Main", no: 5 }, list: [{ k: 1 }, { k: 2 }], size: null },
			o: { a: 1, b: [2, 3], c: { d: "e" } },
			key: "city",
			idx: 1
		})
	);
	const protoish = json('{"a":{"__proto__":{"polluted":1},"constructor":"own"},"b":{},"__proto__":{"x":"y"},"constructor":"c","list":[{"__proto__":1}]}');

	const templates: [string, string][] = [
		["the benchmark html part", LIQUID_TEMPLATE.html!],
		["the benchmark text part", LIQUID_TEMPLATE.text!],
		["outputs of every kind of value", "[{{ name }}][{{ n }}][{{ zero }}][{{ neg }}][{{ t }}][{{ f }}][{{ nothing }}][{{ empty_s }}][{{ tags }}][{{ none }}][{{ items }}][{{ user }}][{{ missing }}][{{ missing.deep.er }}]"],
		["constants", "[{{ 'q<' }}][{{ \"d\" }}][{{ 1 }}][{{ -2.50 }}][{{ true }}][{{ false }}][{{ nil }}][{{ null }}]"],
		["paths", "{{ user.city }} {{ user.address.street }} {{ user.address.no }} {{ user.list[1].k }} {{ user[key] }} {{ tags[idx] }} {{ tags[-1] }} {{ tags[-7] }} {{ tags[9] }} {{ o['c'].d }} {{ o.b.1 }} {{ tags.0 }}"],
		["size, first and last", "{{ tags.size }} {{ none.size }} {{ s.size }} {{ s.length }} {{ s[0] }} {{ o.size }} {{ user.size }} {{ items.first.title }} {{ items.last.price }} {{ none.first }} {{ s.first }} {{ n.size }} {{ size }} {{ first }} {{ items[0].first }} {{ items[0].size }}"],
		["| raw", "{{ name | raw }}|{{ tags | raw }}|{{ user | raw }}|{{ nothing | raw }}|{{ nil | raw }}|{{ missing | raw }}|{{ n | raw }}|{{ t | raw }}"],
		["truth", "{% if zero %}0{% endif %}{% if empty_s %}e{% endif %}{% if none %}[]{% endif %}{% if f %}F{% else %}!F{% endif %}{% if nothing %}N{% endif %}{% if missing %}M{% endif %}{% if nil %}nil{% endif %}{% if user.address %}A{% endif %}"],
		["elsif, else and unless", "{% if n == 1 %}one{% elsif n == 3 %}three{% elsif n %}some{% else %}none{% endif %}{% unless t %}u1{% endunless %}{% unless f %}u2{% else %}u3{% endunless %}{% unless f %}{% elsif t %}x{% endunless %}"],
		[
			"comparisons",
			"{{ n == 3 }}{{ n != 3 }}{{ n > 2 }}{{ n < 2 }}{{ n >= 3 }}{{ n <= 2.9 }}{{ s == 'hello' }}{{ nothing == nil }}{{ missing == nil }}{{ nil == missing }}{{ zero == nil }}{{ n > nil }}{{ nil < n }}{{ none == none }}{{ tags == tags }}{{ items[1].price > items[2].price }}{{ items[2].price > 5 }}{{ s > 'a' }}{{ t == true }}{{ f != false }}"
		],
		["contains", "{{ s contains 'ell' }}{{ s contains 'x' }}{{ tags contains 7 }}{{ tags contains '7' }}{{ tags contains nil }}{{ none contains 1 }}{{ user contains 'city' }}{{ n contains 3 }}{{ s contains nil }}{{ 'nullable' contains nil }}{{ s contains missing }}"],
		["and, or, not", "{% if t and n > 2 or f %}1{% endif %}{% if f or nothing %}2{% endif %}{% if not f %}3{% endif %}{% if not t and f %}4{% endif %}{{ t and f }}{{ f or n }}{{ not nothing }}"],
		["for over arrays, strings, objects and nothing", "{% for x in tags %}({{ x }}){% endfor %}|{% for x in s %}({{ x }}){% endfor %}|{% for p in o %}({{ p }}:{{ p.first }}={{ p.last }},{{ p[1] }}){% endfor %}|{% for x in n %}x{% else %}no n{% endfor %}|{% for x in empty_s %}x{% else %}no s{% endfor %}|{% for x in missing %}x{% else %}no m{% endfor %}|{% for x in none %}x{% else %}none{% endfor %}"],
		["forloop", "{% for it in items %}{{ forloop.index }}/{{ forloop.index0 }}/{{ forloop.rindex }}/{{ forloop.rindex0 }}/{{ forloop.length }}{% if forloop.first %}F{% endif %}{% if forloop.last %}L{% endif %}:{{ it.title }};{% endfor %}"],
		["nested loops and shadowing", "{% for it in items %}{% for t in it.tags %}{{ forloop.index }}{{ t }}{{ it.title }}{% else %}-{{ forloop.index }}{% endfor %}{% for it in tags %}{{ it }}{% endfor %}{{ it.price }}{% endfor %}{{ it }}"],
		["a loop variable named like a variable, size or first", "{% for name in tags %}{{ name }}{% endfor %}{{ name }}{% for size in tags %}{{ size }}{% endfor %}{% for first in none %}{% else %}{{ first }}{% endfor %}"],
		["whitespace control, comments and raw", "a  {%- if t -%}  b  {%- endif -%}  c {{- n -}} d\n{% comment %}{{ gone }}{% endcomment %}{% # also gone %}{% raw %}{{ kept }}<i>{% endraw %}"],
		["loops in conditions in loops", "{% for u in user.list %}{% if u.k == idx %}[{{ u.k }}]{% elsif u.k > idx %}({% for c in tags %}{% unless c %}nil{% endunless %}{% endfor %}){% endif %}{% endfor %}"]
	];

	it.each(templates)("should render %s the same both ways, for each kind of part", (_name, template) => {
		for (const kind of KINDS) {
			expect(liquidWay(template, kind)).toBe("compiled");
			expectSame(template, people, kind);
			expectSame(template, {}, kind);
		}
	});

	it("should read no inherited or prototype property, as LiquidJS does with ownPropertyOnly", () => {
		const t = "[{{ a.__proto__.polluted }}][{{ a.constructor }}][{{ b.constructor }}][{{ b.constructor.name }}][{{ b.toString }}][{{ b.hasOwnProperty }}][{{ constructor }}][{{ __proto__ }}][{{ __proto__.x }}][{{ toString }}][{{ valueOf }}][{{ list[0].__proto__ }}]{% if b.constructor %}C{% endif %}{% if constructor %}c{% endif %}{% for x in b.constructor %}x{% else %}e{% endfor %}";
		for (const kind of KINDS) {
			expect(liquidWay(t, kind)).toBe("compiled");
			const q = kind === "html" ? "&quot;" : '"';
			expect(expectSame(t, protoish, kind)).toBe(`[1][own][][][][][c][{${q}x${q}:${q}y${q}}][y][][][1]ce`);
		}
		expect(({} as Vars).polluted).toBeUndefined();
	});

	it("should render the benchmark template as LiquidJS does, and without LiquidJS's renderer", () => {
		const renderer = Object.getPrototypeOf(new Liquid().renderer) as { renderTemplates: (...args: unknown[]) => unknown };
		const spy = jest.spyOn(renderer, "renderTemplates");
		try {
			for (const [part, kind] of [[LIQUID_TEMPLATE.html!, "html"], [LIQUID_TEMPLATE.text!, "plain"]] as const) {
				const expected = renderLiquidVia("liquidjs", part, kind, LIQUID_VARIABLES);
				expect(spy).toHaveBeenCalled();
				spy.mockClear();
				const text = renderLiquid(part, kind, LIQUID_VARIABLES);
				expect(spy).not.toHaveBeenCalled();
				expect(text).toContain("Safari on iPhone (Bergen)");
				expect(text).toBe(expected);
			}
			// The LiquidJS way does use it: the spy can see a render.
			renderLiquid("{{ name | upcase }}", "plain", { name: "x" });
			expect(spy).toHaveBeenCalled();
		} finally {
			spy.mockRestore();
		}
	});
});

describe("the subset's edges", () => {
	const outside: [string, string][] = [
		["a filter", "{{ name | upcase }}"],
		["a filter in a condition", "{% if items | size %}x{% endif %}"],
		["assign", "{% assign a = 1 %}{{ a }}"],
		["capture", "{% capture c %}x{% endcapture %}{{ c }}"],
		["case", "{% case n %}{% when 1 %}one{% endcase %}"],
		["a range", "{% for i in (1..3) %}{{ i }}{% endfor %}"],
		["for with limit", "{% for x in xs limit: 2 %}{{ x }}{% endfor %}"],
		["for with offset", "{% for x in xs offset: 1 %}{{ x }}{% endfor %}"],
		["for reversed", "{% for x in xs reversed %}{{ x }}{% endfor %}"],
		["break", "{% for x in xs %}{% break %}{% endfor %}"],
		["continue", "{% for x in xs %}{% continue %}{{ x }}{% endfor %}"],
		["forloop as a whole", "{% for x in xs %}{{ forloop }}{% endfor %}"],
		["forloop.parentloop", "{% for x in xs %}{{ forloop.parentloop }}{% endfor %}"],
		["forloop.index.size", "{% for x in xs %}{{ forloop.index.size }}{% endfor %}"],
		["a loop variable named forloop", "{% for forloop in xs %}{{ forloop }}{% endfor %}"],
		["empty", "{% if xs == empty %}e{% endif %}"],
		["blank", "{% if name == blank %}b{% endif %}"],
		["a property of a literal", "{{ 'abc'.size }}"],
		["a quoted root", "{{ ['name'] }}"],
		["increment", "{% increment k %}"],
		["cycle", "{% for x in xs %}{% cycle 'a', 'b' %}{% endfor %}"],
		["tablerow", "{% tablerow x in xs %}{{ x }}{% endtablerow %}"],
		["echo", "{% echo name %}"],
		["the liquid tag", "{% liquid\necho name\n%}"],
		["operands left over", "{% if a b %}x{% endif %}"]
	];

	it.each(outside)("should leave a template with %s to LiquidJS, which renders it as before", (_name, template) => {
		const vars = { name: "Ada", n: 1, xs: [1, 2, 3], a: true, b: false };
		for (const kind of KINDS) {
			expect(liquidWay(template, kind)).toBe("liquidjs");
			expect(renderLiquidVia("compiled", template, kind, vars)).toBeUndefined();
			const ref = outcome(() => reference[kind].parseAndRenderSync(template, structuredClone(vars)) as string);
			expect(outcome(() => renderLiquid(template, kind, structuredClone(vars)))).toEqual(typeof ref === "string" ? ref : { error: ref!.error.replace(/, line:\d+, col:\d+$/, "") });
		}
	});

	const unusual: [string, string, Vars][] = [
		["a function, which LiquidJS calls", "{{ f }}", { f: () => "called" }],
		["a function in a path", "{{ o.f }}", { o: { f: () => "called" } }],
		["a function used as a collection", "{% for x in f %}{{ x }}{% endfor %}", { f: () => [1, 2] }],
		["a Date", "{{ at }}", { at: new Date("2026-07-01T10:00:00Z") }],
		["a Map", "{{ m.size }}{% for e in m %}{{ e }}{% endfor %}", { m: new Map([["k", 1]]) }],
		["an object with toLiquid", "{{ o.a }}", { o: { a: 1, toLiquid: () => ({ a: 2 }) } }],
		["variables with toLiquid", "{{ a }}", { a: 1, toLiquid: () => ({ a: 2 }) }],
		["an iterator-like object", "{% if o %}{{ o.x }}{% endif %}", { o: { x: 1, next: () => ({ done: true, value: 5 }), throw: () => 0, return: () => 0 } }],
		["an object with Symbol.iterator", "{% for x in o %}{{ x }}{% endfor %}", { o: { a: 1, *[Symbol.iterator]() { yield 9; } } }],
		["a class instance", "{{ c.x }}", { c: new (class { x = 1; })() }]
	];

	it.each(unusual)("should hand the render of %s to LiquidJS, which renders it as before", (_name, template, vars) => {
		expect(liquidWay(template, "plain")).toBe("compiled");
		expect(renderLiquidVia("compiled", template, "plain", vars)).toBeUndefined();
		expect(renderLiquid(template, "plain", vars)).toBe(reference.plain.parseAndRenderSync(template, { ...vars }));
	});

	it("should count steps as drive() does: render at the limit, hand over past it, and fail with LiquidJS's line", () => {
		// The text, the for tag, two per item, the text, the if tag and its text: 1 + 1 + 6 + 1 + 1 + 1 = 11.
		const t = "a\n{% for i in xs %}x{{ i }}{% endfor %}\n{% if xs %}y{% endif %}";
		const vars = { xs: [1, 2, 3] };
		expect(liquidWay(t, "plain")).toBe("compiled");
		expect(renderLiquidVia("compiled", t, "plain", vars, 12)).toBe("a\nx1x2x3\ny");
		expect(renderLiquidVia("compiled", t, "plain", vars, 11)).toBe("a\nx1x2x3\ny");
		expect(renderLiquidVia("liquidjs", t, "plain", vars, 11)).toBe("a\nx1x2x3\ny");
		expect(renderLiquidVia("compiled", t, "plain", vars, 10)).toBeUndefined();
		expect(() => renderLiquidVia("liquidjs", t, "plain", vars, 10)).toThrow(/template limit exceeded/);
		let err: unknown;
		try {
			renderLiquid(t, "plain", vars, 7);
		} catch (e) {
			err = e;
		}
		expect(err).toBeInstanceOf(TemplateError);
		expect(err).toMatchObject({ message: expect.stringContaining("template limit exceeded"), line: 2 });
		// Comments and raw are no steps, in either way.
		const c = "{% comment %}x{% endcomment %}{% raw %}r{% endraw %}{% # n %}{{ a }}";
		expect(renderLiquidVia("compiled", c, "plain", { a: 1 }, 1)).toBe("r1");
		expect(renderLiquidVia("liquidjs", c, "plain", { a: 1 }, 1)).toBe("r1");
	});

	it("should hand an output past the size limit to LiquidJS, which refuses it", () => {
		const t = "{% for x in xs %}{{ big }}{% endfor %}";
		const vars = { xs: Array.from({ length: 1100 }, (_, i) => i), big: "y".repeat(1000) };
		expect(renderLiquidVia("compiled", t, "plain", vars)).toBeUndefined();
		expect(() => renderLiquid(t, "plain", vars)).toThrow(`The rendered template is longer than ${MAX_OUTPUT_CHARS} characters.`);
		const fits = { ...vars, xs: vars.xs.slice(0, 1000) };
		expect(renderLiquidVia("compiled", t, "plain", fits)).toHaveLength(1_000_000);
	});

	it("should stop at the render time limit with LiquidJS's error", () => {
		const liquid = new Liquid({ ownPropertyOnly: true, strictFilters: true, outputEscape: asText });
		const templates = liquid.parse("{% for x in xs %}{% if x %}{{ x }}{% endif %}{% endfor %}") as Template[];
		const compiled = compileLiquid(liquid, templates, -1)!;
		expect(compiled).not.toBeNull();
		const xs = Array.from({ length: 1000 }, (_, i) => i);
		expect(() => renderCompiled(compiled, { xs }, 100_000, MAX_OUTPUT_CHARS)).toThrow(/template render limit exceeded, line:1/);
		expect(renderCompiled(compileLiquid(liquid, templates, 1000)!, { xs: [1, 2] }, 100_000, MAX_OUTPUT_CHARS)).toBe("12");
	});

	it("should not compile for an engine with other options than liquid.ts's", () => {
		const templates = (l: Liquid) => l.parse("{{ a }}") as Template[];
		const truthy = new Liquid({ ownPropertyOnly: true, jsTruthy: true, outputEscape: asText });
		const inherited = new Liquid({ ownPropertyOnly: false, outputEscape: asText });
		expect(compileLiquid(truthy, templates(truthy), 100)).toBeNull();
		expect(compileLiquid(inherited, templates(inherited), 100)).toBeNull();
	});
});

/** A small seeded generator (mulberry32), so a failure names a seed that repeats it. */
function rng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Random templates in the subset, and random JSON variables for them. */
class Gen {
	constructor(readonly r: () => number) {}
	int(n: number): number {
		return Math.floor(this.r() * n);
	}
	pick<T>(xs: readonly T[]): T {
		return xs[this.int(xs.length)]!;
	}

	static ROOTS = ["name", "user", "items", "tags", "flag", "n", "s", "o", "nested", "missing", "constructor", "__proto__", "toString", "size", "first", "last", "x"];
	static PROPS = ["name", "city", "size", "first", "last", "length", "0", "1", "k", "constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "list", "tags"];
	static LOOP_VARS = ["d", "item", "name", "x", "size", "first"];
	static CONSTANTS = ["'abc'", '"<x>"', "''", "0", "1", "-1", "2.5", "true", "false", "nil", "null", "'null'"];
	static TEXT = ["a", " ", "\n", "<p>", "&", "x y", "'\"", "-"];
	static OPS = ["==", "!=", ">", "<", ">=", "<=", "contains"];
	static FORLOOP = ["index", "index0", "rindex", "rindex0", "first", "last", "length"];

	path(loops: string[], depth = 0): string {
		let p = loops.length && this.r() < 0.6 ? this.pick(loops) : this.pick(Gen.ROOTS);
		const n = this.int(3);
		for (let i = 0; i < n; i++) {
			const k = this.int(10);
			if (k < 6) p += `.${this.pick(Gen.PROPS)}`;
			else if (k === 6) p += `[${this.pick(["0", "1", "-1", "-3", "5"])}]`;
			else if (k === 7) p += `[${this.pick(["'name'", '"a b"', "'size'"])}]`;
			else if (k === 8 && depth < 1) p += `[${this.path(loops, depth + 1)}]`;
			else p += ".first";
		}
		return p;
	}
	operand(loops: string[]): string {
		if (loops.length && this.r() < 0.15) return `forloop.${this.pick(Gen.FORLOOP)}`;
		return this.r() < 0.7 ? this.path(loops) : this.pick(Gen.CONSTANTS);
	}
	condition(loops: string[]): string {
		let c = this.r() < 0.5 ? this.operand(loops) : `${this.operand(loops)} ${this.pick(Gen.OPS)} ${this.operand(loops)}`;
		if (this.r() < 0.15) c = `not ${c}`;
		if (this.r() < 0.25) c += ` ${this.pick(["and", "or"])} ${this.operand(loops)}`;
		return c;
	}
	tag(body: string): string {
		const l = this.r() < 0.1 ? "{%-" : "{%";
		const r = this.r() < 0.1 ? "-%}" : "%}";
		return `${l} ${body} ${r}`;
	}
	nodes(loops: string[], depth: number): string {
		let s = "";
		const n = this.int(4);
		for (let i = 0; i < n; i++) s += this.node(loops, depth);
		return s;
	}
	node(loops: string[], depth: number): string {
		const k = this.int(depth >= 3 ? 3 : 10);
		if (k === 0) return this.pick(Gen.TEXT);
		if (k === 1) return `{{ ${this.r() < 0.2 ? this.condition(loops) : this.operand(loops)} }}`;
		if (k === 2) return this.r() < 0.85 ? `{{${this.r() < 0.1 ? "-" : ""} ${this.path(loops)} }}` : `{{ ${this.path(loops)} | raw }}`;
		if (k <= 4) {
			let s = this.tag(`if ${this.condition(loops)}`) + this.nodes(loops, depth + 1);
			const elsifs = this.int(3);
			for (let i = 0; i < elsifs; i++) s += this.tag(`elsif ${this.condition(loops)}`) + this.nodes(loops, depth + 1);
			if (this.r() < 0.5) s += this.tag("else") + this.nodes(loops, depth + 1);
			return s + this.tag("endif");
		}
		if (k === 5) {
			let s = this.tag(`unless ${this.condition(loops)}`) + this.nodes(loops, depth + 1);
			if (this.r() < 0.2) s += this.tag(`elsif ${this.condition(loops)}`) + this.nodes(loops, depth + 1);
			if (this.r() < 0.5) s += this.tag("else") + this.nodes(loops, depth + 1);
			return s + this.tag("endunless");
		}
		if (k <= 8) {
			const v = this.pick(Gen.LOOP_VARS);
			const collection = this.r() < 0.9 ? this.pick(["items", "tags", "s", "o", "nested.list", "user.tags", "missing", "n", ...loops.map(l => `${l}.tags`), ...loops]) : this.pick(["'str'", "''", "nil", "3"]);
			let s = this.tag(`for ${v} in ${collection}`) + this.nodes([...loops, v], depth + 1);
			if (this.r() < 0.3) s += this.tag("else") + this.nodes(loops, depth + 1);
			return s + this.tag("endfor");
		}
		return this.pick(["{% comment %}{{ gone }}{% endcomment %}", "{% # gone %}", "{% raw %}{{ kept }}<b>{% endraw %}"]);
	}

	value(depth: number): unknown {
		const k = this.int(depth >= 3 ? 8 : 11);
		switch (k) {
			case 0:
				return null;
			case 1:
				return this.r() < 0.5;
			case 2:
				return this.pick([0, 1, -1, 2.5, 12]);
			case 3:
				return this.pick(["", "abc", "<b>&\"'", "null", "a b", "12"]);
			case 4:
			case 5:
			case 6:
			case 7:
				return this.pick(["Ada", "x", "name", "city"]);
			case 8:
			case 9:
				return Array.from({ length: this.int(4) }, () => this.value(depth + 1));
			default:
				return Object.fromEntries(Array.from({ length: this.int(5) }, () => [this.pick(Gen.PROPS), this.value(depth + 1)]));
		}
	}
	vars(): Vars {
		// Entries rather than assignments, so "__proto__" is a key like any other.
		const v: [string, unknown][] = [];
		for (const root of Gen.ROOTS) if (this.r() < 0.7) v.push([root, this.value(0)]);
		v.push(["items", Array.from({ length: this.int(4) }, () => this.value(1))]);
		v.push(["tags", Array.from({ length: this.int(4) }, () => this.value(2))]);
		v.push(["nested", { list: Array.from({ length: this.int(3) }, () => this.value(1)) }]);
		// Through JSON, as stored variables are.
		return json(JSON.stringify(Object.fromEntries(v)));
	}
}

describe("random templates in the subset", () => {
	const SEEDS = 300;

	it(`should render ${SEEDS} random templates the same both ways, each with several sets of variables`, () => {
		let chars = 0;
		let failed = 0;
		for (let seed = 1; seed <= SEEDS; seed++) {
			const g = new Gen(rng(seed));
			const template = g.nodes([], 0) + g.nodes([], 0);
			for (const kind of KINDS) {
				expect({ seed, template, way: liquidWay(template, kind) }).toEqual({ seed, template, way: "compiled" });
				for (let i = 0; i < 4; i++) {
					const { liquidjs } = compare(template, kind, g.vars());
					if (typeof liquidjs === "string") chars += liquidjs.length;
					else failed++;
				}
			}
		}
		// The variables reach the text, and most renders succeed: not a suite of empty renders or of errors.
		expect(chars).toBeGreaterThan(SEEDS * 100);
		expect(failed).toBeLessThan(SEEDS);
	});

	it("should, under a small step limit, render exactly when LiquidJS does and otherwise hand over", () => {
		let handed = 0;
		let rendered = 0;
		for (let seed = 1001; seed <= 1000 + SEEDS; seed++) {
			const g = new Gen(rng(seed));
			const template = g.nodes([], 0) + g.nodes([], 0);
			const limit = g.int(25);
			const { liquidjs, compiled } = compare(template, "plain", g.vars(), limit);
			if (typeof liquidjs === "string") rendered++;
			else if (liquidjs?.error.startsWith("template limit exceeded")) {
				expect({ seed, template, limit, compiled }).toEqual({ seed, template, limit, compiled: undefined });
				handed++;
			}
		}
		// Both outcomes occur.
		expect(handed).toBeGreaterThan(SEEDS / 10);
		expect(rendered).toBeGreaterThan(SEEDS / 10);
	});
});
