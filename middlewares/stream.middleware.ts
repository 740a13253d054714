/**
 * Watches a call's incoming stream for errors from the moment the call arrives
 * (lib/stream-failures.ts). Listed after the auth middleware, so it wraps it: it runs
 * before the token check's first await.
 */
import type { Context, Middleware } from "moleculer";
import type { Stream } from "node:stream";
import { watchStreamFailures } from "../lib/errors/stream-failures";

type Handler = (ctx: Context) => unknown;

export const StreamMiddleware = {
	name: "StreamFailures",
	localAction(next: Handler) {
		return (ctx: Context) => {
			if (ctx.stream) watchStreamFailures(ctx.stream as Stream);
			return next(ctx);
		};
	}
} as unknown as Middleware;
