import { TRANSITIONS, TransitionRefused, canMove, sourcesOf, transition } from "../../lib/notifications/lifecycle";
import { STATUSES, type Status } from "../../lib/notifications/model";

/**
 * The lifecycle written out independently of lib/notifications/lifecycle.ts: every
 * pair not listed here must be refused.
 */
const ALLOWED: [Status, Status][] = [
	["QUEUED", "PROCESSING"],
	["QUEUED", "CANCELLED"],
	// Collected into a digest: it waited QUEUED until the digest was made.
	["QUEUED", "DIGESTED"],
	["PROCESSING", "SENT"],
	["PROCESSING", "FAILED"],
	["PROCESSING", "QUEUED"],
	["PROCESSING", "SUPPRESSED"],
	["PROCESSING", "UNSUBSCRIBED"],
	// A late delivery failure (SMS receipts and events); a delivery still replaces it.
	["SENT", "FAILED"],
	// Provider outcomes, as the webhook has always applied them.
	...(["QUEUED", "PROCESSING", "SENT", "FAILED"] as const).map((from): [Status, Status] => [from, "DELIVERED"]),
	...(["QUEUED", "PROCESSING", "SENT", "FAILED", "DELIVERED"] as const).flatMap((from): [Status, Status][] => [
		[from, "BOUNCED"],
		[from, "COMPLAINT"]
	])
];

const isAllowed = (from: Status, to: Status) => ALLOWED.some(([f, t]) => f === from && t === to);
const ALL_PAIRS = STATUSES.flatMap(from => STATUSES.map(to => ({ from, to, allowed: isAllowed(from, to), verdict: isAllowed(from, to) ? "allow" : "refuse" })));

describe("notification lifecycle", () => {
	it("should cover the twelve statuses of the contract", () => {
		expect([...STATUSES].sort()).toEqual(
			["QUEUED", "PROCESSING", "SENT", "DELIVERED", "BOUNCED", "COMPLAINT", "FAILED", "SUPPRESSED", "UNSUBSCRIBED", "CANCELLED", "DIGESTED", "THROTTLED"].sort()
		);
		expect(Object.keys(TRANSITIONS).sort()).toEqual([...STATUSES].sort());
		expect(ALL_PAIRS).toHaveLength(144);
	});

	it.each(ALL_PAIRS)("should $verdict $from -> $to", ({ from, to, allowed }) => {
		expect(canMove(from, to)).toBe(allowed);
		if (allowed) {
			expect(transition(from, to)).toEqual({ status: from });
		} else {
			let refused: unknown;
			try {
				transition(from, to);
			} catch (err) {
				refused = err;
			}
			expect(refused).toBeInstanceOf(TransitionRefused);
			expect(refused).toMatchObject({ code: "TRANSITION_REFUSED", from, to });
		}
	});

	it("should let a delivery replace what is not final and a bounce or complaint also a delivery, never the reverse", () => {
		expect(sourcesOf("DELIVERED")).toEqual(["QUEUED", "PROCESSING", "SENT", "FAILED"]);
		expect(sourcesOf("BOUNCED")).toEqual(["QUEUED", "PROCESSING", "SENT", "DELIVERED", "FAILED"]);
		expect(sourcesOf("COMPLAINT")).toEqual(["QUEUED", "PROCESSING", "SENT", "DELIVERED", "FAILED"]);
		expect(sourcesOf("FAILED")).toEqual(["PROCESSING", "SENT"]);
		expect(canMove("DELIVERED", "FAILED")).toBe(false);
		expect(transition(sourcesOf("BOUNCED"), "BOUNCED")).toEqual({ status: { $in: ["QUEUED", "PROCESSING", "SENT", "DELIVERED", "FAILED"] } });
	});

	it("should keep the end states final", () => {
		for (const end of ["BOUNCED", "COMPLAINT", "SUPPRESSED", "UNSUBSCRIBED", "CANCELLED", "DIGESTED", "THROTTLED"] as const) expect(TRANSITIONS[end]).toEqual([]);
	});

	it("should refuse a move from several states when any one of them may not make it", () => {
		expect(() => transition(["SENT", "BOUNCED"], "DELIVERED")).toThrow(TransitionRefused);
		expect(() => transition([], "SENT")).toThrow("must name the states it leaves");
	});
});
