/** Debian's Chromium for the browser tests (playwright-core drives it; nothing is downloaded). */
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
