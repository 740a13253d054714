/**
 * Where an outbound webhook may go: an https URL whose name resolves to public
 * addresses only. It is checked when the endpoint is registered and again at every
 * send, on the addresses the connection then uses (lib/net/public-address.ts resolves
 * the name and hands the checked address to the connection, so a name that
 * resolves differently between check and connect cannot slip through). Redirects
 * are never followed. WEBHOOK_ALLOW_PRIVATE_URLS=true (tests only) allows http and
 * private addresses. Push subscription endpoints pass the same check (lib/push/subscriptions.ts).
 */
import { badRequest } from "../errors";
import { publicHostProblem } from "../net/public-address";

function refuse(message: string) {
	return badRequest(message, [{ field: "url", message }]);
}

/** Refuses (400) a URL a webhook may not be sent to; resolves the name to check its addresses. */
export async function checkEndpointUrl(raw: string, allowPrivate: boolean): Promise<URL> {
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		throw refuse("The url must be an absolute URL.");
	}
	if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) throw refuse("The url must use https.");
	if (url.username || url.password) throw refuse("The url may not carry credentials.");
	if (allowPrivate) return url;
	const problem = await publicHostProblem(url.hostname);
	if (problem === "unresolvable") throw refuse("The url's host name does not resolve.");
	if (problem) throw refuse("The url must resolve to public internet addresses only.");
	return url;
}
