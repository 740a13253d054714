/**
 * What the bench and its peer processes agree on: the settings a peer reads from
 * its environment, and the identity its Bearer tokens come from. A peer is what a
 * team would build instead of the project, so it takes its settings the plain way.
 */
export const PEER_QUEUE = "notifications";
export const PEER_ISSUER = "https://peer.bench.invalid";
export const PEER_CLIENT_ID = "bench-peer";
export const PEER_ALG = "EdDSA";

/** The peer's settings, one environment variable each. */
export interface PeerSettings {
	port: number;
	host: string;
	dataDir: string;
	redisPort: number;
	/** The public JWK (JSON) that signs access tokens. */
	publicJwk: string;
	/** An actor (JSON) to store at start, for GET /actors/{id}. */
	seedActor: string;
	/** Whether the BullMQ worker runs in this process ("1") or only the API ("0"). */
	worker: boolean;
	concurrency: number;
	mailFrom: string;
}

function need(env: NodeJS.ProcessEnv, name: string): string {
	const v = env[name];
	if (!v) throw new Error(`${name} is required`);
	return v;
}

export function peerEnv(s: PeerSettings): Record<string, string> {
	return {
		PORT: String(s.port),
		HOST: s.host,
		DATA_DIR: s.dataDir,
		PEER_REDIS_PORT: String(s.redisPort),
		PEER_PUBLIC_JWK: s.publicJwk,
		PEER_SEED_ACTOR: s.seedActor,
		PEER_WORKER: s.worker ? "1" : "0",
		PEER_CONCURRENCY: String(s.concurrency),
		PEER_MAIL_FROM: s.mailFrom
	};
}

export function readPeerEnv(env: NodeJS.ProcessEnv): PeerSettings {
	return {
		port: Number(need(env, "PORT")),
		host: need(env, "HOST"),
		dataDir: need(env, "DATA_DIR"),
		redisPort: Number(need(env, "PEER_REDIS_PORT")),
		publicJwk: need(env, "PEER_PUBLIC_JWK"),
		seedActor: need(env, "PEER_SEED_ACTOR"),
		worker: need(env, "PEER_WORKER") === "1",
		concurrency: Number(need(env, "PEER_CONCURRENCY")),
		mailFrom: need(env, "PEER_MAIL_FROM")
	};
}

/** The moleculer-web floor's settings: the one token it accepts and the constant it answers. */
export interface FloorSettings {
	port: number;
	host: string;
	token: string;
	body: string;
}

export function floorEnv(s: FloorSettings): Record<string, string> {
	return { PORT: String(s.port), HOST: s.host, FLOOR_TOKEN: s.token, FLOOR_BODY: s.body };
}

export function readFloorEnv(env: NodeJS.ProcessEnv): FloorSettings {
	return { port: Number(need(env, "PORT")), host: need(env, "HOST"), token: need(env, "FLOOR_TOKEN"), body: need(env, "FLOOR_BODY") };
}
