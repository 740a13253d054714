import type { Config } from "../config";
import { MemoryKeyValue } from "./memory";
import type { KeyValue } from "./types";

export type { KeyValue } from "./types";

/** ioredis (about 40 modules) loads only when REDIS_URL is set. */
export function createKeyValue(config: Pick<Config, "redisUrl" | "namespace">): KeyValue {
	if (config.redisUrl) return new (require("./redis") as typeof import("./redis")).RedisKeyValue(config.redisUrl, `${config.namespace}:kv:`);
	return new MemoryKeyValue();
}
