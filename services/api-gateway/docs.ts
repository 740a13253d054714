/**
 * GET /openapi.json and GET /docs: the API's description and a reference page
 * rendered from it by Swagger UI, served from the swagger-ui-dist package installed
 * with the platform (no CDN: the page works offline and sends nothing elsewhere).
 * The page runs under a strict Content-Security-Policy: scripts, styles and
 * fetches from this origin only, nothing inline (SECURITY.md).
 */
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import type { ActionSchema, Context, ServiceBroker, ServiceSchema } from "moleculer";
import { notFound } from "../../lib/errors";
import type { HttpMeta } from "../../lib/http/meta";
import { ref } from "../../lib/openapi/schemas";
import { runtimeOf } from "../../lib/runtime";
import ActorsService from "../actors.service";
import AuthService from "../auth/auth.service";
import DispatcherService from "../dispatcher.service";
import DocumentsService from "../documents.service";
import FeaturesService from "../features.service";
import NotificationsService from "../notifications/notifications.service";
import OutboundService from "../outbound-webhooks.service";
import PreferencesService from "../notifications/preferences.service";
import StatsService from "../notifications/stats.service";
import WebhooksService from "../inbound-webhooks.service";
import { buildDocument, type BuiltDocument } from "./openapi";
import { ROUTES } from "./routes";

/** Every service a gateway alias calls, besides the gateway itself; the unit test names an alias whose service is missing here. */
export const DOCUMENTED_SERVICES: readonly Partial<ServiceSchema>[] = [
	AuthService as Partial<ServiceSchema>,
	ActorsService as Partial<ServiceSchema>,
	DispatcherService as Partial<ServiceSchema>,
	DocumentsService as Partial<ServiceSchema>,
	FeaturesService as Partial<ServiceSchema>,
	NotificationsService as Partial<ServiceSchema>,
	OutboundService as Partial<ServiceSchema>,
	PreferencesService as Partial<ServiceSchema>,
	StatsService as Partial<ServiceSchema>,
	WebhooksService as Partial<ServiceSchema>
];

/** The platform's version and licence, from the package.json above this file (the source tree's, or dist's parent). */
function platformPackage(): { version: string; license: string } {
	for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
		const file = path.join(dir, "package.json");
		if (!fs.existsSync(file)) continue;
		const pkg = JSON.parse(fs.readFileSync(file, "utf8")) as { version?: string; license?: string };
		return { version: pkg.version ?? "0.0.0", license: pkg.license ?? "UNLICENSED" };
	}
	return { version: "0.0.0", license: "UNLICENSED" };
}

const PACKAGE = platformPackage();

/** `publicUrl` (PUBLIC_URL) is the document's server; without it (the SDK's types, tests), the document's own origin. */
export function platformDocument(gateway: Partial<ServiceSchema>, publicUrl?: string): BuiltDocument {
	return buildDocument(ROUTES, [...DOCUMENTED_SERVICES, { ...gateway, name: "api" }], { ...PACKAGE, serverUrl: publicUrl });
}

export const DOCS_CSP = [
	"default-src 'none'",
	"script-src 'self'",
	"style-src 'self'",
	"img-src 'self' data:",
	"connect-src 'self'",
	"font-src 'self'",
	"base-uri 'none'",
	"form-action 'none'",
	"frame-ancestors 'none'"
].join("; ");

const SWAGGER_DIR = path.dirname(require.resolve("swagger-ui-dist/package.json"));

/**
 * validatorUrl null: Swagger UI would otherwise send the document to a public
 * validator for its badge. tryItOutEnabled stays off: calls go out only when asked.
 */
const INIT_JS = `"use strict";
window.addEventListener("load", function () {
	window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#docs", deepLinking: true, validatorUrl: null, tryItOutEnabled: false });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>auth-notify API reference</title>
<link rel="icon" href="/docs/favicon-32x32.png">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/** The page's files by the name in its address: only these are served, never a path the client builds. */
const ASSETS: Record<string, { type: string; file?: string; text?: string }> = {
	"swagger-ui.css": { type: "text/css; charset=utf-8", file: path.join(SWAGGER_DIR, "swagger-ui.css") },
	"swagger-ui-bundle.js": { type: "text/javascript; charset=utf-8", file: path.join(SWAGGER_DIR, "swagger-ui-bundle.js") },
	"favicon-32x32.png": { type: "image/png", file: path.join(SWAGGER_DIR, "favicon-32x32.png") },
	"init.js": { type: "text/javascript; charset=utf-8", text: INIT_JS }
};

const pageHeaders = (cache: string) => ({ "Content-Security-Policy": DOCS_CSP, "Cache-Control": cache, "X-Frame-Options": "DENY" });

interface DocsThis {
	schema: Partial<ServiceSchema>;
	broker: ServiceBroker;
	openApiDocument?: string;
}

export const DOCS_ACTIONS: Record<string, ActionSchema> = {
	openapi: {
		visibility: "published",
		auth: "public",
		openapi: { summary: "This OpenAPI 3.1 document", success: { status: 200, description: "The document.", schema: ref("OpenApiDocument") }, storage: false },
		handler(this: DocsThis, ctx: Context<unknown, HttpMeta>): string {
			this.openApiDocument ??= JSON.stringify(platformDocument(this.schema, runtimeOf(this.broker).config.publicUrl).document);
			ctx.meta.$responseType = "application/json; charset=utf-8";
			ctx.meta.$responseHeaders = { "Cache-Control": "no-cache" };
			return this.openApiDocument;
		}
	},
	docs: {
		visibility: "published",
		auth: "public",
		openapi: {
			summary: "The API reference page",
			success: { status: 200, description: "An HTML page rendered by Swagger UI from /openapi.json.", contentType: "text/html", schema: { type: "string" } },
			storage: false
		},
		handler(ctx: Context<unknown, HttpMeta>): string {
			ctx.meta.$responseType = "text/html; charset=utf-8";
			ctx.meta.$responseHeaders = pageHeaders("no-cache");
			return PAGE;
		}
	},
	docsAsset: {
		visibility: "published",
		auth: "public",
		params: { file: { type: "string", max: 64 }, $$strict: true },
		openapi: {
			summary: "A file of the reference page",
			success: { status: 200, description: "A stylesheet, script or icon of Swagger UI.", contentType: ["text/css", "text/javascript", "image/png"], schema: { type: "string" } },
			problems: ["NOT_FOUND"],
			storage: false
		},
		handler(ctx: Context<{ file: string }, HttpMeta>): string | Readable {
			const asset = Object.hasOwn(ASSETS, ctx.params.file) ? ASSETS[ctx.params.file] : undefined;
			if (!asset) throw notFound("NOT_FOUND", "The reference page has no such file.");
			ctx.meta.$responseType = asset.type;
			ctx.meta.$responseHeaders = pageHeaders("public, max-age=3600");
			return asset.text ?? fs.createReadStream(asset.file!);
		}
	}
};
