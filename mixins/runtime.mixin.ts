/**
 * Gives a service its process runtime (store, key-value, identity provider) and a
 * way to call other services under its own service identity.
 */
import type { CallingOptions, Context, ServiceSchema } from "moleculer";
import { runtimeOf, type Runtime } from "../lib/runtime";
import { SESSIONS_DENIED_EVENT, type Denial } from "../lib/sessions/deny-list";

export interface RuntimeMethods {
	runtime(): Runtime;
	callAsService<R = unknown>(ctx: Context | null, action: string, params: object, opts?: CallingOptions): Promise<R>;
}

/** Broadcast by the auth service after a key rotation (every node that verifies tokens has a service with this mixin). */
export const KEYS_ROTATED_EVENT = "auth.keysRotated";

/** Broadcast by the outbound service when a webhook endpoint is created or deleted (every node that records status events fans them out). */
export const ENDPOINTS_CHANGED_EVENT = "outbound.endpointsChanged";

export const RuntimeMixin: Partial<ServiceSchema> = {
	events: {
		[KEYS_ROTATED_EVENT]() {
			runtimeOf(this.broker).keysRotated();
		},
		[SESSIONS_DENIED_EVENT](ctx: Context<{ denials?: Denial[] }>) {
			runtimeOf(this.broker).sessionsDenied(ctx.params);
		},
		[ENDPOINTS_CHANGED_EVENT]() {
			runtimeOf(this.broker).webhookEndpointsChanged();
		}
	},
	methods: {
		runtime(): Runtime {
			return runtimeOf(this.broker);
		},
		/**
		 * Calls with this service's token instead of the caller's. broker.call (not
		 * ctx.call) keeps the service token out of the caller's meta, which ctx.call
		 * would merge back when the call returns.
		 */
		async callAsService(ctx: Context | null, action: string, params: object, opts: CallingOptions = {}) {
			const authToken = await runtimeOf(this.broker).serviceTokens.get(this.name);
			return this.broker.call(action, params, {
				...opts,
				...(ctx ? { parentCtx: ctx } : {}),
				meta: { ...(ctx?.meta ?? {}), ...(opts.meta ?? {}), authToken }
			});
		}
	}
};
