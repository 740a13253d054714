/**
 * Templates: every template (GET /templates), one edited in place (each save is a new
 * version, PUT /templates/{id}), previewed per locale and channel without sending
 * (POST /templates/{id}/preview), and its versions with a restore
 * (POST /templates/{id}/versions/{n}/restore). The preview's HTML is shown as source
 * text: nothing the platform returns is parsed as HTML here (dom.ts).
 */
import { call, enc, message, type Client } from "./api.js";
import { announce, confirmDialog, field, h, select, time } from "./dom.js";

interface Parts {
	subject?: string;
	html?: string;
	text?: string;
}

interface Template extends Parts {
	templateId: string;
	name: string;
	version: number;
	defaultLocale?: string;
	locales?: Record<string, Parts>;
	updatedAt?: string;
}

interface Version extends Parts {
	version: number;
	name: string;
	defaultLocale?: string;
	locales?: Record<string, Parts>;
	createdAt: string;
	restoredFrom?: number;
}

interface Preview extends Parts {
	text: string;
	locale?: string;
}

const CHANNELS = ["EMAIL", "SMS", "PUSH"];

/** A JSON object typed into a textarea, or the reason it is not one. */
function parseObject(text: string, what: string): { value: Record<string, unknown> } | { error: string } {
	if (!text.trim()) return { value: {} };
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (err) {
		return { error: `${what} is not JSON: ${(err as Error).message}` };
	}
	if (value === null || typeof value !== "object" || Array.isArray(value)) return { error: `${what} must be a JSON object.` };
	return { value: value as Record<string, unknown> };
}

