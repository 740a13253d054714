import { execFileSync } from "node:child_process";
import { checkTemplate, missingVariables, PartRenderError, render, variablesOf } from "../../lib/notifications/render";
import { localeChain, normalizeContent, partsFor, previewTemplate } from "../../lib/notifications/templates";
import { Liquid } from "liquidjs";
import { asText, MAX_OUTPUT_CHARS, renderLiquid, TemplateError } from "../../lib/notifications/liquid";

/** The code and field problems a refused template is answered with. */
function refusal(fn: () => unknown): { status?: number; type?: string; errors?: { field: string; line?: number }[] } | null {
	try {
		fn();
		return null;
	} catch (err) {
		const e = err as { code?: number; type?: string; data?: { errors?: { field: string; line?: number }[] } };
		return { status: e.code, type: e.type, errors: e.data?.errors };
	}
}

describe("Liquid templates", () => {
	it("should render conditions, loops and filters when a template uses them", () => {
		const t = { subject: "{{ name | upcase }}", text: "Hi {{ name }}{% if vip %}, VIP{% endif %}:{% for i in items %} {{ i.title }}{% endfor %} ({{ items | size }})" };
		expect(render(t, { name: "Ada", vip: true, items: [{ title: "Tea" }, { title: "Cups" }] })).toEqual({ subject: "ADA", text: "Hi Ada, VIP: Tea Cups (2)" });
		expect(render(t, { name: "Ada", items: [] }).text).toBe("Hi Ada: (0)");
	});

	it("should format dates in UTC by default and in the time zone the date filter names", () => {
		const t = { text: '{{ at | date: "%Y-%m-%d %H:%M" }} / {{ at | date: "%Y-%m-%d %H:%M", "Europe/Berlin" }} / {{ at | date: "%H:%M", "America/New_York" }}' };
		expect(render(t, { at: "2026-07-01T10:00:00Z" }).text).toBe("2026-07-01 10:00 / 2026-07-01 12:00 / 06:00");
	});

	it("should make no Intl.DateTimeFormat until a template formats a date (the first keeps 5 MB of ICU data resident)", () => {
		// A process of its own, so nothing else has made one before.
		const script = `let made = 0;
			const Original = Intl.DateTimeFormat;
			Intl.DateTimeFormat = new Proxy(Original, { construct(t, a) { made++; return new t(...a); }, apply(t, self, a) { made++; return t(...a); } });
			const { render, checkTemplate } = require(${JSON.stringify(require.resolve("../../dist/lib/notifications/render.js"))});
			const t = { subject: "Hi {{ name }}", html: "<p>{% if vip %}VIP {% endif %}{% for i in items %}{{ i | upcase }}{% endfor %}</p>" };
			checkTemplate(t);
			const before = made + ":" + render(t, { name: "Ada", vip: true, items: ["a"] }).html;
			new Intl.DateTimeFormat("en-US");
			process.stdout.write(before + "|" + made);`;
		const out = execFileSync(process.execPath, ["-e", script]).toString();
		// After the renders, one made here is counted: the count works.
		expect(out).toBe("0:<p>VIP A</p>|1");
	});

	it("should escape every output in HTML parts, and write `| raw` and text parts as they are", () => {
		const t = { html: "<p>{{ name }}{% for x in xs %}<i>{{ x }}</i>{% endfor %}{{ safe | raw }}</p>", text: "{{ name }}" };
		const out = render(t, { name: `<script>"&'`, xs: ["<b>"], safe: "<br>" });
		expect(out.html).toBe("<p>&lt;script&gt;&quot;&amp;&#39;<i>&lt;b&gt;</i><br></p>");
		expect(out.text).toBe(`<script>"&'`);
	});

	it("should write objects as JSON and keep the subject on one line, as `{{name}}` templates did", () => {
		expect(render({ subject: "{% if a %}{{ a }}{% endif %}\n{{ o }}", text: "{% if o %}{{ o }}{% endif %}" }, { a: "x\r\ny", o: { k: 1 } })).toEqual({ subject: 'x y {"k":1}', text: '{"k":1}' });
	});

	it("should require top-level outputs' variables only, not those in conditions, loops, defaults or assigns", () => {
		const t = { subject: "{{ name }}", text: "{% assign g = 'hi' %}{{ g }} {{ nick | default: 'friend' }}{% if coupon %}{{ coupon.code }}{% endif %}{% for i in items %}{{ i.x }}{% endfor %} {{ user.city }}" };
		expect(variablesOf(t)).toEqual(["name", "user.city"]);
		expect(missingVariables(t, { name: "A", user: {} })).toEqual(["user.city"]);
		expect(missingVariables(t, { name: "A", user: { city: "Oslo" } })).toEqual([]);
	});

	it("should refuse a template that does not parse with 422 TEMPLATE_RENDER_ERROR naming the part and line", () => {
		expect(refusal(() => checkTemplate({ subject: "ok", html: "<p>\n{% if x %}\nno end" }))).toEqual({ status: 422, type: "TEMPLATE_RENDER_ERROR", errors: [expect.objectContaining({ field: "html", line: 2 })] });
		expect(refusal(() => checkTemplate({ text: "a\nb\n{{ x | nope }}" }, "template."))).toEqual({ status: 422, type: "TEMPLATE_RENDER_ERROR", errors: [expect.objectContaining({ field: "template.text", line: 3 })] });
	});
});

