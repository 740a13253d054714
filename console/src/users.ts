/**
 * Users: find accounts (GET /admin/users?query=), open one (GET /admin/users/{actorId}:
 * profile, lock, deliverability, second factors and open sessions) with its audit and
 * the delivery status of each security alert (GET /admin/audit?actorId=), and act on it:
 * end its sessions, lock, unlock, reset MFA, delete (each after a confirmation but
 * unlock). Every value is a text node or an attribute (dom.ts h()).
 */
import { call, enc, message, type Client } from "./api.js";
import { announce, confirmDialog, field, h, time } from "./dom.js";

interface UserSummary {
	actorId: string;
	email: string;
	firstName: string;
	lastName: string;
	createdAt: string;
	locked: boolean;
	lockedAt?: string;
}

interface Session {
	sessionId: string;
	createdAt: string;
	lastUsedAt: string;
	userAgent: string | null;
	ip: string | null;
	amr: string[];
}

interface Factor {
	factorId: string;
	type: string;
	name: string;
	createdAt: string;
	lastUsedAt: string | null;
}

interface UserDetail extends UserSummary {
	emailVerified: boolean;
	emailDeliverable: boolean;
	sessions?: Session[];
	factors: Factor[];
}

interface AuditEvent {
	eventId: string;
	type: string;
	occurredAt: string;
	ip: string | null;
	userAgent: string | null;
	notificationId?: string;
	deliveryStatus?: string;
}

const dash = (v: string | null | undefined) => v || "—";

function table(id: string, caption: string, columns: string[], rows: HTMLElement[]): HTMLElement {
	return h(
		"table",
		{ id },
		h("caption", { class: "sr-only" }, caption),
		h("thead", {}, h("tr", {}, ...columns.map(c => h("th", { scope: "col" }, c)))),
		h("tbody", {}, ...rows)
	);
}

