/**
 * Concurrent writes of one feature flag, checked the way an administrator sees them:
 * every write is answered 200, the flag stored at the end is the answered write with
 * the latest updatedAt, a write sent after another was answered carries a later
 * updatedAt, and the stored updatedAt, read over and over meanwhile, never goes back.
 */
import type { HttpResult } from "./platform";

export interface StoredFlag {
	value: unknown;
	updatedAt: string;
}

export interface FlagRace {
	/** Sends the i-th write of a wave (the test decides through which node). */
	put(value: { wave: number; i: number }, i: number): Promise<HttpResult>;
	/** The flag as stored now, read past any cache. */
	stored(): Promise<StoredFlag | null>;
	waves?: number;
	width?: number;
}

export async function raceOneFlag(race: FlagRace): Promise<void> {
	const waves = race.waves ?? 3;
	const width = race.width ?? 8;
	const answered: StoredFlag[][] = [];
	const observed: string[] = [];
	let writing = true;
	const watcher = (async () => {
		while (writing) {
			const now = await race.stored();
			if (now) observed.push(now.updatedAt);
			// A read may answer without leaving the event loop (the embedded store reads on its own thread's copy synchronously): let the writes run.
			await new Promise(resolve => setImmediate(resolve));
		}
	})();
	try {
		for (let wave = 0; wave < waves; wave++) {
			const results = await Promise.all(Array.from({ length: width }, (_, i) => race.put({ wave, i }, i)));
			expect(results.map(r => r.status)).toEqual(results.map(() => 200));
			answered.push(results.map(r => ({ value: r.body.value, updatedAt: r.body.updatedAt as string })));
		}
	} finally {
		writing = false;
		await watcher;
	}
	const all = answered.flat();
	expect(new Set(all.map(a => a.updatedAt)).size).toBe(all.length);
	for (let w = 1; w < answered.length; w++) {
		const latestBefore = answered[w - 1].map(a => a.updatedAt).sort().at(-1)!;
		expect(answered[w].map(a => a.updatedAt).filter(t => t <= latestBefore)).toEqual([]);
	}
	const last = all.reduce((a, b) => (b.updatedAt > a.updatedAt ? b : a));
	expect(await race.stored()).toEqual(last);
	expect(observed.filter((t, i) => i > 0 && t < observed[i - 1])).toEqual([]);
}