describe("template abuse: each a 422 or a bounded render, never a hang or a crash", () => {
	const deep = (n: number) => "{% if a %}".repeat(n) + "x" + "{% endif %}".repeat(n);
	const cases: [string, { text: string }, Record<string, unknown>][] = [
		["deep nesting", { text: deep(5000) }, { a: true }],
		["a huge range loop", { text: "{% for i in (1..100000000) %}x{% endfor %}" }, {}],
		["nested loops of a billion steps", { text: "{% for i in (1..1000) %}{% for j in (1..1000) %}{% for k in (1..1000) %}{% endfor %}{% endfor %}{% endfor %}" }, {}],
		["a loop over a large variable", { text: "{% for i in xs %}{% for j in xs %}{{ i }}{{ j }}{% endfor %}{% endfor %}" }, { xs: Array.from({ length: 5000 }, (_, i) => i) }],
		["an include", { text: '{% include "secrets" %}' }, {}],
		["a recursive render", { text: '{% render "self" %}' }, {}],
		["a layout", { text: '{% layout "base" %}x' }, {}],
		["a doubling string", { text: '{% assign s = "aaaaaaaaaa" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s | size }}' }, {}],
		["giant output", { text: "{% for i in (1..50000) %}{{ big }}{% endfor %}" }, { big: "y".repeat(1000) }],
		["an unterminated output", { text: "hello {{ name" }, {}],
		["an unterminated tag", { text: "hello {% if x" }, {}],
		["an unclosed block", { text: "{% for x in xs %}{{ x }}" }, {}],
		["an unknown tag", { text: "{% exec 'rm -rf /' %}" }, {}],
		["an unknown filter", { text: "{{ x | eval }}" }, {}]
	];

	it.each(cases)("should refuse %s with the part and a line", (_name, t, vars) => {
		expect(() => render(t, vars)).toThrow(PartRenderError);
		try {
			render(t, vars);
		} catch (err) {
			expect(err).toMatchObject({ part: "text", line: expect.any(Number) });
		}
		// Accepting it refuses what can be known without variables: a parse error is a 422 there.
		const parses = refusal(() => checkTemplate(t)) === null;
		if (!parses) expect(refusal(() => checkTemplate(t))).toMatchObject({ status: 422, type: "TEMPLATE_RENDER_ERROR", errors: [{ field: "text", line: expect.any(Number) }] });
	});

	it("should render a large but bounded output whole, and cut none short", () => {
		const out = render({ text: "{% for i in (1..500) %}{{ big }}{% endfor %}" }, { big: "y".repeat(1000) });
		expect(out.text).toHaveLength(500_000);
		expect(out.text!.length).toBeLessThanOrEqual(MAX_OUTPUT_CHARS);
	});

	it("should read no inherited or prototype property when variables name __proto__ or constructor", () => {
		const vars = JSON.parse('{"a":{"__proto__":{"polluted":1}},"b":{}}') as Record<string, unknown>;
		const out = render({ text: "[{{ b.constructor }}][{{ b.constructor.name }}][{{ b.toString }}][{{ a.__proto__.polluted }}][{{ constructor }}]" }, vars);
		expect(out.text).toBe("[][][][1][]");
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(missingVariables({ text: "{% if x %}{% endif %}{{ constructor }}" }, {})).toEqual(["constructor"]);
	});
});

