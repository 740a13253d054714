/**
 * Group commit: writes submitted in the same turn of the event loop go to the store
 * as one batch. With SQLite that is one transaction and one fsync for many requests
 * instead of one each, while every caller still hears back only after its write is
 * on disk. If the shared batch fails (a duplicate key in one request, say), each
 * request's groups are written again on their own, so one caller's error is only its own.
 */
import type { BatchGroup, Store } from "./types";

interface Pending {
	groups: BatchGroup[];
	resolve: (applied: boolean[]) => void;
	reject: (err: unknown) => void;
}

export class GroupCommit {
	private pending: Pending[] = [];
	private scheduled = false;

	constructor(private readonly store: Store, private readonly maxGroups = 512) {}

	submit(groups: BatchGroup[]): Promise<boolean[]> {
		return new Promise((resolve, reject) => {
			this.pending.push({ groups, resolve, reject });
			if (this.pending.reduce((n, p) => n + p.groups.length, 0) >= this.maxGroups) void this.flush();
			else if (!this.scheduled) {
				this.scheduled = true;
				setImmediate(() => void this.flush());
			}
		});
	}

	private async flush(): Promise<void> {
		this.scheduled = false;
		const batch = this.pending.splice(0);
		if (batch.length === 0) return;
		try {
			const applied = await this.store.batch(batch.flatMap(p => p.groups));
			let at = 0;
			for (const p of batch) {
				p.resolve(applied.slice(at, at + p.groups.length));
				at += p.groups.length;
			}
		} catch {
			for (const p of batch) {
				try {
					p.resolve(await this.store.batch(p.groups));
				} catch (err) {
					p.reject(err);
				}
			}
		}
	}
}
