/**
 * Users (a small view; a fuller Users page comes later): find accounts by the start of
 * their email address (GET /admin/users?query=), open one (GET /admin/users/{actorId})
 * to see its second factors, recovery codes left and verified phone, and reset every
 * factor after a confirmation (DELETE /admin/users/{actorId}/mfa, audited).
 */
import { call, enc, message, type Client } from "./api.js";
import { announce, confirmDialog, field, h, time } from "./dom.js";

interface UserEntry {
	actorId: string;
	email: string;
	firstName: string;
	lastName: string;
	createdAt: string;
	locked: boolean;
}

interface Factor {
	factorId: string;
	type: string;
	name: string;
	createdAt: string;
	lastUsedAt: string | null;
}

interface UserDetail extends UserEntry {
	emailVerified: boolean;
	phone?: string;
	phoneVerified: boolean;
	factors: { items: Factor[]; recoveryCodesLeft: number };
}

const FACTOR_NAMES: Record<string, string> = { totp: "Authenticator app (TOTP)", webauthn: "Passkey" };

export function usersPage(client: Client, root: HTMLElement): () => void {
	const status = h("div", { role: "status", "aria-live": "polite" });
	const list = h("div", { id: "user-list" });
	const detail = h("section", { id: "user-detail", "aria-live": "polite" });
	const query = h("input", { name: "query", type: "search", autocomplete: "off", spellcheck: "false" });

	async function load(): Promise<void> {
		const q = query.value.trim();
		try {
			const { items } = await call<{ items: UserEntry[] }>(client, `/admin/users${q ? `?query=${enc(q)}` : ""}`);
			list.replaceChildren(
				items.length === 0
					? h("p", {}, q ? "No account matches." : "No account yet.")
					: h(
							"table",
							{},
							h("caption", { class: "sr-only" }, "User accounts"),
							h("thead", {}, h("tr", {}, ...["Email", "Name", "Created", "Locked", ""].map(c => h("th", { scope: "col" }, c)))),
							h(
								"tbody",
								{},
								...items.map(u =>
									h(
										"tr",
										{ "data-actor": u.actorId },
										h("td", {}, u.email),
										h("td", {}, `${u.firstName} ${u.lastName}`),
										h("td", {}, time(u.createdAt)),
										h("td", {}, u.locked ? "Locked" : "No"),
										h("td", {}, h("button", { class: "secondary", "aria-label": `Show ${u.email}`, onclick: () => show(u.actorId) }, "Show"))
									)
								)
							)
						)
			);
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	async function show(actorId: string): Promise<void> {
		try {
			const u = await call<UserDetail>(client, `/admin/users/${enc(actorId)}`);
			const factors = u.factors.items;
			detail.replaceChildren(
				h("h2", { id: "user-detail-h", tabindex: "-1" }, u.email),
				h(
					"dl",
					{},
					h("dt", {}, "Email verified"),
					h("dd", {}, u.emailVerified ? "Yes" : "No"),
					h("dt", {}, "Phone"),
					h("dd", {}, u.phone ? `${u.phone} (verified)` : "None"),
					h("dt", {}, "Recovery codes left"),
					h("dd", {}, String(u.factors.recoveryCodesLeft))
				),
				h("h3", {}, "Second factors"),
				factors.length === 0
					? h("p", {}, "No second factor.")
					: h(
							"table",
							{ id: "factor-list" },
							h("caption", { class: "sr-only" }, `Second factors of ${u.email}`),
							h("thead", {}, h("tr", {}, ...["Type", "Name", "Added", "Last used"].map(c => h("th", { scope: "col" }, c)))),
							h(
								"tbody",
								{},
								...factors.map(f =>
									h("tr", { "data-factor": f.factorId }, h("td", {}, FACTOR_NAMES[f.type] ?? f.type), h("td", {}, f.name), h("td", {}, time(f.createdAt)), h("td", {}, f.lastUsedAt ? time(f.lastUsedAt) : "Never"))
								)
							)
						),
				factors.length === 0 ? "" : h("button", { class: "danger", onclick: () => reset(u) }, "Reset second factors")
			);
			(document.getElementById("user-detail-h") as HTMLElement).focus();
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	async function reset(u: UserDetail): Promise<void> {
		if (!(await confirmDialog(`Remove every second factor and recovery code of ${u.email}? They sign in with the password alone until they enrol again.`, "Reset"))) return;
		try {
			await call(client, `/admin/users/${enc(u.actorId)}/mfa`, { method: "DELETE" });
			announce(status, `The second factors of ${u.email} were reset.`);
			await show(u.actorId);
		} catch (err) {
			announce(status, message(err), "error");
		}
	}

	const form = h(
		"form",
		{
			role: "search",
			"aria-label": "Users",
			onsubmit: (e: Event) => {
				e.preventDefault();
				void load();
			}
		},
		field("Email starts with, or actor id", query),
		h("button", { type: "submit" }, "Find")
	);
	root.append(h("h1", {}, "Users"), form, status, list, detail);
	void load();
	return () => undefined;
}
