/**
 * Several platform nodes in this process, each its own ServiceBroker with its own
 * runtime, joined by Moleculer's Fake transporter: an in-process bus that serializes
 * every packet as NATS would (JSON here), so what crosses between nodes is what would
 * cross NATS. For the broker paths between services on different nodes where NATS
 * itself is not what is tested; the *-multiprocess and *-nats suites run real NATS.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { ServiceBroker } from "moleculer";
import { SERVICE_SCHEMAS } from "../../index";
import type { Env } from "../../lib/config";
import { attachRuntime, Runtime } from "../../lib/runtime";
import brokerOptions from "../../moleculer.config";
import type { Platform } from "./platform";
import { testConfig } from "./platform";

/** One node on the Fake transporter: createBroker's broker, with the transporter swapped. Share NAMESPACE to join. */
export async function startFakeNode(env: Env): Promise<Platform> {
	const config = testConfig(env);
	const runtime = new Runtime(config);
	const broker = new ServiceBroker({ ...brokerOptions(config, runtime), transporter: "Fake" });
	attachRuntime(broker, runtime);
	for (const name of config.services) for (const schema of SERVICE_SCHEMAS[name]) broker.createService(schema);
	await broker.start();
	const api = broker.getLocalService("api") as unknown as { server?: Server } | undefined;
	return {
		broker,
		config,
		baseUrl: api?.server ? `http://127.0.0.1:${(api.server.address() as AddressInfo).port}` : "",
		dataDir: config.dataDir,
		stop: () => broker.stop()
	};
}

/** Whether `broker` knows `count` nodes (itself not counted) offering `service`. */
export function knowsService(broker: ServiceBroker, service: string, count = 1): boolean {
	const nodes = new Set(
		(broker.registry.getServiceList({ onlyLocal: false, onlyAvailable: true, skipInternal: true }) as Array<{ name: string; nodeID: string }>)
			.filter(s => s.name === service && s.nodeID !== broker.nodeID)
			.map(s => s.nodeID)
	);
	return nodes.size >= count;
}
