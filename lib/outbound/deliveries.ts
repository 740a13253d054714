/**
 * Deliveries of status events to webhook endpoints, through the store. The node that
 * records an event fans it out to its owner's endpoints as soon as the event is
 * durable (one delivery per endpoint and event: a repeat is a duplicate key); should
 * that node die in between, the recovery sweep (recovery.ts) stores them instead.
 * From then on the delivery survives any crash. Delivering nodes claim due deliveries with
 * a lease, as dispatchers claim notifications: a node that dies mid-send leaves its
 * lease to expire, and another node sends again with the same webhook-id.
 */
import { createHash, randomUUID } from "node:crypto";
import type { OutboundConfig } from "../config";
import { uuidv7 } from "../crypto";
import { STATUSES, type StatusEvent } from "../delivery";
import { LeaseWorker } from "../process/lease-worker";
import { DuplicateKeyError, type Filter, type Store } from "../store";
import { eventType, ownerKey, type AttemptDoc, type DeliveryDoc, type EndpointDoc } from "./model";
import { attempt, type AttemptResult } from "./send";

/** Only status events: internal steps (a lease that expired, a failed attempt to be retried) are not sent. */
function isStatusEvent(e: StatusEvent): boolean {
	return (STATUSES as readonly string[]).includes(e.event);
}

export function webhookBody(e: StatusEvent, type: string): string {
	const data: Record<string, unknown> = { notificationId: e.notificationId, status: e.status, event: e.event, occurredAt: e.occurredAt };
	if (e.detail) data.detail = e.detail;
	return JSON.stringify({ type, timestamp: e.occurredAt, data });
}

/**
 * The webhook-id of event `seq` sent to endpoint `endpointId`: made from the two, so it
 * is the same whichever writer stores the delivery (the recording node, or the recovery
 * sweep in recovery.ts), and every attempt carries it.
 */
export function webhookIdOf(endpointId: string, seq: string): string {
	return `msg_${createHash("sha256").update(`${endpointId}:${seq}`).digest("hex").slice(0, 32)}`;
}

/**
 * Stores the delivery of a status event to one endpoint unless it exists already (its id
 * is `${endpointId}:${seq}`: a second insert is a duplicate key); true when it is new.
 * False too when the endpoint does not take this event type.
 */
export async function enqueueDelivery(store: Store, ep: EndpointDoc, e: StatusEvent, now = Date.now()): Promise<boolean> {
	const type = eventType(e.event);
	if (ep.events.length > 0 && !ep.events.includes(type)) return false;
	const iso = new Date(now).toISOString();
	try {
		await store.collection<DeliveryDoc>("webhook_deliveries").insert({
			id: `${ep.id}:${e.seq}`,
			endpointId: ep.id,
			ownerKey: ep.ownerKey,
			notificationId: e.notificationId,
			seq: e.seq,
			webhookId: webhookIdOf(ep.id, e.seq),
			type,
			body: webhookBody(e, type),
			state: "PENDING",
			attempts: 0,
			availableAt: iso,
			createdAt: iso
		});
		return true;
	} catch (err) {
		if (err instanceof DuplicateKeyError) return false;
		throw err;
	}
}

/**
 * How long this node reuses an owner's endpoint list for the fan-out. Every recorded
 * status event is fanned out, so without it each accepted notification cost a store
 * read on the event loop, nearly always finding no endpoint. A copy this old is safe
 * both ways: an endpoint deleted meanwhile is looked up again before each send
 * (Deliverer.deliver), and the events an endpoint created on another node missed
 * meanwhile are stored by the recovery sweep (recovery.ts), which takes every event
 * that occurred after the endpoint's creation. This node's own creates and deletes
 * drop its copies at once (endpointsChanged).
 */
const ENDPOINT_CACHE_MS = 1000;
/** Owners remembered at most; past it the copies start again from empty. */
const ENDPOINT_CACHE_OWNERS = 10_000;

const endpointCache = new WeakMap<Store, Map<string, { at: number; list: Promise<EndpointDoc[]> }>>();

function endpointsOf(store: Store, key: string): Promise<EndpointDoc[]> {
	let byOwner = endpointCache.get(store);
	if (!byOwner) endpointCache.set(store, (byOwner = new Map()));
	const now = Date.now();
	const hit = byOwner.get(key);
	if (hit && now - hit.at < ENDPOINT_CACHE_MS) return hit.list;
	if (byOwner.size >= ENDPOINT_CACHE_OWNERS) byOwner.clear();
	const list = store.collection<EndpointDoc>("webhook_endpoints").find({ ownerKey: key });
	const entry = { at: now, list };
	byOwner.set(key, entry);
	// A failed read is not remembered.
	list.catch(() => {
		if (byOwner.get(key) === entry) byOwner.delete(key);
	});
	return list;
}

