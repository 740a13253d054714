/**
 * Where a MongoDB server can come from here, or why none can: TEST_MONGODB_URL, or a
 * mongod binary that mongodb-memory-server can obtain. Decided once per suite at load
 * time, so describe blocks can be skipped with the reason printed.
 */
import { execFileSync } from "node:child_process";

export interface MongoSource {
	url?: string;
	memory?: boolean;
	reason?: string;
}

export function mongoSource(): MongoSource {
	if (process.env.TEST_MONGODB_URL) return { url: process.env.TEST_MONGODB_URL };
	try {
		execFileSync(process.execPath, ["-e", "require('mongodb-memory-server-core').MongoBinary.getPath().then(p=>{if(!p)process.exit(1)}, ()=>process.exit(1))"], {
			stdio: "ignore",
			timeout: 60000
		});
		return { memory: true };
	} catch {
		return { reason: "no TEST_MONGODB_URL, and mongodb-memory-server-core could not obtain a mongod binary (no download possible here)" };
	}
}

/** A server's URL and how to stop it (nothing to stop for TEST_MONGODB_URL). */
export async function startMongo(source: MongoSource): Promise<{ url: string; stop: () => Promise<void> }> {
	if (!source.memory) return { url: source.url!, stop: async () => {} };
	const { MongoMemoryServer } = await import("mongodb-memory-server-core");
	const server = await MongoMemoryServer.create();
	return { url: server.getUri(), stop: async () => void (await server.stop()) };
}
