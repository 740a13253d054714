/**
 * The recovery sweep: deliveries for status events whose recording node died between
 * the event's commit and the write of its deliveries (lib/runtime.ts stores them just
 * after the commit). With it a status event that is in the store reaches its owner's
 * endpoints at least once, whichever node dies when.
 *
 * Why a sweep and not the deliveries in the event's own write: events are recorded on
 * several paths (the accept's group commit, the dispatcher's outcomes, the lease
 * reaper, provider webhooks, cancel), and on MongoDB a batch is not a transaction
 * (lib/store/types.ts), so "in the same write" would hold on SQLite only. The sweep
 * uses only what both backends do alike: a range read by id, single-document updates
 * and inserts that a unique id makes single.
 *
 * How: a cursor kept in the store, an event id. Event ids are UUIDv7 made from the
 * time the event occurred (lib/notifications/events.ts), so ids sort by that time. A
 * pass reads the status events after the cursor that occurred more than
 * WEBHOOK_RECOVERY_MARGIN_MS ago, with their notifications' owners (through the feed
 * the notifications domain hands it, `statusEventsBetween`), and
 * stores a delivery for every endpoint of those owners that wants the event and
 * existed when it occurred. A delivery's id is `${endpointId}:${seq}` and its
 * webhook-id is made from the same two, so one the recording node stored already is a
 * duplicate key: nothing is stored or sent twice. The margin is how long an event may
 * take to become visible after the time it carries (a group commit, a busy store,
 * another node's clock): the cursor passes a time only that long after it.
 *
 * One node runs a pass at a time (a lease on the cursor; a pass that dies leaves it to
 * expire). While there are no endpoints a pass reads no events.
 */
import { randomUUID } from "node:crypto";
import { uuidv7Floor } from "../crypto";
import type { StatusEvent } from "../delivery";
import { DuplicateKeyError, type Store } from "../store";
import { enqueueDelivery } from "./deliveries";
import { ownerKey, type EndpointDoc } from "./model";

interface CursorDoc {
	id: string;
	/** Every event with an id up to this one has been swept (an event id, or a uuidv7Floor). */
	after: string;
	leaseUntil: string;
	leaseToken?: string;
}

const CURSOR_ID = "events";
const NOBODY = new Date(0).toISOString();
/** A pass whose node died mid-way holds the cursor this long. */
const LEASE_MS = 60_000;

/** Pages of status events by id range, with their owners (lib/notifications' statusEventsBetween). */
export type StatusFeed = (
	after: string,
	until: string,
	limit: number,
	ownerIds: string[]
) => Promise<{ read: number; lastId: string | null; events: StatusEvent[] }>;

export interface RecoveryDeps {
	store: Store;
	feed: StatusFeed;
	marginMs: number;
	log: { warn(msg: string, fields?: object): void; error(msg: string, fields?: object): void };
	/** Told when a pass stored deliveries, to send them now. */
	onRecovered?: (count: number) => void;
	now?: () => number;
	pageSize?: number;
}

export class DeliveryRecovery {
	private readonly now: () => number;
	private readonly pageSize: number;
	private timer: NodeJS.Timeout | null = null;
	private pass: Promise<unknown> = Promise.resolve();
	private running = false;

	constructor(private readonly deps: RecoveryDeps) {
		this.now = deps.now ?? Date.now;
		this.pageSize = deps.pageSize ?? 500;
	}

	/** How often a pass runs: a few times per margin, so a lost delivery waits little more than the margin. */
	get everyMs(): number {
		return Math.min(30_000, Math.max(50, Math.floor(this.deps.marginMs / 4)));
	}

	start(): void {
		this.running = true;
		const next = () => {
			if (!this.running) return;
			this.timer = setTimeout(() => {
				this.pass = this.sweep()
					.then(
						added => {
							if (added === 0) return;
							this.deps.log.warn("Stored webhook deliveries that the node recording their events did not (it stopped in between)", { count: added });
							this.deps.onRecovered?.(added);
						},
						(err: Error) => this.deps.log.error("The webhook recovery sweep failed; it runs again", { error: err.message })
					)
					.finally(next);
			}, this.everyMs);
		};
		next();
	}

	/** The pass under way finishes (and gives up its lease); none starts after. */
	async stop(): Promise<void> {
		this.running = false;
		if (this.timer) clearTimeout(this.timer);
		await this.pass;
	}

	/** One pass; how many deliveries it stored (0 too when another node holds the cursor). */
	async sweep(): Promise<number> {
		const until = uuidv7Floor(this.now() - this.deps.marginMs);
		const lease = await this.lease(until);
		if (!lease) return 0;
		let added = 0;
		let after = lease.after;
		try {
			const byOwner = await this.endpointsByOwner();
			const owners = [...new Set([...byOwner.values()].map(list => list[0]!.owner.id))];
			while (after < until) {
				const page = byOwner.size === 0 ? null : await this.deps.feed(after, until, this.pageSize, owners);
				if (page) added += await this.recover(page.events, byOwner);
				after = !page || page.read < this.pageSize ? until : page.lastId!;
				if (!(await this.advance(lease.token, after))) break;
			}
		} finally {
			await this.cursors().updateMany({ id: CURSOR_ID, leaseToken: lease.token }, { $set: { leaseUntil: NOBODY }, $unset: ["leaseToken"] });
		}
		return added;
	}

	private cursors() {
		return this.deps.store.collection<CursorDoc>("webhook_recovery");
	}

	/** The cursor, held by this pass; null while another pass holds it. The first pass starts it at `until`. */
	private async lease(until: string): Promise<{ token: string; after: string } | null> {
		const cursors = this.cursors();
		try {
			await cursors.insert({ id: CURSOR_ID, after: until, leaseUntil: NOBODY });
		} catch (err) {
			if (!(err instanceof DuplicateKeyError)) throw err;
		}
		const token = randomUUID();
		const now = this.now();
		const held = await cursors.findOneAndUpdate(
			{ id: CURSOR_ID, leaseUntil: { $lt: new Date(now).toISOString() } },
			{ $set: { leaseToken: token, leaseUntil: new Date(now + LEASE_MS).toISOString() } }
		);
		return held ? { token, after: held.after } : null;
	}

	/** Moves the cursor on and keeps the lease; false when the lease was lost (this pass took too long). */
	private async advance(token: string, after: string): Promise<boolean> {
		const kept = await this.cursors().updateMany({ id: CURSOR_ID, leaseToken: token }, { $set: { after, leaseUntil: new Date(this.now() + LEASE_MS).toISOString() } });
		return kept === 1;
	}

	private async endpointsByOwner(): Promise<Map<string, EndpointDoc[]>> {
		const byOwner = new Map<string, EndpointDoc[]>();
		for (const ep of await this.deps.store.collection<EndpointDoc>("webhook_endpoints").find({})) {
			const list = byOwner.get(ep.ownerKey);
			if (list) list.push(ep);
			else byOwner.set(ep.ownerKey, [ep]);
		}
		return byOwner;
	}

	private async recover(events: StatusEvent[], byOwner: Map<string, EndpointDoc[]>): Promise<number> {
		const now = this.now();
		let added = 0;
		for (const e of events) {
			const endpoints = byOwner.get(ownerKey(e.owner));
			if (!endpoints) continue;
			for (const ep of endpoints) {
				// An endpoint created after the event never wanted it: the recording node's fan-out did not know of it.
				if (ep.createdAt <= e.occurredAt && (await enqueueDelivery(this.deps.store, ep, e, now))) added += 1;
			}
		}
		return added;
	}
}