export function templatesPage(client: Client, root: HTMLElement): () => void {
	const status = h("div", { role: "status", "aria-live": "polite" });
	const list = h("div", { id: "template-list" });
	const detail = h("section", { id: "template-detail", "aria-live": "polite" });

	async function load(): Promise<void> {
		try {
			const { items } = await call<{ items: Template[] }>(client, "/templates");
			list.replaceChildren(
				items.length
					? h(
							"table",
							{},
							h("caption", {}, "Templates, most recently changed first"),
							h("thead", {}, h("tr", {}, ...["Name", "Version", "Locales", "Changed", ""].map(c => h("th", { scope: "col" }, c)))),
							h(
								"tbody",
								{},
								...items.map(t =>
									h(
										"tr",
										{ "data-template": t.templateId },
										h("td", {}, h("code", {}, t.name)),
										h("td", {}, String(t.version)),
										h("td", {}, [t.defaultLocale ?? "default", ...Object.keys(t.locales ?? {})].join(", ")),
										h("td", {}, t.updatedAt ? time(t.updatedAt) : ""),
										h("td", {}, h("button", { type: "button", class: "secondary", "aria-label": `Edit ${t.name}`, onclick: () => void open(t.templateId) }, "Edit"))
									)
								)
							)
						)
					: h("p", { class: "muted" }, "No templates yet."),
				h("button", { type: "button", id: "new-template", onclick: () => edit(null) }, "New template")
			);
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	async function open(id: string): Promise<void> {
		try {
			edit(await call<Template>(client, `/templates/${enc(id)}`));
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	function edit(t: Template | null): void {
		const name = h("input", { name: "name", required: true, autocomplete: "off", spellcheck: "false" });
		const defaultLocale = h("input", { name: "defaultLocale", autocomplete: "off", spellcheck: "false", placeholder: "en" });
		const subject = h("input", { name: "subject", autocomplete: "off" });
		const html = h("textarea", { name: "html", rows: 5, spellcheck: "false" });
		const text = h("textarea", { name: "text", rows: 4 });
		const locales = h("textarea", { name: "locales", rows: 4, spellcheck: "false", placeholder: '{"de": {"subject": "…", "text": "…"}}' });
		name.value = t?.name ?? "";
		defaultLocale.value = t?.defaultLocale ?? "";
		subject.value = t?.subject ?? "";
		html.value = t?.html ?? "";
		text.value = t?.text ?? "";
		locales.value = t?.locales ? JSON.stringify(t.locales, null, 1) : "";
		const error = h("p", { class: "field-error", role: "alert" });
		const form = h(
			"form",
			{
				class: "template",
				"aria-labelledby": "template-h",
				onsubmit: async (e: Event) => {
					e.preventDefault();
					error.textContent = "";
					const parsed = parseObject(locales.value, "Locales");
					if ("error" in parsed) {
						locales.setAttribute("aria-invalid", "true");
						error.textContent = parsed.error;
						return;
					}
					locales.removeAttribute("aria-invalid");
					const body: Record<string, unknown> = { name: name.value.trim() };
					for (const [k, el] of [["defaultLocale", defaultLocale], ["subject", subject], ["html", html], ["text", text]] as const) if (el.value.trim()) body[k] = el.value;
					if (Object.keys(parsed.value).length) body.locales = parsed.value;
					try {
						const saved = await call<Template>(client, t ? `/templates/${enc(t.templateId)}` : "/templates", { method: t ? "PUT" : "POST", body: JSON.stringify(body) });
						announce(status, `Saved ${saved.name} as version ${saved.version}.`);
						await load();
						edit(saved);
					} catch (err) {
						error.textContent = message(err);
					}
				}
			},
			h("h2", { id: "template-h" }, t ? `Edit ${t.name} (version ${t.version})` : "New template"),
			h("p", { class: "muted" }, "Liquid: {{ name }}, {% if %}, {% for %}, filters; HTML parts escape every output. Each save is a new version."),
			field("Name", name),
			field("Default locale (BCP 47)", defaultLocale),
			field("Subject (EMAIL and PUSH)", subject),
			field("HTML", html),
			field("Text", text),
			field("Translations (JSON object by locale)", locales),
			error,
			h("div", { class: "actions" }, h("button", { type: "submit" }, t ? "Save as new version" : "Create"))
		);
		detail.replaceChildren(form, ...(t ? [previewSection(t), versionsSection(t)] : []));
	}

	function previewSection(t: Template): HTMLElement {
		const locale = h("input", { name: "locale", autocomplete: "off", spellcheck: "false", placeholder: t.defaultLocale ?? "de-AT" });
		const channel = select("channel", CHANNELS, "EMAIL (default)");
		const variables = h("textarea", { name: "variables", rows: 3, spellcheck: "false", placeholder: '{"name": "Ada"}' });
		const out = h("div", { id: "preview-out" });
		const error = h("p", { class: "field-error", role: "alert" });
		return h(
			"form",
			{
				class: "preview",
				"aria-labelledby": "preview-h",
				onsubmit: async (e: Event) => {
					e.preventDefault();
					error.textContent = "";
					const parsed = parseObject(variables.value, "Variables");
					if ("error" in parsed) return void (error.textContent = parsed.error);
					const body: Record<string, unknown> = { variables: parsed.value };
					if (locale.value.trim()) body.locale = locale.value.trim();
					if (channel.value) body.channel = channel.value;
					try {
						const p = await call<Preview>(client, `/templates/${enc(t.templateId)}/preview`, { method: "POST", body: JSON.stringify(body) });
						out.replaceChildren(
							h(
								"dl",
								{},
								h("dt", {}, "Locale"),
								h("dd", {}, p.locale ?? "default"),
								...(p.subject !== undefined ? [h("dt", {}, "Subject"), h("dd", {}, p.subject)] : []),
								...(p.html !== undefined ? [h("dt", {}, "HTML (source)"), h("dd", {}, h("pre", {}, p.html))] : []),
								h("dt", {}, "Text"),
								h("dd", {}, h("pre", {}, p.text))
							)
						);
					} catch (err) {
						out.replaceChildren();
						error.textContent = message(err);
					}
				}
			},
			h("h2", { id: "preview-h" }, "Preview"),
			h("p", { class: "muted" }, "Renders without sending."),
			field("Locale", locale),
			field("Channel", channel),
			field("Variables (JSON object)", variables),
			error,
			h("div", { class: "actions" }, h("button", { type: "submit" }, "Preview")),
			out
		);
	}

	function versionsSection(t: Template): HTMLElement {
		const box = h("div", { id: "version-list" });
		const section = h("section", { "aria-labelledby": "versions-h" }, h("h2", { id: "versions-h" }, "Versions"), box);
		void (async () => {
			try {
				const { items } = await call<{ items: Version[] }>(client, `/templates/${enc(t.templateId)}/versions`);
				box.replaceChildren(
					h(
						"table",
						{},
						h("caption", {}, `Versions of ${t.name}, newest first`),
						h("thead", {}, h("tr", {}, ...["Version", "Made", "Subject", ""].map(c => h("th", { scope: "col" }, c)))),
						h(
							"tbody",
							{},
							...items.map(v =>
								h(
									"tr",
									{ "data-version": String(v.version) },
									h("td", {}, v.restoredFrom ? `${v.version} (restores ${v.restoredFrom})` : String(v.version)),
									h("td", {}, time(v.createdAt)),
									h("td", {}, v.subject ?? ""),
									h(
										"td",
										{},
										v.version === t.version
											? h("span", { class: "muted" }, "current")
											: h(
													"button",
													{
														type: "button",
														class: "secondary",
														"aria-label": `Restore version ${v.version}`,
														onclick: async () => {
															if (!(await confirmDialog(`Restore version ${v.version} of ${t.name}? It becomes version ${t.version + 1}.`, "Restore"))) return;
															try {
																const restored = await call<Template>(client, `/templates/${enc(t.templateId)}/versions/${v.version}/restore`, { method: "POST" });
																announce(status, `Restored version ${v.version} as version ${restored.version}.`);
																await load();
																edit(restored);
															} catch (err) {
																announce(status, message(err), "error");
															}
														}
													},
													"Restore"
												)
									)
								)
							)
						)
					)
				);
			} catch (err) {
				box.replaceChildren(h("p", { class: "field-error" }, message(err)));
			}
		})();
		return section;
	}

	root.append(h("h1", {}, "Templates"), status, list, detail);
	void load();
	return () => undefined;
}
