/**
 * GET /ui/...: the few pages the account mails link to when no web app is configured
 * (UI_BASE_URL unset, so it is PUBLIC_URL + /ui): verifying an address, setting a
 * new password, signing in with a one-time code's magic link, a security alert's "not
 * me" (POST /auth/security/not-me), and the end of a social sign-in. A mail's token
 * travels in the link's fragment, which browsers never send, so it is in no request
 * line and no log; social sign-in's single-use temporary token comes in the query
 * (spec). The page's script reads it, removes it from the address bar, and posts it to
 * the API as a web app would (POST /auth/email/verify, POST /auth/password/reset, POST
 * /auth/otp/verify, POST /auth/security/not-me, POST /auth/tokens/exchange). The pages run under the console's
 * Content-Security-Policy (its stylesheet, one script of this origin, nothing inline).
 */
import type { ActionSchema, Context } from "moleculer";
import { notFound } from "../../lib/errors";
import type { HttpMeta } from "../../lib/http/meta";
import type { ActionDoc } from "../../lib/openapi/types";
import { CONSOLE_CSP } from "./console";
import type { GatewayThis } from "./types";

// Paths are relative to the page, so the pages work behind a proxy that serves the platform under a prefix.
// `up` climbs out of a page path of more than one segment (the social callback's /auth/callback).
const shell = (page: string, title: string, body: string, up = "") => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · auth-notify</title>
<link rel="icon" href="${up}../console/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${up}../console/console.css">
<script type="module" src="${up}ui.js"></script>
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
	),
	"magic-link": shell("magic-link", "Sign in", `<p class="muted">Signing in with the link from your mail.</p>`),
	"not-me": shell(
		"not-me",
		"This was not me",
		`<form id="not-me" hidden>
<p>Securing your account signs out every session, on every device, and blocks sign-in with your password until you choose a new one with "Forgot password".</p>
<button type="submit">Secure my account</button>
</form>`
	)
} as const;

/** The end of a social sign-in, at UI_CALLBACK_PATH, which may have several segments. */
const callbackPage = (path: string) => shell("callback", "Sign in", `<p class="muted">Finishing the sign-in with your provider.</p>`, "../".repeat(path.split("/").length - 2));

