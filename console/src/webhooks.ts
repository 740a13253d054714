/** Webhook endpoints of every owner, with each one's recent delivery attempts (GET /admin/webhook-endpoints). */
import { call, message, type Client } from "./api.js";
import { announce, h, time } from "./dom.js";

interface Endpoint {
	endpointId: string;
	url: string;
	events: string[];
	createdAt: string;
	owner: { kind: string; id: string };
	recentAttempts: { webhookId: string; type: string; at: string; outcome: string; responseCode?: number; error?: string }[];
}

export function webhooksPage(client: Client, root: HTMLElement): () => void {
	const status = h("div", { role: "status", "aria-live": "polite" });
	const list = h("div", {});
	root.append(h("h1", {}, "Webhook endpoints"), status, list);
	call<{ items: Endpoint[] }>(client, "/admin/webhook-endpoints").then(
		({ items }) =>
			list.replaceChildren(
				items.length === 0 ? h("p", {}, "No webhook endpoint is registered.") : "",
				...items.map(e =>
					h(
						"section",
						{ class: "endpoint", "aria-label": e.url },
						h("h2", {}, h("code", {}, e.url)),
						h("p", { class: "muted" }, `${e.owner.kind} ${e.owner.id} · ${e.events.length ? e.events.join(", ") : "every event"} · since `, time(e.createdAt)),
						e.recentAttempts.length === 0
							? h("p", {}, "No delivery yet.")
							: h(
									"table",
									{},
									h("caption", {}, "Recent deliveries"),
									h("thead", {}, h("tr", {}, ...["When", "Event", "Outcome", "Response", "Webhook id"].map(c => h("th", { scope: "col" }, c)))),
									h(
										"tbody",
										{},
										...e.recentAttempts.map(a =>
											h(
												"tr",
												{},
												h("td", {}, time(a.at)),
												h("td", {}, a.type),
												h("td", { class: a.outcome === "failed" ? "bad" : "good" }, a.outcome),
												h("td", {}, a.responseCode !== undefined ? String(a.responseCode) : a.error ?? "—"),
												h("td", {}, h("code", {}, a.webhookId))
											)
										)
									)
								)
					)
				)
			),
		err => announce(status, message(err), "error")
	);
	return () => undefined;
}
