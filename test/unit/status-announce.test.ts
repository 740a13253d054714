/**
 * How a node tells the gateways of the events it recorded (lib/runtime.ts subscribes to
 * the notifications' publisher): the events
 * of the same moment (the accepts of one group commit, each telling its own) travel in
 * one broadcast, in the order they were told; later ones in the next.
 */
import { ServiceBroker, type Context } from "moleculer";
import { STATUS_EVENTS, type StatusEvent, type StatusEvents } from "../../lib/delivery";
import { attachRuntime, Runtime } from "../../lib/runtime";
import { testConfig } from "../helpers/platform";

function event(n: number): StatusEvent {
	return {
		notificationId: `00000000-0000-7000-8000-${String(n).padStart(12, "0")}`,
		owner: { kind: "service", id: "announce-test" },
		seq: String(n).padStart(20, "0"),
		event: "QUEUED",
		occurredAt: new Date(0).toISOString(),
		status: "QUEUED"
	};
}

describe("status events announced to the gateways", () => {
	let broker: ServiceBroker;
	let runtime: Runtime;
	let heard: StatusEvent[][];

	beforeEach(async () => {
		heard = [];
		broker = new ServiceBroker({ logger: false });
		broker.createService({
			name: "listener",
			events: {
				[STATUS_EVENTS](ctx: Context<StatusEvents>) {
					heard.push(ctx.params.events);
				}
			}
		});
		runtime = new Runtime(testConfig());
		attachRuntime(broker, runtime);
		await broker.start();
	});

	afterEach(async () => {
		await broker.stop();
		await runtime.close();
	});

	const until = async (test: () => boolean) => {
		for (let i = 0; i < 100 && !test(); i++) await new Promise(resolve => setTimeout(resolve, 10));
	};

	it("sends the events told in the same moment in one broadcast, in order, and later ones in the next", async () => {
		const published = runtime.statusEvents;
		published.publish([event(1)]);
		published.publish([event(2), event(3)]);
		published.publish([event(4)]);
		await until(() => heard.flat().length >= 4);
		expect(heard.map(batch => batch.map(e => Number(e.seq)))).toEqual([[1, 2, 3, 4]]);

		published.publish([event(5)]);
		await until(() => heard.flat().length >= 5);
		expect(heard.map(batch => batch.map(e => Number(e.seq)))).toEqual([[1, 2, 3, 4], [5]]);
		expect(heard[1][0]).toEqual(event(5));
	});
});