/** The pages' one script: plain JavaScript, served as a file (no inline script under the CSP). */
export const UI_SCRIPT = `const page = document.body.dataset.page;
// The API's paths from this script's own address (/ui/ui.js), whatever page loaded it.
const api = path => new URL(path, import.meta.url);
const status = document.getElementById("status");
// Social sign-in ends with its single-use temporary token (or an error code) in the query; mails put theirs in the fragment.
const query = new URLSearchParams(location.search);
const token = page === "callback" ? query.get("token") : new URLSearchParams(location.hash.slice(1)).get("token");
// Out of the address bar and the history: a copied address or a shared screen does not carry it.
if (token || query.get("error")) history.replaceState(null, "", location.pathname);
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
// The platform's own pages have no app to hand a session to: they sign in, say as whom, and keep nothing.
function signIn(path) {
	show("Signing in…", "ok");
	fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) }).then(async res => {
		const body = await res.json().catch(() => ({}));
		if (res.ok) {
			const claims = JSON.parse(atob(body.idToken.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
			show("You are signed in as " + (claims.email || "your account") + ". Your app can now use this sign-in; you can close this page.", "ok");
		} else if (body.code === "MFA_REQUIRED") show("This account also asks for its second factor: sign in from your app.", "error");
		else show(body.detail || "The platform answered " + res.status + ".", "error");
	}, unreachable);
}
if (page === "callback" && !token) show(query.get("error") ? "The sign-in did not finish (" + query.get("error") + "). Start it again from your app." : "This page is where a social sign-in ends; it has nothing to finish.", "error");
else if (page === "callback") signIn(api("../auth/tokens/exchange"));
else if (!token) show("This link has no token. Open the link from the mail as it is.", "error");
else if (page === "verify-email") {
	show("Verifying…", "ok");
	post(api("../auth/email/verify"), { token }).then(err => show(err || "Your email address is verified. You can close this page.", err ? "error" : "ok"), unreachable);
} else if (page === "magic-link") signIn(api("../auth/otp/verify"));
else if (page === "not-me") {
	// A button, not an automatic post: a mail scanner that opens links runs no script, and the user sees what happens.
	const form = document.getElementById("not-me");
	form.hidden = false;
	form.addEventListener("submit", async e => {
		e.preventDefault();
		try {
			const err = await post(api("../auth/security/not-me"), { token });
			if (err) return show(err, "error");
			form.hidden = true;
			show("Your account is secured: every session is signed out. Choose a new password with “Forgot password” to sign in again.", "ok");
		} catch {
			unreachable();
		}
	});
} else if (page === "reset-password") {
	const form = document.getElementById("reset");
	form.hidden = false;
	form.addEventListener("submit", async e => {
		e.preventDefault();
		const password = form.elements.password.value;
		if (password !== form.elements.again.value) return show("The two passwords differ.", "error");
		try {
			const err = await post(api("../auth/password/reset"), { token, password });
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

/** The social callback's query: read by the page's script, never here (the access log keeps only its names). */
const CALLBACK_QUERY = {
	token: { type: "string", max: 256, optional: true },
	error: { type: "string", max: 64, optional: true },
	returnTo: { type: "string", max: 2048, optional: true }
} as const;

/** The page named `page` (a configured path without its `/`), or its script. */
function servePage(this: GatewayThis, ctx: Context<unknown, HttpMeta>, page: string): string {
	ctx.meta.$responseHeaders = headers;
	if (page === "ui.js") {
		ctx.meta.$responseType = "text/javascript; charset=utf-8";
		return UI_SCRIPT;
	}
	// The configured paths name the pages, so a link built with UI_VERIFY_EMAIL_PATH=/verify lands on one.
	const { config } = this.runtime();
	const { verifyEmailPath, resetPasswordPath, magicLinkPath, notMePath } = config.accounts;
	const paths = { "verify-email": verifyEmailPath, "reset-password": resetPasswordPath, "magic-link": magicLinkPath, "not-me": notMePath, callback: config.uiCallbackPath } as const;
	const which = (Object.keys(paths) as (keyof typeof paths)[]).find(k => `/${page}` === paths[k]) ?? null;
	if (!which) throw notFound("NOT_FOUND", "There is no such page.");
	ctx.meta.$responseType = "text/html; charset=utf-8";
	return which === "callback" ? callbackPage(paths.callback) : PAGES[which];
}

const PAGE_ANSWER = {
	success: { status: 200, description: "The page, or its script.", contentType: ["text/html", "text/javascript"], schema: { type: "string" } },
	problems: ["NOT_FOUND"],
	storage: false
} satisfies Omit<ActionDoc, "summary">;

export const UI_ACTIONS: Record<string, ActionSchema<GatewayThis>> = {
	uiPage: {
		visibility: "published",
		auth: "public",
		params: { page: { type: "string", max: 64 }, ...CALLBACK_QUERY, $$strict: true },
		openapi: {
			summary: "The platform's own account pages",
			description:
				"When `UI_BASE_URL` is unset, the verification, reset and one-time code mails link here (`/ui` + `UI_VERIFY_EMAIL_PATH`, `UI_RESET_PASSWORD_PATH`, `UI_MAGIC_LINK_PATH`, or a security alert's `UI_NOT_ME_PATH`, the token in the fragment); the page posts the token to the API. Also `ui.js`, their script, and the social callback page when `UI_CALLBACK_PATH` is one segment.",
			...PAGE_ANSWER
		},
		handler(this: GatewayThis, ctx: Context<{ page: string }, HttpMeta>): string {
			return servePage.call(this, ctx, ctx.params.page);
		}
	},
	uiCallback: {
		visibility: "published",
		auth: "public",
		params: { ...CALLBACK_QUERY, $$strict: true },
		openapi: {
			summary: "The platform's own end of a social sign-in",
			description:
				"When `UI_BASE_URL` is unset, social sign-in ends here (`/ui` + `UI_CALLBACK_PATH`, whose default is `/auth/callback`) with the temporary token (or an `error` code) in the query; the page exchanges the token (POST /auth/tokens/exchange) and says who signed in.",
			...PAGE_ANSWER
		},
		handler(this: GatewayThis, ctx: Context<unknown, HttpMeta>): string {
			// Served whatever UI_CALLBACK_PATH says: a page that only finishes a sign-in it is handed is harmless.
			ctx.meta.$responseHeaders = headers;
			ctx.meta.$responseType = "text/html; charset=utf-8";
			return callbackPage("/auth/callback");
		}
	}
};
