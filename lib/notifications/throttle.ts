/**
 * Throttles: `throttle: { key, limit, windowSeconds }` lets at most `limit`
 * notifications with the same recipient and key through in any window of that many
 * seconds; one more is stored THROTTLED (with its event, so its sender can see why) and
 * never sent.
 *
 * Each recipient and key has up to `limit` places (`throttle_slots`), each holding when
 * a notification last passed with it. A request passes by taking a place last used
 * before the window, in one atomic update, or by adding a place while there are fewer
 * than `limit` (a unique id per place number, so of two nodes adding the same place one
 * wins and the other looks again). A place is in the window as long as the notification
 * that took it, so the places taken in any window are the notifications let through in
 * it: requests arriving together, on one node or many, let exactly `limit` through,
 * which counting the queue could not (each counted before the one ahead was stored). A
 * place taken by a request that then fails to store its notification stays taken for
 * the window: a failure can throttle one more, never let one more through. The places
 * are named by a SHA-256 of the recipient and key, so they hold no address.
 */
import { sha256 } from "../crypto";
import { badRequest, UpstreamError } from "../errors";
import { DuplicateKeyError, type Store } from "../store";

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

export const THROTTLE_SLOTS = "throttle_slots";

/** One place of a throttle: id `<hash>:<slot>`, `throttle` the hash of the recipient and key. */
export interface ThrottleSlot {
	id: string;
	throttle: string;
	slot: number;
	/** When a notification last passed with this place (ISO). */
	usedAt: string;
}

/** Looks this many times when other requests keep taking the place it tried to add; past that, 503. */
const MAX_TRIES = 50;

/**
 * Takes a place for one more notification with this recipient and key (`throttleKey`)
 * at `now`; false when all `limit` places are in the window (over the throttle).
 */
export async function takeThrottlePlace(store: Store, key: string, t: ThrottleRequest, now: number): Promise<boolean> {
	const slots = store.collection<ThrottleSlot>(THROTTLE_SLOTS);
	const throttle = sha256(key);
	const usedAt = new Date(now).toISOString();
	// The window is (since, now]: a place last used at `since` or before is free.
	const since = new Date(now - t.windowSeconds * 1000).toISOString();
	for (let i = 0; i < MAX_TRIES; i++) {
		const taken = await slots.findOneAndUpdate({ throttle, slot: { $lt: t.limit }, usedAt: { $lte: since } }, { $set: { usedAt } }, { sort: { usedAt: 1 } });
		if (taken) return true;
		const places = await slots.count({ throttle, slot: { $lt: t.limit } });
		if (places >= t.limit) return false;
		try {
			await slots.insert({ id: `${throttle}:${places}`, throttle, slot: places, usedAt });
			return true;
		} catch (err) {
			// Another request added this place first: look again.
			if (!(err instanceof DuplicateKeyError)) throw err;
		}
	}
	throw new UpstreamError("The throttle's places are taken and added faster than this request could look; try again.", 1);
}
