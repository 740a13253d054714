/**
 * What the gateway's two kinds of server-sent event streams share: a notification's
 * status (live.ts) and an actor's inbox (inbox-live.ts). A stream is opened before the
 * notifications service is asked what it begins with, so the changes announced
 * meanwhile are held, not lost; it then sends that answer, what was held and what
 * arrives. Every heartbeat it reads again and sends what it missed, and the expiry of
 * the token it was opened with ends it. A hub keeps this node's streams by key (the
 * notification, the actor), bounds them per principal and per node, and ends them all
 * at the node's orderly stop, so the stop does not wait for clients that never hang
 * up. What an event is, how a stream tells one it already sent, and what a heartbeat
 * reads and from where are each kind's own.
 */
import type { ServerResponse } from "node:http";
import { pipeline, Readable } from "node:stream";
import type { Logger } from "moleculer";
import type { LiveStreamConfig } from "../../lib/config";
import type { Drain } from "../../lib/process/shutdown";

export type Admission = "admitted" | "principal-limit" | "node-limit";

/** setTimeout's longest wait; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a stream asks of the hub that keeps it. */
export interface StreamHub<Snapshot, From> {
	catchUp(stream: EventStream<unknown, Snapshot, From>, from: From): Promise<Snapshot | null>;
	onCatchUpError(err: Error, key: string): void;
	remove(stream: EventStream<unknown, Snapshot, From>): void;
}

/**
 * One client's stream. `Change` is what is announced as it happens, `Snapshot` what the
 * service answers (at the start, and at every heartbeat), `From` where a heartbeat reads.
 */
export abstract class EventStream<Change, Snapshot, From> extends Readable {
	private held: Change[] | null = [];
	private heartbeat: NodeJS.Timeout | null = null;
	private expiry: NodeJS.Timeout | null = null;
	/** Set once the stream is admitted: the principal it counts against. */
	principal: string | null = null;

	constructor(readonly key: string, readonly after: string | undefined, private readonly hub: StreamHub<Snapshot, From>) {
		super();
	}

	/** How its log lines name it ("Live", "Inbox") and the field its key goes in. */
	protected abstract readonly kind: string;
	protected abstract readonly keyField: string;

	/** Sends this stream as the answer (sendEventStream); its headers are set (hooks.ts). */
	sendTo(res: ServerResponse, logger: Logger): void {
		sendEventStream(res, this, logger, this.kind, this.keyField);
	}

	/** Where the next heartbeat reads from. */
	protected abstract catchUpFrom(): From;
	/** Sends what the service answered, save what was sent already. */
	protected abstract sendSnapshot(snapshot: Snapshot): void;
	/** Sends one change announced, save what was sent already. */
	protected abstract sendChange(change: Change): void;

	/** Sends what a heartbeat read from `from`. */
	protected caughtUp(snapshot: Snapshot, _from: From): void {
		this.sendSnapshot(snapshot);
	}

	override _read(): void {
		// Events are pushed as they happen; nothing is produced on demand.
	}

	/** Sends what the service answered, then what arrived meanwhile, then follows. */
	begin(first: Snapshot, heartbeatMs: number): void {
		// Tells the client (and proxies) the stream is open before the first event.
		this.push(": open\n\n");
		this.sendSnapshot(first);
		const held = this.held ?? [];
		this.held = null;
		for (const change of held) this.sendChange(change);
		this.heartbeat = setInterval(() => {
			this.push(": heartbeat\n\n");
			const from = this.catchUpFrom();
			this.hub.catchUp(this, from).then(
				snapshot => {
					if (snapshot) this.caughtUp(snapshot, from);
				},
				err => this.hub.onCatchUpError(err as Error, this.key)
			);
		}, heartbeatMs);
		this.heartbeat.unref();
	}

	/**
	 * Ends the stream as the node's stop does once the caller's token expires (`ms`, its
	 * exp): access was checked when it opened, and a session that ends or is revoked must
	 * not go on watching. The client opens it again with a fresh token and Last-Event-ID.
	 */
	endAt(ms: number): void {
		this.expiry = setTimeout(() => this.finish(), Math.min(Math.max(0, ms - Date.now()), MAX_TIMER_MS));
		this.expiry.unref();
	}

	/** A change announced: held until the stream begins, sent after. */
	offer(change: Change): void {
		if (this.held) this.held.push(change);
		else this.sendChange(change);
	}

	/** Ends the stream as a whole: the client reads what was sent, then the end. */
	finish(): void {
		this.stopTimers();
		if (!this.readableEnded) this.push(null);
	}

	private stopTimers(): void {
		if (this.heartbeat) clearInterval(this.heartbeat);
		if (this.expiry) clearTimeout(this.expiry);
	}

