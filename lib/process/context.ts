/**
 * Moleculer's Context, made the same way with fewer lookups (broker option
 * ContextFactory, in moleculer.config.ts).
 *
 * Every call, event and broadcast of the process makes its context in one function,
 * Context.create, which reads the calling options it is given: `opts.parentCtx` alone a
 * dozen times. Those options come in many shapes (each caller passes its own), so V8
 * stops specializing the reads and looks each one up in a global cache, about 120
 * instructions a read, 28 of them for an authenticated GET's two contexts (a callgrind
 * count, bench/instructions.ts). This `create` is Moleculer 0.15's, line for line,
 * except that it reads each option once. What it makes is what Moleculer's makes:
 * test/unit/context.test.ts compares the two over every combination of the options
 * it reads.
 */
import { Context, type ServiceBroker } from "moleculer";

type Endpoint = ConstructorParameters<typeof Context>[1];

/** The options `create` reads. */
interface CreateOptions {
	paramsCloning?: boolean;
	requestID?: string;
	parentCtx?: Context;
	meta?: object;
	headers?: object;
	caller?: string;
	parentSpan?: { id: string; traceID: string; sampled: boolean };
}

/** The parts of a Context that `create` sets and Moleculer's typings leave out or mark read-only. */
interface Made {
	setEndpoint(endpoint: Endpoint): void;
	setParams(params: unknown, cloning?: boolean): void;
	options: object;
	requestID: string | null;
	meta: object;
	headers: object;
	tracing: boolean | null;
	level: number;
	parentID: string | null;
	caller: string | null;
	span?: { id: string } | null;
	service?: { fullName: string } | null;
}

// The type parameters are Context's own, so the class is a ContextFactory as the broker's options type it.
export class CallContext<TParams = unknown, TMeta extends object = {}, TLocals = Record<string, any>, THeaders = Record<string, any>> extends Context<TParams, TMeta, TLocals, THeaders> {
	static override create(broker: ServiceBroker, endpoint?: Endpoint | null, params?: unknown, opts: object = {}): Context {
		const { paramsCloning, requestID, parentCtx, meta, headers, caller, parentSpan } = opts as CreateOptions;
		const ctx = new broker.ContextFactory(broker, endpoint!);
		const made = ctx as unknown as Made;
		const parent = parentCtx as unknown as Made | undefined;

		if (endpoint != null) made.setEndpoint(endpoint);

		if (params != null) {
			let cloning = broker ? (broker.options as { contextParamsCloning?: boolean }).contextParamsCloning : false;
			if (paramsCloning != null) cloning = paramsCloning;
			made.setParams(params, cloning);
		}

		made.options = opts;

		if (requestID != null) made.requestID = requestID;
		else if (parent != null && parent.requestID != null) made.requestID = parent.requestID;

		if (parent != null && parent.meta != null) made.meta = Object.assign({}, parent.meta || {}, meta || {});
		else if (meta != null) made.meta = meta;

		if (headers) made.headers = headers;

		if (parent != null) {
			made.tracing = parent.tracing;
			made.level = parent.level + 1;
			if (parent.span) made.parentID = parent.span.id;
			else made.parentID = (parentCtx as Context).id;
			if (parent.service) made.caller = parent.service.fullName;
		}

		if (caller) made.caller = caller;

		if (parentSpan != null) {
			made.parentID = parentSpan.id;
			made.requestID = parentSpan.traceID;
			made.tracing = parentSpan.sampled;
		}

		return ctx;
	}
}
