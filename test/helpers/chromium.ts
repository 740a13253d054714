/** Debian's Chromium as the browser suites launch it: headless, with no traffic of its own. */
export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_FLAGS = [
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--no-first-run"
];
