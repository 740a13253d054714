/**
 * Broker options for every node. Without NATS_URL the node runs alone with no
 * transporter; with it, services on many nodes find each other over NATS.
 */
import type { BrokerOptions } from "moleculer";
import type { Config } from "./lib/config";
import type { Runtime } from "./lib/runtime";
import { AuthMiddleware } from "./middlewares/auth.middleware";
import { StreamMiddleware } from "./middlewares/stream.middleware";
import { TransportHealthMiddleware } from "./middlewares/transport-health.middleware";

/** Log fields that may hold secrets; pino replaces their values. */
export const REDACTED_PATHS = [
	"password",
	"*.password",
	"token",
	"*.token",
	"*.accessToken",
	"*.idToken",
	"*.refreshToken",
	"*.authToken",
	"*.authorization",
	"*.headers.authorization",
	"*.meta.authToken",
	"*.params.password",
	"*.params.refreshToken",
	"*.params.token",
	"*.params.code",
	"*.params.state",
	"*.meta.socialBinding"
];

export default function brokerOptions(config: Config, runtime: Runtime): BrokerOptions {
	return {
		namespace: config.namespace,
		nodeID: config.nodeId,
		transporter: config.natsUrl
			? { type: "NATS", options: { url: config.natsUrl, maxReconnectAttempts: -1, reconnectTimeWait: 500 } }
			: null,
		cacher: config.redisUrl
			? { type: "Redis", options: { prefix: `${config.namespace}:cache`, ttl: 60, // ioredis takes the URL string as it is.
					redis: config.redisUrl as unknown as Record<string, unknown> } }
			: "Memory",
		serializer: "JSON",
		requestTimeout: config.requestTimeoutMs,
		retryPolicy: { enabled: false },
		contextParamsCloning: false,
		registry: { strategy: "RoundRobin", preferLocal: true },
		logger: {
			type: "Pino",
			options: {
				level: config.logLevel === "silent" ? "fatal" : config.logLevel,
				pino: { options: { redact: { paths: REDACTED_PATHS, censor: "[redacted]" }, enabled: config.logLevel !== "silent" } }
			}
		},
		validator: true,
		metrics:
			config.metricsPort === undefined
				? false
				: { enabled: true, reporter: [{ type: "Prometheus", options: { port: config.metricsPort, path: "/metrics" } }] },
		tracing: false,
		// Later entries wrap earlier ones: streams are watched before the auth check awaits.
		middlewares: [AuthMiddleware(runtime), StreamMiddleware, TransportHealthMiddleware(runtime)],
		stopped: () => runtime.close()
	};
}
