/**
 * `npm run config:docs`: writes docs/configuration.md and .env.example from the
 * configuration schema (lib/config/variables.ts), at the repository's root.
 */
import fs from "node:fs";
import path from "node:path";
import { ENV_EXAMPLE_FILE, REFERENCE_FILE, renderEnvExample, renderReference } from "./reference";

/** This file runs compiled, from dist/lib/config/. */
const ROOT = path.resolve(__dirname, "..", "..", "..");

for (const [file, text] of [
	[REFERENCE_FILE, renderReference()],
	[ENV_EXAMPLE_FILE, renderEnvExample()]
] as const) {
	const target = path.join(ROOT, file);
	const before = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : undefined;
	fs.writeFileSync(target, text);
	process.stdout.write(`${file}: ${before === text ? "unchanged" : "written"}\n`);
}
