/**
 * Throttles: `throttle: { key, limit, windowSeconds }` lets at most `limit`
 * notifications with the same recipient and key through in any window of that many
 * seconds; one more is stored THROTTLED (with its event, so its sender can see why) and
 * never sent. The count is of the notifications accepted in the window and not
 * throttled themselves, read from the queue when the request arrives. On one node the
 * requests with the same recipient and key take turns (ThrottleTurns) from that read
 * until their notification is stored, so none counts before the one ahead of it is in
 * the store; two requests accepted in the same instant on different nodes may still
 * both pass the last place.
 */
import { badRequest } from "../errors";
import type { Store } from "../store";
import type { NotificationDoc } from "./model";

export interface ThrottleRequest {
	key: string;
	limit: number;
	windowSeconds: number;
}

export const THROTTLE_MAX_WINDOW_SECONDS = 86_400;
export const THROTTLE_MAX_LIMIT = 10_000;

export function throttleKey(to: string, key: string): string {
	return `${to}\u0000${key}`;
}

/** As the create action's params check it, for callers inside the process. */
export function checkThrottle(t: ThrottleRequest | undefined): void {
	if (t === undefined) return;
	const field = (name: string, message: string) => badRequest(`The 'throttle.${name}' field ${message}.`, [{ field: `throttle.${name}`, message }]);
	if (typeof t.key !== "string" || t.key.length < 1 || t.key.length > 200) throw field("key", "must be 1 to 200 characters");
	if (!Number.isInteger(t.limit) || t.limit < 1 || t.limit > THROTTLE_MAX_LIMIT) throw field("limit", `must be a whole number from 1 to ${THROTTLE_MAX_LIMIT}`);
	if (!Number.isInteger(t.windowSeconds) || t.windowSeconds < 1 || t.windowSeconds > THROTTLE_MAX_WINDOW_SECONDS) {
		throw field("windowSeconds", `must be a whole number from 1 to ${THROTTLE_MAX_WINDOW_SECONDS}`);
	}
}

/** Whether `limit` notifications with this key were let through in the window ending now. */
export async function isThrottled(store: Store, key: string, t: ThrottleRequest, now: number): Promise<boolean> {
	const since = new Date(now - t.windowSeconds * 1000).toISOString();
	const passed = await store.collection<NotificationDoc>("notifications").count({ throttleKey: key, createdAt: { $gt: since }, status: { $ne: "THROTTLED" } });
	return passed >= t.limit;
}

/**
 * Runs the requests of one throttle key one after another, each after the one before
 * it settled (this process only); other keys are not held up. A request's turn covers
 * the count and the commit of its notification: counted before the one ahead of it was
 * stored, concurrent requests all saw the same free place and all took it.
 */
export class ThrottleTurns {
	private readonly tails = new Map<string, Promise<unknown>>();

	run<T>(key: string, fn: () => Promise<T>): Promise<T> {
		const turn = (this.tails.get(key) ?? Promise.resolve()).then(fn);
		const tail = turn.then(
			() => undefined,
			() => undefined
		);
		this.tails.set(key, tail);
		void tail.then(() => {
			if (this.tails.get(key) === tail) this.tails.delete(key);
		});
		return turn;
	}

	/** Keys with a request under way or waiting (tests: nothing is kept once they settle). */
	get size(): number {
		return this.tails.size;
	}
}
