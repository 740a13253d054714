/**
 * The notification record, its statuses and priorities, its events, and the data it
 * refers to (templates, suppressions). Which status may follow which is in
 * lifecycle.ts; every write of the record is in this folder.
 */
import type { TemplateParts, Variables } from "./render";

export const PRIORITIES = ["CRITICAL", "HIGH", "NORMAL", "LOW"] as const;
export type Priority = (typeof PRIORITIES)[number];
export const CHANNELS = ["EMAIL", "SMS", "PUSH"] as const;
export type Channel = (typeof CHANNELS)[number];
/** Channels with a delivery path; any other is refused with 422. */
export const DELIVERABLE_CHANNELS: readonly Channel[] = CHANNELS;

export const STATUSES = ["QUEUED", "PROCESSING", "SENT", "DELIVERED", "BOUNCED", "COMPLAINT", "FAILED", "SUPPRESSED", "UNSUBSCRIBED", "CANCELLED"] as const;
export type Status = (typeof STATUSES)[number];

export function priorityRank(p: Priority): number {
	return PRIORITIES.indexOf(p);
}

export interface Creator {
	kind: "user" | "service";
	id: string;
}

export interface NotificationDoc {
	id: string;
	channel: Channel;
	to: string;
	priority: Priority;
	priorityRank: number;
	templateId?: string;
	template?: TemplateParts;
	variables: Variables;
	metadata?: Record<string, unknown>;
	status: Status;
	attempts: number;
	providerMessageId?: string;
	createdBy: Creator;
	idempotencyScope?: string;
	requestHash?: string;
	createdAt: string;
	updatedAt: string;
	/** When it may be claimed next (ISO); retries move it forward. */
	availableAt: string;
	/** Acceptance order, for FIFO within a priority. */
	seq: string;
	leaseToken?: string;
	leaseUntil?: string;
	lastError?: string;
}

export interface EventDoc {
	id: string;
	notificationId: string;
	event: string;
	occurredAt: string;
	seq: string;
	detail?: Record<string, unknown>;
	dedupeKey?: string;
}

export interface TemplateDoc extends TemplateParts {
	id: string;
	name: string;
	createdBy: Creator;
	createdAt: string;
	updatedAt: string;
}

/** A recipient that must not be mailed (permanent bounce, complaint); id = normalized address. */
export interface SuppressionDoc {
	id: string;
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