describe("the render driver (renderLiquid runs LiquidJS's renders itself, with a step limit)", () => {
	// LiquidJS's own synchronous render with the same sandbox options, to compare with.
	const reference = new Liquid({ ownPropertyOnly: true, strictFilters: true, timezoneOffset: 0, outputEscape: asText });
	const vars = {
		name: "Ada",
		n: 3,
		items: [
			{ title: "Tea", price: 4, tags: ["hot"] },
			{ title: "Cups", price: 12, tags: [] },
			{ title: "Jam", price: 6, tags: ["sweet", "new"] }
		],
		kind: "b",
		at: "2026-07-01T10:00:00Z"
	};
	const templates: [string, string][] = [
		["break and continue", "{% for i in (1..10) %}{% if i == 2 %}{% continue %}{% endif %}{% if i > 5 %}{% break %}{% endif %}{{ i }},{% endfor %}"],
		["forloop, else and modifiers", "{% for x in items limit: 2 offset: 1 %}{{ forloop.index }}/{{ forloop.length }} {{ x.title }}{% else %}none{% endfor %}{% for x in missing %}x{% else %}empty{% endfor %}"],
		["capture, assign, increment and cycle", "{% capture c %}{{ name | upcase }}!{% endcapture %}{% assign t = items | map: 'title' | join: ', ' %}{{ c }} {{ t }} {% increment k %}{% increment k %}{% for x in items %}{% cycle 'a', 'b' %}{% endfor %}"],
		["case, unless and tablerow", "{% case kind %}{% when 'a' %}A{% when 'b', 'c' %}B{% else %}?{% endcase %}{% unless n > 5 %}small{% else %}big{% endunless %}{% tablerow x in items cols: 2 %}{{ x.title }}{% endtablerow %}"],
		["filters that run as generators", "{{ items | where: 'price', 6 | map: 'title' | first }} {{ items | sort: 'price' | map: 'title' | join: '+' }} {{ items | sum: 'price' }} {% assign hot = items | where_exp: 'i', 'i.tags.size > 0' %}{{ hot | size }}"],
		["the liquid and echo tags, raw and comments", "{% liquid\n  for x in items\n    echo x.title | downcase\n  endfor\n%}{% raw %}{{ kept }}{% endraw %}{% comment %}gone{% endcomment %}"],
		["objects as JSON and dates", '{{ items[1] }} {{ at | date: "%d %b %H:%M", "Asia/Tokyo" }}']
	];

	it.each(templates)("should render %s exactly as LiquidJS's renderSync does", (_name, text) => {
		// Each its own copy: increment writes to the variables it is given.
		const expected = reference.parseAndRenderSync(text, structuredClone(vars)) as string;
		expect(expected.length).toBeGreaterThan(0);
		expect(renderLiquid(text, "plain", structuredClone(vars))).toBe(expected);
	});

	it("should render each part from the variables as given, leaving them as they were", () => {
		const vars = { n: 1 };
		expect(render({ html: "{% increment n %}{% increment n %}", text: "{% increment n %}{{ n }}" }, vars)).toEqual({ html: "12", text: "12" });
		expect(vars).toEqual({ n: 1 });
	});

	it("should refuse a render past its step limit with the line of the step that passed it, and render one within it", () => {
		const text = "a\n{% for i in xs %}x{{ i }}{% endfor %}";
		// The text "a\n", the for tag and 2 per item: 8 steps for 3 items.
		expect(renderLiquid(text, "plain", { xs: [1, 2, 3] }, 8)).toBe("a\nx1x2x3");
		let err: unknown;
		try {
			renderLiquid(text, "plain", { xs: [1, 2, 3] }, 7);
		} catch (e) {
			err = e;
		}
		expect(err).toBeInstanceOf(TemplateError);
		expect(err).toMatchObject({ message: expect.stringContaining("template limit exceeded"), line: 2 });
	});
});

describe("locales", () => {
	const t = {
		name: "t",
		defaultLocale: "en",
		subject: "Hello",
		text: "Hello {{ name }}",
		locales: { de: { subject: "Hallo", text: "Hallo {{ name }}" }, "de-CH": { subject: "Grüezi", text: "Grüezi {{ name }}" }, fr: { subject: "Bonjour", text: "Bonjour" } }
	};

	it("should walk de-AT to de to the default when picking the parts", () => {
		expect(localeChain("de-AT")).toEqual(["de-AT", "de"]);
		expect(localeChain("zh-Hant-TW")).toEqual(["zh-Hant-TW", "zh-Hant", "zh"]);
		expect(partsFor(t, "de-AT")).toEqual({ parts: t.locales.de, locale: "de" });
		expect(partsFor(t, "de-ch")).toEqual({ parts: t.locales["de-CH"], locale: "de-CH" });
		expect(partsFor(t, "es-MX")).toEqual({ parts: { subject: "Hello", text: "Hello {{ name }}" }, locale: "en" });
		expect(partsFor(t, undefined).locale).toBe("en");
	});

	it("should preview per channel and locale", () => {
		expect(previewTemplate(t, { variables: { name: "Ada" }, locale: "de-AT" })).toEqual({ subject: "Hallo", text: "Hallo Ada", locale: "de" });
		expect(previewTemplate(t, { variables: { name: "Ada" }, channel: "SMS" })).toEqual({ text: "Hello Ada", locale: "en" });
		expect(refusal(() => previewTemplate({ name: "x", text: "{% for i in (1..100000000) %}x{% endfor %}" }, {}))).toMatchObject({ status: 422, type: "TEMPLATE_RENDER_ERROR", errors: [{ field: "text", line: 1 }] });
	});

	it("should make locale tags canonical and refuse ones that are not BCP 47", () => {
		expect(normalizeContent({ name: "x", text: "t", defaultLocale: "EN-gb", locales: { "de-at": { text: "t" } } })).toEqual({ name: "x", text: "t", defaultLocale: "en-GB", locales: { "de-AT": { text: "t" } } });
		expect(refusal(() => normalizeContent({ name: "x", text: "t", locales: { "not a tag!": { text: "t" } } }))).toMatchObject({ status: 400, type: "VALIDATION_ERROR" });
		expect(refusal(() => normalizeContent({ name: "x", text: "t", locales: { de: { subject: "s" } } }))).toMatchObject({ status: 400, errors: [{ field: "locales.de.html" }] });
		expect(refusal(() => normalizeContent({ name: "x", text: "t", locales: { de: { text: "{% if %}" } } }))).toMatchObject({ status: 422, errors: [{ field: "locales.de.text" }] });
	});
});
