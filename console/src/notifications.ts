/**
 * Notifications: the newest fifty as the page opens, then found by id or listed by
 * recipient, status and channel (GET /notifications); open one to see its timeline as a
 * vertical list with times, attempts and provider ids, scrolled into view; cancel it
 * while it is still QUEUED.
 */
import { call, enc, message, type Client } from "./api.js";
import { announce, confirmDialog, field, h, select, time } from "./dom.js";

const STATUSES = ["QUEUED", "PROCESSING", "SENT", "DELIVERED", "BOUNCED", "COMPLAINT", "FAILED", "SUPPRESSED", "UNSUBSCRIBED", "CANCELLED"];
const CHANNELS = ["EMAIL", "SMS", "PUSH"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Summary {
	notificationId: string;
	status: string;
	channel: string;
	to: string;
	subject?: string;
	priority: string;
	attempts: number;
	providerMessageId?: string;
	createdAt: string;
	updatedAt: string;
}

interface View extends Summary {
	events: { event: string; occurredAt: string; detail?: Record<string, unknown> }[];
}

function timeline(v: View): HTMLElement {
	return h(
		"ol",
		{ class: "timeline", "aria-label": "Timeline" },
		...v.events.map(e =>
			h(
				"li",
				{ "data-event": e.event },
				h("div", { class: "event" }, e.event),
				time(e.occurredAt),
				e.detail ? h("dl", { class: "detail" }, ...Object.entries(e.detail).flatMap(([k, val]) => [h("dt", {}, k), h("dd", {}, typeof val === "string" ? val : JSON.stringify(val))])) : null
			)
		)
	);
}

export function notificationsPage(client: Client, root: HTMLElement): () => void {
	const status = h("div", { role: "status", "aria-live": "polite" });
	const results = h("div", { id: "results" });
	const detail = h("section", { id: "detail", "aria-label": "Notification" });
	const idInput = h("input", { name: "id", type: "search", class: "wide", placeholder: "0190…", autocomplete: "off", spellcheck: "false" });
	const toInput = h("input", { name: "to", type: "search", autocomplete: "off" });
	const statusSel = select("status", STATUSES, "Any status");
	const channelSel = select("channel", CHANNELS, "Any channel");

	async function open(id: string): Promise<void> {
		try {
			const v = await call<View>(client, `/notifications/${enc(id)}`);
			const cancel =
				v.status === "QUEUED"
					? h("button", {
							class: "danger",
							onclick: async () => {
								if (!(await confirmDialog(`Cancel notification ${v.notificationId} to ${v.to}?`, "Cancel notification"))) return;
								try {
									await call(client, `/notifications/${enc(v.notificationId)}`, { method: "DELETE" });
									announce(status, "Cancelled.");
									await open(v.notificationId);
								} catch (err) {
									announce(status, message(err), "error");
								}
							}
						}, "Cancel this notification")
					: null;
			detail.replaceChildren(
				h("h2", {}, "Notification ", h("code", {}, v.notificationId)),
				h(
					"dl",
					{ class: "facts" },
					...([
						["Status", v.status],
						["Channel", v.channel],
						["To", v.to],
						["Subject", v.subject ?? "—"],
						["Priority", v.priority],
						["Attempts", String(v.attempts)],
						["Provider id", v.providerMessageId ?? "—"]
					] as const).flatMap(([k, val]) => [h("dt", {}, k), h("dd", { "data-fact": k }, val)])
				),
				cancel ?? "",
				h("h3", {}, "Timeline"),
				timeline(v)
			);
			detail.querySelector("h2")?.setAttribute("tabindex", "-1");
			// Below a long list the detail would open out of sight: bring it up, then move focus there without a second jump.
			detail.scrollIntoView({ block: "start" });
			(detail.querySelector("h2") as HTMLElement | null)?.focus({ preventScroll: true });
		} catch (err) {
			detail.replaceChildren();
			announce(status, message(err), "error");
		}
	}

	async function search(e?: Event): Promise<void> {
		e?.preventDefault();
		status.textContent = "";
		detail.replaceChildren();
		const id = idInput.value.trim();
		if (id) {
			if (!UUID.test(id)) return announce(status, "A notification id is a UUID.", "error");
			results.replaceChildren();
			return open(id);
		}
		const q = new URLSearchParams();
		if (toInput.value.trim()) q.set("to", toInput.value.trim());
		if (statusSel.value) q.set("status", statusSel.value);
		if (channelSel.value) q.set("channel", channelSel.value);
		q.set("limit", "50");
		try {
			const page = await call<{ items: Summary[] }>(client, `/notifications?${q}`);
			announce(status, `${page.items.length} found${page.items.length === 50 ? " (the newest 50)" : ""}.`);
			results.replaceChildren(
				h(
					"table",
					{},
					h("caption", { class: "sr-only" }, "Notifications found"),
					h("thead", {}, h("tr", {}, ...["Created", "To", "Subject", "Channel", "Priority", "Status", ""].map(c => h("th", { scope: "col" }, c)))),
					h(
						"tbody",
						{},
						...page.items.map(n =>
							h(
								"tr",
								{},
								h("td", {}, time(n.createdAt)),
								h("td", {}, n.to),
								h("td", {}, n.subject ?? "—"),
								h("td", {}, n.channel),
								h("td", {}, n.priority),
								h("td", {}, n.status),
								h("td", {}, h("button", { class: "secondary", "aria-label": `Open ${n.notificationId}`, onclick: () => open(n.notificationId) }, "Open"))
							)
						)
					)
				)
			);
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	root.append(
		h("h1", {}, "Notifications"),
		h(
			"form",
			{ class: "search", role: "search", onsubmit: search },
			field("Notification id", idInput),
			field("Recipient", toInput),
			field("Status", statusSel),
			field("Channel", channelSel),
			h("button", { type: "submit" }, "Search")
		),
		status,
		results,
		detail
	);
	// The newest first, without a search: what an administrator opening the page wants to see.
	void search();
	return () => undefined;
}
