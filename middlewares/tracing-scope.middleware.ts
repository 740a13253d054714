/**
 * Makes each action's span the current one while its handler runs (lib/tracing/scope.ts),
 * so the store and the channels open their spans under it without a context in hand.
 * Installed only when tracing is on, and listed first, inside Moleculer's Tracing
 * middleware, which has made the span by then.
 */
import type { Context, Middleware } from "moleculer";
import { enableScopes } from "../lib/tracing/scope";

type Handler = (ctx: Context) => unknown;

export function TracingScopeMiddleware(): Middleware {
	const scopes = enableScopes();
	return {
		name: "TracingScope",
		localAction(next: Handler) {
			// An action whose tracing is off has no span of its own: nothing is current in it.
			return (ctx: Context) => scopes.run(ctx.span ?? undefined, next, ctx);
		}
	} as unknown as Middleware;
}
