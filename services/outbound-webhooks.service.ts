/**
 * Outbound webhooks: owners (users and services) register endpoints for the status
 * events of their own notifications; this service keeps the endpoints and delivers
 * the stored deliveries (lib/outbound), signed per Standard Webhooks, retried with
 * backoff for over 24 hours, and sweeps for deliveries a node that recorded an event
 * did not live to store. Any number of nodes may run it: they share the deliveries
 * and the sweep through leases in the store.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { creatorOf, statusEventsBetween } from "../lib/notifications";
import { createEndpoint, deleteEndpoint, EVENT_TYPES, listEndpoints, type EndpointView } from "../lib/outbound/endpoints";
import { Deliverer } from "../lib/outbound/deliveries";
import { DeliveryRecovery } from "../lib/outbound/recovery";
import type { HttpMeta } from "../lib/http/meta";
import type { Drain } from "../lib/process/shutdown";
import { principalOf } from "../middlewares/auth.middleware";
import { ref } from "../lib/openapi/schemas";
import { ENDPOINTS_CHANGED_EVENT, RuntimeMixin, type RuntimeMethods } from "../mixins/runtime.mixin";

export interface CreateEndpointParams {
	url: string;
	events?: string[];
}

interface OutboundState {
	deliverer: Deliverer | null;
	recovery: DeliveryRecovery | null;
	drain: Drain | null;
}

const OutboundService: ServiceSchema<ServiceSettingSchema, RuntimeMethods, OutboundState> = {
	name: "outbound",
	mixins: [RuntimeMixin],
	actions: {
		createEndpoint: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Register a webhook endpoint for the caller's notifications",
				description:
					"The url must be https: and resolve to public addresses only. Deliveries are signed per Standard Webhooks with the secret answered here. An owner has one endpoint per url, and at most WEBHOOK_MAX_ENDPOINTS_PER_OWNER (10 by default).",
				success: { status: 201, description: "Registered; the secret is shown only here.", schema: ref("WebhookEndpointCreated"), headers: { Location: "The endpoint's URL." } },
				problems: ["WEBHOOK_ENDPOINT_EXISTS", "WEBHOOK_ENDPOINT_LIMIT_REACHED"],
				example: { url: "https://hooks.example.com/auth-notify", events: ["notification.delivered", "notification.failed"] }
			},
			params: {
				url: { type: "string", min: 1, max: 2048 },
				events: { type: "array", optional: true, max: EVENT_TYPES.length, items: { type: "enum", values: EVENT_TYPES } },
				$$strict: true
			},
			async handler(ctx: Context<CreateEndpointParams, HttpMeta>): Promise<EndpointView & { secret: string }> {
				const rt = this.runtime();
				const { allowPrivateUrls: allowPrivate, maxEndpointsPerOwner: maxPerOwner } = rt.config.outbound;
				const created = await createEndpoint(rt.store(), creatorOf(principalOf(ctx)!), ctx.params.url, ctx.params.events ?? [], { allowPrivate, maxPerOwner });
				// Other nodes fan out with this endpoint from now on, not after their copy of the list expires.
				await this.broker.broadcast(ENDPOINTS_CHANGED_EVENT, {});
				ctx.meta.$statusCode = 201;
				ctx.meta.$location = `/webhook-endpoints/${created.endpointId}`;
				return created;
			}
		},
		listEndpoints: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "List the caller's webhook endpoints",
				success: { status: 200, description: "The endpoints (no secrets).", schema: ref("WebhookEndpointList") }
			},
			params: { $$strict: true },
			async handler(ctx: Context): Promise<{ items: EndpointView[] }> {
				return { items: await listEndpoints(this.runtime().store(), creatorOf(principalOf(ctx)!)) };
			}
		},
		listAllEndpoints: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "List every webhook endpoint with its owner and recent attempts (administrators)",
				success: { status: 200, description: "The endpoints (no secrets).", schema: ref("AdminWebhookEndpointList") }
			},
			params: { $$strict: true },
			async handler(): Promise<{ items: EndpointView[] }> {
				return { items: await listEndpoints(this.runtime().store(), null) };
			}
		},
		deleteEndpoint: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Delete one of the caller's webhook endpoints",
				success: { status: 204, description: "Deleted." },
				problems: ["NOT_FOUND"]
			},
			params: { endpointId: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ endpointId: string }, HttpMeta>): Promise<null> {
				await deleteEndpoint(this.runtime().store(), creatorOf(principalOf(ctx)!), ctx.params.endpointId);
				await this.broker.broadcast(ENDPOINTS_CHANGED_EVENT, {});
				ctx.meta.$statusCode = 204;
				return null;
			}
		}
	},
	events: {
		"outbound.enqueued"() {
			this.deliverer?.wake();
		}
	},
	created() {
		this.deliverer = null;
		this.recovery = null;
		this.drain = null;
	},
	started() {
		const rt = this.runtime();
		if (rt.config.outbound.allowPrivateUrls) this.logger.warn("WEBHOOK_ALLOW_PRIVATE_URLS is true: webhooks may go to http and private addresses. Tests only.");
		const deliverer = new Deliverer({ store: rt.store(), config: rt.config.outbound, log: this.logger });
		this.deliverer = deliverer;
		deliverer.start();
		// Stores the deliveries of events whose recording node stopped before it could.
		const store = rt.store();
		const recovery = new DeliveryRecovery({ store, feed: (after, until, limit, owners) => statusEventsBetween(store, after, until, limit, owners), marginMs: rt.config.outbound.recoveryMarginMs, log: this.logger, onRecovered: () => deliverer.wake() });
		this.recovery = recovery;
		recovery.start();
		const stop = async () => {
			await recovery.stop();
			await deliverer.stop();
		};
		this.drain = { begin: stop, abort: stop };
		rt.shutdown.add(this.drain);
	},
	async stopped() {
		if (this.drain) this.runtime().shutdown.delete(this.drain);
		await this.recovery?.stop();
		await this.deliverer?.stop();
	}
};

export default OutboundService;
