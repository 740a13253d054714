/**
 * The notification domain's public surface: everything outside this folder imports
 * from here (test/unit/structure.test.ts holds it). A notification's walk (accept,
 * claim, send, settle, provider outcomes, cancel) stays inside; services and the
 * process runtime compose it. The words it shares with the transports (channels,
 * priorities, statuses, template parts, delivery reports) are in lib/delivery.
 */
export { CHANNELS, PRIORITIES, STATUSES, type Channel, type Creator, type Priority, type Status } from "../delivery";

// Accepting, and who may send to whom.
export { NotificationIntake, type AcceptRequest, type Accepted } from "./accept";
export { creatorOf, mayAccess, mayActFor } from "./access";
export { checkRecipient, countAgainstQuota, OwnAddresses, type OwnAddress } from "./senders";
export { DispatcherWakes, isUrgent } from "./wakes";

// The record, its timeline and what is published of it.
export { priorityRank, type EventDoc, type NotificationDoc, type SendTimeRef, type TemplateDoc } from "./model";
export { checkTemplate, missingVariables, render, variablesOf } from "./render";
export { StatusPublisher, statusEventsBetween, type StatusListener, type StatusPage } from "./events";
export { EVENT_SEQ, readNotification, readTimeline, type NotificationView, type Timeline, type TimelineItem } from "./view";
export { LIST_MAX_LIMIT, listNotifications, type ListPage, type ListQuery } from "./listing";
export { cancelNotification } from "./cancel";

// Delivery: the dispatcher's loop and what providers report afterwards.
export { Dispatcher, type DispatcherDeps } from "./dispatcher";
export { recordDelivery, recordSmsReceipt, smsDeliveryReport, type DeliveryResult } from "./outcomes";

// What the notifications refer to.
export {
	canonicalLocale,
	createTemplate,
	findTemplate,
	listTemplates,
	listTemplateVersions,
	newestTemplateNamed,
	previewTemplate,
	replaceTemplate,
	restoreTemplateVersion,
	toTemplateView,
	type Preview,
	type PreviewRequest,
	type TemplateFields,
	type TemplateVersionView,
	type TemplateView
} from "./templates";
export { MAX_PART_CHARS } from "./liquid";
export { listSuppressions, removeSuppression, type SuppressionView } from "./suppressions";
export { NotificationExtensions, type RecipientLocaleResolver, type SendTimeResolver } from "./extensions";

// Figures: Prometheus gauges and counters, the administrators' overview, the dispatchers' tallies.
export { countOutcome, RATE_SAMPLE_MS, registerNotificationMetrics, sampleQueue, sampleRates } from "./metrics";
export { adminStats, depthSample, type AdminStats, type DepthSample } from "./stats";
export { queueSnapshot } from "./readings";
export { SERIES_MINUTES, Throughput, type MinuteCounts } from "./throughput";
