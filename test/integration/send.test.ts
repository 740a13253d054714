/**
 * What becomes of one claimed notification (lib/notifications/send.ts), as a decision
 * table: each row is a state of the notification, its recipient's records and the
 * provider, and the outcome send() answers (or what it throws) with what the provider
 * was handed. Over a real SQLite store, with the notification claimed from the queue
 * as a dispatcher claims it; the provider is a stub the row scripts. Nothing is settled
 * here: the dispatcher does that (dispatcher-urgent, notifications, storage-faults).
 */
import type { ChannelResult, ChannelSender, SendOptions } from "../../lib/channels";
import type { Config } from "../../lib/config";
import { SendError } from "../../lib/email";
import { newNotification, type AcceptRequest } from "../../lib/notifications/accept";
import { StatusPublisher } from "../../lib/notifications/events";
import type { Channel, TemplateParts } from "../../lib/delivery";
import type { NotificationDoc } from "../../lib/notifications/model";
import { NotificationQueue, type Outcome } from "../../lib/notifications/queue";
import { LeaseLost, NotStarted, send, type SendDeps } from "../../lib/notifications/send";
import { isSuppressed, suppress } from "../../lib/notifications/suppressions";
import { createTemplate } from "../../lib/notifications/templates";
import { createStore, type Store } from "../../lib/store";
import { recordUnsubscribe } from "../../lib/unsubscribe/records";
import { testConfig } from "../helpers/platform";

const MAX_ATTEMPTS = 3;
const RETRY_BASE_MS = 1000;
const SEND_TIMEOUT_MS = 150;
const TEMPLATE = { subject: "Hello {{ name }}", text: "Hi {{ name }}" };

interface Handed {
	id: string;
	to: string;
	parts: TemplateParts;
	options?: SendOptions;
	signal?: AbortSignal;
}

/** What the provider does with a send: answer, or fail. */
type Provider = (h: Handed) => Promise<ChannelResult>;

interface Row {
	/** The notification as accepted; EMAIL, NORMAL, an inline template unless given. */
	accept?: Partial<AcceptRequest>;
	/** The recipient's records before the claim. */
	given?: (store: Store, n: NotificationDoc) => Promise<void>;
	/** The attempt this claim makes (the claim counts it). */
	attempt?: number;
	provider?: Provider;
	/** Channels the node sends on. */
	channels?: Channel[];
	accepting?: boolean;
	/** The lease the claim takes; short ones are renewed before the send. */
	leaseMs?: number;
	/** Another node took the notification after this claim. */
	leaseTakenOver?: boolean;
	deps?: Partial<Pick<SendDeps, "unsubscribeUrl" | "sendTimeVariables">>;
}

interface Result {
	outcome?: Outcome;
	thrown?: unknown;
	handed: Handed[];
	n: NotificationDoc;
	store: Store;
}

const sent: Provider = async h => ({ messageId: `msg-${h.id}` });

function sender(channel: Channel, provider: Provider, handed: Handed[]): ChannelSender {
	return {
		channel,
		async send(id, to, parts, signal, options) {
			const h = { id, to, parts, options, signal };
			handed.push(h);
			return provider(h);
		},
		close: async () => undefined
	};
}

let config: Config;
let store: Store;
let runs = 0;

beforeAll(() => {
	config = testConfig({
		NOTIFICATION_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
		NOTIFICATION_RETRY_BASE_MS: String(RETRY_BASE_MS),
		NOTIFICATION_RETRY_MAX_MS: "60000",
		EMAIL_SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS)
	});
	store = createStore(config);
});
afterAll(() => store.close());

/** A recipient no earlier row has records for. */
function recipient(channel: Channel, k: number): string {
	return channel === "EMAIL" ? `jane+${k}@example.com` : channel === "SMS" ? `+1415555${String(k).padStart(4, "0")}` : `actor-${k}`;
}

/**
 * Accepts the row's notification and claims it as a dispatcher does (the store's only
 * QUEUED one: earlier rows' stay PROCESSING), then sends it.
 */
