/**
 * Recipients of SMS are international numbers: a leading "+" and the country code,
 * with spaces, dots, dashes or brackets allowed for reading; no national forms, so
 * no number is ever sent to a guessed country. Validity is checked against
 * libphonenumber's full metadata (the number plan of the country, not only length).
 */
import { parsePhoneNumberFromString } from "libphonenumber-js/max";

const SHAPE = /^\+[0-9 ().-]{4,30}$/;

/** The number in E.164 (`+14155550100`), or null when `to` is not a valid international number. */
export function parseE164(to: string): string | null {
	const t = to.trim();
	// libphonenumber also finds numbers inside other text; only a bare number may pass.
	if (!SHAPE.test(t)) return null;
	const n = parsePhoneNumberFromString(t);
	return n && n.isValid() ? n.number : null;
}
