/**
 * client.admin: the administrators' routes (a token of the `admin` group; anyone else
 * gets 403 FORBIDDEN), as the console uses them: feature flags, suppressions and
 * unsubscribes, service accounts, signing keys, the overview, providers' health and every
 * webhook endpoint.
 */
import type { Request } from "./request.js";
import type {
	AdminStats,
	AdminWebhookEndpointList,
	ProviderHealthList,
	Channel,
	FeatureFlag,
	FeatureFlagList,
	FeatureFlagValue,
	RotatedKey,
	ServiceAccountCreated,
	ServiceAccountList,
	SuppressionList,
	UnsubscribeList
} from "./types.js";

export interface AdminApi {
	features: {
		list(): Promise<FeatureFlagList>;
		/** 404 FEATURE_NOT_FOUND when no flag has this name. */
		get(featureName: string): Promise<FeatureFlag>;
		/** PUT /admin/features/{name}: the value is a JSON object, e.g. { enabled: false }. */
		set(featureName: string, value: FeatureFlagValue): Promise<FeatureFlag>;
	};
	suppressions: {
		/** Addresses no message goes to (hard bounces, complaints); `address` narrows to one. */
		list(query?: { address?: string }): Promise<SuppressionList>;
		delete(channel: Channel, address: string): Promise<void>;
	};
	unsubscribes: {
		list(query?: { address?: string }): Promise<UnsubscribeList>;
		delete(channel: Channel, address: string, category: string): Promise<void>;
	};
	serviceAccounts: {
		/** The answer's password is shown only here. 409 SERVICE_EXISTS. */
		create(serviceId: string): Promise<ServiceAccountCreated>;
		list(): Promise<ServiceAccountList>;
		/** Its tokens stop working at their expiry. */
		delete(serviceId: string): Promise<void>;
	};
	keys: {
		/** A new signing key signs from now on; older public keys stay published until their tokens expire. */
		rotate(): Promise<RotatedKey>;
	};
	/** Queue depth, throughput and failure rates: what the console's overview shows. */
	stats(): Promise<AdminStats>;
	/** Each email and SMS provider's circuit (up, down, probing) across dispatcher nodes. */
	providers(): Promise<ProviderHealthList>;
	webhookEndpoints: {
		/** Every owner's endpoints, with their recent delivery attempts. */
		list(): Promise<AdminWebhookEndpointList>;
	};
	users: {
		/** DELETE /admin/users/{actorId}/mfa: every second factor and recovery code of the user goes (audited). */
		removeMfa(actorId: string): Promise<void>;
		/** DELETE /admin/users/{actorId}: the account is deleted as by DELETE /auth/account; 410 ACCOUNT_DELETED when it is already. */
		delete(actorId: string): Promise<void>;
	};
}

export function adminApi(request: Request): AdminApi {
	return {
		features: {
			list: () => request("get", "/admin/features"),
			get: featureName => request("get", "/admin/features/{featureName}", { path: { featureName } }),
			set: (featureName, value) => request("put", "/admin/features/{featureName}", { path: { featureName }, body: value })
		},
		suppressions: {
			list: (query = {}) => request("get", "/admin/suppressions", { query }),
			delete: (channel, address) => request("delete", "/admin/suppressions/{channel}/{address}", { path: { channel, address } })
		},
		unsubscribes: {
			list: (query = {}) => request("get", "/admin/unsubscribes", { query }),
			delete: (channel, address, category) => request("delete", "/admin/unsubscribes/{channel}/{address}/{category}", { path: { channel, address, category } })
		},
		serviceAccounts: {
			create: serviceId => request("post", "/admin/service-accounts", { body: { serviceId } }),
			list: () => request("get", "/admin/service-accounts"),
			delete: serviceId => request("delete", "/admin/service-accounts/{serviceId}", { path: { serviceId } })
		},
		keys: { rotate: () => request("post", "/admin/keys/rotate") },
		stats: () => request("get", "/admin/stats"),
		providers: () => request("get", "/admin/providers"),
		webhookEndpoints: { list: () => request("get", "/admin/webhook-endpoints") },
		users: {
			removeMfa: actorId => request("delete", "/admin/users/{actorId}/mfa", { path: { actorId } }),
			delete: async actorId => {
				await request("delete", "/admin/users/{actorId}", { path: { actorId } });
			}
		}
	};
}