/** This node created or deleted an endpoint: the fan-out reads the store again. */
export function endpointsChanged(store: Store): void {
	endpointCache.delete(store);
}

/** Stores a delivery for every endpoint of the events' owners that wants them; returns how many were new. */
export async function enqueueDeliveries(store: Store, events: StatusEvent[], now = Date.now()): Promise<number> {
	const wanted = events.filter(isStatusEvent);
	if (wanted.length === 0) return 0;
	let added = 0;
	for (const e of wanted) {
		for (const ep of await endpointsOf(store, ownerKey(e.owner))) if (await enqueueDelivery(store, ep, e, now)) added += 1;
	}
	return added;
}

export interface DelivererDeps {
	store: Store;
	config: OutboundConfig;
	log: { warn(msg: string, fields?: object): void; error(msg: string, fields?: object): void };
	now?: () => number;
}

/** Past the send's deadline, so a lease never expires under a send that is still allowed to finish. */
const LEASE_MARGIN_MS = 5000;

/** Sends under way per key (an endpoint, an owner). */
class Tally {
	private readonly counts = new Map<string, number>();

	add(key: string | undefined, by: 1 | -1): void {
		if (key === undefined) return;
		const n = (this.counts.get(key) ?? 0) + by;
		if (n > 0) this.counts.set(key, n);
		else this.counts.delete(key);
	}

	below(key: string | undefined, limit: number): boolean {
		return key === undefined || (this.counts.get(key) ?? 0) < limit;
	}

	/** The keys at their limit: the next claim passes over their deliveries. */
	full(limit: number): string[] {
		return [...this.counts].filter(([, n]) => n >= limit).map(([k]) => k);
	}
}

/**
 * Sends due deliveries, WEBHOOK_CONCURRENCY at once, of which at most
 * WEBHOOK_ENDPOINT_CONCURRENCY to one endpoint and WEBHOOK_OWNER_CONCURRENCY to one
 * owner's endpoints. An endpoint that hangs holds each slot until the attempt's
 * deadline (WEBHOOK_TIMEOUT_MS); without those bounds a backlog for one such endpoint
 * (or for one owner's several) took every slot, and everybody else's deliveries waited
 * behind it. A claim passes over the deliveries of endpoints and owners at their bound,
 * so the others' are claimed meanwhile.
 */
export class Deliverer {
	private readonly perEndpoint = new Tally();
	private readonly perOwner = new Tally();
	private readonly now: () => number;
	private readonly worker: LeaseWorker<DeliveryDoc>;

	constructor(private readonly deps: DelivererDeps) {
		this.now = deps.now ?? Date.now;
		this.worker = new LeaseWorker<DeliveryDoc>({
			concurrency: deps.config.concurrency,
			pollMs: deps.config.pollMs,
			sweep: () => this.reapExpired(),
			claim: free => this.claim(free),
			handle: async d => {
				try {
					await this.deliver(d);
				} finally {
					this.perEndpoint.add(d.endpointId, -1);
					this.perOwner.add(d.ownerKey, -1);
				}
			},
			// A freed slot may be what a claim passed over an endpoint or owner for.
			wakeOnFinish: true,
			onClaimError: err => deps.log.error("Claiming webhook deliveries failed", { error: (err as Error).message }),
			onHandleError: (err, d) => deps.log.error("Delivering a webhook failed", { deliveryId: d.id, error: (err as Error).message })
		});
	}

	private get deliveries() {
		return this.deps.store.collection<DeliveryDoc>("webhook_deliveries");
	}

	start(): void {
		this.worker.start();
	}

	wake(): void {
		this.worker.wake();
	}

	/** Sends under way finish and are recorded; nothing new is claimed. */
	stop(): Promise<void> {
		return this.worker.stop();
	}

