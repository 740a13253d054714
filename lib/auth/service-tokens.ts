/**
 * Service tokens for outgoing calls without a user: obtained with the service
 * account, cached, and renewed a minute before they expire. Concurrent callers
 * share one sign-in.
 */
import type { IdentityProvider, ServiceToken } from "../idp/types";

const RENEW_BEFORE_SEC = 60;

export class ServiceTokenCache {
	private readonly tokens = new Map<string, ServiceToken>();
	private readonly pending = new Map<string, Promise<ServiceToken>>();

	constructor(private readonly idp: () => Promise<IdentityProvider>, private readonly now: () => number = Date.now) {}

	async get(serviceId: string): Promise<string> {
		const cached = this.tokens.get(serviceId);
		if (cached && cached.expiresAt - RENEW_BEFORE_SEC > this.now() / 1000) return cached.token;
		let p = this.pending.get(serviceId);
		if (!p) {
			p = this.idp()
				.then(idp => idp.serviceToken(serviceId))
				.then(t => {
					this.tokens.set(serviceId, t);
					return t;
				})
				.finally(() => this.pending.delete(serviceId));
			this.pending.set(serviceId, p);
		}
		return (await p).token;
	}
}
