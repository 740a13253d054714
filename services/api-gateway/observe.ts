/**
 * What the gateway records of each request when traces or metrics are on: the HTTP
 * request's span, the root of its trace, and Prometheus counts and latencies per route.
 * Both end when the response closes, so they see the status the client got (an error
 * is answered after the action's span has ended) and the time until the last byte.
 * With neither on, nothing here runs.
 *
 * The route is the alias's template ("/notifications/:notificationId"), never the path:
 * paths hold ids and the unsubscribe token, and one series per id would never end.
 */
import { performance } from "node:perf_hooks";
import type { MetricTypes, Span, Tracer } from "moleculer";
import type { GatewayThis, Req, Res } from "./types";

const HTTP_METRIC = {
	requests: "http_server_requests_total",
	duration: "http_server_request_duration_seconds"
} as const;

/** Prometheus clients' default buckets, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The route of a request no alias matched: unknown paths, and OPTIONS answered at the entry. */
const UNMATCHED_ROUTE = "unmatched";

/** nginx's code for a client that closed the connection before it was answered. */
const CLIENT_CLOSED = 499;

/** The status the client got, as metrics, spans and the access log (access-log.ts) report it. */
export function answeredStatus(res: Res): number {
	return res.writableFinished || res.headersSent ? res.statusCode : CLIENT_CLOSED;
}

type Counter = InstanceType<typeof MetricTypes.Counter>;
type Histogram = InstanceType<typeof MetricTypes.Histogram>;

class RequestObserver {
	private readonly requests: Counter | null = null;
	private readonly duration: Histogram | null = null;
	/** Shared by every response, as the drain's is (drain.ts): the listener's `this` is the response that closed. */
	private readonly ended: (this: Res) => void;

	constructor(private readonly gateway: GatewayThis, private readonly tracer: Tracer | undefined) {
		const observer = this;
		this.ended = function (this: Res) {
			observer.end(this.req as Req, this);
		};
		const metrics = gateway.broker.isMetricsEnabled() ? gateway.broker.metrics : null;
		if (metrics) {
			const labelNames = ["method", "route", "status"];
			this.requests = metrics.register({ type: "counter", name: HTTP_METRIC.requests, labelNames, description: "HTTP requests by method, route template and status" }) as Counter | null;
			this.duration = metrics.register({
				type: "histogram",
				name: HTTP_METRIC.duration,
				labelNames,
				buckets: DURATION_BUCKETS,
				unit: "seconds",
				description: "Time from a request's arrival to the end of its response, in seconds, by method, route template and status"
			}) as Histogram | null;
		}
	}

	/** Whether there is anything to record: without, the gateway does not call begin. */
	get active(): boolean {
		return this.tracer !== undefined || this.requests !== null;
	}

	/** At a request's arrival (the drain has stamped it already when the access log is on). */
	begin(req: Req, res: Res): void {
		req.$began ??= performance.now();
		res.on("close", this.ended);
	}

	/**
	 * The HTTP span, made as moleculer-web starts the request's root call (rootCallOptions):
	 * every call the request makes is under it. Its trace id is the request id.
	 */
	startSpan(req: Req, requestId: string | undefined): Span | undefined {
		if (!this.tracer) return undefined;
		const span = this.tracer.startSpan(req.method ?? "HTTP", {
			type: "http",
			...(requestId ? { traceID: requestId } : {}),
			tags: { "http.request.method": req.method, "url.scheme": "http" }
		});
		req.$span = span;
		return span;
	}

	private end(req: Req, res: Res): void {
		const route = this.routeOf(req);
		const status = answeredStatus(res);
		const span = req.$span;
		if (span) {
			span.addTags({ "http.response.status_code": status });
			// OpenTelemetry's name for a server span: the method, and the route when there is one.
			if (route !== UNMATCHED_ROUTE) {
				span.name = `${req.method} ${route}`;
				span.addTags({ "http.route": route });
			}
			span.finish();
		}
		if (this.requests && this.duration) {
			const labels = { method: req.method, route, status: String(status) };
			this.requests.increment(labels);
			this.duration.observe((performance.now() - (req.$began ?? 0)) / 1000, labels);
		}
	}

	/** The matched alias's template; a request refused before its alias was set (a body the parser refused) is looked up again. */
	private routeOf(req: Req): string {
		if (req.$alias) return req.$alias.fullPath ?? UNMATCHED_ROUTE;
		const found = typeof req.parsedUrl === "string" && this.gateway.resolveAlias(req.parsedUrl, req.method);
		return found ? found.alias.fullPath : UNMATCHED_ROUTE;
	}
}

type Serve = (req: Req, res: Res) => Promise<void> | undefined;
type RootCallOptions = (options: { requestID?: string; parentSpan?: Span }, req: Req) => void;

/**
 * `serve` as it is when neither traces nor metrics are on; otherwise each request is
 * observed from its arrival, and its root call (moleculer-web's rootCallOptions, which
 * settles the request id first) gets the request's span as its parent, so the whole
 * trace hangs from it.
 */
export function observeRequests(gateway: GatewayThis, serve: Serve): Serve {
	const observer = new RequestObserver(gateway, gateway.broker.isTracingEnabled() ? gateway.broker.tracer : undefined);
	if (!observer.active) return serve;
	const settleRequestId = gateway.settings.rootCallOptions as RootCallOptions;
	const rootCallOptions: RootCallOptions = (options, req) => {
		settleRequestId(options, req);
		const span = observer.startSpan(req, options.requestID);
		if (span) options.parentSpan = span;
	};
	gateway.settings.rootCallOptions = rootCallOptions;
	return (req, res) => {
		observer.begin(req, res);
		return serve(req, res);
	};
}
