/**
 * The deny list over Redis: two nodes that share Redis but no transporter (two
 * runtimes here, each with its own store). A session ended on one is refused by the
 * other within a second, through Redis pub/sub into its in-memory list; nothing is
 * asked of Redis per request.
 */
import fs from "node:fs";
import { Runtime } from "../../lib/runtime";
import { testConfig } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { describeWith, REDIS_URL, uniqueName } from "../helpers/services";

describeWith("Redis", "the session deny list over Redis", () => {
	const namespace = uniqueName("it-deny");
	const runtimes: Runtime[] = [];
	const node = () => {
		const rt = new Runtime(testConfig({ REDIS_URL, NAMESPACE: namespace }));
		runtimes.push(rt);
		return rt;
	};

	afterAll(async () => {
		for (const rt of runtimes) {
			await rt.close();
			fs.rmSync(rt.config.dataDir, { recursive: true, force: true });
		}
	});

	it("should refuse a session ended on another node within a second", async () => {
		const a = node();
		const b = node();
		// Each node subscribes when it makes its verifier (the first request it checks).
		await Promise.all([a.verifier(), b.verifier()]);
		await new Promise(r => setTimeout(r, 100));
		expect(b.deniedSessions.has("sid-1")).toBe(false);
		const endedAt = Date.now();
		await a.sessionsEnded("user-1", ["sid-1"]);
		expect(a.deniedSessions.has("sid-1")).toBe(true);
		await waitFor("the other node to refuse the session", async () => b.deniedSessions.has("sid-1"), 1000, 10);
		expect(Date.now() - endedAt).toBeLessThan(1000);
		expect(b.deniedSessions.has("sid-2")).toBe(false);
	});
});
