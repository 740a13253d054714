/**
 * Serves the example web app (run `npm run build` first): the page for every address
 * (so the platform's links to UI_BASE_URL land on it), the compiled app and the SDK's
 * build. Plain Node, no dependencies; for trying the platform on your machine, not for
 * production.
 *
 *   PORT=3000 API_BASE_URL=http://localhost:8500 node examples/web/serve.mjs
 *
 * The platform must list this origin in CORS_ORIGINS, and UI_BASE_URL must point here
 * for the social sign-in callback and the verification links.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const apiBaseUrl = new URL(process.env.API_BASE_URL ?? "http://localhost:8500").origin;

const escape = s => s.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`);
const html = (await readFile(path.join(here, "index.html"), "utf8")).replace("%API_BASE_URL%", escape(apiBaseUrl));
// The inline import map is the page's only inline script: CSP allows exactly it, by hash.
const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)[1];
const csp = [
	"default-src 'none'",
	`script-src 'self' 'sha256-${createHash("sha256").update(importMap).digest("base64")}'`,
	"style-src 'self'",
	`connect-src ${apiBaseUrl}`,
	"base-uri 'none'",
	"form-action 'none'",
	"frame-ancestors 'none'"
].join("; ");

/** The only files served: a fixed table, so no request path ever becomes a disk path. */
const files = new Map([
	["/app.js", [path.join(here, "dist/app.js"), "text/javascript"]],
	["/style.css", [path.join(here, "style.css"), "text/css"]],
	// The SDK's modules, which its entry imports as ./<name>.js.
	...["index", "request", "namespaces", "admin", "mfa", "inbox", "passkeys", "otp", "security", "account", "sessions", "watch", "storage"].map(m => [`/client/${m}.js`, [path.join(here, `../../client/dist/${m}.js`), "text/javascript"]])
]);

const server = createServer(async (req, res) => {
	const { pathname } = new URL(req.url ?? "/", "http://x");
	const common = { "cache-control": "no-store", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" };
	if (req.method !== "GET" && req.method !== "HEAD") {
		res.writeHead(405, common).end();
		return;
	}
	const file = files.get(pathname);
	if (file) {
		try {
			res.writeHead(200, { ...common, "content-type": file[1] }).end(await readFile(file[0]));
		} catch {
			res.writeHead(500, { ...common, "content-type": "text/plain" }).end("Not built: run npm run build\n");
		}
		return;
	}
	if (path.extname(pathname)) {
		res.writeHead(404, common).end();
		return;
	}
	res.writeHead(200, { ...common, "content-type": "text/html; charset=utf-8", "content-security-policy": csp }).end(html);
});

server.listen(port, host, () => {
	const { port: actual } = server.address();
	console.log(`example web app on http://${host === "127.0.0.1" ? "localhost" : host}:${actual} (API ${apiBaseUrl})`);
});
