/**
 * The span the code running now belongs to, carried through awaits by an
 * AsyncLocalStorage, so library code (the store, the channels) can open a child span
 * without a Moleculer context in hand. The tracing-scope middleware enters the
 * action's span for every call; the dispatcher enters a delivery's span.
 *
 * Nothing is made until a broker with tracing is built (enableScopes): until then
 * every function here returns at once, with no AsyncLocalStorage lookup and nothing
 * allocated, which is every process without OTEL_EXPORTER_OTLP_ENDPOINT.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Span } from "moleculer";
import { formatTraceparent, toSpanId, toTraceId } from "./ids";

/**
 * A shared store batch (group commit) belongs to every request whose writes it holds.
 * Its span is a child of the first of them in a span and links to the others (at most
 * MAX_LINKS): the first request's trace shows the write, and the write shows who
 * shared it.
 */
export class BatchScope {
	constructor(readonly span: Span, readonly links: readonly Span[]) {}
}

export const MAX_LINKS = 32;

type Scope = Span | BatchScope | undefined;

let scopes: AsyncLocalStorage<Scope> | null = null;

export function enableScopes(): AsyncLocalStorage<Scope> {
	scopes ??= new AsyncLocalStorage<Scope>();
	return scopes;
}

export function tracingActive(): boolean {
	return scopes !== null;
}

export function currentSpan(): Span | undefined {
	if (scopes === null) return undefined;
	const s = scopes.getStore();
	return s instanceof BatchScope ? s.span : s;
}

/** The spans a store batch made now links to (see BatchScope). */
export function currentLinks(): readonly Span[] {
	const s = scopes?.getStore();
	return s instanceof BatchScope ? s.links : [];
}

/** The current span as a W3C traceparent, to be stored with work that continues later. */
export function currentTraceparent(): string | undefined {
	const span = currentSpan();
	return span && formatTraceparent(toTraceId(span.traceID), toSpanId(span.id), span.sampled);
}

/** A child of the current span, or null when there is none or it is not sampled: the caller finishes it (within). */
export function childSpan(name: string, opts: Span.SpanOptions): Span | null {
	const parent = currentSpan();
	return parent?.sampled ? parent.startSpan(name, opts) : null;
}

/** Runs fn with `scope` current; without tracing, just runs it. */
export function runIn<T>(scope: Scope, fn: () => T): T {
	return scopes === null ? fn() : scopes.run(scope, fn);
}

/** Runs fn inside `span`, then finishes the span, marking it failed when fn throws. */
export function within<T>(span: Span, fn: () => Promise<T>): Promise<T> {
	return runIn(span, fn).then(
		value => {
			span.finish();
			return value;
		},
		(err: unknown) => {
			span.setError(err as Error);
			span.finish();
			throw err;
		}
	);
}

/**
 * Runs a shared batch's write in a BatchScope made of its submitters' spans (undefined
 * for a submitter outside any span). Always entered while tracing is on: the batch may
 * run in a timer another request scheduled, whose span it must not take.
 */
export function inBatch<T>(spans: readonly (Span | undefined)[], fn: () => Promise<T>): Promise<T> {
	if (scopes === null) return fn();
	const [parent, ...others] = new Set(spans.filter((s): s is Span => s !== undefined));
	return scopes.run(parent && new BatchScope(parent, others.slice(0, MAX_LINKS)), fn);
}
