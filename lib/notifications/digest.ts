/**
 * Digests on the durable queue. A notification with `digest: { key, windowSeconds }`
 * is stored QUEUED with its group (channel, recipient, key) and a due time no claim
 * reaches, so no dispatcher sends it alone. The first of a group opens a digest row
 * due at the window's end (a unique open key makes it one row however many accept at
 * once); the others find it open. At the due time one dispatcher claims the row with a
 * lease (as the queue claims notifications): it closes the group (the open key goes,
 * so later notifications open the next digest), takes every waiting member of the group,
 * stores one notification whose variables carry `events` (the members' variables,
 * oldest first) under the row's id, and ends each member DIGESTED with that id.
 *
 * Every step can be made again: a dispatcher killed half way loses its lease, and the
 * next one finds the digest notification stored (then it only finishes the members),
 * or not (then it takes the members again, the same and any that came since). Nothing
 * is lost and the digest is stored once: its id is the row's.
 */
import { randomUUID } from "node:crypto";
import { uuidv7 } from "../crypto";
import { DuplicateKeyError, type BatchGroup, type Store } from "../store";
import { newEvent, statusEvent, type StatusPublisher } from "./events";
import { transition } from "./lifecycle";
import { nextSeq, priorityRank, type Channel, type NotificationDoc } from "./model";
import { quietHoursDelay } from "./quiet-hours";

export const DIGESTS = "notification_digests";

/** A due time no claim reaches: a member waits for its digest, never for a dispatcher. */
export const DIGEST_HOLD = "9999-12-31T23:59:59.999Z";

export const DIGEST_MAX_WINDOW_SECONDS = 86_400;

export interface DigestRequest {
	key: string;
	windowSeconds: number;
}

export interface DigestDoc {
	id: string;
	/** channel, recipient and key: the members' digestGroup. */
	group: string;
	/** The group while the digest collects (unique): gone once a dispatcher closes it. */
	openKey?: string;
	channel: Channel;
	to: string;
	key: string;
	windowSeconds: number;
	state: "OPEN" | "CLOSING" | "DONE";
	/** The window's end; while CLOSING, when the closing dispatcher's lease ends. */
	dueAt: string;
	leaseToken?: string;
	createdAt: string;
	updatedAt: string;
}

export function digestGroup(channel: Channel, to: string, key: string): string {
	return `${channel}\u0000${to}\u0000${key}`;
}

/**
 * Makes sure the member's group has an open digest, opening one due `windowSeconds`
 * from now when there is none. Called after the member is stored, so a digest closed
 * in between either took it or leaves it to the one opened here.
 */
export async function openDigest(store: Store, member: NotificationDoc, digest: DigestRequest, now: number): Promise<void> {
	const digests = store.collection<DigestDoc>(DIGESTS);
	const group = member.digestGroup!;
	if (await digests.findOne({ openKey: group })) return;
	const iso = new Date(now).toISOString();
	try {
		await digests.insert({
			id: uuidv7(now),
			group,
			openKey: group,
			channel: member.channel,
			to: member.to,
			key: digest.key,
			windowSeconds: digest.windowSeconds,
			state: "OPEN",
			dueAt: new Date(now + digest.windowSeconds * 1000).toISOString(),
			createdAt: iso,
			updatedAt: iso
		});
	} catch (err) {
		// Another accept opened it first.
		if (!(err instanceof DuplicateKeyError)) throw err;
	}
}

export interface DigestCloserOptions {
	store: Store;
	events: StatusPublisher;
	now?: () => number;
	/** How long a claimed digest is this dispatcher's before another may take it over. */
	leaseMs: number;
	/** Told when a digest notification was stored (the dispatchers wake). */
	onQueued?: (urgent: boolean) => void;
}

/** Closes the digests that are due; a dispatcher runs it on its poll. */
export class DigestCloser {
	private readonly now: () => number;

	constructor(private readonly opts: DigestCloserOptions) {
		this.now = opts.now ?? Date.now;
	}

	private get digests() {
		return this.opts.store.collection<DigestDoc>(DIGESTS);
	}

	private get notifications() {
		return this.opts.store.collection<NotificationDoc>("notifications");
	}

	/** Claims up to `limit` due digests and closes each; answers how many digest notifications it stored. */
	async closeDue(limit = 20): Promise<number> {
		const now = this.now();
		const iso = new Date(now).toISOString();
		const claimed = await this.digests.claimMany(
			{ state: { $in: ["OPEN", "CLOSING"] }, dueAt: { $lte: iso } },
			{ $set: { state: "CLOSING", dueAt: new Date(now + this.opts.leaseMs).toISOString(), leaseToken: randomUUID(), updatedAt: iso }, $unset: ["openKey"] },
			{ sort: { dueAt: 1 }, limit }
		);
		let stored = 0;
		for (const d of claimed) if (await this.close(d)) stored += 1;
		return stored;
	}

