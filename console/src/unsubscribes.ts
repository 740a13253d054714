/**
 * Unsubscribes, a section of the suppressions page: the newest hundred, or those of
 * one address; remove one after a confirmation (DELETE
 * /admin/unsubscribes/{channel}/{address}/{category}), which an operator does on the
 * recipient's request: that category is sent to the address again.
 */
import { call, enc, message, type Client } from "./api.js";
import { announce, confirmDialog, field, h, time } from "./dom.js";

interface Unsubscribe {
	channel: string;
	address: string;
	category: string;
	createdAt: string;
}

/** `*` is every category: said in words, since a lone asterisk reads badly aloud. */
const categoryName = (c: string) => (c === "*" ? "every category" : c);

export function unsubscribesSection(client: Client): HTMLElement {
	const status = h("div", { role: "status", "aria-live": "polite" });
	const list = h("div", { id: "unsubscribe-list" });
	const address = h("input", { name: "unsubscribe-address", type: "search", autocomplete: "off", spellcheck: "false" });

	async function load(): Promise<void> {
		const q = address.value.trim() ? `?address=${enc(address.value.trim())}` : "";
		try {
			const { items } = await call<{ items: Unsubscribe[] }>(client, `/admin/unsubscribes${q}`);
			list.replaceChildren(
				items.length === 0
					? h("p", {}, q ? "This address is not unsubscribed from anything." : "Nobody has unsubscribed.")
					: h(
							"table",
							{},
							h("caption", { class: "sr-only" }, "Unsubscribes"),
							h("thead", {}, h("tr", {}, ...["Channel", "Address", "Category", "Since", ""].map(c => h("th", { scope: "col" }, c)))),
							h(
								"tbody",
								{},
								...items.map(u =>
									h(
										"tr",
										{ "data-address": u.address, "data-category": u.category },
										h("td", {}, u.channel),
										h("td", {}, u.address),
										h("td", {}, categoryName(u.category)),
										h("td", {}, time(u.createdAt)),
										h("td", {}, h("button", { class: "danger", "aria-label": `Remove the unsubscribe of ${u.address} from ${categoryName(u.category)} (${u.channel})`, onclick: () => remove(u) }, "Remove"))
									)
								)
							)
						)
			);
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	async function remove(u: Unsubscribe): Promise<void> {
		const what = categoryName(u.category);
		if (!(await confirmDialog(`Remove the unsubscribe of ${u.address} from ${what} on ${u.channel}? Do this only at the recipient's request: ${what} will be sent to them again.`, "Remove"))) return;
		try {
			await call(client, `/admin/unsubscribes/${enc(u.channel)}/${enc(u.address)}/${enc(u.category)}`, { method: "DELETE" });
			announce(status, `${u.address} receives ${what} on ${u.channel} again.`);
			await load();
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	void load();
	return h(
		"section",
		{ "aria-labelledby": "unsubscribes-heading" },
		h("h2", { id: "unsubscribes-heading" }, "Unsubscribes"),
		h("p", { class: "muted" }, "Recipients who asked, by a one-click link or their preferences, not to get a category (CRITICAL notifications ignore them)."),
		h(
			"form",
			{
				class: "search",
				role: "search",
				"aria-label": "Unsubscribes",
				onsubmit: (e: Event) => {
					e.preventDefault();
					void load();
				}
			},
			field("Address", address),
			h("button", { type: "submit" }, "Search")
		),
		status,
		list
	);
}
