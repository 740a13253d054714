import type { Config } from "../config";
import { MemoryKeyValue } from "./memory";
import { RedisKeyValue } from "./redis";
import type { KeyValue } from "./types";

export type { KeyValue } from "./types";

export function createKeyValue(config: Pick<Config, "redisUrl" | "namespace">): KeyValue {
	if (config.redisUrl) return new RedisKeyValue(config.redisUrl, `${config.namespace}:kv:`);
	return new MemoryKeyValue();
}
