/**
 * Entry point: `npm start` runs the services named by SERVICES (all by default)
 * in this process. Tests create brokers through createBroker().
 */
import { ServiceBroker, type ServiceSchema } from "moleculer";
import brokerOptions from "./moleculer.config";
import { ConfigError, describeConfigError, loadConfig, type Config, type ServiceName } from "./lib/config";
import { prepareDataDir, usesDataDir, type Repair } from "./lib/data-dir";
import { attachRuntime, Runtime, runtimeOf } from "./lib/runtime";
import { stopOnSignals } from "./lib/shutdown";
import GatewayService from "./services/api-gateway/api-gateway.service";
import ActorsService from "./services/actors.service";
import AuthService from "./services/auth.service";
import DispatcherService from "./services/dispatcher.service";
import DocumentsService from "./services/documents.service";
import FeaturesService from "./services/features.service";
import NotificationsService from "./services/notifications.service";
import PreferencesService from "./services/preferences.service";
import WebhooksService from "./services/webhooks.service";
import OutboundService from "./services/outbound.service";
import StatsService from "./services/stats.service";

/**
 * What each SERVICES name starts. Feature flags have no name of their own: the
 * features service is small, reads and writes only the shared store, and runs
 * wherever actors runs. The console's stats likewise run beside notifications.
 */
export const SERVICE_SCHEMAS: Record<ServiceName, ServiceSchema[]> = {
	"api-gateway": [GatewayService as unknown as ServiceSchema],
	auth: [AuthService as ServiceSchema],
	actors: [ActorsService as ServiceSchema, FeaturesService as ServiceSchema],
	documents: [DocumentsService as unknown as ServiceSchema],
	notifications: [NotificationsService as ServiceSchema, PreferencesService as ServiceSchema, StatsService as ServiceSchema],
	dispatcher: [DispatcherService as ServiceSchema],
	webhooks: [WebhooksService as ServiceSchema],
	outbound: [OutboundService as ServiceSchema]
};

export function createBroker(config: Config): ServiceBroker {
	const runtime = new Runtime(config);
	const broker = new ServiceBroker(brokerOptions(config, runtime));
	attachRuntime(broker, runtime);
	for (const name of config.services) for (const schema of SERVICE_SCHEMAS[name]) broker.createService(schema);
	return broker;
}

async function main(): Promise<void> {
	let config: Config;
	try {
		config = loadConfig();
	} catch (err) {
		if (err instanceof ConfigError) {
			process.stderr.write(`${describeConfigError(err)}\n`);
			process.exit(78);
		}
		throw err;
	}
	// Everything this process creates is owner-only, whatever the umask it was started with.
	process.umask(0o077);
	let repairs: Repair[] = [];
	if (usesDataDir(config)) {
		try {
			repairs = prepareDataDir(config.dataDir);
		} catch (err) {
			if (!(err instanceof ConfigError)) throw err;
			process.stderr.write(`${err.message}\n`);
			process.exit(78);
		}
	}
	const broker = createBroker(config);
	for (const r of repairs) {
		broker.getLogger("data-dir").warn(`${r.path} could be read by others (mode ${r.from.toString(8)}): made it ${r.to.toString(8)}`);
	}
	const { shutdown } = runtimeOf(broker);
	// Readiness goes 503 and new work is refused at once; the broker stops only once the
	// work under way has ended, so the services it still calls are there until then.
	stopOnSignals(async () => {
		await shutdown.drain(config.shutdownGraceMs);
		await broker.stop();
	}, broker.getLogger("shutdown"));
	await broker.start();
}

if (require.main === module) {
	main().catch(err => {
		process.stderr.write(`Start failed: ${(err as Error).stack ?? err}\n`);
		process.exit(1);
	});
}
