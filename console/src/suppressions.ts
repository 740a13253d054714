/**
 * Suppressions and unsubscribes. Suppressions: the newest hundred, or those of one
 * address; remove one after a confirmation (DELETE /admin/suppressions/{channel}/{address}).
 * Unsubscribes are the second section (unsubscribes.ts).
 */
import { enc, type Client } from "./api.js";
import { h } from "./dom.js";
import { recordList } from "./records.js";
import { unsubscribesSection } from "./unsubscribes.js";

interface Suppression {
	channel: string;
	address: string;
	reason: string;
	createdAt: string;
}

export function suppressionsPage(client: Client, root: HTMLElement): () => void {
	root.append(
		h("h1", {}, "Suppressions and unsubscribes"),
		h("h2", {}, "Suppressions"),
		h("p", { class: "muted" }, "Addresses not sent to after a permanent bounce, a complaint or an unusable number."),
		...recordList<Suppression>(client, {
			route: "/admin/suppressions",
			listId: "suppression-list",
			inputName: "address",
			searchLabel: "Suppressions",
			caption: "Suppressed addresses",
			columns: ["Channel", "Address", "Reason"],
			cells: s => [s.channel, s.address, s.reason],
			rowData: s => ({ "data-address": s.address }),
			empty: searched => (searched ? "This address is not suppressed on any channel." : "No address is suppressed."),
			removeLabel: s => `Remove ${s.address} (${s.channel})`,
			confirm: s => `Remove ${s.address} from the ${s.channel} suppression list? It will be sent to again.`,
			removePath: s => `/admin/suppressions/${enc(s.channel)}/${enc(s.address)}`,
			removed: s => `${s.address} removed from ${s.channel}.`
		}),
		unsubscribesSection(client)
	);
	return () => undefined;
}
