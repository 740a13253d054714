/**
 * notifications.watch and inbox.stream: server-sent events read with fetch, because EventSource cannot
 * send an Authorization header and a token in the URL would land in logs and history.
 * The stream is parsed per the WHATWG event-stream format; after a cut connection or
 * the server's end of the stream (a node's orderly stop) it reconnects with
 * Last-Event-ID, so no event is lost or repeated.
 */
import type { components } from "./api-types.js";

/** One timeline event, as GET /notifications/{id}/events sends it. */
export type TimelineEvent = components["schemas"]["Timeline"]["items"][number];

export interface WatchOptions {
	/** Aborting it stops the watch, like the handle's stop(). */
	signal?: AbortSignal;
	/** Resume after this event id (one a previous watch delivered). */
	lastEventId?: string;
	/** Told about each failure the watch recovers from by reconnecting. */
	onError?: (err: unknown) => void;
	/** First wait before a reconnect, in ms (doubled per failed attempt up to 30 s); a `retry:` field from the server replaces it. */
	retryMs?: number;
}

export interface WatchHandle {
	stop(): void;
	/** Settles when the watch stops: resolves after stop(), rejects when it cannot go on (404, session gone). */
	readonly done: Promise<void>;
	/** The id of the last event delivered, for a later resume. */
	readonly lastEventId: string | undefined;
}

/** Opens one stream; a refusal (not 2xx) is thrown as the caller's error by `refuse`. */
export type OpenStream = (lastEventId: string | undefined, signal: AbortSignal) => Promise<Response>;

/** What a failure means: "final" when reconnecting cannot fix it (404, a session gone), else the least wait in ms before trying again (429's Retry-After). */
export type FailurePolicy = (err: unknown) => "final" | number;

const MAX_BACKOFF_MS = 30000;

export function watchStream(open: OpenStream, policy: FailurePolicy, onEvent: (e: TimelineEvent) => void, options: WatchOptions = {}): WatchHandle {
	return followStream(open, policy, (id, _name, data) => onEvent({ ...(data as Omit<TimelineEvent, "id">), id: id ?? "" }), options);
}

/**
 * Any event stream of the API: each event's id (when it has one), its name (`message`
 * when the server gives none) and its parsed data. Reconnects as watchStream does,
 * with the id of the last event that had one.
 */
export function followStream(open: OpenStream, policy: FailurePolicy, onEvent: (id: string | undefined, name: string, data: unknown) => void, options: WatchOptions = {}): WatchHandle {
	const abort = new AbortController();
	const stopOnSignal = () => abort.abort();
	if (options.signal?.aborted) abort.abort();
	else options.signal?.addEventListener("abort", stopOnSignal, { once: true });
	let lastEventId = options.lastEventId;
	let retryMs = options.retryMs ?? 1000;

	async function run(): Promise<void> {
		let failures = 0;
		let atLeastMs = 0;
		while (!abort.signal.aborted) {
			try {
				const res = await open(lastEventId, abort.signal);
				failures = 0;
				await read(res.body!, abort.signal, {
					event(id, name, data) {
						if (id !== undefined) lastEventId = id;
						onEvent(id, name, data);
					},
					retry(ms) {
						retryMs = ms;
					}
				});
				atLeastMs = 0;
			} catch (err) {
				if (abort.signal.aborted) break;
				const next = policy(err);
				if (next === "final") throw err;
				options.onError?.(err);
				failures += 1;
				atLeastMs = next;
			}
			if (abort.signal.aborted) break;
			// A stream the server ended is resumed after the usual wait; failures back off.
			await sleep(Math.max(atLeastMs, Math.min(retryMs * 2 ** Math.max(0, failures - 1), MAX_BACKOFF_MS)), abort.signal);
		}
	}

	const done = run().finally(() => options.signal?.removeEventListener("abort", stopOnSignal));
	// A watch is often started and left running: its end must not become an unhandled
	// rejection (which ends a Node process); whoever reads `done` still sees the error.
	done.catch(() => undefined);
	return {
		stop: () => abort.abort(),
		done,
		get lastEventId() {
			return lastEventId;
		}
	};
}

interface Sink {
	event(id: string | undefined, name: string, data: unknown): void;
	retry(ms: number): void;
}

/** Reads one stream to its end (or the abort), handing each complete event to the sink. */
async function read(body: ReadableStream<Uint8Array>, signal: AbortSignal, sink: Sink): Promise<void> {
	const reader = body.getReader();
	const cancel = () => void reader.cancel().catch(() => undefined);
	signal.addEventListener("abort", cancel, { once: true });
	const decoder = new TextDecoder();
	let buffer = "";
	try {
		for (;;) {
			const { value, done } = await reader.read();
			if (done) return;
			// The format allows CRLF and CR line ends; normalizing keeps one splitter.
			buffer = (buffer + decoder.decode(value, { stream: true })).replace(/\r\n?/g, "\n");
			let end: number;
			while ((end = buffer.indexOf("\n\n")) >= 0) {
				dispatch(buffer.slice(0, end), sink);
				buffer = buffer.slice(end + 2);
			}
		}
	} finally {
		signal.removeEventListener("abort", cancel);
	}
}

function dispatch(block: string, sink: Sink): void {
	let id: string | undefined;
	let name = "message";
	const data: string[] = [];
	for (const line of block.split("\n")) {
		if (line === "" || line.startsWith(":")) continue;
		const colon = line.indexOf(":");
		const field = colon < 0 ? line : line.slice(0, colon);
		const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
		if (field === "id" && !value.includes("\0")) id = value;
		else if (field === "event") name = value;
		else if (field === "data") data.push(value);
		else if (field === "retry" && /^\d+$/.test(value)) sink.retry(Number(value));
	}
	if (data.length) sink.event(id, name, JSON.parse(data.join("\n")));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise(resolve => {
		const timer = setTimeout(done, ms);
		function done() {
			clearTimeout(timer);
			signal.removeEventListener("abort", done);
			resolve();
		}
		signal.addEventListener("abort", done, { once: true });
	});
}
