import path from "node:path";
import type { Config } from "../config";
import { DiskFileStorage } from "./disk";
import type { FileStorage } from "./types";

export * from "./types";

/** Files go where the store's data goes: GridFS beside MongoDB, DATA_DIR/files beside SQLite. */
export function createFileStorage(config: Pick<Config, "mongodbUrl" | "dataDir">): FileStorage {
	// The MongoDB driver (about 20 MB of RSS) loads only when configured.
	if (config.mongodbUrl) return (require("./gridfs") as typeof import("./gridfs")).GridFsFileStorage.connect(config.mongodbUrl);
	return new DiskFileStorage(path.join(config.dataDir, "files"));
}
