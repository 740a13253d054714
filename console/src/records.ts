/**
 * A searchable list of address records an administrator may remove after a
 * confirmation: what the suppressions and the unsubscribes sections both are. The
 * newest hundred, or those of one address (`?address=`); each row has a Remove button
 * that asks first, calls DELETE and reloads the list.
 */
import { call, enc, message, type Client } from "./api.js";
import { announce, confirmDialog, field, h, time } from "./dom.js";

export interface RecordListOptions<T extends { address: string; createdAt: string }> {
	/** The admin route that lists them, answering `{ items }`. */
	route: string;
	/** The list's id and the search field's name (the page's tests find them by these). */
	listId: string;
	inputName: string;
	/** The search form's and the table's accessible names. */
	searchLabel: string;
	caption: string;
	/** Column headers and each row's cells before the "Since" and Remove columns. */
	columns: string[];
	cells(item: T): string[];
	rowData(item: T): Record<string, string>;
	empty(searched: boolean): string;
	/** The Remove button's accessible name, the question asked, the DELETE path and what is said after. */
	removeLabel(item: T): string;
	confirm(item: T): string;
	removePath(item: T): string;
	removed(item: T): string;
}

/** The search form, the status region and the list, filled once now; place them on the page in this order. */
export function recordList<T extends { address: string; createdAt: string }>(client: Client, o: RecordListOptions<T>): HTMLElement[] {
	const status = h("div", { role: "status", "aria-live": "polite" });
	const list = h("div", { id: o.listId });
	const address = h("input", { name: o.inputName, type: "search", autocomplete: "off", spellcheck: "false" });

	async function load(): Promise<void> {
		const q = address.value.trim() ? `?address=${enc(address.value.trim())}` : "";
		try {
			const { items } = await call<{ items: T[] }>(client, `${o.route}${q}`);
			list.replaceChildren(
				items.length === 0
					? h("p", {}, o.empty(q !== ""))
					: h(
							"table",
							{},
							h("caption", { class: "sr-only" }, o.caption),
							h("thead", {}, h("tr", {}, ...[...o.columns, "Since", ""].map(c => h("th", { scope: "col" }, c)))),
							h(
								"tbody",
								{},
								...items.map(item =>
									h(
										"tr",
										o.rowData(item),
										...o.cells(item).map(c => h("td", {}, c)),
										h("td", {}, time(item.createdAt)),
										h("td", {}, h("button", { class: "danger", "aria-label": o.removeLabel(item), onclick: () => remove(item) }, "Remove"))
									)
								)
							)
						)
			);
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	async function remove(item: T): Promise<void> {
		if (!(await confirmDialog(o.confirm(item), "Remove"))) return;
		try {
			await call(client, o.removePath(item), { method: "DELETE" });
			announce(status, o.removed(item));
			await load();
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	void load();
	const search = h(
		"form",
		{
			class: "search",
			role: "search",
			"aria-label": o.searchLabel,
			onsubmit: (e: Event) => {
				e.preventDefault();
				void load();
			}
		},
		field("Address", address),
		h("button", { type: "submit" }, "Search")
	);
	return [search, status, list];
}