function facts(u: UserDetail): HTMLElement {
	const rows: [string, Node | string][] = [
		["Name", `${u.firstName} ${u.lastName}`.trim() || "—"],
		["Email", u.email],
		["Actor id", u.actorId],
		["Member since", time(u.createdAt)],
		["Email verified", u.emailVerified ? "yes" : "no"],
		["Email deliverable", u.emailDeliverable ? "yes" : h("span", { class: "badge danger" }, "no: bounced or complained")],
		["Locked", u.locked ? h("span", { class: "badge danger" }, u.lockedAt ? `since ${new Date(u.lockedAt).toLocaleString()}` : "yes") : "no"]
	];
	return h("dl", { class: "facts" }, ...rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", { "data-fact": k }, v)]));
}

function auditRow(e: AuditEvent): HTMLElement {
	return h(
		"tr",
		{ "data-type": e.type },
		h("td", {}, e.type),
		h("td", {}, time(e.occurredAt)),
		h("td", {}, dash(e.ip)),
		h("td", {}, dash(e.userAgent)),
		h("td", {}, e.notificationId ? h("code", { "data-notification": e.notificationId }, e.notificationId) : "—"),
		h("td", { class: "delivery" }, dash(e.deliveryStatus))
	);
}

export function usersPage(client: Client, root: HTMLElement): () => void {
	const status = h("div", { role: "status", "aria-live": "polite" });
	const query = h("input", { name: "query", type: "search", autocomplete: "off", spellcheck: "false" });
	const results = h("tbody", {});
	const more = h("button", { class: "secondary", hidden: true }, "More accounts");
	const detail = h("section", { id: "user", "aria-label": "Account" });
	let cursor: string | undefined;
	let left = false;

	async function act(u: UserDetail, what: { ask?: string; button?: string; method: string; path: string; done: string }): Promise<void> {
		if (what.ask && !(await confirmDialog(what.ask, what.button ?? "Confirm"))) return;
		try {
			await call(client, what.path, { method: what.method });
			if (what.method === "DELETE" && what.path === `/admin/users/${enc(u.actorId)}`) {
				detail.replaceChildren();
				await search(false);
			} else await open(u.actorId, false);
			announce(status, what.done);
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	function actions(u: UserDetail): HTMLElement {
		const base = `/admin/users/${enc(u.actorId)}`;
		const who = u.email;
		return h(
			"div",
			{ class: "actions", role: "group", "aria-label": `Actions for ${who}` },
			h("button", { class: "secondary", onclick: () => act(u, { ask: `End every session of ${who}? Their devices must sign in again.`, button: "End sessions", method: "DELETE", path: `${base}/sessions`, done: `Every session of ${who} ended.` }) }, "End all sessions"),
			u.locked
				? h("button", { class: "secondary", onclick: () => act(u, { method: "POST", path: `${base}/unlock`, done: `${who} unlocked: password sign-in works again.` }) }, "Unlock")
				: h("button", { class: "secondary", onclick: () => act(u, { ask: `Lock ${who}? Every session ends and password sign-in is refused until unlocked.`, button: "Lock", method: "POST", path: `${base}/lock`, done: `${who} locked.` }) }, "Lock"),
			h("button", { class: "secondary", disabled: u.factors.length === 0, onclick: () => act(u, { ask: `Remove every second factor of ${who}? They sign in with the password alone until they enrol again.`, button: "Reset MFA", method: "DELETE", path: `${base}/mfa`, done: `Second factors of ${who} removed.` }) }, "Reset MFA"),
			h("button", { class: "danger", onclick: () => act(u, { ask: `Delete the account ${who}? Its sessions, notifications data and documents go; this cannot be undone.`, button: "Delete account", method: "DELETE", path: base, done: `${who} is being deleted.` }) }, "Delete account")
		);
	}

	/** The audit comes a page at a time: this button appends the next older page to the table until there is none. */
	function olderEvents(actorId: string, first: string | undefined): HTMLElement {
		let next = first;
		const button = h("button", { class: "secondary", hidden: !next }, "Older events");
		button.addEventListener("click", async () => {
			try {
				const page = await call<{ items: AuditEvent[]; nextCursor?: string }>(client, `/admin/audit?actorId=${enc(actorId)}&cursor=${enc(next!)}`);
				if (left) return;
				detail.querySelector("#user-audit tbody")?.append(...page.items.map(auditRow));
				next = page.nextCursor;
				button.hidden = !next;
				announce(status, `${page.items.length} older events${next ? "; more remain" : ""}.`);
			} catch (err) {
				announce(status, message(err), "error");
			}
		});
		return button;
	}

	async function open(actorId: string, focus = true): Promise<void> {
		try {
			const [u, audit] = await Promise.all([call<UserDetail>(client, `/admin/users/${enc(actorId)}`), call<{ items: AuditEvent[]; nextCursor?: string }>(client, `/admin/audit?actorId=${enc(actorId)}`)]);
			if (left) return;
			const title = h("h2", { tabindex: "-1" }, u.email);
			const sessions = u.sessions ?? [];
			detail.replaceChildren(
				title,
				facts(u),
				actions(u),
				h("h3", {}, `Sessions (${sessions.length})`),
				sessions.length
					? table(
							"user-sessions",
							`Open sessions of ${u.email}`,
							["Started", "Last used", "Address", "Browser", "Sign-in"],
							sessions.map(s => h("tr", { "data-session": s.sessionId }, h("td", {}, time(s.createdAt)), h("td", {}, time(s.lastUsedAt)), h("td", {}, dash(s.ip)), h("td", {}, dash(s.userAgent)), h("td", {}, s.amr.join(", ") || "—")))
						)
					: h("p", { class: "muted" }, "No open session."),
				h("h3", {}, `Second factors (${u.factors.length})`),
				u.factors.length
					? table(
							"user-factors",
							`Second factors of ${u.email}`,
							["Type", "Name", "Enrolled", "Last used"],
							u.factors.map(f => h("tr", { "data-factor": f.factorId }, h("td", {}, f.type), h("td", {}, f.name), h("td", {}, time(f.createdAt)), h("td", {}, f.lastUsedAt ? time(f.lastUsedAt) : "never")))
						)
					: h("p", { class: "muted" }, "None: password only."),
				h("h3", {}, "Security events"),
				h("p", { class: "muted" }, "Newest first; an alert's delivery status is read live from its notification."),
				audit.items.length
					? table("user-audit", `Security events of ${u.email}`, ["Event", "Time", "Address", "Browser", "Alert", "Delivery"], audit.items.map(auditRow))
					: h("p", { class: "muted" }, "No event recorded."),
				olderEvents(actorId, audit.nextCursor)
			);
			if (focus) {
				detail.scrollIntoView({ block: "start" });
				title.focus({ preventScroll: true });
			}
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	function row(u: UserSummary): HTMLElement {
		return h(
			"tr",
			{ "data-actor": u.actorId },
			h("td", {}, u.email),
			h("td", {}, `${u.firstName} ${u.lastName}`.trim()),
			h("td", {}, time(u.createdAt)),
			h("td", {}, u.locked ? h("span", { class: "badge danger" }, "locked") : ""),
			h("td", {}, h("button", { class: "secondary", "aria-label": `Open ${u.email}`, onclick: () => open(u.actorId) }, "Open"))
		);
	}

	async function search(next: boolean): Promise<void> {
		try {
			const q = new URLSearchParams();
			if (query.value.trim()) q.set("query", query.value.trim());
			if (next && cursor) q.set("cursor", cursor);
			const page = await call<{ items: UserSummary[]; nextCursor?: string }>(client, `/admin/users?${q}`);
			if (left) return;
			if (!next) results.replaceChildren();
			results.append(...page.items.map(row));
			cursor = page.nextCursor;
			more.hidden = !cursor;
			if (!next) announce(status, page.items.length ? `${page.items.length}${cursor ? "+" : ""} accounts.` : "No account matches.");
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	more.addEventListener("click", () => void search(true));
	root.append(
		h("h1", {}, "Users"),
		h("p", { class: "muted" }, "Find an account by the start of its email address or by its actor id."),
		h(
			"form",
			{
				class: "search",
				role: "search",
				"aria-label": "Users",
				onsubmit: (e: Event) => {
					e.preventDefault();
					void search(false);
				}
			},
			field("Email or actor id", query),
			h("button", { type: "submit" }, "Search")
		),
		status,
		table("users", "Accounts", ["Email", "Name", "Member since", "State", ""], []),
		more,
		detail
	);
	root.querySelector("#users")!.replaceChild(results, root.querySelector("#users tbody")!);
	void search(false);
	return () => {
		left = true;
	};
}
