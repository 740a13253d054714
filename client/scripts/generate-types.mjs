/**
 * Writes client/src/api-types.ts from the platform's OpenAPI document, the one
 * GET /openapi.json serves (built from the compiled platform in dist/, so run
 * `npm run build` first). With --check it writes nothing and exits 1 when the file
 * is not what the document gives: the SDK's types are never written by hand.
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const target = path.join(root, "client/src/api-types.ts");
const require = createRequire(import.meta.url);
const gateway = require(path.join(root, "dist/services/api-gateway/api-gateway.service.js")).default;
const { platformDocument } = require(path.join(root, "dist/services/api-gateway/docs.js"));

const { document } = platformDocument(gateway);
const header = "/**\n * Generated from GET /openapi.json by client/scripts/generate-types.mjs: do not edit.\n * `npm run client:types` rewrites it; test/unit/client-sdk.test.ts fails when it is stale.\n */\n\n";
const text = header + astToString(await openapiTS(document, { alphabetize: true }));

if (process.argv.includes("--check")) {
	const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : "";
	if (current !== text) {
		process.stderr.write(`${path.relative(root, target)} is stale: run npm run client:types\n`);
		process.exit(1);
	}
	process.stdout.write(`${path.relative(root, target)} is current\n`);
} else {
	fs.writeFileSync(target, text);
	process.stdout.write(`wrote ${path.relative(root, target)}\n`);
}
