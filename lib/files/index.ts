import path from "node:path";
import type { Config } from "../config";
import { DiskFileStorage } from "./disk";
import { GridFsFileStorage } from "./gridfs";
import type { FileStorage } from "./types";

export * from "./types";

/** Files go where the store's data goes: GridFS beside MongoDB, DATA_DIR/files beside SQLite. */
export function createFileStorage(config: Pick<Config, "mongodbUrl" | "dataDir">): FileStorage {
	if (config.mongodbUrl) return GridFsFileStorage.connect(config.mongodbUrl);
	return new DiskFileStorage(path.join(config.dataDir, "files"));
}
