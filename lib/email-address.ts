/**
 * The one rule for email addresses. The API accepts a dot-atom local part and a DNS
 * domain, nothing else. fastest-validator's "email" rule in its quick mode takes
 * anything around an @ ("<a@example.com>", "a@example.com,b@example.com"), and its
 * precise mode takes a quoted local part holding spaces, commas and angle brackets:
 * either lets one field name several recipients, or store a username no mail system
 * would deliver to.
 */
const LOCAL_PART = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*";
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";

export const EMAIL_ADDRESS = new RegExp(`^${LOCAL_PART}@(?:${LABEL}\\.)+[A-Za-z][A-Za-z0-9-]{0,62}$`);

/**
 * The platform's own sender may live on a host without dots (`noreply@localhost`, the
 * development default); recipients may not.
 */
export const SENDER_ADDRESS = new RegExp(`^${LOCAL_PART}@(?:${LABEL}\\.)*${LABEL}$`);

/** A fastest-validator schema for one such address. */
export const emailParam = {
	type: "string",
	max: 254,
	pattern: EMAIL_ADDRESS,
	messages: { stringPattern: "The '{field}' field must be one email address." }
} as const;

/** How addresses are compared and stored everywhere: accounts, suppressions, rate-limit keys. */
export function normalizeEmail(address: string): string {
	return address.trim().toLowerCase();
}
