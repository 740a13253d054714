/**
 * The params of what holds a notification back: on the create action a digest and a
 * throttle (lib/notifications/digest.ts, throttle.ts), in an actor's preferences the
 * time zone and quiet hours (lib/notifications/quiet-hours.ts). A bad value is a 400
 * VALIDATION_ERROR naming the field, such as `digest.windowSeconds`.
 */
import { badRequest } from "../../lib/errors";
import { HH_MM, isTimeZone, type QuietHours } from "../../lib/notifications";
import type { Preference } from "../../lib/unsubscribe/records";

export interface PutPreferencesParams {
	id: string;
	items?: Preference[];
	/** null removes it, absent leaves it. */
	timeZone?: string | null;
	quietHours?: QuietHours | null;
}

export const SCHEDULE_PARAMS = {
	timeZone: { type: "string", min: 1, max: 64, optional: true, nullable: true },
	quietHours: { type: "object", optional: true, nullable: true, strict: true, props: { start: { type: "string", pattern: HH_MM }, end: { type: "string", pattern: HH_MM } } }
} as const;

/** Intl knows the zones it can convert to; any other name is refused before it is stored. */
export function checkTimeZone(zone: string | null | undefined): void {
	if (typeof zone === "string" && !isTimeZone(zone)) {
		throw badRequest("The 'timeZone' field must be an IANA time zone, such as Europe/Vienna.", [{ field: "timeZone", message: "is not an IANA time zone" }]);
	}
}

export const HOLD_PARAMS = {
	// Collected with the others of its recipient, channel and key for the window.
	digest: {
		type: "object",
		optional: true,
		strict: true,
		props: { key: { type: "string", min: 1, max: 200 }, windowSeconds: { type: "number", integer: true, min: 1, max: 86_400 } }
	},
	// At most `limit` with the same recipient and key in the window; the others end THROTTLED.
	throttle: {
		type: "object",
		optional: true,
		strict: true,
		props: {
			key: { type: "string", min: 1, max: 200 },
			limit: { type: "number", integer: true, min: 1, max: 10_000 },
			windowSeconds: { type: "number", integer: true, min: 1, max: 86_400 }
		}
	}
} as const;
