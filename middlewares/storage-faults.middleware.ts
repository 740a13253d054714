/**
 * Turns a storage fault inside any action of this node (a full disk, a read-only
 * DATA_DIR, MongoDB out of space) into 503 STORAGE_UNAVAILABLE with Retry-After, and
 * tells the node's StorageHealth, which logs the first one and turns readiness 503
 * until a write succeeds again (lib/storage-health.ts). Other errors pass unchanged.
 */
import type { Context, Middleware } from "moleculer";
import type { Runtime } from "../lib/runtime";
import { isStorageFault, storageUnavailable } from "../lib/storage-health";

type Handler = (ctx: Context) => Promise<unknown>;

export function StorageFaultsMiddleware(runtime: Runtime): Middleware {
	return {
		name: "StorageFaults",
		localAction(next: Handler, action: { name: string }) {
			return (ctx: Context) =>
				next(ctx).catch((err: unknown) => {
					if (!isStorageFault(err)) throw err;
					runtime.storageHealth.failed(err, action.name);
					throw storageUnavailable();
				});
		}
	} as unknown as Middleware;
}
