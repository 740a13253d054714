/**
 * Outbox: what the `file` providers wrote and the newest in-app messages (GET /admin/outbox), newest first, and one
 * message (GET /admin/outbox/{id}). An email's HTML is shown in a sandboxed frame
 * without scripts or same-origin rights, its links opening in a new tab; its text,
 * an SMS's text and a push payload are text nodes, with their web links made into
 * links (built as elements, never parsed as HTML), so a verification link is a click.
 */
import { call, enc, message, type Client } from "./api.js";
import { announce, h, time } from "./dom.js";

interface Summary {
	id: string;
	channel: string;
	notificationId: string;
	to: string;
	subject?: string;
	preview: string;
	createdAt: string;
}

interface Message extends Summary {
	from?: string | null;
	headers?: { name: string; value: string }[];
	text?: string;
	html?: string;
	payload?: unknown;
	/** IN_APP: the message as the recipient's inbox holds it. */
	body?: string;
	data?: Record<string, unknown>;
	state?: string;
}

const URL_IN_TEXT = /(https?:\/\/[^\s<>"')\]]+)/g;

/** Text with each http(s) address as a link that opens in a new tab. */
function linked(text: string): HTMLElement {
	const pre = h("pre", { class: "message-body" });
	let last = 0;
	for (const m of text.matchAll(URL_IN_TEXT)) {
		pre.append(text.slice(last, m.index), h("a", { href: m[0], target: "_blank", rel: "noopener noreferrer" }, m[0]));
		last = m.index + m[0].length;
	}
	pre.append(text.slice(last));
	return pre;
}

/**
 * The email's HTML in a frame that may run nothing: no scripts, an opaque origin (no
 * access to the console's session), links only as new tabs (a <base> makes every link
 * one). The frame inherits the console's CSP, so remote images and inline styles stay off.
 */
function htmlFrame(html: string): HTMLIFrameElement {
	const frame = h("iframe", { class: "message-frame", title: "The email as HTML", sandbox: "allow-popups allow-popups-to-escape-sandbox" });
	frame.srcdoc = `<!doctype html><meta charset="utf-8"><base target="_blank">${html}`;
	return frame;
}

function facts(m: Message): HTMLElement {
	const rows: [string, string][] = [
		["Channel", m.channel],
		["To", m.to],
		["From", m.from ?? "—"],
		["Written", new Date(m.createdAt).toLocaleString()],
		["Notification", m.notificationId]
	];
	return h("dl", { class: "facts" }, ...rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", { "data-fact": k }, v)]));
}

function body(m: Message): (HTMLElement | string)[] {
	const parts: (HTMLElement | string)[] = [];
	if (m.html !== undefined) parts.push(h("h3", {}, "HTML"), htmlFrame(m.html));
	if (m.text !== undefined) parts.push(h("h3", {}, "Text"), linked(m.text));
	if (m.payload !== undefined) parts.push(h("h3", {}, "Payload"), linked(JSON.stringify(m.payload, null, 2)));
	if (m.body !== undefined) parts.push(h("h3", {}, "Message"), linked(m.body));
	if (m.state !== undefined) parts.push(h("p", { "data-fact": "State" }, `In the recipient's inbox: ${m.state}`));
	if (m.data !== undefined && Object.keys(m.data).length > 0) parts.push(h("h3", {}, "Data"), linked(JSON.stringify(m.data, null, 2)));
	if (m.headers)
		parts.push(
			h("h3", {}, "Headers"),
			h(
				"table",
				{ class: "headers" },
				h("caption", { class: "sr-only" }, "Headers"),
				h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Name"), h("th", { scope: "col" }, "Value"))),
				h("tbody", {}, ...m.headers.map(x => h("tr", {}, h("th", { scope: "row" }, x.name), h("td", {}, x.value))))
			)
		);
	return parts;
}

export function outboxPage(client: Client, root: HTMLElement): () => void {
	const status = h("div", { role: "status", "aria-live": "polite" });
	const rows = h("tbody", {});
	const more = h("button", { class: "secondary", hidden: true }, "Older messages");
	const detail = h("section", { id: "detail", "aria-label": "Message" });
	let cursor: string | undefined;
	let left = false;

	async function open(id: string): Promise<void> {
		try {
			const m = await call<Message>(client, `/admin/outbox/${enc(id)}`);
			if (left) return;
			const title = h("h2", { tabindex: "-1" }, m.subject || `${m.channel} to ${m.to}`);
			detail.replaceChildren(title, facts(m), ...body(m));
			detail.scrollIntoView({ block: "start" });
			title.focus({ preventScroll: true });
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	function row(s: Summary): HTMLElement {
		return h(
			"tr",
			{ "data-id": s.id },
			h("td", {}, time(s.createdAt)),
			h("td", {}, s.channel),
			h("td", {}, s.to),
			h("td", {}, s.subject ?? s.preview),
			h("td", {}, h("button", { class: "secondary", "aria-label": `Open the ${s.channel} to ${s.to}${s.subject ? `: ${s.subject}` : ""}`, onclick: () => open(s.id) }, "Open"))
		);
	}

	async function load(next: boolean): Promise<void> {
		try {
			const q = new URLSearchParams({ limit: "50" });
			if (next && cursor) q.set("cursor", cursor);
			const page = await call<{ items: Summary[]; nextCursor?: string }>(client, `/admin/outbox?${q}`);
			if (left) return;
			if (!next) rows.replaceChildren();
			rows.append(...page.items.map(row));
			cursor = page.nextCursor;
			more.hidden = !cursor;
			if (!next) announce(status, page.items.length ? `${page.items.length}${cursor ? "+" : ""} messages, newest first.` : "Nothing written yet: messages sent with the file providers appear here.");
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	more.addEventListener("click", () => void load(true));
	root.append(
		h("h1", {}, "Outbox"),
		h("p", { class: "muted" }, "Every email, SMS and push message the file providers wrote (DATA_DIR/outbox), newest first. Nothing here left the machine."),
		h("div", { class: "actions" }, h("button", { onclick: () => void load(false) }, "Refresh")),
		status,
		h(
			"table",
			{ id: "outbox" },
			h("caption", { class: "sr-only" }, "Messages written"),
			h("thead", {}, h("tr", {}, ...["Written", "Channel", "To", "Subject", ""].map(c => h("th", { scope: "col" }, c)))),
			rows
		),
		more,
		detail
	);
	void load(false);
	return () => {
		left = true;
	};
}
