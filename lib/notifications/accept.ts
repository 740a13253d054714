/**
 * Accepting a notification: the request is checked, the record and its first event
 * are written together (group commit: requests of the same moment share one
 * transaction and one fsync), and only then does the caller hear back. With an
 * Idempotency-Key the same request from the same caller gets the first answer again.
 */
import { sha256, uuidv7 } from "../crypto";
import { EMAIL_ADDRESS } from "../email-address";
import { ClientError, badRequest } from "../errors";
import { parseE164 } from "../sms";
import { DuplicateKeyError, type Store } from "../store";
import { GroupCommit } from "../store/group-commit";
import { currentTraceparent } from "../tracing/scope";
import { allParts, canonicalLocale, findTemplate, partsFor, requireTemplateBody } from "./templates";
import { DIGEST_HOLD, DIGEST_MAX_WINDOW_SECONDS, digestGroup, openDigest, type DigestRequest } from "./digest";
import { quietHoursDelay } from "./quiet-hours";
import { checkThrottle, takeThrottlePlace, throttleKey, type ThrottleRequest } from "./throttle";
import { newEvent, statusEvent, type StatusPublisher } from "./events";
import { defaultCategory, DELIVERABLE_CHANNELS, nextSeq, priorityRank, type Channel, type Creator, type NotificationDoc, type Priority } from "./model";
import { isUrgent } from "./wakes";
import { checkTemplate, missingVariables, type TemplateParts, type Variables } from "./render";

export interface AcceptRequest {
	channel?: Channel;
	to: string;
	priority?: Priority;
	templateId?: string;
	template?: TemplateParts;
	variables?: Variables;
	/** BCP 47: the template's translation to use (its chain: de-AT, de, the default); else the recipient actor's locale. */
	locale?: string;
	metadata?: Record<string, unknown>;
	/** IN_APP only: kept with the inbox message (at most MAX_DATA_BYTES as JSON). */
	data?: Record<string, unknown>;
	/** ISO 8601: hold it until then (at most MAX_SCHEDULE_DAYS ahead). */
	sendAt?: string;
	/** `[a-z0-9][a-z0-9._-]{0,63}`; the priority's default when absent. */
	category?: string;
	/** Collect it with the others of its recipient, channel and key for the window into one notification (digest.ts). */
	digest?: DigestRequest;
	/** More than `limit` with the same recipient and key in the window end THROTTLED (throttle.ts). */
	throttle?: ThrottleRequest;
	/** Internal only (the create action's strict params never let it through): see NotificationDoc.lifecycle. */
	lifecycle?: NotificationDoc["lifecycle"];
}

/** How far ahead a notification may be scheduled. */
export const MAX_SCHEDULE_DAYS = 30;

/** The most an IN_APP notification's `data` may hold, as JSON: it is stored with every message and sent to every stream. */
export const MAX_DATA_BYTES = 16 * 1024;


export interface Accepted {
	notificationId: string;
	/** False when an earlier request with the same Idempotency-Key is answered again. */
	created: boolean;
	/** THROTTLED when it was over its throttle (stored, never sent); else QUEUED. */
	status: "QUEUED" | "THROTTLED";
}

export interface IntakeOptions {
	/**
	 * Told of every notification stored (not of a replay), with whether it is urgent:
	 * the process's dispatcher wakes (wakes.ts), one path for every caller that queues.
	 */
	onQueued?: (urgent: boolean) => void;
	/** Told when a record was stored without its first event (MongoDB, which has no batch transaction). */
	warn?: (message: string, fields: Record<string, unknown>) => void;
	/** The most records written in one transaction. */
	batchSize?: number;
	/** Variables filled at send time for notifications with a send-time reference (extensions.ts), so not asked of the request. */
	sendTimeVariables?: () => readonly string[];
	/** The clock (tests move it: digests, quiet hours and throttles read it). */
	now?: () => number;
}

