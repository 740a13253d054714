/**
 * A recipient's locale from the actors' profiles (`locale`, set by PATCH /actors/{id}):
 * notifications to an actor (PUSH, IN_APP: `to` is its id) or to an actor's email
 * address are rendered in its language when the notification names none. Read only
 * for templates that have translations (lib/notifications/send.ts).
 */
import { normalizeEmail } from "../email-address";
import type { NotificationExtensions } from "../notifications";
import type { Store } from "../store";

interface ActorLocale {
	id: string;
	locale?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function registerRecipientLocale(extensions: NotificationExtensions, store: () => Store): void {
	extensions.resolveRecipientLocale(async ({ channel, to }) => {
		const actors = store().collection<ActorLocale>("actors");
		if (channel === "EMAIL") return (await actors.findOne({ email: normalizeEmail(to) }))?.locale;
		if (channel === "SMS" || !UUID.test(to)) return undefined;
		return (await actors.get(to.toLowerCase()))?.locale;
	});
}
