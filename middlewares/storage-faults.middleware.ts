/**
 * Turns a storage fault inside any action of this node (a full disk, a read-only
 * DATA_DIR, MongoDB out of space) into 503 STORAGE_UNAVAILABLE with Retry-After, and
 * tells the node's StorageHealth, which logs the first one and turns readiness 503
 * until a write succeeds again (lib/process/storage-health.ts). Other errors pass unchanged.
 *
 * It is the broker's `errorHandler`, which Moleculer's ErrorHandler middleware calls
 * with every failed action call, rather than a middleware of its own: a wrapper
 * would add a promise and a closure to every call that succeeds. Only action errors
 * are looked at (`info.action`); event handlers' errors and calls that found no
 * endpoint go on as Moleculer would treat them. A fault on another node has been
 * turned into the 503 there already, so on the caller it is no fault any more.
 */
import type { BrokerOptions } from "moleculer";
import type { Runtime } from "../lib/runtime";
import { isStorageFault, storageUnavailable } from "../lib/errors/storage-faults";

type BrokerErrorHandler = NonNullable<BrokerOptions["errorHandler"]>;

export function storageFaultsErrorHandler(runtime: Runtime): BrokerErrorHandler {
	return function (err, info) {
		const action = "action" in info ? info.action : undefined;
		if (!action?.name || !isStorageFault(err)) throw err;
		runtime.storageHealth.failed(err, action.name);
		throw storageUnavailable();
	};
}
