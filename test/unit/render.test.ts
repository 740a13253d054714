import { missingVariables, render, variablesOf } from "../../lib/notifications/render";
import { retryDelay } from "../../lib/notifications/queue";
import { loadConfig } from "../../lib/config";

describe("templates", () => {
	const t = { subject: "Hi {{ name }}", html: "<p>{{name}} owes {{amount}} {{user.city}}</p>", text: "{{name}}" };

	it("should list each variable once when a template uses it several times", () => {
		expect(variablesOf(t)).toEqual(["name", "amount", "user.city"]);
	});

	it("should find the same names however often it is asked, around renders that use the same expression", () => {
		const u = { subject: "No variables here", text: "{{a}} and {{ b.c }}, then {{a}} again" };
		for (let i = 0; i < 3; i++) {
			expect(variablesOf(u)).toEqual(["a", "b.c"]);
			render(u, { a: 1 });
		}
		expect(variablesOf({ subject: "{{x}}", html: "{{y}", text: "{{ z }}" })).toEqual(["x", "z"]);
	});

	it("should report the missing variables when some are absent or null", () => {
		expect(missingVariables(t, { name: "A", amount: null, user: {} })).toEqual(["amount", "user.city"]);
		expect(missingVariables(t, { name: "A", amount: 0, user: { city: "" } })).toEqual([]);
	});

	it("should escape variables in HTML and keep them verbatim in text", () => {
		const out = render(t, { name: `<script>alert("x")</script>&'`, amount: 5, user: { city: "Oslo" } });
		expect(out.html).toBe("<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39; owes 5 Oslo</p>");
		expect(out.text).toBe(`<script>alert("x")</script>&'`);
	});

	it("should keep the subject on one line when a variable holds line breaks", () => {
		expect(render(t, { name: "A\r\nBcc: evil@example.com", amount: 1, user: { city: "x" } }).subject).toBe("Hi A Bcc: evil@example.com");
	});

	it("should not read inherited properties when a variable names one", () => {
		expect(missingVariables({ subject: "{{constructor}}" }, {})).toEqual(["constructor"]);
		expect(render({ subject: "x{{toString}}" }, {}).subject).toBe("x");
	});
});

describe("retry schedule", () => {
	it("should stay within half and all of each doubling step, capped, when jittered", () => {
		for (const [attempt, lo, hi] of [[1, 50, 100], [2, 100, 200], [3, 200, 400], [10, 500, 1000]] as const) {
			expect(retryDelay(attempt, 100, 1000, () => 0)).toBe(lo);
			expect(retryDelay(attempt, 100, 1000, () => 1)).toBe(hi);
		}
	});

	it("should spread the default 8 attempts over at least 30 minutes even with the least jitter", () => {
		const n = loadConfig({}).notifications;
		expect(n.maxAttempts).toBeGreaterThanOrEqual(8);
		let total = 0;
		for (let attempt = 1; attempt < n.maxAttempts; attempt++) total += retryDelay(attempt, n.retryBaseMs, n.retryMaxMs, () => 0);
		expect(total).toBeGreaterThanOrEqual(30 * 60 * 1000);
	});
});
