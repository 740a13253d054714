import path from "node:path";
import type { Config } from "../config";
import { MongoStore } from "./mongo";
import { SqliteWorkerStore } from "./sqlite-thread";
import type { Store } from "./types";

export * from "./types";

export function createStore(config: Pick<Config, "mongodbUrl" | "dataDir">): Store {
	if (config.mongodbUrl) return new MongoStore(config.mongodbUrl);
	return new SqliteWorkerStore(path.join(config.dataDir, "store.sqlite"));
}