async function run(row: Row): Promise<Result> {
	const k = ++runs;
	const queue = new NotificationQueue(store, new StatusPublisher());
	const channel = row.accept?.channel ?? "EMAIL";
	const doc = newNotification({ to: recipient(channel, k), template: TEMPLATE, variables: { name: "Jane" }, ...row.accept }, { kind: "service", id: "test" });
	const notifications = store.collection<NotificationDoc>("notifications");
	await notifications.insert({ ...doc, attempts: (row.attempt ?? 1) - 1 });
	await row.given?.(store, doc);
	const [n] = await queue.claim(1, row.leaseMs ?? 60_000);
	expect(n).toMatchObject({ id: doc.id, attempts: row.attempt ?? 1 });
	if (row.leaseTakenOver) await notifications.updateMany({ id: n.id }, { $set: { leaseToken: "another-node" } });
	const handed: Handed[] = [];
	const channels = new Map((row.channels ?? ["EMAIL", "SMS", "PUSH"]).map(c => [c, sender(c, row.provider ?? sent, handed)] as const));
	const deps: SendDeps = { store, queue, channels, limiters: new Map(), config: config.notifications, accepting: () => row.accepting ?? true, ...row.deps };
	try {
		return { outcome: await send(deps, n), handed, n, store };
	} catch (thrown) {
		return { thrown, handed, n, store };
	}
}

