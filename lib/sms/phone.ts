/**
 * Recipients of SMS are international numbers: a leading "+" and the country code,
 * with spaces, dots, dashes or brackets allowed for reading; no national forms, so
 * no number is ever sent to a guessed country. Validity is checked against
 * libphonenumber's full metadata (the number plan of the country, not only length).
 */
type Lib = typeof import("libphonenumber-js/max");

/** The library and its metadata (about 2 MB of heap) load with the first number checked: most processes never check one. */
let lib: Lib | null = null;

const SHAPE = /^\+[0-9 ().-]{4,30}$/;

/** The number in E.164 (`+14155550100`), or null when `to` is not a valid international number. */
export function parseE164(to: string): string | null {
	const t = to.trim();
	// libphonenumber also finds numbers inside other text; only a bare number may pass.
	if (!SHAPE.test(t)) return null;
	lib ??= require("libphonenumber-js/max") as Lib;
	const n = lib.parsePhoneNumberFromString(t);
	return n && n.isValid() ? n.number : null;
}
