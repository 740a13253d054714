/** Lowering one thread's priority from inside it (Linux: setpriority(2) on the thread's id). */
import { Worker } from "node:worker_threads";
import { MAX_NICE, niceThisThread } from "../../lib/process/thread-priority";
import { threadNiceValues } from "../helpers/processes";

describe("niceThisThread", () => {
	it("should set the nice value of the calling thread alone", async () => {
		const before = threadNiceValues();
		// A thread of its own, so this test's thread keeps its priority for the tests after it.
		const worker = new Worker(
			`const { parentPort, workerData } = require("node:worker_threads");
			const { niceThisThread } = require(workerData.module);
			parentPort.postMessage({ set: niceThisThread(7), tid: Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop()) });
			parentPort.once("message", () => process.exit(0));`,
			{ eval: true, workerData: { module: require.resolve("../../dist/lib/process/thread-priority.js") } }
		);
		try {
			const { set, tid } = await new Promise<{ set: boolean; tid: number }>((resolve, reject) => {
				worker.once("message", resolve);
				worker.once("error", reject);
			});
			expect(set).toBe(true);
			const after = threadNiceValues();
			expect(after.get(tid)).toBe(7);
			for (const [id, nice] of after) if (id !== tid) expect(nice).toBe(before.get(id) ?? 0);
		} finally {
			worker.postMessage("done");
			await new Promise(resolve => worker.once("exit", resolve));
		}
	});

	it("should refuse values outside 0 to 19 and change nothing", () => {
		const before = threadNiceValues();
		expect(niceThisThread(-1)).toBe(false);
		expect(niceThisThread(MAX_NICE + 1)).toBe(false);
		expect(niceThisThread(2.5)).toBe(false);
		expect(threadNiceValues()).toEqual(before);
	});
});
