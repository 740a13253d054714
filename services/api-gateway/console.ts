/**
 * GET /console: the administrators' console, a single page of the platform's own
 * files: the scripts tsc builds from console/src and the client SDK into
 * dist/console (`npm run build`), and the stylesheet in console-style.ts. Only the
 * files named here are served, never a path the client builds. The page needs no
 * token: it signs in through the SDK, and everything it shows comes from admin
 * routes, which refuse anyone else. It runs under a strict Content-Security-Policy:
 * scripts, styles and fetches from this origin only, nothing inline (SECURITY.md).
 */
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import type { ActionSchema, Context } from "moleculer";
import { notFound } from "../../lib/errors";
import type { HttpMeta } from "../../lib/http/meta";
import { CONSOLE_CSS } from "./console-style";

export const CONSOLE_CSP = [
	"default-src 'none'",
	"script-src 'self'",
	"style-src 'self'",
	"img-src 'self'",
	"connect-src 'self'",
	"base-uri 'none'",
	"form-action 'none'",
	"frame-ancestors 'none'"
].join("; ");

/** The directory holding package.json: the source tree, or the image's /app above dist. */
function packageRoot(): string {
	for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) if (fs.existsSync(path.join(dir, "package.json"))) return dir;
	return process.cwd();
}

const BUILT = path.join(packageRoot(), "dist", "console");
const MODULES = ["app", "api", "dom", "chart", "overview", "notifications", "outbox", "suppressions", "unsubscribes", "records", "flags", "webhooks", "templates", "users"];
/** The SDK's own modules, which its entry (client.js) imports as ./<name>.js: served beside it, by the same fixed list. */
export const CLIENT_MODULES = ["request", "namespaces", "admin", "mfa", "passkeys", "otp", "security", "account", "sessions", "inbox", "watch", "storage"];
// Both sets are served from one folder: an SDK module named like a console module would replace it.
for (const m of CLIENT_MODULES) if (MODULES.includes(m)) throw new Error(`The console and the client SDK both have a module ${m}.js`);

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>auth-notify console</title>
<link rel="icon" href="/console/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/console/console.css">
<script type="module" src="/console/app.js"></script>
</head>
<body>
<div id="app"><main id="main"><p>Loading the console…</p><noscript>The console needs JavaScript.</noscript></main></div>
</body>
</html>
`;

const JS = "text/javascript; charset=utf-8";
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d4ed8"/><path d="M7 11h18v12H7z" fill="none" stroke="#fff" stroke-width="2.5"/><path d="M7 11l9 7 9-7" fill="none" stroke="#fff" stroke-width="2.5"/></svg>`;
const ASSETS: Record<string, { type: string; file?: string; text?: string }> = {
	...Object.fromEntries(MODULES.map(m => [`${m}.js`, { type: JS, file: path.join(BUILT, "console", "src", `${m}.js`) }])),
	...Object.fromEntries(CLIENT_MODULES.map(m => [`${m}.js`, { type: JS, file: path.join(BUILT, "client", "src", `${m}.js`) }])),
	"client.js": { type: JS, file: path.join(BUILT, "client", "src", "index.js") },
	"console.css": { type: "text/css; charset=utf-8", text: CONSOLE_CSS },
	// Without an icon of its own, the browser asks for /favicon.ico and logs the 404 as an error.
	"favicon.svg": { type: "image/svg+xml", text: FAVICON }
};

const pageHeaders = (cache: string) => ({
	"Content-Security-Policy": CONSOLE_CSP,
	"Cache-Control": cache,
	"X-Frame-Options": "DENY",
	"Referrer-Policy": "no-referrer"
});

export const CONSOLE_ACTIONS: Record<string, ActionSchema> = {
	console: {
		visibility: "published",
		auth: "public",
		openapi: {
			summary: "The administrators' console",
			description: "A page that signs in with /auth/login and reads the admin routes; only administrators see more than a refusal.",
			success: { status: 200, description: "The console's HTML page.", contentType: "text/html", schema: { type: "string" } },
			storage: false
		},
		handler(ctx: Context<unknown, HttpMeta>): string {
			ctx.meta.$responseType = "text/html; charset=utf-8";
			ctx.meta.$responseHeaders = pageHeaders("no-cache");
			return PAGE;
		}
	},
	consoleAsset: {
		visibility: "published",
		auth: "public",
		params: { file: { type: "string", max: 64 }, $$strict: true },
		openapi: {
			summary: "A file of the console",
			success: { status: 200, description: "A script, the stylesheet or the icon of the console.", contentType: ["text/javascript", "text/css", "image/svg+xml"], schema: { type: "string" } },
			problems: ["NOT_FOUND"],
			storage: false
		},
		handler(ctx: Context<{ file: string }, HttpMeta>): string | Readable {
			const asset = Object.hasOwn(ASSETS, ctx.params.file) ? ASSETS[ctx.params.file] : undefined;
			if (!asset || (asset.file && !fs.existsSync(asset.file))) throw notFound("NOT_FOUND", "The console has no such file (is it built? npm run build).");
			ctx.meta.$responseType = asset.type;
			// Revalidated each time: a new build must not meet an old module in the cache.
			ctx.meta.$responseHeaders = pageHeaders("no-cache");
			return asset.text ?? fs.createReadStream(asset.file!);
		}
	}
};
