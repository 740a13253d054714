/**
 * Feature flags: the LOW-priority pause as a switch at the top, then every flag with
 * its JSON value, edited in place and checked to be a JSON object before it is saved
 * (PUT /admin/features/{name}).
 */
import { call, enc, message, type Client } from "./api.js";
import { announce, field, h, time } from "./dom.js";

export const LOW_FLAG = "notifications.low-priority";
const NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/;

interface Flag {
	featureName: string;
	value: Record<string, unknown>;
	updatedAt: string;
	updatedBy: string;
}

/** The value as an object, or the reason it is not one. */
function parseObject(text: string): { value: Record<string, unknown> } | { error: string } {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (err) {
		return { error: `Not JSON: ${(err as Error).message}` };
	}
	if (value === null || typeof value !== "object" || Array.isArray(value)) return { error: "A flag's value must be a JSON object, like {\"enabled\": true}." };
	return { value: value as Record<string, unknown> };
}

export function flagsPage(client: Client, root: HTMLElement): () => void {
	const status = h("div", { role: "status", "aria-live": "polite" });
	const lowBox = h("section", { class: "low-switch", "aria-labelledby": "low-h" });
	const list = h("div", { id: "flag-list" });

	async function save(name: string, value: Record<string, unknown>): Promise<void> {
		await call(client, `/admin/features/${enc(name)}`, { method: "PUT", body: JSON.stringify(value) });
	}

	function editor(f: Flag | null): HTMLElement {
		const area = h("textarea", { name: "value", rows: 3, spellcheck: "false" });
		area.value = JSON.stringify(f?.value ?? {}, null, 1);
		const nameInput = f ? null : h("input", { name: "featureName", autocomplete: "off", spellcheck: "false" });
		const error = h("p", { class: "field-error", role: "alert" });
		const form = h(
			"form",
			{
				class: "flag",
				onsubmit: async (e: Event) => {
					e.preventDefault();
					error.textContent = "";
					const name = f?.featureName ?? nameInput!.value.trim();
					if (!NAME.test(name)) return void (error.textContent = "A name is 1 to 100 lower-case letters, digits, '.', '_' or '-'.");
					const parsed = parseObject(area.value);
					if ("error" in parsed) {
						area.setAttribute("aria-invalid", "true");
						error.textContent = parsed.error;
						area.focus();
						return;
					}
					area.removeAttribute("aria-invalid");
					try {
						await save(name, parsed.value);
						announce(status, `Saved ${name}.`);
						await load();
					} catch (err) {
						error.textContent = message(err);
					}
				}
			},
			f ? h("h3", {}, h("code", {}, f.featureName)) : h("h3", {}, "New flag"),
			nameInput ? field("Name", nameInput) : null,
			field(f ? `Value of ${f.featureName} (JSON object)` : "Value (JSON object)", area),
			error,
			h("div", { class: "actions" }, h("button", { type: "submit" }, f ? "Save" : "Create"), f ? h("span", { class: "muted" }, "Changed ", time(f.updatedAt), ` by ${f.updatedBy}`) : null)
		);
		return form;
	}

	function lowSwitch(flag: Flag | undefined): void {
		const paused = flag?.value.paused === true;
		const button = h(
			"button",
			{
				role: "switch",
				"aria-checked": paused ? "true" : "false",
				class: paused ? "switch on" : "switch",
				id: "low-pause",
				onclick: async () => {
					try {
						await save(LOW_FLAG, { ...(flag?.value ?? {}), paused: !paused });
						announce(status, paused ? "LOW priority resumed." : "LOW priority paused: LOW notifications wait in the queue.");
						await load();
					} catch (err) {
						announce(status, message(err), "error");
					}
				}
			},
			h("span", { class: "knob", "aria-hidden": "true" }),
			paused ? "LOW paused" : "LOW sending"
		);
		lowBox.replaceChildren(
			h("h2", { id: "low-h" }, "Pause LOW priority"),
			h("p", {}, "While paused, LOW notifications (marketing by default) stay queued; CRITICAL, HIGH and NORMAL are sent as usual."),
			button
		);
	}

	async function load(): Promise<void> {
		try {
			const { items } = await call<{ items: Flag[] }>(client, "/admin/features");
			lowSwitch(items.find(f => f.featureName === LOW_FLAG));
			list.replaceChildren(...items.map(editor), editor(null));
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	root.append(h("h1", {}, "Feature flags"), status, lowBox, h("h2", {}, "All flags"), list);
	void load();
	return () => undefined;
}
