#!/usr/bin/env node
// `npx auth-notify <command>`: the command line (lib/cli) as the build compiled it.
// Run through npx or npm, the project's Node 24 (node_modules/.bin/node) is first on PATH.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const entry = path.join(__dirname, "..", "dist", "lib", "cli", "index.js");
const major = Number(process.versions.node.split(".")[0]);
if (major < 24) {
	process.stderr.write(`auth-notify needs Node 24 or later; this is ${process.version}. Run it through npx in the project (npx auth-notify), which uses the project's Node.\n`);
	process.exit(1);
}
if (!fs.existsSync(entry)) {
	process.stderr.write(`${entry} is missing: run "npm install" (or "npm run build") in ${path.join(__dirname, "..")} first.\n`);
	process.exit(1);
}
const { run } = require(entry);
run(process.argv.slice(2), { out: t => process.stdout.write(`${t}\n`), err: t => process.stderr.write(`${t}\n`) }).then(
	code => {
		process.exitCode = code;
	},
	err => {
		process.stderr.write(`${err && err.stack ? err.stack : err}\n`);
		process.exitCode = 1;
	}
);
