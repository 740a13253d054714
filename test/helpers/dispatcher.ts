/**
 * A dispatcher in the test's own process, over a store and a sender the test controls:
 * no broker services, no flags (LOW never held), nothing told of its results.
 */
import { ServiceBroker } from "moleculer";
import type { ChannelSender } from "../../lib/channels";
import type { Config } from "../../lib/config";
import type { KeyValue } from "../../lib/kv";
import { Dispatcher, StatusPublisher } from "../../lib/notifications";
import type { Channel } from "../../lib/notifications/model";
import type { Store } from "../../lib/store";

export function testDispatcher(config: Config, store: Store, kv: KeyValue, sender: ChannelSender): Dispatcher {
	const broker = new ServiceBroker({ logger: false });
	return new Dispatcher({
		config: config.notifications,
		store,
		events: new StatusPublisher(),
		kv,
		channels: new Map<Channel, ChannelSender>([[sender.channel, sender]]),
		logger: broker.getLogger("dispatcher"),
		holdLow: async () => false,
		onSettled: () => undefined
	});
}
