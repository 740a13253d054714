/**
 * Push subscriptions of actors (`push_subscriptions`): the browser's PushSubscription
 * JSON, checked before it is kept. An endpoint belongs to one actor: when another
 * actor subscribes the same browser, the endpoint moves to them, so nobody receives
 * the previous user's notifications. An actor keeps at most
 * MAX_SUBSCRIPTIONS_PER_ACTOR, the oldest dropped first, so one account cannot make
 * every send fan out without bound. The endpoint's host must resolve to public
 * addresses only, as a webhook URL's (lib/public-address.ts), unless
 * PUSH_ALLOW_INSECURE_ENDPOINTS (tests): the dispatcher posts to it.
 */
import { randomUUID } from "node:crypto";
import { sha256 } from "../crypto";
import { ClientError, type FieldProblem } from "../errors";
import { publicHostProblem } from "../net/public-address";
import { DuplicateKeyError, type Store } from "../store";
import type { PushSubscriptionKeys } from "./send";

export const SUBSCRIPTIONS_COLLECTION = "push_subscriptions";
export const MAX_SUBSCRIPTIONS_PER_ACTOR = 20;
const MAX_ENDPOINT_LENGTH = 2048;

export interface PushSubscriptionDoc extends PushSubscriptionKeys {
	id: string;
	actorId: string;
	/** Unique: an endpoint is one browser's, and belongs to one actor. */
	endpointHash: string;
	createdAt: string;
}

export interface PushSubscriptionView {
	subscriptionId: string;
	endpoint: string;
	createdAt: string;
}

function view(d: PushSubscriptionDoc): PushSubscriptionView {
	return { subscriptionId: d.id, endpoint: d.endpoint, createdAt: d.createdAt };
}

/** base64url of exactly `bytes` bytes (padding tolerated), or null. */
function key(v: unknown, bytes: number): string | null {
	if (typeof v !== "string" || !/^[A-Za-z0-9_-]+={0,2}$/.test(v)) return null;
	const raw = Buffer.from(v.replace(/=+$/, ""), "base64url");
	return raw.length === bytes ? raw.toString("base64url") : null;
}

async function endpointProblem(v: unknown, allowInsecure: boolean): Promise<string | null> {
	if (typeof v !== "string" || v.length > MAX_ENDPOINT_LENGTH || !URL.canParse(v)) return `must be a URL of at most ${MAX_ENDPOINT_LENGTH} characters`;
	const u = new URL(v);
	if (u.username || u.password) return "must not carry credentials";
	if (allowInsecure) return u.protocol === "https:" || u.protocol === "http:" ? null : "must be an https: URL";
	if (u.protocol !== "https:") return "must be an https: URL";
	const host = await publicHostProblem(u.hostname);
	if (host === "unresolvable") return "must name a host that resolves";
	return host ? "must be a public push service" : null;
}

/** The subscription as the push service needs it; 400 VALIDATION_ERROR naming each bad field otherwise. */
export async function validateSubscription(input: unknown, allowInsecure: boolean): Promise<PushSubscriptionKeys> {
	const s = (input && typeof input === "object" ? input : {}) as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } };
	const problems: FieldProblem[] = [];
	const endpoint = await endpointProblem(s.endpoint, allowInsecure);
	if (endpoint) problems.push({ field: "endpoint", message: endpoint });
	const keys = s.keys && typeof s.keys === "object" ? s.keys : {};
	// p256dh: an uncompressed P-256 point; auth: the 16-byte secret (RFC 8291 §3).
	const p256dh = key(keys.p256dh, 65);
	if (!p256dh || Buffer.from(p256dh, "base64url")[0] !== 0x04) problems.push({ field: "keys.p256dh", message: "must be an uncompressed P-256 public key in base64url" });
	const auth = key(keys.auth, 16);
	if (!auth) problems.push({ field: "keys.auth", message: "must be 16 bytes in base64url" });
	if (problems.length > 0) throw new ClientError(400, "VALIDATION_ERROR", "The push subscription is not valid.", { errors: problems });
	return { endpoint: s.endpoint as string, keys: { p256dh: p256dh!, auth: auth! } };
}

export class PushSubscriptions {
	constructor(
		private readonly store: Store,
		private readonly now: () => number = Date.now
	) {}

	private get docs() {
		return this.store.collection<PushSubscriptionDoc>(SUBSCRIPTIONS_COLLECTION);
	}

	/** Adds (or, for an endpoint the actor already has, refreshes) a subscription. Throws 400 ClientError. */
	async add(actorId: string, input: unknown, allowInsecure: boolean): Promise<PushSubscriptionView> {
		const sub = await validateSubscription(input, allowInsecure);
		const endpointHash = sha256(sub.endpoint);
		// Two tries: another actor may take the endpoint between the move and the insert.
		for (let attempt = 0; ; attempt++) {
			await this.docs.deleteMany({ endpointHash, actorId: { $ne: actorId } });
			const doc: PushSubscriptionDoc = { id: randomUUID(), actorId, endpointHash, ...sub, createdAt: new Date(this.now()).toISOString() };
			try {
				await this.docs.insert(doc);
			} catch (err) {
				if (!(err instanceof DuplicateKeyError)) throw err;
				// The browser subscribed again (perhaps with new keys): one record, the same id.
				const existing = await this.docs.findOneAndUpdate({ endpointHash, actorId }, { $set: { keys: sub.keys } });
				if (existing) return view(existing);
				if (attempt > 0) throw err;
				continue;
			}
			const surplus = await this.docs.find({ actorId }, { sort: { createdAt: -1 }, skip: MAX_SUBSCRIPTIONS_PER_ACTOR });
			if (surplus.length > 0) await this.docs.deleteMany({ id: { $in: surplus.map(d => d.id) } });
			return view(doc);
		}
	}

	async list(actorId: string): Promise<PushSubscriptionView[]> {
		return (await this.forActor(actorId)).map(view);
	}

	/** With the keys: what a send needs. */
	forActor(actorId: string): Promise<PushSubscriptionDoc[]> {
		return this.docs.find({ actorId }, { sort: { createdAt: -1 } });
	}

	/** False when the actor has no such subscription. */
	async delete(actorId: string, subscriptionId: string): Promise<boolean> {
		return (await this.docs.deleteMany({ id: subscriptionId, actorId })) > 0;
	}

	/** The push service answered 404 or 410 for it (or the browser unsubscribed). */
	deleteByEndpoint(endpoint: string): Promise<number> {
		return this.docs.deleteMany({ endpointHash: sha256(endpoint) });
	}
}
