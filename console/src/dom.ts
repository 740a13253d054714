/**
 * Builds elements from data with textContent and attributes only: nothing the
 * platform returns is ever parsed as HTML, so a recipient or a flag name cannot
 * inject markup into an administrator's page.
 */
type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | boolean | number | ((e: Event) => void) | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
	const el = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs)) {
		if (v === undefined || v === false) continue;
		if (typeof v === "function") el.addEventListener(k.replace(/^on/, ""), v);
		else el.setAttribute(k, v === true ? "" : String(v));
	}
	for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
	return el;
}

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag: string, attrs: Record<string, string | number> = {}): SVGElement {
	const el = document.createElementNS(SVG, tag);
	for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
	return el;
}

/** A labelled field: the label names the control for screen readers and is clickable. */
export function field(label: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): HTMLElement {
	const id = control.id || `f-${Math.random().toString(36).slice(2)}`;
	control.id = id;
	return h("div", { class: "field" }, h("label", { for: id }, label), control);
}

export function select(name: string, options: string[], blank: string): HTMLSelectElement {
	return h("select", { name }, h("option", { value: "" }, blank), ...options.map(o => h("option", { value: o }, o)));
}

export const time = (iso: string) => h("time", { datetime: iso }, new Date(iso).toLocaleString());

export function percent(x: number): string {
	return `${(x * 100).toFixed(x && x < 0.01 ? 2 : 1)}%`;
}

export function age(seconds: number): string {
	if (seconds < 60) return `${Math.round(seconds)} s`;
	if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
	return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** Asks in a modal dialog (keyboard: Tab between the buttons, Escape cancels); true when confirmed. */
export function confirmDialog(question: string, action: string): Promise<boolean> {
	return new Promise(resolve => {
		const dialog = h(
			"dialog",
			{ "aria-labelledby": "confirm-q" },
			h("p", { id: "confirm-q" }, question),
			h("form", { method: "dialog", class: "actions" }, h("button", { value: "cancel", class: "secondary" }, "Cancel"), h("button", { value: "ok", class: "danger" }, action))
		);
		dialog.addEventListener("close", () => {
			resolve(dialog.returnValue === "ok");
			dialog.remove();
		});
		document.body.append(dialog);
		dialog.showModal();
	});
}

/** A message for the status region: screen readers announce it without moving focus. */
export function announce(region: HTMLElement, text: string, kind: "ok" | "error" = "ok"): void {
	region.className = `notice ${kind}`;
	region.textContent = text;
}
