/**
 * The in-app inbox of an actor (the actor itself or a service): its messages by state,
 * the unread and unseen counts, marks, mark-all-read, and a live stream of new
 * messages and counts (server-sent events over fetch, like notifications.watch).
 */
import { ApiError, ensureOk, send, type Request, type Transport } from "./request.js";
import type { InboxCounts, InboxItem, InboxListQuery, InboxMark, InboxPage } from "./types.js";
import { followStream, type WatchHandle, type WatchOptions } from "./watch.js";

export interface InboxStreamHandlers {
	/** A message stored since the stream opened (or since `lastEventId`, on a resume). */
	onMessage?: (message: InboxItem) => void;
	/** The counts: once when the stream opens (and on every reconnect), then whenever they change. */
	onCount?: (counts: InboxCounts) => void;
}

export interface InboxApi {
	/** GET /actors/{id}/inbox, newest first; `state` unread, read, archived or all (the default); pass nextCursor as `cursor`. */
	list(actorId: string, query?: InboxListQuery): Promise<InboxPage>;
	/** GET /actors/{id}/inbox/count. */
	count(actorId: string): Promise<InboxCounts>;
	/** PATCH /actors/{id}/inbox/{notificationId}: sets (true) or clears (false) seen, read, archived; reading marks seen. */
	mark(actorId: string, notificationId: string, mark: InboxMark): Promise<InboxItem>;
	/** POST /actors/{id}/inbox/read-all: every unread message read (archived ones stay). */
	readAll(actorId: string): Promise<void>;
	/**
	 * Follows the inbox live: reconnects after a cut with Last-Event-ID (the last
	 * message's id), so each message arrives once. Runs until stop() or the signal
	 * aborts; `done` rejects with ApiError when it cannot go on (403, the session ended).
	 */
	stream(actorId: string, handlers: InboxStreamHandlers, options?: WatchOptions): WatchHandle;
}

export function inboxApi(request: Request, t: Transport): InboxApi {
	return {
		list: (id, query) => request("get", "/actors/{id}/inbox", { path: { id }, query }),
		count: id => request("get", "/actors/{id}/inbox/count", { path: { id } }),
		mark: (id, notificationId, body) => request("patch", "/actors/{id}/inbox/{notificationId}", { path: { id, notificationId }, body }),
		readAll: async id => {
			await request("post", "/actors/{id}/inbox/read-all", { path: { id } });
		},
		stream(id, { onMessage, onCount }, options) {
			const open = async (lastEventId: string | undefined, signal: AbortSignal) => {
				const headers: Record<string, string> = { accept: "text/event-stream" };
				if (lastEventId) headers["last-event-id"] = lastEventId;
				return ensureOk(await send(t, "get", "/actors/{id}/inbox/stream", { path: { id }, headers, signal }));
			};
			return followStream(
				open,
				streamFailure,
				(_id, name, data) => {
					if (name === "message") onMessage?.(data as InboxItem);
					else if (name === "count") onCount?.(data as InboxCounts);
				},
				options
			);
		}
	};
}

/** As notifications.watch: 429 and 5xx and network failures are waited out; other refusals end the stream. */
function streamFailure(err: unknown): "final" | number {
	if (!(err instanceof ApiError)) return 0;
	if (err.status === 429 || err.status >= 500) return (err.retryAfter ?? 0) * 1000;
	return "final";
}
