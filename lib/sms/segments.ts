/**
 * How a text travels as SMS. A text made only of the GSM 03.38 default alphabet
 * (with its extension table, whose characters take two septets) goes as GSM-7: 160
 * septets in one message, 153 per part when split (the 6-octet concatenation header
 * takes 7). Anything else goes as UCS-2: 70 UTF-16 units, 67 per part. A part never
 * ends between the two septets of an extension character or the two halves of a
 * surrogate pair.
 */
export type SmsEncoding = "GSM7" | "UCS2";

const GSM_BASIC = new Set(
	"@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
);
/** Sent as ESC plus a character: two septets each. */
const GSM_EXTENSION = new Set("\f^{}\\[~]|€");

const LIMITS: Record<SmsEncoding, { single: number; part: number }> = {
	GSM7: { single: 160, part: 153 },
	UCS2: { single: 70, part: 67 }
};

export function smsEncoding(text: string): SmsEncoding {
	for (const ch of text) if (!GSM_BASIC.has(ch) && !GSM_EXTENSION.has(ch)) return "UCS2";
	return "GSM7";
}

/** Septets (GSM-7) or UTF-16 units (UCS-2) one character takes. */
function units(ch: string, encoding: SmsEncoding): number {
	if (encoding === "UCS2") return ch.length;
	return GSM_EXTENSION.has(ch) ? 2 : 1;
}

export interface SmsSplit {
	encoding: SmsEncoding;
	/** One string when the text fits one message; else the parts of a concatenated message. */
	parts: string[];
}

export function splitSms(text: string): SmsSplit {
	const encoding = smsEncoding(text);
	const { single, part } = LIMITS[encoding];
	const chars = [...text];
	if (chars.reduce((n, ch) => n + units(ch, encoding), 0) <= single) return { encoding, parts: [text] };
	const parts: string[] = [];
	let current = "";
	let used = 0;
	for (const ch of chars) {
		const u = units(ch, encoding);
		if (used + u > part) {
			parts.push(current);
			current = "";
			used = 0;
		}
		current += ch;
		used += u;
	}
	parts.push(current);
	return { encoding, parts };
}

export function countSegments(text: string): number {
	return splitSms(text).parts.length;
}
