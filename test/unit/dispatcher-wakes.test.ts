/**
 * The accepting node's wakes of the dispatchers (lib/notifications/wakes.ts): one at
 * once, one trailing wake per window however many came meanwhile, and an urgent one
 * not held back by the window the first time in it.
 */
import { DispatcherWakes, isUrgent } from "../../lib/notifications/wakes";

describe("dispatcher wakes", () => {
	let sent: boolean[];
	let wakes: DispatcherWakes;
	beforeEach(() => {
		jest.useFakeTimers();
		sent = [];
		wakes = new DispatcherWakes(urgent => sent.push(urgent), 5);
	});
	afterEach(() => {
		wakes.stop();
		jest.useRealTimers();
	});

	it("should wake at once, then once when the window ends however many came in it", () => {
		wakes.wake();
		wakes.wake();
		wakes.wake();
		expect(sent).toEqual([false]);
		jest.advanceTimersByTime(5);
		expect(sent).toEqual([false, false]);
		jest.advanceTimersByTime(50);
		expect(sent).toEqual([false, false]);
	});

	it("should send the first urgent wake of a window at once, and make the trailing wake urgent for a later one", () => {
		wakes.wake();
		wakes.wake(true);
		expect(sent).toEqual([false, true]);
		wakes.wake(true);
		wakes.wake();
		expect(sent).toEqual([false, true]);
		jest.advanceTimersByTime(5);
		expect(sent).toEqual([false, true, true]);
	});

	it("should send nothing after stop", () => {
		wakes.wake();
		wakes.wake();
		wakes.stop();
		jest.advanceTimersByTime(50);
		expect(sent).toEqual([false]);
	});

	it("should count CRITICAL and HIGH as urgent, and nothing else", () => {
		expect(["CRITICAL", "HIGH", "NORMAL", "LOW", undefined].map(p => isUrgent(p as never))).toEqual([true, true, false, false, false]);
	});
});
