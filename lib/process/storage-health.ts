/**
 * Whether this node's storage takes writes. A write that fails because the disk is
 * full, read-only or gone (a storage fault, lib/errors/storage-faults.ts) is not a bug: the request is answered 503 STORAGE_UNAVAILABLE with
 * Retry-After, readiness turns 503, and the first such error is logged once (with a
 * rollback's own failure beside it). Readiness then probes with a real write; the
 * first one that succeeds ends the fault, without a restart.
 */
import type { Logger } from "moleculer";
import type { StorageErrorShape } from "../errors/storage-faults";

/** What a store or file storage offers readiness to find out whether a write succeeds again. */
export interface WriteProbe {
	/** Writes (and makes durable) something small; throws when it cannot. */
	probeWrite(): Promise<void>;
}

export class StorageHealth {
	private fault: { since: number; code: string } | null = null;

	/** log: the logger to use, looked up when needed (the broker is attached after this is made). */
	constructor(private readonly log: () => Pick<Logger, "error" | "info"> | undefined = () => undefined) {}

	/** Whether the last storage fault has not yet been followed by a successful write. */
	get failing(): boolean {
		return this.fault !== null;
	}

	/**
	 * Records a storage fault. The first of a run is logged in full, with the rollback's
	 * failure beside it when one was attached; the rest only count until a write succeeds.
	 */
	failed(err: unknown, where: string): void {
		if (this.fault) return;
		const e = err as StorageErrorShape & { rollbackError?: unknown };
		const code = typeof e.code === "string" ? e.code : typeof e.errcode === "number" ? `SQLITE ${e.errcode}` : String(e.name ?? "Error");
		this.fault = { since: Date.now(), code };
		this.log()?.error(`Storage cannot take writes (${where}): ${String(e.message ?? err)}; answering 503 STORAGE_UNAVAILABLE until a write succeeds`, {
			err,
			...(e.rollbackError ? { rollbackError: e.rollbackError } : {})
		});
	}

	/** A write succeeded: the fault, if any, is over. */
	succeeded(): void {
		if (!this.fault) return;
		this.log()?.info(`Storage takes writes again after ${Math.round((Date.now() - this.fault.since) / 1000)} s (${this.fault.code})`);
		this.fault = null;
	}

	/**
	 * Readiness: healthy unless a fault was seen; then each probe must write for real
	 * before the node reports ready again.
	 */
	async check(probes: WriteProbe[]): Promise<void> {
		if (!this.fault) return;
		for (const p of probes) await p.probeWrite();
		this.succeeded();
	}
}
