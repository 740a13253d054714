import path from "node:path";
import type { Config } from "../config";
import type { OutboxHost } from "./types";
import { TracedStore } from "./traced";
import { SqliteWorkerStore } from "./sqlite-thread";
import type { Store } from "./types";

export * from "./types";

/**
 * onStorageFault hears of every write the embedded store's disk could not take, whoever
 * made it (an action or the dispatcher's loop); MongoDB's faults reach the caller only.
 * With tracing on, writes made in a traced call get spans (lib/store/traced.ts).
 */
export function createStore(config: Pick<Config, "mongodbUrl" | "dataDir" | "tracing">, onStorageFault?: (err: Error) => void): Store {
	// The MongoDB driver (about 20 MB of RSS) loads only when configured.
	const store = config.mongodbUrl ? new (require("./mongo") as typeof import("./mongo")).MongoStore(config.mongodbUrl) : new SqliteWorkerStore(path.join(config.dataDir, "store.sqlite"), { onStorageFault });
	return config.tracing ? new TracedStore(store) : store;
}

/** The thread that also runs the .eml outbox, where there is one: the embedded store's (lib/email/outbox-thread.ts says why). */
export function outboxHostOf(store: Store | undefined): OutboxHost | undefined {
	const inner = store instanceof TracedStore ? store.inner : store;
	return inner instanceof SqliteWorkerStore ? inner : undefined;
}