	override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
		this.stopTimers();
		this.hub.remove(this);
		callback(err);
	}
}

/**
 * Sends an event stream as the answer; its headers are set (hooks.ts). moleculer-web's
 * sendResponse pipes a stream too, but logs any end other than the stream's own as a
 * warning with a stack, and a client that hangs up is how an event stream usually
 * ends (so is the node cutting it at a stop): that is logged at debug, with the
 * stream's key as `field`. Anything else that breaks the pipe stays a warning.
 */
export function sendEventStream(res: ServerResponse, stream: EventStream<unknown, unknown, unknown>, logger: Logger, kind: string, field: string): void {
	pipeline(stream, res, err => {
		if (!err) return;
		const fields = { [field]: stream.key };
		if ((err as NodeJS.ErrnoException).code === "ERR_STREAM_PREMATURE_CLOSE") logger.debug(`${kind} stream closed before its end (the client went away or the node cut it)`, fields);
		else logger.warn(`${kind} stream failed`, { ...fields, err });
	});
}

/** This node's streams of one kind, by key; a stream counts against the limits once admitted. */
export abstract class EventStreams<S extends EventStream<unknown, Snapshot, From>, Snapshot, From> implements Drain {
	private readonly byKey = new Map<string, Set<S>>();
	private readonly perPrincipal = new Map<string, number>();
	private readonly all = new Set<S>();
	private admitted = 0;
	private stopping = false;
	private waiting: (() => void)[] = [];

	/** `read` answers what a stream of `key` misses from `from` (the notifications service, called as this node). */
	constructor(
		private readonly limits: LiveStreamConfig,
		private readonly read: (key: string, from: From) => Promise<Snapshot>,
		/** A failed read is tried again with the next heartbeat; the stream stays open. */
		readonly onCatchUpError: (err: Error, key: string) => void = () => undefined
	) {}

	protected abstract create(key: string, after: string | undefined): S;

	/** The streams of `key`, to deliver a change to. */
	protected streamsOf(key: string): Iterable<S> {
		return this.byKey.get(key) ?? [];
	}

	get heartbeatMs(): number {
		return this.limits.heartbeatMs;
	}

	/** What the store has now; the stream sends only what it has not sent. Nothing once the stream is gone. */
	catchUp(stream: S, from: From): Promise<Snapshot | null> {
		return stream.destroyed ? Promise.resolve(null) : this.read(stream.key, from);
	}

	/** A stream that holds the changes of `key` from now on, until it is admitted or dropped. */
	watch(key: string, after: string | undefined): S {
		const stream = this.create(key, after);
		let set = this.byKey.get(key);
		if (!set) this.byKey.set(key, (set = new Set()));
		set.add(stream);
		this.all.add(stream);
		return stream;
	}

	/** Counts the stream against the principal's and the node's limits, or says which one it exceeds. */
	admit(stream: S, principal: string): Admission {
		if (this.stopping || this.admitted >= this.limits.maxPerNode) return "node-limit";
		const mine = this.perPrincipal.get(principal) ?? 0;
		if (mine >= this.limits.maxPerPrincipal) return "principal-limit";
		this.perPrincipal.set(principal, mine + 1);
		this.admitted += 1;
		stream.principal = principal;
		return "admitted";
	}

	/** Called by a stream as it is destroyed (the client went away, the response ended, or it was never admitted). */
	remove(stream: S): void {
		if (!this.all.delete(stream)) return;
		const set = this.byKey.get(stream.key);
		set?.delete(stream);
		if (set?.size === 0) this.byKey.delete(stream.key);
		if (stream.principal) {
			this.admitted -= 1;
			const left = (this.perPrincipal.get(stream.principal) ?? 1) - 1;
			if (left > 0) this.perPrincipal.set(stream.principal, left);
			else this.perPrincipal.delete(stream.principal);
		}
		if (this.all.size === 0) {
			const waiting = this.waiting;
			this.waiting = [];
			for (const resolve of waiting) resolve();
		}
	}

	get size(): number {
		return this.all.size;
	}

	/** The stop: no stream is admitted any more, and every open one ends now (clients reconnect elsewhere with Last-Event-ID). */
	begin(): Promise<void> {
		this.stopping = true;
		for (const stream of [...this.all]) {
			if (stream.principal) stream.finish();
			else stream.destroy();
		}
		return this.all.size === 0 ? Promise.resolve() : new Promise(resolve => this.waiting.push(resolve));
	}

	abort(): Promise<void> {
		for (const stream of [...this.all]) stream.destroy();
		return Promise.resolve();
	}
}
