/**
 * Webhook endpoints: created by a user or service for its own notifications, listed
 * without their secrets (with their recent attempts), deleted with their pending
 * deliveries.
 */
import { randomBytes } from "node:crypto";
import { uuidv7 } from "../crypto";
import { notFound } from "../errors";
import type { Creator } from "../delivery";
import type { Store } from "../store";
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

export async function createEndpoint(store: Store, owner: Creator, url: string, events: string[], allowPrivate: boolean): Promise<EndpointView & { secret: string }> {
	const checked = await checkEndpointUrl(url, allowPrivate);
	const doc: EndpointDoc = {
		id: uuidv7(),
		owner,
		ownerKey: ownerKey(owner),
		url: checked.href,
		events: [...new Set(events)],
		secret: `whsec_${randomBytes(32).toString("base64")}`,
		createdAt: new Date().toISOString()
	};
	await store.collection<EndpointDoc>("webhook_endpoints").insert(doc);
	endpointsChanged(store);
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
