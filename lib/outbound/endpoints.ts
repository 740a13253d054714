/**
 * Webhook endpoints: created by a user or service for its own notifications, listed
 * without their secrets (with their recent attempts), deleted with their pending
 * deliveries. An owner has at most WEBHOOK_MAX_ENDPOINTS_PER_OWNER of them and one per
 * url: every endpoint multiplies each status event of the owner's notifications into
 * one more signed POST, so without a bound one account could turn a notification into
 * hundreds of requests (and as many outbound slots held).
 */
import { randomBytes } from "node:crypto";
import { sha256, uuidv7 } from "../crypto";
import { ClientError, notFound } from "../errors";
import type { Creator } from "../delivery";
import { DuplicateKeyError, type Store } from "../store";
import { eventType, ownerKey, type AttemptDoc, type DeliveryDoc, type EndpointDoc } from "./model";
import { endpointsChanged } from "./deliveries";
import { checkEndpointUrl } from "./url-guard";
import { STATUSES } from "../delivery";

export const EVENT_TYPES = STATUSES.map(eventType);

export interface EndpointView {
	endpointId: string;
	url: string;
	events: string[];
	createdAt: string;
	recentAttempts?: Omit<AttemptDoc, "id" | "endpointId">[];
	/** Only in the administrators' list of every endpoint. */
	owner?: Creator;
}

const RECENT_ATTEMPTS = 20;

function view(doc: EndpointDoc): EndpointView {
	return { endpointId: doc.id, url: doc.url, events: doc.events, createdAt: doc.createdAt };
}

const endpointExists = () => new ClientError(409, "WEBHOOK_ENDPOINT_EXISTS", "You have a webhook endpoint with this url already.");
const limitReached = (max: number) =>
	new ClientError(409, "WEBHOOK_ENDPOINT_LIMIT_REACHED", `You have ${max} webhook endpoints, as many as allowed: delete one before adding another.`);

export interface EndpointLimits {
	allowPrivate: boolean;
	maxPerOwner: number;
}

export async function createEndpoint(store: Store, owner: Creator, url: string, events: string[], limits: EndpointLimits): Promise<EndpointView & { secret: string }> {
	const checked = await checkEndpointUrl(url, limits.allowPrivate);
	const endpoints = store.collection<EndpointDoc>("webhook_endpoints");
	const key = ownerKey(owner);
	// By url too: endpoints made before urlKey was kept have none.
	if (await endpoints.findOne({ ownerKey: key, url: checked.href })) throw endpointExists();
	if ((await endpoints.count({ ownerKey: key })) >= limits.maxPerOwner) throw limitReached(limits.maxPerOwner);
	const doc: EndpointDoc = {
		id: uuidv7(),
		owner,
		ownerKey: key,
		url: checked.href,
		urlKey: sha256(`${key} ${checked.href}`),
		events: [...new Set(events)],
		secret: `whsec_${randomBytes(32).toString("base64")}`,
		createdAt: new Date().toISOString()
	};
	try {
		await endpoints.insert(doc);
	} catch (err) {
		// A concurrent create of the same url got there first.
		if (err instanceof DuplicateKeyError) throw endpointExists();
		throw err;
	}
	endpointsChanged(store);
	// Concurrent creates may each have counted one short of the cap. Whichever finds the
	// cap passed after its own insert takes that insert back: the last insert to land
	// sees every other, so the cap holds (and at worst both of two racing are refused).
	if ((await endpoints.count({ ownerKey: key })) > limits.maxPerOwner) {
		await deleteEndpoint(store, owner, doc.id);
		throw limitReached(limits.maxPerOwner);
	}
	return { ...view(doc), secret: doc.secret };
}

/** The owner's endpoints; null (administrators) means every endpoint, each with its owner. */
export async function listEndpoints(store: Store, owner: Creator | null): Promise<EndpointView[]> {
	const docs = await store.collection<EndpointDoc>("webhook_endpoints").find(owner ? { ownerKey: ownerKey(owner) } : {}, { sort: { createdAt: 1 } });
	const attempts = store.collection<AttemptDoc>("webhook_attempts");
	return Promise.all(
		docs.map(async d => ({
			...view(d),
			...(owner ? {} : { owner: d.owner }),
			recentAttempts: (await attempts.find({ endpointId: d.id }, { sort: { at: -1 }, limit: RECENT_ATTEMPTS })).map(({ id: _id, endpointId: _e, ...a }) => a)
		}))
	);
}

/** Deletes the endpoint and what it still had to receive; a send under way finishes, nothing starts after. */
export async function deleteEndpoint(store: Store, owner: Creator, endpointId: string): Promise<void> {
	const endpoints = store.collection<EndpointDoc>("webhook_endpoints");
	const removed = await endpoints.deleteMany({ id: endpointId, ownerKey: ownerKey(owner) });
	endpointsChanged(store);
	if (removed === 0) throw notFound("NOT_FOUND", "No webhook endpoint has this id.");
	await store.collection<DeliveryDoc>("webhook_deliveries").deleteMany({ endpointId, state: { $in: ["PENDING", "SENDING"] } });
}