/** Key order must not change the hash: the same body in another order is the same request. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
	if (value && typeof value === "object") {
		return `{${Object.keys(value).sort().map(k => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
	}
	return JSON.stringify(value);
}

function replay(earlier: NotificationDoc, requestHash: string): Accepted {
	if (earlier.requestHash !== requestHash) {
		throw new ClientError(422, "IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used with a different request.");
	}
	return { notificationId: earlier.id, created: false, status: earlier.status === "THROTTLED" ? "THROTTLED" : "QUEUED" };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

function badRecipient(message: string): ClientError {
	return badRequest(message, [{ field: "to", message }]);
}

/** `to` as it is stored: an email address (EMAIL), an E.164 number (SMS) or an actorId (PUSH, IN_APP). */
function recipient(to: string, channel: Channel): string {
	const t = to.trim();
	switch (channel) {
		case "SMS": {
			const number = parseE164(t);
			if (!number) throw badRecipient("The 'to' field must be one international phone number (E.164, such as +14155550100).");
			return number;
		}
		case "PUSH":
		case "IN_APP":
			if (!UUID.test(t)) throw badRecipient("The 'to' field must be an actorId.");
			return t.toLowerCase();
		default:
			// The email rule as the schema checked it before `to` depended on the channel: untrimmed.
			if (!EMAIL_ADDRESS.test(to)) throw badRecipient("The 'to' field must be one email address.");
			return t;
	}
}

/**
 * What the channel needs of the template. SMS carries the text part alone: an html part
 * would be dropped silently, so it is refused. IN_APP needs the text (the body); its
 * title, the subject, may be absent, and an html part (a template shared with EMAIL)
 * is not shown. EMAIL and PUSH need a subject (the mail's subject, the push's title):
 * missing from the request, it is the request's field (400); missing from a stored
 * template, the template does not suit the channel (422).
 */
function checkParts(channel: Channel, template: TemplateParts, inline: boolean): void {
	if (channel === "IN_APP") {
		if (template.text != null) return;
		const message = "IN_APP needs a text part (the message's body).";
		if (inline) throw badRequest(message, [{ field: "template.text", message: "is required for IN_APP" }]);
		throw new ClientError(422, "CHANNEL_NOT_SUPPORTED", `${message} This template has none.`);
	}
	if (channel === "SMS") {
		if (template.html != null) throw new ClientError(422, "CHANNEL_NOT_SUPPORTED", "SMS sends only a text part; this template has an html part.");
		if (template.text == null) throw new ClientError(422, "CHANNEL_NOT_SUPPORTED", "SMS needs a text part; this template has none.");
		return;
	}
	if (template.subject != null || (channel !== "EMAIL" && channel !== "PUSH")) return;
	const message = `${channel} needs a subject${channel === "PUSH" ? " (the title)" : ""}.`;
	if (inline) throw badRequest(message, [{ field: "template.subject", message: `is required for ${channel}` }]);
	throw new ClientError(422, "CHANNEL_NOT_SUPPORTED", `${message} This template has none.`);
}

/**
 * When a scheduled notification becomes due, as the store compares it (ISO, UTC), or
 * undefined when it is not scheduled. A time already past is due at once.
 */
