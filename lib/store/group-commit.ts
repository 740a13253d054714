/**
 * Group commit: writes submitted close together go to the store as one batch. With
 * SQLite that is one transaction and one fsync for many requests instead of one
 * each, while every caller still hears back only after its write is on disk, with
 * one applied flag per group it submitted (false: an update in it matched nothing).
 * If the shared batch fails (a duplicate key in one request, say), it is tried again
 * as configured, then each request's groups are written on their own, so one
 * caller's error is only its own.
 */
import type { Span } from "moleculer";
import { currentSpan, inBatch, tracingActive } from "../tracing/scope";
import type { BatchGroup, Store } from "./types";

export interface GroupCommitOptions {
	/** A batch is written at once when it holds this many groups. */
	maxGroups?: number;
	/** How long a batch waits for more writes; 0 waits to the end of this event-loop turn. */
	delayMs?: number;
	/** Tries of a failed batch before its requests are written one by one. */
	attempts?: number;
	/** Wait after the n-th failed try: backoffMs × 2ⁿ⁻¹ (0: none). */
	backoffMs?: number;
	/** Told of every failed try of a shared batch. */
	onBatchError?: (err: unknown, groups: number) => void;
	/**
	 * Batches handed to the store and not yet answered, at most (0: no limit). While that
	 * many are under way, new writes wait and go together once one is answered.
	 */
	maxInFlight?: number;
}

interface Pending {
	groups: BatchGroup[];
	resolve: (applied: boolean[]) => void;
	reject: (err: unknown) => void;
	/** The submitter's span, with tracing on (lib/tracing/scope.ts, inBatch). */
	span: Span | undefined;
}

export class GroupCommit {
	private pending: Pending[] = [];
	private pendingGroups = 0;
	private timer: { cancel(): void } | null = null;
	private inFlight = 0;
	private readonly maxInFlight: number;
	private readonly maxGroups: number;
	private readonly delayMs: number;
	private readonly attempts: number;
	private readonly backoffMs: number;

	constructor(private readonly store: Store, private readonly options: GroupCommitOptions = {}) {
		this.maxGroups = options.maxGroups ?? 512;
		this.delayMs = options.delayMs ?? 0;
		this.attempts = Math.max(1, options.attempts ?? 1);
		this.backoffMs = options.backoffMs ?? 0;
		this.maxInFlight = options.maxInFlight ?? 0;
	}

	private full(): boolean {
		return this.maxInFlight > 0 && this.inFlight >= this.maxInFlight;
	}

	submit(groups: BatchGroup[]): Promise<boolean[]> {
		return new Promise((resolve, reject) => {
			this.pending.push({ groups, resolve, reject, span: currentSpan() });
			this.pendingGroups += groups.length;
			if (this.pendingGroups >= this.maxGroups) void this.flush();
			else if (!this.full()) this.timer ??= this.schedule();
		});
	}

	private schedule(): { cancel(): void } {
		if (this.delayMs > 0) {
			const t = setTimeout(() => void this.flush(), this.delayMs);
			return { cancel: () => clearTimeout(t) };
		}
		const i = setImmediate(() => void this.flush());
		return { cancel: () => clearImmediate(i) };
	}

	private async flush(): Promise<void> {
		this.timer?.cancel();
		this.timer = null;
		const batch = this.pending.splice(0);
		this.pendingGroups = 0;
		if (batch.length === 0) return;
		this.inFlight += 1;
		try {
			await this.write(batch);
		} finally {
			this.inFlight -= 1;
			if (this.pending.length > 0 && !this.full()) this.timer ??= this.schedule();
		}
	}

	private async write(batch: Pending[]): Promise<void> {
		const groups = batch.flatMap(p => p.groups);
		for (let attempt = 1; attempt <= this.attempts; attempt++) {
			try {
				const applied = await this.commit(batch, groups);
				let at = 0;
				for (const p of batch) {
					p.resolve(applied.slice(at, at + p.groups.length));
					at += p.groups.length;
				}
				return;
			} catch (err) {
				this.options.onBatchError?.(err, groups.length);
				if (this.backoffMs > 0) await new Promise(r => setTimeout(r, this.backoffMs * 2 ** (attempt - 1)));
			}
		}
		for (const p of batch) {
			try {
				p.resolve(await this.commit([p], p.groups));
			} catch (err) {
				p.reject(err);
			}
		}
	}

	/**
	 * The store's batch. With tracing on, its span is a child of its first submitter's
	 * span and links to the others' (lib/tracing/scope.ts, BatchScope), whichever
	 * request's timer happens to run it.
	 */
	private commit(batch: Pending[], groups: BatchGroup[]): Promise<boolean[]> {
		return tracingActive() ? inBatch(batch.map(p => p.span), () => this.store.batch(groups)) : this.store.batch(groups);
	}
}
