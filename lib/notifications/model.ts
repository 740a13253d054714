/**
 * The notification record, its statuses and priorities, its events, and the data it
 * refers to (templates, suppressions). Which status may follow which is in
 * lifecycle.ts; every write of the record is in this folder.
 */
import { CHANNELS, PRIORITIES, type Channel, type Creator, type Priority, type Status, type TemplateParts, type Variables } from "../delivery";

export { CHANNELS, PRIORITIES, STATUSES, defaultCategory, type Channel, type Creator, type Priority, type Status } from "../delivery";

/** Channels with a delivery path; any other is refused with 422. */
export const DELIVERABLE_CHANNELS: readonly Channel[] = CHANNELS;

export function priorityRank(p: Priority): number {
	return PRIORITIES.indexOf(p);
}

/** Who and why, for a message whose secret part is made at send time: never a token. */
export interface SendTimeRef {
	purpose: string;
	sub: string;
	username: string;
	email: string;
	/** A one-time code's notification: the challenge its code is minted for (lib/accounts/otp.ts). */
	challengeId?: string;
	/** The challenge's send (its sendCount) the code belongs to: a resend makes the earlier ones stale. */
	send?: number;
	/** The code's fallback on the challenge's other channel. */
	fallback?: true;
}

export interface NotificationDoc {
	id: string;
	channel: Channel;
	to: string;
	priority: Priority;
	priorityRank: number;
	/** What kind of message it is, for unsubscribes and preferences (defaultCategory when not given). */
	category?: string;
	templateId?: string;
	/** The stored template's version when the notification was accepted: the one it is rendered with. */
	templateVersion?: number;
	template?: TemplateParts;
	/** The language asked for (BCP 47); else the recipient actor's, else the template's default. */
	locale?: string;
	variables: Variables;
	metadata?: Record<string, unknown>;
	/** IN_APP: kept with the inbox message as it is (the client's own payload: a link, an id). */
	data?: Record<string, unknown>;
	/**
	 * A mail whose link is made at send time (an account-lifecycle mail,
	 * lib/accounts/lifecycle-mail.ts, through the resolver registered in extensions.ts),
	 * so no token is ever stored. Set only by the auth service.
	 */
	lifecycle?: SendTimeRef;
	status: Status;
	attempts: number;
	providerMessageId?: string;
	createdBy: Creator;
	idempotencyScope?: string;
	requestHash?: string;
	createdAt: string;
	updatedAt: string;
	/** When it may be claimed next (ISO); a schedule sets the first, retries move it forward. */
	availableAt: string;
	/** The time its creator asked it to be sent at (ISO), when scheduled. */
	sendAt?: string;
	/** Acceptance order, for FIFO within a priority. */
	seq: string;
	leaseToken?: string;
	leaseUntil?: string;
	lastError?: string;
	/** Collected into a digest: its channel, recipient and key (digest.ts). */
	digestGroup?: string;
	/** The digest that took it (the digest notification's id), once one did. */
	digestId?: string;
	/** A digest notification: the members it lists, oldest first. */
	digestOf?: string[];
	/**
	 * With tracing on, the W3C traceparent of the call that accepted it: each delivery
	 * attempt's span is its child, so the send is in the request's trace (lib/notifications/delivery-trace.ts).
	 */
	traceparent?: string;
}

export interface EventDoc {
	id: string;
	notificationId: string;
	event: string;
	occurredAt: string;
	seq: string;
	/** The notification's status once this event was recorded (events written before it was kept have none). */
	status?: Status;
	detail?: Record<string, unknown>;
	dedupeKey?: string;
}

/** A template's parts in one more language (BCP 47 key in TemplateContent.locales). */
export type LocaleParts = TemplateParts;

/** What a template says: its parts in the default locale and in others. */
export interface TemplateContent extends TemplateParts {
	name: string;
	/** The language of the top-level parts (BCP 47); the end of every locale chain. */
	defaultLocale?: string;
	locales?: Record<string, LocaleParts>;
}

export interface TemplateDoc extends TemplateContent {
	id: string;
	/** 1 when created, n+1 on every change; absent on templates made before versions (version 1). */
	version?: number;
	createdBy: Creator;
	createdAt: string;
	updatedAt: string;
}

/** One version of a template as it was written; id `templateId:version`. */
export interface TemplateVersionDoc extends TemplateContent {
	id: string;
	templateId: string;
	version: number;
	/** Who wrote this version. */
	createdBy: Creator;
	createdAt: string;
	/** The version this one restored, when it was a restore. */
	restoredFrom?: number;
}

/**
 * A recipient that must not be sent to on one channel (a permanent bounce or complaint
 * for EMAIL, an unusable number for SMS); id from suppressionId (suppressions.ts).
 */
export interface SuppressionDoc {
	id: string;
	/** The address as stored (absent on older records: the id is the mailbox). */
	address?: string;
	/** Absent on records from before channels: EMAIL. */
	channel?: Channel;
	reason: string;
	notificationId: string;
	createdAt: string;
}

let counter = 0;
/** Sortable, unique within the process, roughly ordered across processes. */
export function nextSeq(now = Date.now()): string {
	counter = (counter + 1) % 1_000_000;
	return `${now.toString().padStart(15, "0")}.${process.pid.toString().padStart(7, "0")}.${counter.toString().padStart(6, "0")}`;
}
