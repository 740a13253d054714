/**
 * What becomes of one claimed notification: SUPPRESSED without sending when the
 * recipient is on its channel's suppression list, else rendered and sent on its channel. Errors
 * are classified: permanent ones fail at once, the others are retried with
 * exponential backoff and jitter until the attempts run out.
 */
import type { ChannelSender } from "../channels";
import type { NotificationConfig } from "../config";
import { SendError } from "../email";
import type { Store } from "../store";
import { isSuppressed, suppress } from "./suppressions";
import { findTemplate, findTemplateVersion, partsFor } from "./templates";
import type { UnsubscribeTarget } from "../unsubscribe/token";
import { unsubscribedFrom } from "../unsubscribe/records";
import { defaultCategory, type Channel, type NotificationDoc } from "./model";
import { retryDelay, type NotificationQueue, type Outcome } from "./queue";
import { PartRenderError, render, type TemplateParts, type Variables } from "./render";
import type { SendRateLimiter } from "./send-rate";
import { isStorageFault } from "../errors/storage-faults";

/** Time a send needs on top of its own limit: the result still has to be recorded. */
export const LEASE_MARGIN_MS = 2000;

/** Another node holds the notification now; this one must neither send nor record. */
export class LeaseLost extends Error {}

/** The dispatcher is stopping and the notification was not handed to its provider: its lease is given back. */
export class NotStarted extends Error {}

class Timeout extends Error {}

/** Gives up waiting after `ms` and aborts the send, so a late answer cannot race a retry. */
function withTimeout<T>(p: Promise<T>, ms: number, abort: AbortController): Promise<T> {
	let timer: NodeJS.Timeout;
	return Promise.race([
		p.finally(() => clearTimeout(timer)),
		new Promise<T>((_r, reject) => (timer = setTimeout(() => {
			abort.abort();
			reject(new Timeout());
		}, ms)))
	]);
}

export interface SendDeps {
	store: Store;
	queue: NotificationQueue;
	channels: ReadonlyMap<Channel, ChannelSender>;
	/** Per channel; a channel without one is not limited. */
	limiters: ReadonlyMap<Channel, SendRateLimiter>;
	config: NotificationConfig;
	/** False once the dispatcher stops: nothing more is handed to a provider. */
	accepting(): boolean;
	/** The one-click unsubscribe URL for a non-CRITICAL email (absent: no List-Unsubscribe headers). */
	unsubscribeUrl?(target: UnsubscribeTarget): Promise<string>;
	/** Variables made for this send only and never stored (an account-lifecycle mail's link). */
	sendTimeVariables?: (n: NotificationDoc) => Promise<Variables>;
	/** The recipient actor's locale (BCP 47), for a template with translations and a notification that names none. */
	recipientLocale?: (n: NotificationDoc) => Promise<string | undefined>;
}

function failed(n: NotificationDoc, error: string, permanent: boolean, more?: Record<string, unknown>): Outcome {
	return { notification: n, status: "FAILED", event: "FAILED", detail: { attempt: n.attempts, error, permanent, ...more }, set: { lastError: error } };
}

/**
 * The parts to render: an inline template's, or the stored template's at the version
 * the notification was accepted with, in the locale asked for, else the recipient's.
 */
async function templateParts(store: Store, n: NotificationDoc, recipientLocale: SendDeps["recipientLocale"]): Promise<TemplateParts | null> {
	if (n.template) return n.template;
	if (!n.templateId) return null;
	const current = await findTemplate(store, n.templateId);
	if (!current) return null;
	const t = n.templateVersion != null && n.templateVersion !== (current.version ?? 1) ? ((await findTemplateVersion(store, n.templateId, n.templateVersion)) ?? current) : current;
	if (!t.locales || !Object.keys(t.locales).length) return partsFor(t, undefined).parts;
	return partsFor(t, n.locale ?? (await recipientLocale?.(n))).parts;
}

/**
 * Works out what becomes of one notification (sending it if due); the caller settles it.
 * Throws LeaseLost, NotStarted, or a storage fault (lib/storage-health.ts): a write of
 * this node's that the disk refused, before anything reached a provider. A file outbox
 * says so with the errno as its code: that is not the provider failing, so no attempt.
 */
