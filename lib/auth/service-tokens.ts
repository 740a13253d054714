/**
 * Service tokens for outgoing calls without a user: obtained with the service
 * account, cached, and renewed a minute before they expire. Concurrent callers
 * share one sign-in.
 */
import { BoundedCache } from "../cache";
import type { IdentityProvider, ServiceToken } from "../idp/types";

const RENEW_BEFORE_SEC = 60;
/** One token per service id this node calls as; a handful in practice. */
const MAX_SERVICES = 64;

export class ServiceTokenCache {
	private readonly tokens: BoundedCache<string, ServiceToken>;

	constructor(private readonly idp: () => Promise<IdentityProvider>, now: () => number = Date.now) {
		this.tokens = new BoundedCache(MAX_SERVICES, now);
	}

	async get(serviceId: string): Promise<string> {
		const t = await this.tokens.getOrLoad(
			serviceId,
			async () => (await this.idp()).serviceToken(serviceId),
			t => (t.expiresAt - RENEW_BEFORE_SEC) * 1000
		);
		return t.token;
	}
}
