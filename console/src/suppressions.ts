/**
 * Suppressions and unsubscribes. Suppressions: the newest hundred, or those of one
 * address; remove one after a confirmation (DELETE /admin/suppressions/{channel}/{address}).
 * Unsubscribes are the second section (unsubscribes.ts).
 */
import { call, enc, message, type Client } from "./api.js";
import { announce, confirmDialog, field, h, time } from "./dom.js";
import { unsubscribesSection } from "./unsubscribes.js";

interface Suppression {
	channel: string;
	address: string;
	reason: string;
	createdAt: string;
}

export function suppressionsPage(client: Client, root: HTMLElement): () => void {
	const status = h("div", { role: "status", "aria-live": "polite" });
	const list = h("div", { id: "suppression-list" });
	const address = h("input", { name: "address", type: "search", autocomplete: "off", spellcheck: "false" });

	async function load(): Promise<void> {
		const q = address.value.trim() ? `?address=${enc(address.value.trim())}` : "";
		try {
			const { items } = await call<{ items: Suppression[] }>(client, `/admin/suppressions${q}`);
			list.replaceChildren(
				items.length === 0
					? h("p", {}, q ? "This address is not suppressed on any channel." : "No address is suppressed.")
					: h(
							"table",
							{},
							h("caption", { class: "sr-only" }, "Suppressed addresses"),
							h("thead", {}, h("tr", {}, ...["Channel", "Address", "Reason", "Since", ""].map(c => h("th", { scope: "col" }, c)))),
							h(
								"tbody",
								{},
								...items.map(s =>
									h(
										"tr",
										{ "data-address": s.address },
										h("td", {}, s.channel),
										h("td", {}, s.address),
										h("td", {}, s.reason),
										h("td", {}, time(s.createdAt)),
										h("td", {}, h("button", { class: "danger", "aria-label": `Remove ${s.address} (${s.channel})`, onclick: () => remove(s) }, "Remove"))
									)
								)
							)
						)
			);
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	async function remove(s: Suppression): Promise<void> {
		if (!(await confirmDialog(`Remove ${s.address} from the ${s.channel} suppression list? It will be sent to again.`, "Remove"))) return;
		try {
			await call(client, `/admin/suppressions/${enc(s.channel)}/${enc(s.address)}`, { method: "DELETE" });
			announce(status, `${s.address} removed from ${s.channel}.`);
			await load();
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	root.append(
		h("h1", {}, "Suppressions and unsubscribes"),
		h("h2", {}, "Suppressions"),
		h("p", { class: "muted" }, "Addresses not sent to after a permanent bounce, a complaint or an unusable number."),
		h(
			"form",
			{
				class: "search",
				role: "search",
				"aria-label": "Suppressions",
				onsubmit: (e: Event) => {
					e.preventDefault();
					void load();
				}
			},
			field("Address", address),
			h("button", { type: "submit" }, "Search")
		),
		status,
		list,
		unsubscribesSection(client)
	);
	void load();
	return () => undefined;
}
