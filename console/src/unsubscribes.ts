/**
 * Unsubscribes, a section of the suppressions page: the newest hundred, or those of
 * one address; remove one after a confirmation (DELETE
 * /admin/unsubscribes/{channel}/{address}/{category}), which an operator does on the
 * recipient's request: that category is sent to the address again.
 */
import { enc, type Client } from "./api.js";
import { h } from "./dom.js";
import { recordList } from "./records.js";

interface Unsubscribe {
	channel: string;
	address: string;
	category: string;
	createdAt: string;
}

/** `*` is every category: said in words, since a lone asterisk reads badly aloud. */
const categoryName = (c: string) => (c === "*" ? "every category" : c);

export function unsubscribesSection(client: Client): HTMLElement {
	return h(
		"section",
		{ "aria-labelledby": "unsubscribes-heading" },
		h("h2", { id: "unsubscribes-heading" }, "Unsubscribes"),
		h("p", { class: "muted" }, "Recipients who asked, by a one-click link or their preferences, not to get a category (CRITICAL notifications ignore them)."),
		...recordList<Unsubscribe>(client, {
			route: "/admin/unsubscribes",
			listId: "unsubscribe-list",
			inputName: "unsubscribe-address",
			searchLabel: "Unsubscribes",
			caption: "Unsubscribes",
			columns: ["Channel", "Address", "Category"],
			cells: u => [u.channel, u.address, categoryName(u.category)],
			rowData: u => ({ "data-address": u.address, "data-category": u.category }),
			empty: searched => (searched ? "This address is not unsubscribed from anything." : "Nobody has unsubscribed."),
			removeLabel: u => `Remove the unsubscribe of ${u.address} from ${categoryName(u.category)} (${u.channel})`,
			confirm: u =>
				`Remove the unsubscribe of ${u.address} from ${categoryName(u.category)} on ${u.channel}? Do this only at the recipient's request: ${categoryName(u.category)} will be sent to them again.`,
			removePath: u => `/admin/unsubscribes/${enc(u.channel)}/${enc(u.address)}/${enc(u.category)}`,
			removed: u => `${u.address} receives ${categoryName(u.category)} on ${u.channel} again.`
		})
	);
}
