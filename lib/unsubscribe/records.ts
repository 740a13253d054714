/**
 * Who asked not to get what: one record per (channel, address, category), made by a
 * one-click unsubscribe or by an actor's preferences, with `*` for every category.
 * The dispatcher reads two records by id before a non-CRITICAL send (the category's
 * and `*`); an actor's preferences are the records of its own addresses. An email
 * address is the actor's only once verified: until then anyone may have registered it,
 * so its records (the owner's one-click unsubscribes among them) are neither shown
 * to the actor nor changed by it, and EMAIL items are 403 EMAIL_NOT_VERIFIED.
 */
import { ClientError, badRequest } from "../errors";
import { normalizeEmail } from "../email-address";
import type { Channel } from "../delivery";
import { DuplicateKeyError, type Store } from "../store";
import type { UnsubscribeTarget } from "./token";

export const UNSUBSCRIBES = "unsubscribes";
export const ALL_CATEGORIES = "*";
export const CATEGORY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export interface UnsubscribeDoc {
	id: string;
	channel: Channel;
	address: string;
	category: string;
	source: "one-click" | "preferences";
	/** The actor whose preferences made it (absent for a one-click unsubscribe). */
	actorId?: string;
	/**
	 * EMAIL preferences: the actor held the address, verified, when it was written. Absent
	 * on those stored before that was checked, until settleLegacyPreferences decides them.
	 */
	verified?: true;
	createdAt: string;
}

/** An actor as its preferences see it: its addresses, and whether the email is verified. */
export interface PreferenceActor {
	id: string;
	email: string;
	emailVerified: boolean;
}

export interface Preference {
	channel: Channel;
	category: string;
	enabled: boolean;
}

/** Addresses compared as the channel compares them: a mailbox whatever its case, an actorId in lower case. */
export function normalizeFor(channel: Channel, address: string): string {
	if (channel === "EMAIL") return normalizeEmail(address);
	if (channel === "PUSH" || channel === "IN_APP") return address.trim().toLowerCase();
	return address.trim();
}

/** The security alerts' category: never unsubscribable. */
export const SECURITY_CATEGORY = "security";

const idOf = (channel: Channel, address: string, category: string) => `${channel}:${normalizeFor(channel, address)}:${category}`;
const records = (store: Store) => store.collection<UnsubscribeDoc>(UNSUBSCRIBES);

/** Records the unsubscribe (again is fine: the first record stays). */
export async function recordUnsubscribe(store: Store, t: UnsubscribeTarget, source: UnsubscribeDoc["source"], by?: Pick<UnsubscribeDoc, "actorId" | "verified">, now = Date.now()): Promise<UnsubscribeDoc> {
	const doc: UnsubscribeDoc = {
		id: idOf(t.channel, t.address, t.category),
		channel: t.channel,
		address: normalizeFor(t.channel, t.address),
		category: t.category,
		source,
		...by,
		createdAt: new Date(now).toISOString()
	};
	try {
		return await records(store).insert(doc);
	} catch (err) {
		if (!(err instanceof DuplicateKeyError)) throw err;
		return (await records(store).get(doc.id)) ?? doc;
	}
}

/** The record that keeps this notification from being sent, if any: its category's, or every category's. */
export async function unsubscribedFrom(store: Store, channel: Channel, address: string, category: string): Promise<UnsubscribeDoc | null> {
	return (await records(store).get(idOf(channel, address, category))) ?? (await records(store).get(idOf(channel, address, ALL_CATEGORIES)));
}

export interface UnsubscribeView {
	channel: Channel;
	address: string;
	category: string;
	createdAt: string;
}

const toView = (d: UnsubscribeDoc): UnsubscribeView => ({ channel: d.channel, address: d.address, category: d.category, createdAt: d.createdAt });

/** The unsubscribes of one address (on every channel, compared as each channel compares it), or the newest ones. */
export async function listUnsubscribes(store: Store, address?: string, limit = 100): Promise<UnsubscribeView[]> {
	if (address === undefined) return (await records(store).find({}, { sort: { createdAt: -1 }, limit })).map(toView);
	const docs: UnsubscribeDoc[] = [];
	for (const channel of ["EMAIL", "SMS", "PUSH", "IN_APP"] as Channel[]) {
		docs.push(...(await records(store).find({ channel, address: normalizeFor(channel, address) }, { sort: { category: 1 }, limit })));
	}
	return docs.slice(0, limit).map(toView);
}

/** Lifts an unsubscribe (an operator acting on the recipient's request): the category is sent again. False when there was none. */
export async function removeUnsubscribe(store: Store, channel: Channel, address: string, category: string): Promise<boolean> {
	return (await records(store).deleteMany({ id: idOf(channel, address, category) })) > 0;
}

/**
 * The addresses an actor's preferences speak for: its email once verified, and itself
 * for push and its inbox (an IN_APP opt-out of a category keeps that category out of
 * the inbox). SMS has no number on an actor.
 */
