import path from "node:path";
import type { Config } from "../config";
import { MongoStore } from "./mongo";
import { SqliteWorkerStore } from "./sqlite-thread";
import type { Store } from "./types";

export * from "./types";

/**
 * onStorageFault hears of every write the embedded store's disk could not take, whoever
 * made it (an action or the dispatcher's loop); MongoDB's faults reach the caller only.
 */
export function createStore(config: Pick<Config, "mongodbUrl" | "dataDir">, onStorageFault?: (err: Error) => void): Store {
	if (config.mongodbUrl) return new MongoStore(config.mongodbUrl);
	return new SqliteWorkerStore(path.join(config.dataDir, "store.sqlite"), { onStorageFault });
}