	/**
	 * Claims up to `limit` due deliveries, none for an endpoint or owner at its bound, and
	 * counts them against those bounds. One claim may still take more for one endpoint or
	 * owner than its bound leaves: those go back to the queue as they were (their turn
	 * unchanged), and the next claim passes over them while the bound is reached.
	 */
	private async claim(limit: number): Promise<DeliveryDoc[]> {
		const { config } = this.deps;
		const now = this.now();
		const filter: Filter = { state: "PENDING", availableAt: { $lte: new Date(now).toISOString() } };
		const busyEndpoints = this.perEndpoint.full(config.endpointConcurrency);
		const busyOwners = this.perOwner.full(config.ownerConcurrency);
		if (busyEndpoints.length) filter.endpointId = { $nin: busyEndpoints };
		if (busyOwners.length) filter.ownerKey = { $nin: busyOwners };
		const leaseToken = randomUUID();
		const claimed = await this.deliveries.claimMany(
			filter,
			{ $set: { state: "SENDING", leaseToken, leaseUntil: new Date(now + config.timeoutMs + LEASE_MARGIN_MS).toISOString() } },
			{ sort: { availableAt: 1, seq: 1 }, limit }
		);
		const taken: DeliveryDoc[] = [];
		const surplus: string[] = [];
		for (const d of claimed) {
			if (!this.perEndpoint.below(d.endpointId, config.endpointConcurrency) || !this.perOwner.below(d.ownerKey, config.ownerConcurrency)) {
				surplus.push(d.id);
				continue;
			}
			// Counted from here until its send ends (the worker's handle).
			this.perEndpoint.add(d.endpointId, 1);
			this.perOwner.add(d.ownerKey, 1);
			taken.push(d);
		}
		if (surplus.length) {
			// Should this fail, their leases expire and reapExpired() puts them back; what was taken is sent either way.
			await this.deliveries
				.updateMany({ id: { $in: surplus }, state: "SENDING", leaseToken }, { $set: { state: "PENDING" }, $unset: ["leaseToken", "leaseUntil"] })
				.catch(err => this.deps.log.warn("Could not put back webhook deliveries past their endpoint's or owner's bound", { count: surplus.length, error: (err as Error).message }));
		}
		return taken;
	}

	/** Deliveries whose sender died or hung go back to the queue, with the same webhook-id. */
	private async reapExpired(): Promise<void> {
		await this.deliveries.updateMany(
			{ state: "SENDING", leaseUntil: { $lt: new Date(this.now()).toISOString() } },
			{ $set: { state: "PENDING" }, $unset: ["leaseToken", "leaseUntil"] }
		);
	}

	private held(d: DeliveryDoc) {
		return { id: d.id, state: "SENDING", leaseToken: d.leaseToken! };
	}

	private async deliver(d: DeliveryDoc): Promise<void> {
		const { store, config } = this.deps;
		const endpoint = await store.collection<EndpointDoc>("webhook_endpoints").get(d.endpointId);
		if (!endpoint) {
			// Deleted meanwhile: nothing more goes to it.
			await this.deliveries.deleteMany(this.held(d));
			return;
		}
		// In order per notification and endpoint: an earlier event still on its way goes first.
		const earlier = await this.deliveries.count({ endpointId: d.endpointId, notificationId: d.notificationId, seq: { $lt: d.seq }, state: { $in: ["PENDING", "SENDING"] } });
		if (earlier > 0) {
			await this.deliveries.updateMany(this.held(d), { $set: { state: "PENDING", availableAt: new Date(this.now() + config.orderWaitMs).toISOString() }, $unset: ["leaseToken", "leaseUntil"] });
			return;
		}
		const result = await attempt(endpoint.url, endpoint.secret, d.webhookId, d.body, { timeoutMs: config.timeoutMs, allowPrivate: config.allowPrivateUrls });
		await this.record(d, result);
	}

	private async record(d: DeliveryDoc, result: AttemptResult): Promise<void> {
		const { store, config } = this.deps;
		const now = this.now();
		const attempts = d.attempts + 1;
		const a: AttemptDoc = { id: uuidv7(now), endpointId: d.endpointId, webhookId: d.webhookId, type: d.type, at: new Date(now).toISOString(), outcome: result.ok ? "succeeded" : "failed" };
		if (result.responseCode !== undefined) a.responseCode = result.responseCode;
		if (result.error) a.error = result.error;
		await store.collection<AttemptDoc>("webhook_attempts").insert(a);
		if (result.ok) {
			await this.deliveries.updateMany(this.held(d), { $set: { state: "DELIVERED", attempts }, $unset: ["leaseToken", "leaseUntil"] });
			return;
		}
		const delay = config.retryDelaysMs[attempts - 1];
		if (delay === undefined) {
			this.deps.log.warn("A webhook delivery ran out of retries", { deliveryId: d.id, attempts });
			await this.deliveries.updateMany(this.held(d), { $set: { state: "FAILED", attempts }, $unset: ["leaseToken", "leaseUntil"] });
			return;
		}
		await this.deliveries.updateMany(this.held(d), {
			$set: { state: "PENDING", attempts, availableAt: new Date(now + delay).toISOString() },
			$unset: ["leaseToken", "leaseUntil"]
		});
	}
}
