/**
 * Quiet hours: an actor's time zone (IANA) and a local `HH:MM` window, which may wrap
 * midnight (22:00-07:00). A non-CRITICAL notification to that actor due inside the
 * window waits, QUEUED, until it ends: the accept moves its due time (availableAt and
 * sendAt) there, so the queue's ordinary schedule holds it and nothing new is claimed
 * differently. The window's end is found in the zone's own wall-clock time, so a
 * change to or from daylight saving time moves the instant, not the local end.
 */
import { perTurn } from "../process/per-turn";
import type { Store } from "../store";
import type { Channel } from "./model";

export interface QuietHours {
	/** Local time, `HH:MM` (24 h). */
	start: string;
	end: string;
}

/** One actor's delivery schedule, id the actorId; email to find it from an EMAIL recipient. */
export interface RecipientScheduleDoc {
	id: string;
	email?: string;
	timeZone?: string;
	quietHours?: QuietHours;
	updatedAt: string;
}

export const RECIPIENT_SCHEDULES = "recipient_schedules";

export const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Whether Intl knows the zone (IANA names, and UTC). */
export function isTimeZone(zone: string): boolean {
	try {
		new Intl.DateTimeFormat("en-US", { timeZone: zone });
		return true;
	} catch {
		return false;
	}
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes since local midnight at `at` in `zone`, and the milliseconds past that minute. */
function localMinute(at: number, zone: string): { minute: number; past: number } {
	let f = formatters.get(zone);
	if (!f) {
		f = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", hour: "2-digit", minute: "2-digit" });
		formatters.set(zone, f);
	}
	const parts = f.formatToParts(at);
	const hour = Number(parts.find(p => p.type === "hour")!.value) % 24;
	const minute = Number(parts.find(p => p.type === "minute")!.value);
	// Every zone in use is offset by whole minutes from UTC, so the seconds are UTC's.
	return { minute: hour * 60 + minute, past: ((at % 60_000) + 60_000) % 60_000 };
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

function inside(minute: number, start: number, end: number): boolean {
	return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/**
 * When the quiet hours around `at` end (epoch ms), or undefined when `at` is outside
 * them (or they are empty: start equal to end).
 */
export function quietUntil(at: number, zone: string, hours: QuietHours): number | undefined {
	const start = toMinutes(hours.start);
	const end = toMinutes(hours.end);
	if (start === end) return undefined;
	const { minute, past } = localMinute(at, zone);
	if (!inside(minute, start, end)) return undefined;
	let until = at - past + ((end - minute + 1440) % 1440) * 60_000;
	// Across a daylight-saving change the local clock jumps: correct by what it reads then.
	for (let i = 0; i < 2; i++) {
		const reads = localMinute(until, zone).minute;
		if (reads === end) break;
		const drift = ((reads - end + 720 + 1440) % 1440) - 720;
		until -= drift * 60_000;
	}
	return Math.max(until, at);
}

interface Wanted {
	key: string;
	resolve(doc: RecipientScheduleDoc | null): void;
	reject(err: unknown): void;
}

type ScheduleKey = "email" | "id";

/** The most keys one query asks for (SQLite binds each as a variable). */
const MAX_KEYS_PER_READ = 500;

/**
 * Every accept reads its recipient's schedule. On SQLite each read on the main thread's
 * connection begins a read transaction on a WAL the store thread keeps committing to,
 * and finds its page cache stale: 40 to 50 us a read under a full mixed load, 9 % of
 * the main thread's busy time (docs/benchmarks.md, sixth pass). So the reads of one turn of the
 * event loop go to the store as one query per key, `$in` the keys asked for; each
 * caller gets what a findOne of its own would have found (the first match).
 */
const readers = new WeakMap<Store, Record<ScheduleKey, (w: Wanted) => void>>();

async function readMany(store: Store, key: ScheduleKey, wanted: Wanted[]): Promise<void> {
	try {
		const keys = [...new Set(wanted.map(w => w.key))];
		const docs = await store.collection<RecipientScheduleDoc>(RECIPIENT_SCHEDULES).find({ [key]: { $in: keys } });
		const found = new Map<string, RecipientScheduleDoc>();
		for (const d of docs) {
			const k = d[key];
			if (k !== undefined && !found.has(k)) found.set(k, d);
		}
		for (const w of wanted) w.resolve(found.get(w.key) ?? null);
	} catch (err) {
		for (const w of wanted) w.reject(err);
	}
}

function scheduleBy(store: Store, key: ScheduleKey, value: string): Promise<RecipientScheduleDoc | null> {
	let r = readers.get(store);
	if (!r) {
		const reader = (k: ScheduleKey) =>
			perTurn<Wanted>(batch => {
				for (let i = 0; i < batch.length; i += MAX_KEYS_PER_READ) void readMany(store, k, batch.slice(i, i + MAX_KEYS_PER_READ));
			});
		r = { email: reader("email"), id: reader("id") };
		readers.set(store, r);
	}
	const queue = r[key];
	return new Promise((resolve, reject) => queue({ key: value, resolve, reject }));
}

/** The schedule of the actor a notification goes to: PUSH and IN_APP name the actor, EMAIL its address; SMS has none. */
export async function scheduleOf(store: Store, channel: Channel | "IN_APP", to: string): Promise<RecipientScheduleDoc | null> {
	if (channel === "SMS") return null;
	return channel === "EMAIL" ? scheduleBy(store, "email", to.toLowerCase()) : scheduleBy(store, "id", to);
}

/** When a notification due at `due` to this recipient may go out: `due`, or the end of their quiet hours. */
export async function quietHoursDelay(store: Store, channel: Channel, to: string, due: number): Promise<number | undefined> {
	const s = await scheduleOf(store, channel, to);
	if (!s?.quietHours) return undefined;
	return quietUntil(due, s.timeZone ?? "UTC", s.quietHours);
}

/** The schedule part of an actor's preferences. */
export interface ScheduleView {
	timeZone?: string;
	quietHours?: QuietHours;
}

export async function readSchedule(store: Store, actorId: string): Promise<ScheduleView> {
	const s = await store.collection<RecipientScheduleDoc>(RECIPIENT_SCHEDULES).get(actorId);
	return { ...(s?.timeZone ? { timeZone: s.timeZone } : {}), ...(s?.quietHours ? { quietHours: s.quietHours } : {}) };
}

/**
 * Sets the fields given (null removes one, absent leaves it) and answers the schedule
 * now in force. The actor's address is kept beside it, lower-cased, for EMAIL recipients.
 */
export async function writeSchedule(
	store: Store,
	actor: { id: string; email?: string },
	change: { timeZone?: string | null; quietHours?: QuietHours | null },
	now = Date.now()
): Promise<ScheduleView> {
	const coll = store.collection<RecipientScheduleDoc>(RECIPIENT_SCHEDULES);
	const set: Record<string, unknown> = { updatedAt: new Date(now).toISOString() };
	const unset: string[] = [];
	if (actor.email) set.email = actor.email.toLowerCase();
	for (const key of ["timeZone", "quietHours"] as const) {
		if (change[key] === null) unset.push(key);
		else if (change[key] !== undefined) set[key] = change[key];
	}
	const changed = await coll.updateMany({ id: actor.id }, { $set: set, ...(unset.length ? { $unset: unset } : {}) });
	if (changed === 0) {
		const doc: RecipientScheduleDoc = { id: actor.id, updatedAt: set.updatedAt as string };
		if (actor.email) doc.email = actor.email.toLowerCase();
		if (change.timeZone) doc.timeZone = change.timeZone;
		if (change.quietHours) doc.quietHours = change.quietHours;
		try {
			await coll.insert(doc);
		} catch {
			// Another write made it first: apply this one over it.
			await coll.updateMany({ id: actor.id }, { $set: set, ...(unset.length ? { $unset: unset } : {}) });
		}
	}
	return readSchedule(store, actor.id);
}
