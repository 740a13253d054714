/**
 * The notification lifecycle: which status may follow which. Every status write of
 * the record asks this table first and names, in its store filter, the states it
 * may leave; so a transition the table does not allow is refused here before any
 * write, and a record that has meanwhile moved on to a state it may not leave is
 * left as it is by the store.
 */
import type { Filter } from "../store";
import { STATUSES, type Status } from "./model";

/**
 * From each status, the ones it may move to. A dispatcher leases QUEUED as
 * PROCESSING and ends the lease with SENT, FAILED, SUPPRESSED or UNSUBSCRIBED (both
 * decided before sending), or QUEUED again (a retry, or an expired lease). Provider
 * outcomes arrive in any order: a delivery replaces anything not yet final, a bounce
 * or complaint also a delivery, never the reverse. A channel without bounces (SMS:
 * an SMPP receipt, an AWS SMS event) reports a late failure, SENT → FAILED; it never
 * replaces a delivery, and a delivery reported after it wins (FAILED → DELIVERED), so
 * either order ends DELIVERED. CANCELLED is only for what no dispatcher holds yet.
 * A notification collected into a digest waits QUEUED and ends DIGESTED when the
 * digest is made (digest.ts); one over its throttle is stored THROTTLED at once.
 */
export const TRANSITIONS: Readonly<Record<Status, readonly Status[]>> = {
	QUEUED: ["PROCESSING", "CANCELLED", "DELIVERED", "BOUNCED", "COMPLAINT", "DIGESTED"],
	PROCESSING: ["SENT", "FAILED", "QUEUED", "SUPPRESSED", "UNSUBSCRIBED", "DELIVERED", "BOUNCED", "COMPLAINT"],
	SENT: ["DELIVERED", "BOUNCED", "COMPLAINT", "FAILED"],
	FAILED: ["DELIVERED", "BOUNCED", "COMPLAINT"],
	DELIVERED: ["BOUNCED", "COMPLAINT"],
	BOUNCED: [],
	COMPLAINT: [],
	SUPPRESSED: [],
	UNSUBSCRIBED: [],
	CANCELLED: [],
	DIGESTED: [],
	THROTTLED: []
};

/** A write asked for a transition the table does not allow; nothing was written. */
export class TransitionRefused extends Error {
	readonly code = "TRANSITION_REFUSED";

	constructor(readonly from: Status, readonly to: Status) {
		super(`A notification cannot move from ${from} to ${to}`);
		this.name = "TransitionRefused";
	}
}

export function canMove(from: Status, to: Status): boolean {
	return TRANSITIONS[from].includes(to);
}

/** Every status that may move to `to`, in the order of the status list. */
export function sourcesOf(to: Status): Status[] {
	return STATUSES.filter(from => canMove(from, to));
}

/**
 * The store filter of a write that moves a record from `from` (one status or several)
 * to `to`: it matches only a record still in one of them. Throws TransitionRefused,
 * before anything is written, when the table forbids any of the moves.
 */
export function transition(from: Status | readonly Status[], to: Status): Filter {
	const list = typeof from === "string" ? [from] : from;
	if (list.length === 0) throw new Error(`A move to ${to} must name the states it leaves`);
	for (const f of list) if (!canMove(f, to)) throw new TransitionRefused(f, to);
	return { status: list.length === 1 ? list[0] : { $in: [...list] } };
}
