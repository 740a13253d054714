/**
 * Moleculer's Fallback middleware, applied only where a fallback can be asked for.
 * Moleculer's wraps every call in a `.catch` that, for a call without the
 * `fallbackResponse` option to an action without `fallback`, only passes the error
 * on: a promise and a closure per call for nothing. This one hands such calls
 * straight to the next handler and gives every other call Moleculer's own wrapper,
 * so what a fallback does (its log line, metric, `ctx.fallbackResult`) is Moleculer's.
 */
import * as moleculer from "moleculer";
import type { Context, Middleware, ServiceBroker } from "moleculer";

type Handler = (ctx: Context) => Promise<unknown>;

interface ActionLike {
	name: string;
	fallback?: unknown;
	service?: unknown;
}

interface StockFallback {
	name: string;
	created(broker: ServiceBroker): void;
	localAction(this: ServiceBroker, next: Handler, action: ActionLike): Handler;
	remoteAction(this: ServiceBroker, next: Handler, action: ActionLike): Handler;
}

// Moleculer exports its built-in middlewares (index.js, `Middlewares`) without typings for them.
const stockFallback = (moleculer as unknown as { Middlewares: { Fallback: (broker: ServiceBroker) => StockFallback } }).Middlewares.Fallback;

export function FallbackMiddleware(): Middleware {
	let stock: StockFallback | undefined;
	const wrap = (kind: "localAction" | "remoteAction") =>
		function (this: ServiceBroker, next: Handler, action: ActionLike): Handler {
			stock ??= stockFallback(this);
			const wrapped = stock[kind].call(this, next, action);
			// Moleculer uses an action's own fallback only locally.
			if (kind === "localAction" && action.fallback && action.service) return wrapped;
			return ctx => (ctx.options.fallbackResponse ? wrapped(ctx) : next(ctx));
		};
	return {
		name: "Fallback",
		created(broker: ServiceBroker) {
			stock ??= stockFallback(broker);
			stock.created(broker);
		},
		localAction: wrap("localAction"),
		remoteAction: wrap("remoteAction")
	} as unknown as Middleware;
}
