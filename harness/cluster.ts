/**
 * The platform as several OS processes over NATS sharing one SQLite file, the way
 * it is deployed with dispatchers apart: one api node (gateway, auth, actors,
 * notifications) and any number of dispatcher nodes, each a `node dist/index.js`.
 * The bench reads the shared store through its own connection and joins the
 * cluster as a service-less node only to see when the dispatchers are up.
 * Nodes run with the production rule of who may send: a registered user sends to
 * itself only, so sending to arbitrary addresses takes the administrator's token
 * (or a caller's env with NOTIFICATIONS_USER_SEND=any, as a closed deployment).
 */
import path from "node:path";
import { ServiceBroker } from "moleculer";
import { SqliteStore } from "../lib/store/sqlite";
import {
	HOST,
	PLATFORM_ENTRY,
	PROJECT_ROOT,
	childEnv,
	freePort,
	logIn,
	makeTempDir,
	profileArgs,
	registerUser,
	removeTempDir,
	startChild,
	type Child,
	type Registered
} from "./processes";

export const DEFAULT_NATS_URL = "nats://127.0.0.1:4222";

export const API_SERVICES = "api-gateway,auth,actors,notifications";

/** The administrator the api node creates at start (BOOTSTRAP_ADMIN_*): it may send to anyone. */
const CLUSTER_ADMIN = { email: "cluster-admin@example.com", password: "Cluster-Adm1n-Passw0rd" };

let clusterCount = 0;

/** Unique per run and per cluster: NATS is shared with whatever else runs on this machine. */
function uniqueNamespace(label: string): string {
	clusterCount += 1;
	return `cluster-${label}-${process.pid}-${Date.now().toString(36)}-${clusterCount}`;
}

export interface ClusterOptions {
	label: string;
	startTimeoutMs: number;
	natsUrl?: string;
	/** Settings every node gets, e.g. DISPATCHER_POLL_MS. */
	env?: Record<string, string>;
}

export class Cluster {
	readonly dispatchers: Child[] = [];
	private dispatcherCount = 0;

	private constructor(
		readonly namespace: string,
		readonly dataDir: string,
		readonly base: string,
		readonly api: Child,
		readonly user: Registered,
		/** The administrator's access token. */
		readonly admin: string,
		readonly store: SqliteStore,
		private readonly observer: ServiceBroker,
		private readonly env: NodeJS.ProcessEnv,
		private readonly startTimeoutMs: number
	) {}

	static async start(opts: ClusterOptions): Promise<Cluster> {
		const namespace = uniqueNamespace(opts.label);
		const dataDir = await makeTempDir(`cluster-${opts.label}-`);
		const natsUrl = opts.natsUrl ?? DEFAULT_NATS_URL;
		const port = await freePort();
		const base = `http://${HOST}:${port}`;
		// Every node signs and checks tokens for this one address (issuers are built from it).
		const env = childEnv({ NATS_URL: natsUrl, NAMESPACE: namespace, DATA_DIR: dataDir, PUBLIC_URL: base, LOG_LEVEL: "warn", ...opts.env });
		const observer = new ServiceBroker({
			namespace,
			nodeID: `bench-observer-${process.pid}`,
			transporter: { type: "NATS", options: { url: natsUrl } },
			serializer: "JSON",
			logger: false
		});
		let api: Child | undefined;
		try {
			await observer.start();
			api = await startChild({
				name: `api node (${namespace})`,
				args: [...profileArgs(), PLATFORM_ENTRY],
				cwd: PROJECT_ROOT,
				env: {
					...env,
					SERVICES: API_SERVICES,
					PORT: String(port),
					NODE_ID: "api",
					BOOTSTRAP_ADMIN_EMAIL: CLUSTER_ADMIN.email,
					BOOTSTRAP_ADMIN_PASSWORD: CLUSTER_ADMIN.password
				},
				readyUrl: `${base}/health/ready`,
				deadlineMs: opts.startTimeoutMs
			});
			const user = await registerUser(base);
			const admin = await logIn(base, CLUSTER_ADMIN.email, CLUSTER_ADMIN.password);
			// After the api node made the file; collection() creates a table the api node has not yet used.
			const store = new SqliteStore(path.join(dataDir, "store.sqlite"));
			store.collection("notifications");
			store.collection("notification_events");
			return new Cluster(namespace, dataDir, base, api, user, admin, store, observer, env, opts.startTimeoutMs);
		} catch (err) {
			await api?.stop();
			await observer.stop().catch(() => undefined);
			removeTempDir(dataDir);
			throw err;
		}
	}

	/** Dispatcher nodes the cluster's registry shows as available. */
	private liveDispatchers(): Set<string> {
		const list = this.observer.registry.getServiceList({ onlyAvailable: true }) as { name: string; nodeID: string }[];
		return new Set(list.filter(s => s.name === "dispatcher").map(s => s.nodeID));
	}

	/**
	 * Starts `n` dispatcher nodes and resolves once every one is known to the
	 * cluster: before that, "notifications.queued" would not reach it and it would
	 * only find work on its slow poll.
	 */
	async startDispatchers(n: number): Promise<void> {
		const started = await Promise.allSettled(
			Array.from({ length: n }, () => {
				this.dispatcherCount += 1;
				const nodeId = `dispatcher-${this.dispatcherCount}`;
				return startChild({
					name: `${nodeId} (${this.namespace})`,
					args: [...profileArgs(), PLATFORM_ENTRY],
					cwd: PROJECT_ROOT,
					env: { ...this.env, SERVICES: "dispatcher", NODE_ID: nodeId },
					ready: async () => this.liveDispatchers().has(nodeId),
					deadlineMs: this.startTimeoutMs
				});
			})
		);
		for (const s of started) if (s.status === "fulfilled") this.dispatchers.push(s.value);
		const failed = started.find(s => s.status === "rejected");
		if (failed) throw failed.reason;
	}

	async stopDispatchers(): Promise<void> {
		await Promise.all(this.dispatchers.splice(0).map(d => d.stop()));
	}

	/** The children's last output, for error reports. */
	output(): string {
		return [this.api, ...this.dispatchers]
			.map(c => {
				const out = c.output().trim();
				return out ? `--- ${c.name} output (tail) ---\n${out}\n---` : "";
			})
			.filter(Boolean)
			.join("\n");
	}

	async stop(): Promise<void> {
		await this.stopDispatchers();
		await this.api.stop();
		await this.observer.stop().catch(() => undefined);
		await this.store.close();
		removeTempDir(this.dataDir);
	}
}