export function scheduledAt(sendAt: string | undefined, now: number): string | undefined {
	if (sendAt === undefined) return undefined;
	const at = ISO_8601.test(sendAt) ? Date.parse(sendAt) : NaN;
	const field = (message: string) => badRequest(message, [{ field: "sendAt", message }]);
	if (Number.isNaN(at)) throw field("The 'sendAt' field must be an ISO 8601 date and time with a time zone, such as 2026-01-31T09:00:00Z.");
	if (at > now + MAX_SCHEDULE_DAYS * 86_400_000) throw field(`The 'sendAt' field must be at most ${MAX_SCHEDULE_DAYS} days ahead.`);
	return new Date(at).toISOString();
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The request's locale in its canonical form, or undefined; 400 when it is not a BCP 47 tag. */
function requestLocale(locale: string | undefined): string | undefined {
	if (locale === undefined) return undefined;
	const tag = canonicalLocale(locale);
	if (!tag) throw badRequest("The 'locale' field must be a BCP 47 language tag, such as de or de-AT.", [{ field: "locale", message: "must be a BCP 47 language tag" }]);
	return tag;
}

interface Checked {
	to: string;
	/** The stored template's version, to render the notification with. */
	templateVersion?: number;
}

/** A digest's key and window, as the create action's params also check them (for callers inside the process). */
function checkDigest(d: DigestRequest | undefined): void {
	if (d === undefined) return;
	const field = (name: string, message: string) => badRequest(`The 'digest.${name}' field ${message}.`, [{ field: `digest.${name}`, message }]);
	if (typeof d.key !== "string" || !KEY.test(d.key)) throw field("key", "must be 1 to 200 characters");
	if (!Number.isInteger(d.windowSeconds) || d.windowSeconds < 1 || d.windowSeconds > DIGEST_MAX_WINDOW_SECONDS) throw field("windowSeconds", `must be a whole number from 1 to ${DIGEST_MAX_WINDOW_SECONDS}`);
}

const KEY = /^[^\u0000]{1,200}$/;

/** Refuses what could never be sent, before anything is stored; answers the recipient as it is stored. */
async function check(store: Store, req: AcceptRequest, channel: Channel, sendTimeVariables: readonly string[]): Promise<Checked> {
	if (!DELIVERABLE_CHANNELS.includes(channel)) {
		throw new ClientError(422, "CHANNEL_NOT_SUPPORTED", `The ${channel} channel is not available yet.`);
	}
	const to = recipient(req.to, channel);
	if (req.data !== undefined) {
		if (channel !== "IN_APP") throw badRequest("Only IN_APP notifications carry data.", [{ field: "data", message: "is for IN_APP notifications only" }]);
		if (Buffer.byteLength(JSON.stringify(req.data)) > MAX_DATA_BYTES) {
			throw badRequest(`The 'data' field may hold at most ${MAX_DATA_BYTES} bytes as JSON.`, [{ field: "data", message: `is over ${MAX_DATA_BYTES} bytes` }]);
		}
	}
	if (!req.templateId === !req.template) {
		throw badRequest("Give exactly one of templateId and template.", [{ field: "templateId", message: "Give exactly one of templateId and template." }]);
	}
	if (req.template) {
		requireTemplateBody(req.template, "template");
		checkTemplate(req.template, "template.");
	}
	// An inline template needs no read: the common request reaches the group commit in the same turn.
	const stored = req.template ? null : await findTemplate(store, req.templateId!);
	const template = req.template ?? stored;
	if (!template) throw new ClientError(422, "TEMPLATE_NOT_FOUND", "No template has this id.");
	// Whichever translation the recipient's locale picks at send time must suit the channel.
	for (const parts of stored ? allParts(stored) : [template]) checkParts(channel, parts, req.template !== undefined);
	// The variables of the translation asked for; the recipient actor's locale is known only at send time.
	const parts = stored ? partsFor(stored, req.locale).parts : template;
	// A digest's template gets `events` when the digest is made, not from each member.
	const missing = missingVariables(parts, req.variables ?? {}).filter(
		name => !(req.lifecycle && sendTimeVariables.includes(name)) && !(req.digest && (name === "events" || name.startsWith("events.")))
	);
	if (missing.length) {
		throw new ClientError(422, "TEMPLATE_VARIABLE_MISSING", `The template needs these variables: ${missing.join(", ")}.`, {
			errors: missing.map(name => ({ field: `variables.${name}`, message: "is required by the template" }))
		});
	}
	return stored ? { to, templateVersion: stored.version ?? 1 } : { to };
}

export function newNotification(req: AcceptRequest, createdBy: Creator, now = Date.now()): NotificationDoc {
	const iso = new Date(now).toISOString();
	const priority = req.priority ?? "NORMAL";
	const doc: NotificationDoc = {
		id: uuidv7(now),
		channel: req.channel ?? "EMAIL",
		to: req.to.trim(),
		priority,
		priorityRank: priorityRank(priority),
		category: req.category ?? defaultCategory(priority),
		variables: req.variables ?? {},
		status: "QUEUED",
		attempts: 0,
		createdBy,
		createdAt: iso,
		updatedAt: iso,
		availableAt: iso,
		seq: nextSeq(now)
	};
	if (req.templateId) doc.templateId = req.templateId;
	else doc.template = req.template;
	if (req.locale) doc.locale = req.locale;
	if (req.metadata) doc.metadata = req.metadata;
	if (req.data) doc.data = req.data;
	if (req.lifecycle) doc.lifecycle = req.lifecycle;
	if (req.sendAt) {
		doc.sendAt = req.sendAt;
		// Due then, or at once when that has passed; the claim takes nothing before it is due.
		if (Date.parse(req.sendAt) > now) doc.availableAt = req.sendAt;
	}
	return doc;
}

export class NotificationIntake {
	private readonly committer: GroupCommit;

	constructor(
		private readonly store: Store,
		private readonly events: StatusPublisher,
		private readonly options: IntakeOptions = {}
	) {
		// SQLite has one writer (the store thread): a second batch sent while one commits
		// would only wait in its queue, and each message costs this thread a copy and a
		// wake-up. So the writes of that time go in one message once the commit is answered
		// (+12 % accepts/s, docs/benchmarks.md). MongoDB takes batches in parallel.
		this.committer = new GroupCommit(store, { maxGroups: options.batchSize, maxInFlight: store.kind === "sqlite" ? 1 : 0 });
	}

	/** Stores the notification as QUEUED (durable when this resolves), or finds the one this key already made. */
	async accept(req: AcceptRequest, creator: Creator, idempotencyKey?: string): Promise<Accepted> {
		const clock = this.options.now ?? Date.now;
		const channel = req.channel ?? "EMAIL";
		const sendAt = scheduledAt(req.sendAt, clock());
		checkDigest(req.digest);
		checkThrottle(req.throttle);
		const locale = requestLocale(req.locale);
		const { to, templateVersion } = await check(this.store, locale === req.locale ? req : { ...req, locale }, channel, this.options.sendTimeVariables?.() ?? []);
		const coll = this.store.collection<NotificationDoc>("notifications");
		const requestHash = idempotencyKey ? sha256(canonical({ ...req, channel, priority: req.priority ?? "NORMAL", variables: req.variables ?? {} })) : undefined;
		const scope = idempotencyKey ? `${creator.kind}:${creator.id}:${idempotencyKey}` : undefined;
		if (scope) {
			const earlier = await coll.findOne({ idempotencyScope: scope });
			if (earlier) return replay(earlier, requestHash!);
		}

		const now = clock();
		const doc = newNotification({ ...req, to, sendAt, locale }, creator, now);
		if (templateVersion !== undefined) doc.templateVersion = templateVersion;
		if (scope) {
			doc.idempotencyScope = scope;
			doc.requestHash = requestHash;
		}
		const traceparent = currentTraceparent();
		if (traceparent) doc.traceparent = traceparent;
		const detail = await this.hold(doc, req, now);
		const first = newEvent(doc.id, doc.status, { now, status: doc.status, ...(Object.keys(detail).length ? { detail } : {}) });
		try {
			// The record and its first event in one group (one transaction in SQLite).
			await this.committer.submit([
				[
					{ op: "insert", collection: "notifications", doc },
					{ op: "insert", collection: "notification_events", doc: first }
				]
			]);
			this.events.publish([statusEvent(creator, first, doc.status)]);
		} catch (err) {
			if (err instanceof DuplicateKeyError && scope) {
				// Another request with the same key won the race: answer as it did.
				const winner = await coll.findOne({ idempotencyScope: scope });
				if (!winner) throw err;
				return replay(winner, requestHash!);
			}
			// On MongoDB the batch is not one transaction: if the record made it and only
			// its first event did not, the notification is accepted and will be sent, so
			// the caller must hear 201 (an error would invite a second, duplicate request).
			if (!(await coll.get(doc.id))) throw err;
			this.options.warn?.("A notification was stored without its QUEUED event", { notificationId: doc.id, error: (err as Error).message });
		}
		if (doc.digestGroup) await openDigest(this.store, doc, req.digest!, now);
		else if (doc.status === "QUEUED") this.options.onQueued?.(isUrgent(doc.priority));
		return { notificationId: doc.id, created: true, status: doc.status === "THROTTLED" ? "THROTTLED" : "QUEUED" };
	}

	/**
	 * What holds the notification back, decided before it is stored: its throttle (over
	 * it, THROTTLED and never sent), its digest (QUEUED until the digest takes it), the
	 * recipient's quiet hours (QUEUED until they end; never for CRITICAL). Answers the
	 * first event's detail.
	 */
	private async hold(doc: NotificationDoc, req: AcceptRequest, now: number): Promise<Record<string, unknown>> {
		const detail: Record<string, unknown> = {};
		if (req.throttle) {
			if (!(await takeThrottlePlace(this.store, throttleKey(doc.to, req.throttle.key), req.throttle, now))) {
				doc.status = "THROTTLED";
				detail.throttle = { ...req.throttle };
				return detail;
			}
		}
		if (req.digest) {
			doc.digestGroup = digestGroup(doc.channel, doc.to, req.digest.key);
			doc.availableAt = DIGEST_HOLD;
			detail.digest = { key: req.digest.key };
			return detail;
		}
		if (doc.priority !== "CRITICAL") {
			const due = Math.max(now, Date.parse(doc.availableAt));
			const until = await quietHoursDelay(this.store, doc.channel, doc.to, due);
			if (until !== undefined && until > due) {
				doc.availableAt = doc.sendAt = new Date(until).toISOString();
				detail.quietHours = true;
			}
		}
		if (doc.sendAt) detail.sendAt = doc.sendAt;
		return detail;
	}
}
