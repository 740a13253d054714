/**
 * The administrators' console. It signs in with the platform's own login through
 * the client SDK and keeps the session in this tab's sessionStorage (gone when the
 * tab closes, never in an address, not shared with other tabs). Whoever is not an
 * administrator is told so and signed out: every page reads admin routes, which
 * answer 403 to anyone else, so the check here is for clarity, not protection.
 */
import { call, message } from "./api.js";
import { ApiError, createClient, webStorage, type Client } from "./client.js";
import { announce, field, h } from "./dom.js";
import { flagsPage } from "./flags.js";
import { notificationsPage } from "./notifications.js";
import { outboxPage } from "./outbox.js";
import { overviewPage } from "./overview.js";
import { suppressionsPage } from "./suppressions.js";
import { templatesPage } from "./templates.js";
import { usersPage } from "./users.js";
import { webhooksPage } from "./webhooks.js";

type Page = (client: Client, root: HTMLElement) => () => void;

const PAGES: Record<string, { title: string; page: Page }> = {
	overview: { title: "Overview", page: overviewPage },
	notifications: { title: "Notifications", page: notificationsPage },
	outbox: { title: "Outbox", page: outboxPage },
	templates: { title: "Templates", page: templatesPage },
	users: { title: "Users", page: usersPage },
	suppressions: { title: "Suppressions and unsubscribes", page: suppressionsPage },
	flags: { title: "Feature flags", page: flagsPage },
	webhooks: { title: "Webhooks", page: webhooksPage }
};

const app = document.getElementById("app")!;
const SESSION_KEY = "auth-notify.console";
const client = createClient({ baseUrl: location.origin, storage: webStorage(sessionStorage), storageKey: SESSION_KEY, onAuthRequired: () => signIn() });
let leave: () => void = () => undefined;

function signIn(notice?: string): void {
	leave();
	leave = () => undefined;
	const username = h("input", { name: "username", type: "email", autocomplete: "username", required: true });
	const password = h("input", { name: "password", type: "password", autocomplete: "current-password", required: true });
	const status = h("div", { role: "status", "aria-live": "polite" });
	if (notice) announce(status, notice, "error");
	const form = h(
		"form",
		{
			class: "signin",
			"aria-labelledby": "signin-h",
			onsubmit: async (e: Event) => {
				e.preventDefault();
				announce(status, "Signing in…");
				try {
					await client.login(username.value.trim(), password.value);
					await enter();
				} catch (err) {
					announce(status, err instanceof ApiError && err.status === 401 ? "Wrong email or password." : message(err), "error");
				}
			}
		},
		h("h1", { id: "signin-h" }, "auth-notify console"),
		h("p", { class: "muted" }, "For administrators. Sign in with your platform account."),
		field("Email", username),
		field("Password", password),
		h("button", { type: "submit" }, "Sign in"),
		status
	);
	app.replaceChildren(h("main", { id: "main" }, form));
	username.focus();
}

/** Revokes the refresh token at the platform (POST /auth/logout, in the body) and forgets the session. */
async function signOut(): Promise<void> {
	try {
		const refreshToken = (JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? "{}") as { refreshToken?: string }).refreshToken;
		if (refreshToken) await fetch("/auth/logout", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ refreshToken }) });
	} finally {
		await client.logout();
	}
}

/** Checks the session belongs to an administrator, then shows the console. */
async function enter(): Promise<void> {
	try {
		await call(client, "/admin/stats");
	} catch (err) {
		if (err instanceof ApiError && err.status === 403) {
			await signOut();
			return refuse();
		}
		if (err instanceof ApiError && err.status === 401) return signIn();
		return signIn(message(err));
	}
	shell();
}

function refuse(): void {
	app.replaceChildren(
		h(
			"main",
			{ id: "main", class: "refusal" },
			h("h1", { id: "refused" }, "Administrators only"),
			h("p", {}, "This account is not an administrator, so the console cannot be shown. You have been signed out."),
			h("button", { onclick: () => signIn() }, "Sign in as someone else")
		)
	);
	(document.getElementById("refused") as HTMLElement).setAttribute("tabindex", "-1");
	(document.getElementById("refused") as HTMLElement).focus();
}

function shell(): void {
	const main = h("main", { id: "main", tabindex: "-1" });
	const links = Object.entries(PAGES).map(([key, p]) => h("a", { href: `#${key}`, "data-page": key }, p.title));
	const nav = h(
		"nav",
		{ "aria-label": "Console" },
		h("span", { class: "brand" }, "auth-notify"),
		h("ul", {}, ...links.map(a => h("li", {}, a))),
		h(
			"button",
			{
				class: "secondary",
				onclick: async () => {
					await signOut().catch(() => undefined);
					signIn();
				}
			},
			"Sign out"
		)
	);
	app.replaceChildren(h("a", { href: "#main", class: "skip" }, "Skip to content"), h("header", {}, nav), main);
	const show = () => {
		const key = Object.hasOwn(PAGES, location.hash.slice(1)) ? location.hash.slice(1) : "overview";
		leave();
		main.replaceChildren();
		markCurrent(links, key);
		document.title = `${PAGES[key].title} · auth-notify console`;
		leave = PAGES[key].page(client, main);
	};
	window.onhashchange = show;
	show();
}

/** aria-current="page" on the link of the page shown. */
function markCurrent(links: HTMLAnchorElement[], key: string): void {
	for (const a of links) {
		if (a.dataset.page === key) a.setAttribute("aria-current", "page");
		else a.removeAttribute("aria-current");
	}
}

void (async () => ((await client.accessToken()) ? enter() : signIn()))();
