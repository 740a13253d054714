/**
 * The suppression list: recipients that must not be sent to on one channel (a
 * permanent bounce or a complaint for EMAIL, an unusable number for SMS). The
 * dispatcher reads it before every send; provider outcomes, the dispatcher's permanent
 * failures and the operators' routes write it.
 */
import { normalizeEmail } from "../email-address";
import { DuplicateKeyError, type Store } from "../store";
import type { Channel, SuppressionDoc } from "./model";

const suppressions = (store: Store) => store.collection<SuppressionDoc>("suppressions");

/** Suppressions are kept per mailbox, whatever case or spacing an address arrives in. */
export function normalizeAddress(address: string): string {
	return normalizeEmail(address);
}

/**
 * A suppression holds for one channel: an email address by its mailbox (the ids of
 * records from before SMS), an SMS number (E.164, as stored) under its channel's name,
 * so a number that fails for SMS stops SMS alone.
 */
export function suppressionId(channel: Channel, address: string): string {
	return channel === "EMAIL" ? normalizeAddress(address) : `${channel}:${address}`;
}

export async function isSuppressed(store: Store, channel: Channel, address: string): Promise<boolean> {
	return (await suppressions(store).get(suppressionId(channel, address))) !== null;
}

/** Puts the address on the channel's suppression list; the first reason stays when it is already there. */
export async function suppress(store: Store, channel: Channel, address: string, reason: string, notificationId: string, now = Date.now()): Promise<void> {
	try {
		await suppressions(store).insert({ id: suppressionId(channel, address), channel, address: suppressedAddress(channel, address), reason, notificationId, createdAt: new Date(now).toISOString() });
	} catch (err) {
		if (!(err instanceof DuplicateKeyError)) throw err;
	}
}

function suppressedAddress(channel: Channel, address: string): string {
	return channel === "EMAIL" ? normalizeAddress(address) : address;
}

export interface SuppressionView {
	channel: Channel;
	address: string;
	reason: string;
	createdAt: string;
}

function toSuppressionView(doc: SuppressionDoc): SuppressionView {
	const channel = doc.channel ?? "EMAIL";
	const address = doc.address ?? (channel === "EMAIL" ? doc.id : doc.id.slice(channel.length + 1));
	return { channel, address, reason: doc.reason, createdAt: doc.createdAt };
}

/** The suppressions of one address (on every channel), or the newest ones when no address is given. */
export async function listSuppressions(store: Store, address?: string, limit = 100): Promise<SuppressionView[]> {
	if (address === undefined) return (await suppressions(store).find({}, { sort: { createdAt: -1 }, limit })).map(toSuppressionView);
	const ids = [...new Set((["EMAIL", "SMS", "PUSH"] as Channel[]).map(c => suppressionId(c, address.trim())))];
	const docs = await Promise.all(ids.map(id => suppressions(store).get(id)));
	return docs.filter((d): d is SuppressionDoc => d !== null).map(toSuppressionView);
}

/** Lifts a suppression: the address gets mail (or texts) again. False when there was none. */
export async function removeSuppression(store: Store, channel: Channel, address: string): Promise<boolean> {
	return (await suppressions(store).deleteMany({ id: suppressionId(channel, address.trim()) })) > 0;
}
