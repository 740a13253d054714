import path from "node:path";
import type { Config } from "../config";
import { TracedStore } from "../tracing/store";
import { MongoStore } from "./mongo";
import { SqliteWorkerStore } from "./sqlite-thread";
import type { Store } from "./types";

export * from "./types";

/**
 * onStorageFault hears of every write the embedded store's disk could not take, whoever
 * made it (an action or the dispatcher's loop); MongoDB's faults reach the caller only.
 * With tracing on, writes made in a traced call get spans (lib/tracing/store.ts).
 */
export function createStore(config: Pick<Config, "mongodbUrl" | "dataDir" | "tracing">, onStorageFault?: (err: Error) => void): Store {
	const store = config.mongodbUrl ? new MongoStore(config.mongodbUrl) : new SqliteWorkerStore(path.join(config.dataDir, "store.sqlite"), { onStorageFault });
	return config.tracing ? new TracedStore(store) : store;
}
