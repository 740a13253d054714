/**
 * A dispatcher in the test's own process, over a store and a sender the test controls:
 * no broker services, no flags (LOW never held), nothing told of its results. Its
 * storage health probes the store alone unless the test says otherwise.
 */
import { ServiceBroker } from "moleculer";
import type { ChannelSender } from "../../lib/channels";
import type { Config } from "../../lib/config";
import type { KeyValue } from "../../lib/kv";
import { Dispatcher, StatusPublisher, type DispatcherDeps } from "../../lib/notifications";
import type { Channel } from "../../lib/notifications/model";
import { StorageHealth } from "../../lib/process/storage-health";
import type { Store } from "../../lib/store";

export function testDispatcher(
	config: Config,
	store: Store,
	kv: KeyValue,
	sender: ChannelSender,
	opts: Partial<Pick<DispatcherDeps, "health" | "probeStorage" | "logger">> = {}
): Dispatcher {
	const broker = new ServiceBroker({ logger: false });
	const health = new StorageHealth();
	return new Dispatcher({
		config: config.notifications,
		store,
		events: new StatusPublisher(),
		kv,
		channels: new Map<Channel, ChannelSender>([[sender.channel, sender]]),
		logger: broker.getLogger("dispatcher"),
		health,
		probeStorage: () => health.check([store]),
		holdLow: async () => false,
		onSettled: () => undefined,
		...opts
	});
}
