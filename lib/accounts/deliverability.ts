/**
 * Whether mail reaches an account's address: `emailDeliverable` on the actor profile
 * (`actors` collection; absent means true). A permanent bounce or a complaint on the
 * address (an SES event through SNS, services/inbound-webhooks.service.ts) sets it
 * false, once, with an `auth.address_undeliverable` audit event; a later delivery to
 * the address or a new verification of it sets it true again. GET /auth/me and
 * GET /admin/users/{actorId} show it.
 */
import type { AuditLog } from "../audit";
import type { DeliveryReport } from "../delivery";
import type { NotificationDoc } from "../notifications";
import { normalizeEmail } from "../email-address";
import type { Store } from "../store";

export const DELIVERABLE_FIELD = "emailDeliverable";

interface ActorDeliverability {
	id: string;
	email: string;
	emailDeliverable?: boolean;
	updatedAt: string;
}

const actors = (store: Store) => store.collection<ActorDeliverability>("actors");

/** The account the address belongs to turns undeliverable; answers its actor id when it changed (and was audited). */
export async function markUndeliverable(store: Store, audit: AuditLog, address: string, reason: string, notificationId: string): Promise<string | null> {
	const email = normalizeEmail(address);
	const changed = await actors(store).findOneAndUpdate(
		{ email, emailDeliverable: { $ne: false } },
		{ $set: { emailDeliverable: false, updatedAt: new Date().toISOString() } }
	);
	if (!changed) return null;
	await audit.record("auth.address_undeliverable", changed.id, {}, { reason, notificationId });
	return changed.id;
}

/** The address reached its owner (a delivery, a verification): answers the actor id when it had been undeliverable. */
export async function markDeliverable(store: Store, address: string): Promise<string | null> {
	const changed = await actors(store).findOneAndUpdate({ email: normalizeEmail(address), emailDeliverable: false }, { $set: { emailDeliverable: true, updatedAt: new Date().toISOString() } });
	return changed?.id ?? null;
}

/** The same by actor id (a verification names the user, not the address). */
export async function markActorDeliverable(store: Store, actorId: string): Promise<boolean> {
	return (await actors(store).findOneAndUpdate({ id: actorId, emailDeliverable: false }, { $set: { emailDeliverable: true, updatedAt: new Date().toISOString() } })) !== null;
}

/**
 * A recorded email outcome's effect on the recipient's account, when the recipient is
 * one: a permanent bounce or complaint naming the notification's own recipient makes
 * it undeliverable, a delivery deliverable. Answers the actor id that changed.
 */
export async function applyEmailOutcome(store: Store, audit: AuditLog, report: DeliveryReport): Promise<string | null> {
	if (report.channel !== "EMAIL") return null;
	const notifications = store.collection<NotificationDoc>("notifications");
	const n =
		(await notifications.findOne({ providerMessageId: report.providerMessageId, channel: "EMAIL" })) ??
		(report.notificationId ? await notifications.get(report.notificationId) : null);
	if (!n || n.channel !== "EMAIL") return null;
	const to = normalizeEmail(n.to);
	if (report.suppress?.map(normalizeEmail).includes(to)) return markUndeliverable(store, audit, to, report.suppressReason ?? report.event, n.id);
	if (report.event === "DELIVERED") return markDeliverable(store, to);
	return null;
}