export async function send({ store, queue, channels, limiters, config: cfg, accepting, unsubscribeUrl, sendTimeVariables, recipientLocale }: SendDeps, n: NotificationDoc): Promise<Outcome> {
	// The decision before sending: SUPPRESSED (bounce, complaint: every priority) > UNSUBSCRIBED (not CRITICAL) > send.
	if (await isSuppressed(store, n.channel, n.to)) {
		return { notification: n, status: "SUPPRESSED", event: "SUPPRESSED", detail: { attempt: n.attempts, reason: "suppressed" } };
	}
	const category = n.category ?? defaultCategory(n.priority);
	if (n.priority !== "CRITICAL") {
		const opted = await unsubscribedFrom(store, n.channel, n.to, category);
		if (opted) {
			return { notification: n, status: "UNSUBSCRIBED", event: "UNSUBSCRIBED", detail: { attempt: n.attempts, reason: opted.source, category: opted.category } };
		}
	}
	const template = await templateParts(store, n, recipientLocale);
	if (!template) return failed(n, "TEMPLATE_NOT_FOUND", true);
	if (!accepting()) throw new NotStarted();
	let parts: TemplateParts;
	try {
		parts = render(template, n.lifecycle && sendTimeVariables ? { ...n.variables, ...(await sendTimeVariables(n)) } : n.variables);
	} catch (err) {
		// A template over its limits, or one made invalid before Liquid: it would fail every attempt.
		if (!(err instanceof PartRenderError)) throw err;
		return failed(n, "TEMPLATE_RENDER_ERROR", true, { part: err.part, message: err.message, ...(err.line != null ? { line: err.line } : {}) });
	}

	let error: SendError;
	try {
		const sender = channels.get(n.channel);
		if (!sender) throw new SendError("CHANNEL_NOT_SUPPORTED", true);
		// With failover each provider in turn gets the send timeout.
		const sendTimeoutMs = cfg.sendTimeoutMs * (sender.providerCount ?? 1);
		const needed = sendTimeoutMs + LEASE_MARGIN_MS;
		// While it waits for its channel's rate, the lease is extended past each wait, so no other node takes it meanwhile.
		await limiters.get(n.channel)?.acquire(async ms => {
			if (!(await queue.renew(n, ms + needed))) throw new LeaseLost();
		});
		if (!accepting()) throw new NotStarted();
		// A lease shorter than a send could expire mid-send: renew it (only if still
		// ours) so no other node can take the notification while this send runs.
		if (Date.parse(n.leaseUntil!) - Date.now() < needed && !(await queue.renew(n, Math.max(cfg.leaseMs, needed)))) throw new LeaseLost();
		const abort = new AbortController();
		const link = n.channel === "EMAIL" && n.priority !== "CRITICAL" && unsubscribeUrl ? await unsubscribeUrl({ channel: n.channel, address: n.to, category }) : undefined;
		const { messageId, provider, segments, subscriptions } = await withTimeout(
			sender.send(n.id, n.to, parts, abort.signal, { priority: n.priority, ...(link ? { unsubscribeUrl: link } : {}) }),
			sendTimeoutMs,
			abort
		);
		const detail: Record<string, unknown> = { attempt: n.attempts, providerMessageId: messageId };
		if (provider) detail.provider = provider;
		if (segments !== undefined) detail.segments = segments;
		if (subscriptions) detail.subscriptions = subscriptions;
		return { notification: n, status: "SENT", event: "SENT", detail, set: { providerMessageId: messageId } };
	} catch (err) {
		if (err instanceof LeaseLost || err instanceof NotStarted || isStorageFault(err)) throw err;
		error = err instanceof SendError ? err : err instanceof Timeout ? new SendError("SEND_TIMEOUT", false) : new SendError("SEND_ERROR", false);
	}
	// A number that does not exist or opted out fails every later send too: suppressed on this channel.
	if (error.permanent && error.recipientUnusable) await suppress(store, n.channel, n.to, error.code, n.id);
	if (error.permanent || n.attempts >= cfg.maxAttempts) return failed(n, error.code, error.permanent);
	return {
		notification: n,
		status: "QUEUED",
		event: "ATTEMPT_FAILED",
		detail: { attempt: n.attempts, error: error.code },
		set: { lastError: error.code },
		retryInMs: retryDelay(n.attempts, cfg.retryBaseMs, cfg.retryMaxMs)
	};
}
