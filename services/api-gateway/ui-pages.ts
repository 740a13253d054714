/**
 * GET /ui/...: the few pages the account mails link to when no web app is configured
 * (UI_BASE_URL unset, so it is PUBLIC_URL + /ui): verifying an address and setting a
 * new password. The token travels in the link's fragment, which browsers never send,
 * so it is in no request line and no log; the page's script reads it, removes it from
 * the address bar, and posts it to the API as a web app would (POST
 * /auth/email/verify, POST /auth/password/reset). The pages run under the console's
 * Content-Security-Policy (its stylesheet, one script of this origin, nothing inline).
 */
import type { ActionSchema, Context } from "moleculer";
import { notFound } from "../../lib/errors";
import type { HttpMeta } from "../../lib/http/meta";
import { CONSOLE_CSP } from "./console";
import type { GatewayThis } from "./types";

// Paths are relative to the page, so the pages work behind a proxy that serves the platform under a prefix.
const shell = (page: string, title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · auth-notify</title>
<link rel="icon" href="../console/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="../console/console.css">
<script type="module" src="ui.js"></script>
</head>
<body data-page="${page}">
<main id="main" class="signin">
<h1>${title}</h1>
${body}
<div id="status" role="status" aria-live="polite"></div>
</main>
</body>
</html>
`;

const PAGES = {
	"verify-email": shell("verify-email", "Verify your email address", `<p class="muted">Confirming the address this link was mailed to.</p>`),
	"reset-password": shell(
		"reset-password",
		"Choose a new password",
		`<form id="reset" hidden>
<div class="field"><label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="8"></div>
<div class="field"><label for="again">The same password again</label><input id="again" name="again" type="password" autocomplete="new-password" required minlength="8"></div>
<button type="submit">Set the new password</button>
</form>`
	)
} as const;

/** The pages' one script: plain JavaScript, served as a file (no inline script under the CSP). */
export const UI_SCRIPT = `const page = document.body.dataset.page;
const status = document.getElementById("status");
const token = new URLSearchParams(location.hash.slice(1)).get("token");
// Out of the address bar and the history: a copied address or a shared screen does not carry it.
if (token) history.replaceState(null, "", location.pathname);
function show(text, kind) {
	status.className = "notice " + kind;
	status.textContent = text;
}
async function post(path, body) {
	const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
	if (res.ok) return null;
	const problem = await res.json().catch(() => ({}));
	return problem.detail || "The platform answered " + res.status + ".";
}
const unreachable = () => show("The platform could not be reached. Try the link again.", "error");
if (!token) show("This link has no token. Open the link from the mail as it is.", "error");
else if (page === "verify-email") {
	show("Verifying…", "ok");
	post("../auth/email/verify", { token }).then(err => show(err || "Your email address is verified. You can close this page.", err ? "error" : "ok"), unreachable);
} else if (page === "reset-password") {
	const form = document.getElementById("reset");
	form.hidden = false;
	form.addEventListener("submit", async e => {
		e.preventDefault();
		const password = form.elements.password.value;
		if (password !== form.elements.again.value) return show("The two passwords differ.", "error");
		try {
			const err = await post("../auth/password/reset", { token, password });
			if (err) return show(err, "error");
			form.hidden = true;
			show("Your password is set. Sign in with it; every other session was signed out.", "ok");
		} catch {
			unreachable();
		}
	});
}
`;

const headers = {
	"Content-Security-Policy": CONSOLE_CSP,
	"Cache-Control": "no-cache",
	"X-Frame-Options": "DENY",
	// The fragment is never in a Referer, but a page holding a token sends none at all.
	"Referrer-Policy": "no-referrer"
};

export const UI_ACTIONS: Record<string, ActionSchema<GatewayThis>> = {
	uiPage: {
		visibility: "published",
		auth: "public",
		params: { page: { type: "string", max: 64 }, $$strict: true },
		openapi: {
			summary: "The platform's own account pages",
			description:
				"When `UI_BASE_URL` is unset, the verification and reset mails link here (`/ui` + `UI_VERIFY_EMAIL_PATH` or `UI_RESET_PASSWORD_PATH`, the token in the fragment); the page posts the token to the API. Also `ui.js`, their script.",
			success: { status: 200, description: "The page, or its script.", contentType: ["text/html", "text/javascript"], schema: { type: "string" } },
			problems: ["NOT_FOUND"],
			storage: false
		},
		handler(this: GatewayThis, ctx: Context<{ page: string }, HttpMeta>): string {
			const { page } = ctx.params;
			ctx.meta.$responseHeaders = headers;
			if (page === "ui.js") {
				ctx.meta.$responseType = "text/javascript; charset=utf-8";
				return UI_SCRIPT;
			}
			// The configured paths name the pages, so a link built with UI_VERIFY_EMAIL_PATH=/verify lands on one.
			const { verifyEmailPath, resetPasswordPath } = this.runtime().config.accounts;
			const which = `/${page}` === verifyEmailPath ? "verify-email" : `/${page}` === resetPasswordPath ? "reset-password" : null;
			if (!which) throw notFound("NOT_FOUND", "There is no such page.");
			ctx.meta.$responseType = "text/html; charset=utf-8";
			return PAGES[which];
		}
	}
};
