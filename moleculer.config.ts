/**
 * Broker options for every node. Without NATS_URL the node runs alone with no
 * transporter; with it, services on many nodes find each other over NATS.
 */
import { Validators, type BrokerOptions, type Middleware } from "moleculer";
import type { Config } from "./lib/config";
import { CallContext } from "./lib/process/context";
import { errorFields, mergeLogArguments } from "./lib/process/logging";
import { prometheusMetrics } from "./lib/prometheus";
import { VALIDATION_MESSAGES } from "./lib/errors/problem";
import type { Runtime } from "./lib/runtime";
import { AuthMiddleware } from "./middlewares/auth.middleware";
import { DeadlineMiddleware } from "./middlewares/deadline.middleware";
import { FallbackMiddleware } from "./middlewares/fallback.middleware";
import { storageFaultsErrorHandler } from "./middlewares/storage-faults.middleware";
import { StreamMiddleware } from "./middlewares/stream.middleware";
import { TransportHealthMiddleware } from "./middlewares/transport-health.middleware";
import { TracingScopeMiddleware } from "./middlewares/tracing-scope.middleware";

/** Names under which secrets travel: in the body of a call, its meta, or a log line's own fields. */
const SECRET_FIELDS = [
	"password",
	"token",
	"accessToken",
	"idToken",
	"refreshToken",
	"authToken",
	"authorization",
	"cookie",
	"socialBinding",
	"clientSecret",
	"Signature"
];

/** Log fields that may hold secrets, at the top of a line and one level down; pino replaces their values. */
export const REDACTED_PATHS = [
	...SECRET_FIELDS,
	...SECRET_FIELDS.map(f => `*.${f}`),
	"*.headers.authorization",
	"*.headers.cookie",
	"*.meta.authToken",
	"*.meta.socialBinding",
	"*.params.password",
	"*.params.refreshToken",
	"*.params.token",
	"*.params.code",
	"*.params.state"
];

/**
 * Moleculer's built-in middlewares, in its own order (service-broker.js,
 * INTERNAL_MIDDLEWARES), with its Timeout replaced by DeadlineMiddleware: the same
 * bounded calls without a timer per call (middlewares/deadline.middleware.ts), and
 * its Fallback applied only to calls that can have one (middlewares/fallback.middleware.ts).
 * test/unit/deadline.test.ts checks this list against the one Moleculer installs.
 */
export function builtInMiddlewares(): (string | Middleware)[] {
	return ["ActionHook", "Validator", "Bulkhead", "Cacher", "ContextTracker", "CircuitBreaker", DeadlineMiddleware(), "Retry", FallbackMiddleware(), "ErrorHandler", "Tracing", "Metrics", "Debounce", "Throttle"];
}

/**
 * Development logs: pino-pretty in a worker thread, one colored line per entry with
 * the module in brackets. Redaction, the argument hook and the serializers run before
 * it, in this thread, so a pretty line hides what a JSON line hides.
 */
const PRETTY_TRANSPORT = {
	target: require.resolve("pino-pretty"),
	options: {
		colorize: true,
		singleLine: true,
		translateTime: "SYS:HH:MM:ss.l",
		ignore: "pid,hostname,nodeID,ns,mod,svc",
		messageFormat: "{if mod}[{mod}] {end}{msg}"
	}
};

export default function brokerOptions(config: Config, runtime: Runtime): BrokerOptions {
	return {
		namespace: config.namespace,
		nodeID: config.nodeId,
		transporter: config.natsUrl
			? { type: "NATS", options: { url: config.natsUrl, maxReconnectAttempts: -1, reconnectTimeWait: 500 } }
			: null,
		serializer: "JSON",
		// Moleculer's Context, made with fewer lookups (lib/process/context.ts).
		ContextFactory: CallContext,
		requestTimeout: config.requestTimeoutMs,
		retryPolicy: { enabled: false },
		contextParamsCloning: false,
		registry: { strategy: "RoundRobin", preferLocal: true },
		logger: {
			type: "Pino",
			options: {
				level: config.logLevel === "silent" ? "fatal" : config.logLevel,
				pino: {
					options: {
						redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
						hooks: { logMethod: mergeLogArguments },
						serializers: { err: errorFields, error: errorFields },
						enabled: config.logLevel !== "silent",
						...(config.logFormat === "pretty" ? { transport: PRETTY_TRANSPORT } : {})
					}
				}
			}
		},
		// fastest-validator, with enum messages that name the allowed values (lib/problem.ts).
		validator: new Validators.Fastest({ messages: VALIDATION_MESSAGES }),
		metrics: config.metricsPort === undefined ? false : prometheusMetrics(config.metricsPort),
		// OpenTelemetry traces (lib/tracing) only with an OTLP endpoint: otherwise no span is made anywhere.
		// The OpenTelemetry SDK (a few hundred modules) loads only when tracing is on.
		tracing: config.tracing ? (require("./lib/tracing/exporter") as typeof import("./lib/tracing/exporter")).tracingOptions(config.tracing, { nodeID: config.nodeId, namespace: config.namespace }) : false,
		// Later entries wrap earlier ones: streams are watched before the auth check awaits,
		// and the handler runs inside its span once Moleculer's Tracing has made it.
		// Moleculer's own come after the project's, as Moleculer would add them.
		internalMiddlewares: false,
		middlewares: [
			...(config.tracing ? [TracingScopeMiddleware()] : []),
			AuthMiddleware(runtime),
			StreamMiddleware,
			TransportHealthMiddleware(runtime),
			...builtInMiddlewares()
		],
		// Storage faults in any action become 503 STORAGE_UNAVAILABLE (middlewares/storage-faults.middleware.ts).
		errorHandler: storageFaultsErrorHandler(runtime),
		// index.ts runs the one orderly stop (lib/process/shutdown.ts); Moleculer's own signal
		// handlers would stop the broker a second time, under the requests still running.
		skipProcessEventRegistration: true,
		stopped: () => runtime.close()
	};
}
