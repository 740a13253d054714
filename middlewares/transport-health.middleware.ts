/**
 * Makes calls to other nodes fail fast while NATS is unreachable. Moleculer's NATS
 * transporter does not notice a lost connection (the client buffers and reconnects),
 * so a remote call would wait for its whole timeout; this watches the client's own
 * status and answers 503 at once until it reconnects. Local calls are unaffected.
 */
import type { Middleware, ServiceBroker } from "moleculer";
import { UpstreamError } from "../lib/errors";
import type { Runtime } from "../lib/runtime";

interface NatsStatus {
	type: string;
}

interface NatsClient {
	status(): AsyncIterable<NatsStatus>;
}

export function TransportHealthMiddleware(runtime: Runtime): Middleware {
	return {
		name: "TransportHealth",
		started(this: ServiceBroker) {
			const client = (this.transit?.tx as unknown as { client?: NatsClient } | undefined)?.client;
			if (!client?.status) return;
			void (async () => {
				for await (const s of client.status()) {
					if (s.type === "disconnect") {
						runtime.transportUp = false;
						this.logger.warn("Lost the connection to NATS; remote calls fail fast until it is back.");
					} else if (s.type === "reconnect") {
						runtime.transportUp = true;
						this.logger.info("Reconnected to NATS.");
					}
				}
			})().catch(() => undefined);
		},
		remoteAction(next: (ctx: unknown) => Promise<unknown>) {
			return (ctx: unknown) => (runtime.transportUp ? next(ctx) : Promise.reject(new UpstreamError("The service network is unavailable.", 2)));
		}
	} as unknown as Middleware;
}