describe("send(): what becomes of one claimed notification", () => {
	describe("before the provider", () => {
		it("should answer SUPPRESSED, whatever the priority, for a recipient suppressed on the channel, and hand nothing over", async () => {
			for (const priority of ["CRITICAL", "NORMAL"] as const) {
				const r = await run({ accept: { priority }, given: (store, n) => suppress(store, "EMAIL", n.to, "BOUNCED", "earlier") });
				expect(r.outcome).toEqual({ notification: r.n, status: "SUPPRESSED", event: "SUPPRESSED", detail: { attempt: 1, reason: "suppressed" } });
				expect(r.handed).toEqual([]);
			}
		});

		it("should answer SUPPRESSED before UNSUBSCRIBED when both hold", async () => {
			const r = await run({
				given: async (store, n) => {
					await suppress(store, "EMAIL", n.to, "COMPLAINT", "earlier");
					await recordUnsubscribe(store, { channel: "EMAIL", address: n.to, category: "general" }, "one-click");
				}
			});
			expect(r.outcome?.status).toBe("SUPPRESSED");
		});

		it("should not let a suppression on another channel stop this one", async () => {
			const r = await run({ accept: { channel: "SMS" }, given: (store, n) => suppress(store, "EMAIL", n.to, "BOUNCED", "earlier") });
			expect(r.outcome?.status).toBe("SENT");
		});

		it.each([
			["its own category", "general", undefined, "general"],
			["every category", "*", undefined, "*"],
			["the category it was accepted with", "billing", "billing", "billing"]
		])("should answer UNSUBSCRIBED, with the record's source and category, for a recipient unsubscribed from %s", async (_what, category, accepted, reported) => {
			const r = await run({ accept: accepted ? { category: accepted } : {}, given: (store, n) => recordUnsubscribe(store, { channel: "EMAIL", address: n.to, category }, "preferences", { actorId: "a1" }).then(() => undefined) });
			expect(r.outcome).toEqual({ notification: r.n, status: "UNSUBSCRIBED", event: "UNSUBSCRIBED", detail: { attempt: 1, reason: "preferences", category: reported } });
			expect(r.handed).toEqual([]);
		});

		it("should send when the unsubscribe is from another category, or the notification is CRITICAL", async () => {
			const other = await run({ given: (store, n) => recordUnsubscribe(store, { channel: "EMAIL", address: n.to, category: "marketing" }, "one-click").then(() => undefined) });
			expect(other.outcome?.status).toBe("SENT");
			const critical = await run({ accept: { priority: "CRITICAL" }, given: (store, n) => recordUnsubscribe(store, { channel: "EMAIL", address: n.to, category: "*" }, "one-click").then(() => undefined) });
			expect(critical.outcome?.status).toBe("SENT");
		});

		it("should fail for good, unsent, when its stored template is gone", async () => {
			const r = await run({ accept: { template: undefined, templateId: "0193e2a4-0000-7000-8000-000000000000" } });
			expect(r.outcome).toEqual({ notification: r.n, status: "FAILED", event: "FAILED", detail: { attempt: 1, error: "TEMPLATE_NOT_FOUND", permanent: true }, set: { lastError: "TEMPLATE_NOT_FOUND" } });
			expect(r.handed).toEqual([]);
		});

		it("should render a stored template with the notification's variables", async () => {
			const template = await createTemplate(store, { name: "welcome", ...TEMPLATE }, { kind: "service", id: "test" });
			const r = await run({ accept: { template: undefined, templateId: template.id } });
			expect(r.outcome?.status).toBe("SENT");
			expect(r.handed[0].parts).toEqual({ subject: "Hello Jane", text: "Hi Jane" });
		});

		it("should throw NotStarted, handing nothing over, once the dispatcher stops accepting", async () => {
			const r = await run({ accepting: false });
			expect(r.thrown).toBeInstanceOf(NotStarted);
			expect(r.handed).toEqual([]);
		});

		it("should throw LeaseLost, handing nothing over, when a short lease must be renewed and another node holds it now", async () => {
			const r = await run({ leaseMs: 500, leaseTakenOver: true });
			expect(r.thrown).toBeInstanceOf(LeaseLost);
			expect(r.handed).toEqual([]);
		});

		it("should renew a short lease of its own before the send, past the send's limit", async () => {
			const r = await run({ leaseMs: 500 });
			expect(r.outcome?.status).toBe("SENT");
			// Renewed for NOTIFICATION_LEASE_MS (it is longer than the send's limit and margin).
			expect(Date.parse(r.n.leaseUntil!) - Date.now()).toBeGreaterThan(config.notifications.leaseMs - 5000);
			const stored = await r.store.collection<NotificationDoc>("notifications").get(r.n.id);
			expect(stored?.leaseUntil).toBe(r.n.leaseUntil);
		});

		it("should fail for good a notification on a channel this node has no sender for", async () => {
			const r = await run({ accept: { channel: "SMS" }, channels: ["EMAIL"] });
			expect(r.outcome).toMatchObject({ status: "FAILED", event: "FAILED", detail: { error: "CHANNEL_NOT_SUPPORTED", permanent: true } });
		});
	});

	describe("the provider's answer", () => {
		it("should answer SENT with the provider's message id, and SMS segments and PUSH subscriptions when the channel reports them", async () => {
			const email = await run({});
			expect(email.outcome).toEqual({ notification: email.n, status: "SENT", event: "SENT", detail: { attempt: 1, providerMessageId: `msg-${email.n.id}` }, set: { providerMessageId: `msg-${email.n.id}` } });
			expect(email.handed).toEqual([expect.objectContaining({ id: email.n.id, to: email.n.to, parts: { subject: "Hello Jane", text: "Hi Jane" } })]);
			const sms = await run({ accept: { channel: "SMS", template: { text: "Hi" } }, provider: async () => ({ messageId: "s1", segments: 2 }) });
			expect(sms.outcome?.detail).toEqual({ attempt: 1, providerMessageId: "s1", segments: 2 });
			const subscriptions = [{ subscriptionId: "p1", outcome: "gone" as const, status: 410 }];
			const push = await run({ accept: { channel: "PUSH", template: { subject: "s", text: "t" } }, provider: async () => ({ messageId: "p", subscriptions }) });
			expect(push.outcome?.detail).toEqual({ attempt: 1, providerMessageId: "p", subscriptions });
		});

		it("should name in SENT the provider of a failover list that took the message", async () => {
			const r = await run({ provider: async h => ({ messageId: `msg-${h.id}`, provider: "smtp-backup" }) });
			expect(r.outcome?.detail).toEqual({ attempt: 1, providerMessageId: `msg-${r.n.id}`, provider: "smtp-backup" });
		});

		it.each<[string, Error, string]>([
			["a retryable provider error", new SendError("THROTTLED", false), "THROTTLED"],
			["any other error", new Error("socket hang up"), "SEND_ERROR"],
			// Unusable but not permanent: the number may come back; nothing is suppressed.
			["a retryable error that calls the recipient unusable", new SendError("ABSENT_SUBSCRIBER", false, "absent", true), "ABSENT_SUBSCRIBER"]
		])("should queue a retry after %s, with a backoff between half and all of the step", async (_what, error, code) => {
			for (const attempt of [1, 2]) {
				const r = await run({ attempt, provider: async () => Promise.reject(error) });
				expect(r.outcome).toMatchObject({ status: "QUEUED", event: "ATTEMPT_FAILED", detail: { attempt, error: code }, set: { lastError: code } });
				const step = RETRY_BASE_MS * 2 ** (attempt - 1);
				expect(r.outcome!.retryInMs).toBeGreaterThanOrEqual(step / 2);
				expect(r.outcome!.retryInMs).toBeLessThanOrEqual(step);
				await expect(isSuppressed(r.store, "EMAIL", r.n.to)).resolves.toBe(false);
			}
		});

		it("should fail, not for good, when a retryable error meets the last attempt", async () => {
			const r = await run({ attempt: MAX_ATTEMPTS, provider: async () => Promise.reject(new SendError("THROTTLED", false)) });
			expect(r.outcome).toEqual({ notification: r.n, status: "FAILED", event: "FAILED", detail: { attempt: MAX_ATTEMPTS, error: "THROTTLED", permanent: false }, set: { lastError: "THROTTLED" } });
		});

		it("should fail for good at once after a permanent error, suppressing nothing", async () => {
			const r = await run({ provider: async () => Promise.reject(new SendError("MessageRejected", true)) });
			expect(r.outcome).toEqual({ notification: r.n, status: "FAILED", event: "FAILED", detail: { attempt: 1, error: "MessageRejected", permanent: true }, set: { lastError: "MessageRejected" } });
			await expect(isSuppressed(r.store, "EMAIL", r.n.to)).resolves.toBe(false);
		});

		it("should fail for good and suppress the recipient on its channel after a permanent error that calls it unusable", async () => {
			const r = await run({ accept: { channel: "SMS", template: { text: "Hi" } }, provider: async () => Promise.reject(new SendError("INVALID_NUMBER", true, "no such number", true)) });
			expect(r.outcome).toMatchObject({ status: "FAILED", detail: { error: "INVALID_NUMBER", permanent: true } });
			await expect(isSuppressed(r.store, "SMS", r.n.to)).resolves.toBe(true);
			await expect(isSuppressed(r.store, "EMAIL", r.n.to)).resolves.toBe(false);
		});

		it("should give up on a provider that does not answer within the send's limit, abort it, and queue a retry", async () => {
			const r = await run({ provider: h => new Promise((_resolve, reject) => h.signal!.addEventListener("abort", () => reject(new Error("aborted")))) });
			expect(r.outcome).toMatchObject({ status: "QUEUED", event: "ATTEMPT_FAILED", detail: { error: "SEND_TIMEOUT" } });
			expect(r.handed[0].signal!.aborted).toBe(true);
		});

		it("should throw a storage fault of this node's (a full disk under a file outbox), so no attempt is counted", async () => {
			const full = Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
			const r = await run({ provider: async () => Promise.reject(full) });
			expect(r.thrown).toBe(full);
		});
	});

	describe("what the provider is handed", () => {
		const unsubscribeUrl = async (t: { channel: Channel; address: string; category: string }) => `https://example.com/u/${t.channel}/${t.address}/${t.category}`;

		it("should hand a non-CRITICAL email the one-click unsubscribe link of its category, and a CRITICAL one or an SMS none", async () => {
			const normal = await run({ accept: { category: "news" }, deps: { unsubscribeUrl } });
			expect(normal.handed[0].options).toEqual({ priority: "NORMAL", unsubscribeUrl: `https://example.com/u/EMAIL/${normal.n.to}/news` });
			const critical = await run({ accept: { priority: "CRITICAL" }, deps: { unsubscribeUrl } });
			expect(critical.handed[0].options).toEqual({ priority: "CRITICAL" });
			const sms = await run({ accept: { channel: "SMS", template: { text: "Hi" } }, deps: { unsubscribeUrl } });
			expect(sms.handed[0].options).toEqual({ priority: "NORMAL" });
			const none = await run({});
			expect(none.handed[0].options).toEqual({ priority: "NORMAL" });
		});

		it("should render a lifecycle mail with variables made at send time, which are not stored", async () => {
			const lifecycle = { purpose: "verify-email", sub: "s1", username: "u1", email: "jane+lifecycle@example.com" };
			const r = await run({
				accept: { lifecycle, template: { subject: "Verify", text: "{{ name }}: {{ link }}" } },
				deps: { sendTimeVariables: async n => ({ link: `https://example.com/verify#${n.lifecycle!.sub}` }) }
			});
			expect(r.handed[0].parts.text).toBe("Jane: https://example.com/verify#s1");
			const stored = await r.store.collection<NotificationDoc>("notifications").get(r.n.id);
			expect(JSON.stringify(stored)).not.toContain("https://example.com/verify");
			// Without the lifecycle reference, the send-time variables are not asked for.
			const plain = await run({ accept: { template: { subject: "s", text: "{{ link }}" } }, deps: { sendTimeVariables: async () => ({ link: "leaked" }) } });
			expect(plain.handed[0].parts.text).toBe("");
		});
	});
});