	private async close(d: DigestDoc): Promise<boolean> {
		let made = false;
		let digest = await this.notifications.get(d.id);
		if (!digest) {
			await this.notifications.updateMany({ digestGroup: d.group, status: "QUEUED", digestId: null }, { $set: { digestId: d.id } });
			const members = await this.notifications.find({ digestId: d.id, status: "QUEUED" }, { sort: { seq: 1 } });
			if (members.length > 0) {
				digest = await this.digestOf(d, members);
				made = await this.store(d, digest);
			}
		}
		if (digest) await this.finish(d, digest);
		await this.digests.updateMany({ id: d.id, leaseToken: d.leaseToken! }, { $set: { state: "DONE", updatedAt: new Date(this.now()).toISOString() }, $unset: ["leaseToken"] });
		return made;
	}

	/** The one notification for the members: the first one's template, recipient and owner, `events` oldest first. */
	private async digestOf(d: DigestDoc, members: NotificationDoc[]): Promise<NotificationDoc> {
		const now = this.now();
		const iso = new Date(now).toISOString();
		const first = members[0]!;
		const last = members[members.length - 1]!;
		const doc: NotificationDoc = {
			id: d.id,
			channel: first.channel,
			to: first.to,
			priority: first.priority,
			priorityRank: priorityRank(first.priority),
			variables: { ...last.variables, events: members.map(m => m.variables) },
			status: "QUEUED",
			attempts: 0,
			createdBy: first.createdBy,
			createdAt: iso,
			updatedAt: iso,
			availableAt: iso,
			seq: nextSeq(now),
			digestOf: members.map(m => m.id)
		};
		if (first.category) doc.category = first.category;
		if (first.templateId) doc.templateId = first.templateId;
		if (first.template) doc.template = first.template;
		if (first.metadata) doc.metadata = first.metadata;
		if (first.traceparent) doc.traceparent = first.traceparent;
		if (doc.priority !== "CRITICAL") {
			const until = await quietHoursDelay(this.opts.store, doc.channel, doc.to, now);
			if (until !== undefined && until > now) doc.availableAt = doc.sendAt = new Date(until).toISOString();
		}
		return doc;
	}

	/** Stores the digest notification and its first event; false when an earlier attempt already did. */
	private async store(d: DigestDoc, doc: NotificationDoc): Promise<boolean> {
		const detail: Record<string, unknown> = { digest: { key: d.key, count: doc.digestOf!.length } };
		if (doc.sendAt) detail.sendAt = doc.sendAt;
		const first = newEvent(doc.id, "QUEUED", { now: this.now(), status: "QUEUED", detail });
		try {
			await this.opts.store.batch([
				[
					{ op: "insert", collection: "notifications", doc },
					{ op: "insert", collection: "notification_events", doc: first }
				]
			]);
		} catch (err) {
			if (err instanceof DuplicateKeyError) return false;
			throw err;
		}
		this.opts.events.publish([statusEvent(doc.createdBy, first, "QUEUED")]);
		this.opts.onQueued?.(doc.priority === "CRITICAL" || doc.priority === "HIGH");
		return true;
	}

	/**
	 * Ends every member the digest lists DIGESTED (each once: the write names QUEUED and
	 * the digest), and gives those it does not list (taken by a dispatcher whose lease
	 * had run out, after another stored the digest) back to their group.
	 */
	private async finish(d: DigestDoc, digest: NotificationDoc): Promise<void> {
		const now = this.now();
		const iso = new Date(now).toISOString();
		const ids = digest.digestOf ?? [];
		const members = ids.length ? await this.notifications.find({ id: { $in: ids }, digestId: d.id, status: "QUEUED" }) : [];
		const groups: BatchGroup[] = [];
		const events = members.map(m => newEvent(m.id, "DIGESTED", { now, status: "DIGESTED", detail: { digestId: d.id } }));
		members.forEach((m, i) =>
			groups.push([
				{ op: "updateMany", collection: "notifications", filter: { id: m.id, digestId: d.id, ...transition("QUEUED", "DIGESTED") }, update: { $set: { status: "DIGESTED", updatedAt: iso } } },
				{ op: "insert", collection: "notification_events", doc: events[i]! }
			])
		);
		if (groups.length) {
			const applied = await this.opts.store.batch(groups);
			this.opts.events.publish(members.flatMap((m, i) => (applied[i] ? [statusEvent(m.createdBy, events[i]!, "DIGESTED")] : [])));
		}
		const left = await this.notifications.updateMany({ digestId: d.id, status: "QUEUED" }, { $unset: ["digestId"] });
		if (left > 0) {
			const member = await this.notifications.findOne({ digestGroup: d.group, status: "QUEUED", digestId: null });
			if (member) await openDigest(this.opts.store, member, { key: d.key, windowSeconds: d.windowSeconds }, now);
		}
	}
}
