/**
 * The notifications service's Web Push routes: the VAPID public key a page subscribes
 * with, and the push subscriptions of an actor (register, list, delete), managed by the
 * actor itself, a service or an administrator. Mixed into services/notifications/notifications.service.ts,
 * so the actions are notifications.*; the subscriptions themselves are lib/push's.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { ClientError, notFound } from "../../lib/errors";
import type { HttpMeta } from "../../lib/http/meta";
import { mayActFor } from "../../lib/notifications";
import { ref } from "../../lib/openapi/schemas";
import { PushSubscriptions, vapidPublicKey, type PushSubscriptionView } from "../../lib/push";
import { principalOf } from "../../middlewares/auth.middleware";
import { RuntimeMixin, type RuntimeMethods } from "../../mixins/runtime.mixin";

export type { PushSubscriptionView };

export interface PushSubscriptionParams {
	id: string;
	endpoint?: unknown;
	keys?: unknown;
	/** Part of PushSubscription.toJSON() in browsers; push services expire subscriptions themselves. */
	expirationTime?: unknown;
}

type Meta = HttpMeta;

interface PushMethods extends RuntimeMethods {
	/** 403 FORBIDDEN unless the caller may manage this actor's push subscriptions. */
	requireActor(ctx: Context, actorId: string): void;
}

interface PushState {
	subscriptions: PushSubscriptions;
	/** The public key never changes once made (lib/push/vapid.ts): read once, forgotten on failure. */
	publicKey: Promise<string> | null;
}

export const PushSubscriptionsMixin: ServiceSchema<ServiceSettingSchema, PushMethods, PushState> = {
	name: "push-subscriptions",
	mixins: [RuntimeMixin],
	actions: {
		vapidPublicKey: {
			visibility: "published",
			// What a page passes to pushManager.subscribe(): public by nature.
			auth: "public",
			openapi: {
				summary: "The VAPID public key for Web Push subscriptions",
				success: { status: 200, description: "The key to pass to pushManager.subscribe().", schema: ref("VapidPublicKey") }
			},
			params: { $$strict: true },
			async handler(): Promise<{ publicKey: string }> {
				this.publicKey ??= vapidPublicKey(this.runtime().store(), this.runtime().config).catch(err => {
					this.publicKey = null;
					throw err;
				});
				return { publicKey: await this.publicKey };
			}
		},
		addPushSubscription: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Add a Web Push subscription to an actor",
				description: "The body is the browser's PushSubscription JSON; the endpoint must be https: on a host that resolves to public addresses only.",
				body: {
					type: "object",
					required: ["endpoint", "keys"],
					additionalProperties: false,
					properties: {
						endpoint: { type: "string", format: "uri" },
						keys: {
							type: "object",
							required: ["p256dh", "auth"],
							properties: {
								p256dh: { type: "string", description: "The uncompressed P-256 public key, base64url." },
								auth: { type: "string", description: "The 16-byte authentication secret, base64url." }
							}
						},
						expirationTime: { type: ["number", "null"] }
					}
				},
				success: { status: 201, description: "Added.", schema: ref("PushSubscription"), headers: { Location: "The subscription's URL." } },
				problems: ["FORBIDDEN", "NOT_FOUND"],
				example: {
					endpoint: "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bExample",
					expirationTime: null,
					keys: { p256dh: "BJlIlb6rxcyKu0oOvhBWcwdlUVAggOP-8HaoxoGbUhm9De8NPcTdT8A6UJCWgOPWJ8ziDP0ZNnblwryAQWDRk68", auth: "1UoVHlKBnnrs9PO0NcR8KQ" }
				}
			},
			// endpoint and keys are checked by validateSubscription, which names each bad field.
			params: { id: { type: "uuid" }, endpoint: { type: "any", optional: true }, keys: { type: "any", optional: true }, expirationTime: { type: "any", optional: true }, $$strict: true },
			async handler(ctx: Context<PushSubscriptionParams, Meta>): Promise<PushSubscriptionView> {
				const { id, endpoint, keys } = ctx.params;
				this.requireActor(ctx, id);
				const principal = principalOf(ctx)!;
				// A user's own actor exists; anyone else names one that must.
				if (principal.kind !== "user" || principal.sub !== id) await this.callAsService(ctx, "actors.get", { id });
				const sub = await this.subscriptions.add(id, { endpoint, keys }, this.runtime().config.notifications.push.allowInsecureEndpoints);
				ctx.meta.$statusCode = 201;
				ctx.meta.$location = `/actors/${id}/push-subscriptions/${sub.subscriptionId}`;
				return sub;
			}
		},
		listPushSubscriptions: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "List an actor's Web Push subscriptions",
				success: { status: 200, description: "The subscriptions.", schema: ref("PushSubscriptionList") },
				problems: ["FORBIDDEN"]
			},
			params: { id: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ id: string }>): Promise<{ items: PushSubscriptionView[] }> {
				this.requireActor(ctx, ctx.params.id);
				return { items: await this.subscriptions.list(ctx.params.id) };
			}
		},
		deletePushSubscription: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Delete one of an actor's Web Push subscriptions",
				success: { status: 204, description: "Deleted." },
				problems: ["FORBIDDEN", "NOT_FOUND"]
			},
			params: { id: { type: "uuid" }, subscriptionId: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ id: string; subscriptionId: string }, Meta>): Promise<null> {
				this.requireActor(ctx, ctx.params.id);
				if (!(await this.subscriptions.delete(ctx.params.id, ctx.params.subscriptionId))) {
					throw notFound("NOT_FOUND", "This actor has no push subscription with this id.");
				}
				ctx.meta.$statusCode = 204;
				return null;
			}
		}
	},
	methods: {
		requireActor(ctx: Context, actorId: string) {
			if (!mayActFor(principalOf(ctx)!, actorId)) {
				throw new ClientError(403, "FORBIDDEN", "Only the actor itself, a service or an administrator may manage its push subscriptions.");
			}
		}
	},
	created() {
		this.publicKey = null;
	},
	started() {
		this.subscriptions = new PushSubscriptions(this.runtime().store());
	}
};