function addressesOf(actor: PreferenceActor): Partial<Record<Channel, string>> {
	return actor.emailVerified ? { EMAIL: actor.email, PUSH: actor.id, IN_APP: actor.id } : { PUSH: actor.id, IN_APP: actor.id };
}

/** The actor's opt-outs, as `{ channel, category, enabled: false }` items (anything not listed is enabled). */
export async function preferencesOf(store: Store, actor: PreferenceActor): Promise<Preference[]> {
	const items: Preference[] = [];
	for (const [channel, address] of Object.entries(addressesOf(actor)) as [Channel, string][]) {
		const docs = await records(store).find({ channel, address: normalizeFor(channel, address) }, { sort: { category: 1 } });
		items.push(...docs.map(d => ({ channel, category: d.category, enabled: false })));
	}
	return items;
}

/**
 * Replaces the actor's preferences: afterwards its opt-outs are exactly the items with
 * `enabled: false` (a one-click unsubscribe of its verified address included: its
 * owner enabling that category again removes it). 400 for an SMS item or a category
 * twice; 403 EMAIL_NOT_VERIFIED for an EMAIL item while the address is not verified
 * (a set without EMAIL items then replaces the PUSH preferences alone).
 */
export async function replacePreferences(store: Store, actor: PreferenceActor, items: Preference[], now = Date.now()): Promise<Preference[]> {
	const addresses = addressesOf(actor);
	const seen = new Set<string>();
	items.forEach((item, i) => {
		if (item.channel === "SMS") throw badRequest("Preferences cover EMAIL, PUSH and IN_APP: an actor has no SMS address.", [{ field: `items[${i}].channel`, message: "must be EMAIL, PUSH or IN_APP" }]);
		// Security alerts (lib/accounts/security-alerts.ts) go out whatever the preferences say: an opt-out of them is refused, not silently kept.
		if (item.category === SECURITY_CATEGORY && !item.enabled) throw badRequest("Security alerts cannot be turned off.", [{ field: `items[${i}].category`, message: "security cannot be disabled" }]);
		const key = `${item.channel}:${item.category}`;
		if (seen.has(key)) throw badRequest("Each channel and category may appear once.", [{ field: `items[${i}]`, message: "repeats a channel and category" }]);
		seen.add(key);
	});
	if (items.some(i => !addresses[i.channel])) {
		throw new ClientError(403, "EMAIL_NOT_VERIFIED", "Verify the email address before setting EMAIL preferences: until then it may be someone else's.");
	}
	const wanted = new Set(items.filter(i => !i.enabled).map(i => idOf(i.channel, addresses[i.channel]!, i.category)));
	for (const [channel, address] of Object.entries(addresses) as [Channel, string][]) {
		for (const doc of await records(store).find({ channel, address: normalizeFor(channel, address) })) {
			if (!wanted.has(doc.id)) await records(store).deleteMany({ id: doc.id });
		}
	}
	for (const item of items.filter(i => !i.enabled)) {
		const verified = item.channel === "EMAIL" ? { verified: true as const } : {};
		const doc = await recordUnsubscribe(store, { channel: item.channel, address: addresses[item.channel]!, category: item.category }, "preferences", { actorId: actor.id, ...verified }, now);
		// An older unchecked record of the same opt-out becomes this checked one (settleLegacyPreferences would remove it).
		if (doc.source === "preferences" && item.channel === "EMAIL" && (doc.actorId !== actor.id || !doc.verified)) {
			await records(store).updateMany({ id: doc.id }, { $set: { actorId: actor.id, verified: true } });
		}
	}
	return preferencesOf(store, actor);
}

const LEGACY_BATCH = 200;

/**
 * EMAIL preferences stored before the platform checked that the actor held the address
 * (no `verified`): kept and marked when `holdsVerified` says the actor holds that address
 * verified now, else removed, since they spoke for an address nobody had shown to be
 * the actor's (an account registered with someone else's address). Answers how many it
 * removed. Safe to run on several nodes at once; a failure of `holdsVerified` stops it
 * (run it again).
 */
export async function settleLegacyPreferences(store: Store, holdsVerified: (actorId: string, address: string) => Promise<boolean>): Promise<number> {
	const unchecked = { channel: "EMAIL", source: "preferences", verified: { $exists: false } } as const;
	const answers = new Map<string, boolean>();
	let removed = 0;
	for (let batch = await records(store).find(unchecked, { limit: LEGACY_BATCH }); batch.length > 0; batch = await records(store).find(unchecked, { limit: LEGACY_BATCH })) {
		for (const doc of batch) {
			const key = `${doc.actorId}:${doc.address}`;
			if (!answers.has(key)) answers.set(key, doc.actorId !== undefined && (await holdsVerified(doc.actorId, doc.address)));
			const still = { id: doc.id, verified: { $exists: false } } as const;
			if (answers.get(key)) await records(store).updateMany(still, { $set: { verified: true } });
			else removed += await records(store).deleteMany(still);
		}
	}
	return removed;
}
