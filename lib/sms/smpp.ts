/**
 * A direct SMPP 3.4 client: one transceiver bind per node, kept alive with
 * enquire_link and rebuilt with backoff whenever the connection drops or the bind is
 * refused. Sends wait for a bind (up to their time limit); delivery receipts
 * (deliver_sm or data_sm with the receipt bit) are answered at once and reported to
 * the receipt listener. The password is used for bind_transceiver only and never
 * logged.
 */
import * as smpp from "smpp";
import type { PDU, Session } from "smpp";
import type { SmppConfig } from "../config";
import { SendError } from "../errors/send-error";
import { isDeliveryReceipt, parseReceipt, statusError, statusName, submitParams } from "./smpp-pdu";
import type { ReceiptListener, SmsMessage, SmsProvider, SmsResult } from "./types";

export interface SmppLog {
	info(message: string, data?: object): void;
	warn(message: string, data?: object): void;
}

export interface SmppOptions extends SmppConfig {
	/** How long a send waits for a bind and for its answers when no signal ends it sooner. */
	timeoutMs: number;
	enquireLinkMs?: number;
	/** Reconnect backoff: doubles from the first delay up to the last, with jitter. */
	reconnectMs?: [first: number, max: number];
	onReceipt?: ReceiptListener;
	log?: SmppLog;
}

interface Waiter {
	resolve(session: Session): void;
	reject(err: SendError): void;
}

const SMPP_3_4 = 0x34;

function textOf(value: unknown): string {
	const m = value && typeof value === "object" && "message" in value ? (value as { message: unknown }).message : value;
	return typeof m === "string" ? m : Buffer.isBuffer(m) ? m.toString("latin1") : "";
}

export class SmppSmsProvider implements SmsProvider {
	readonly kind = "smpp" as const;
	private bound: Session | null = null;
	private connecting: Session | null = null;
	private readonly waiters = new Set<Waiter>();
	/** Rejecters of the submit_sm calls awaiting an answer: a lost connection ends them. */
	private readonly inflight = new Map<(err: SendError) => void, Session>();
	private attempt = 0;
	private reconnectTimer: NodeJS.Timeout | null = null;
	private keepalive: NodeJS.Timeout | null = null;
	private closed = false;

	constructor(private readonly opts: SmppOptions) {
		this.connect();
	}

	private get peer(): string {
		return `${this.opts.host}:${this.opts.port}`;
	}

	private connect(): void {
		if (this.closed) return;
		const session = smpp.connect({ host: this.opts.host, port: this.opts.port, tls: this.opts.tls });
		this.connecting = session;
		session.on(this.opts.tls ? "secureConnect" : "connect", () =>
			session.bind_transceiver({ system_id: this.opts.systemId, password: this.opts.password, interface_version: SMPP_3_4 }, pdu => {
				if (pdu.command_status === 0) return this.onBound(session);
				this.opts.log?.warn("The SMSC refused the bind; trying again", { peer: this.peer, status: statusName(pdu.command_status) });
				session.destroy();
			})
		);
		// Also a PDU the package cannot parse, after which the session reads nothing more: start over.
		session.on("error", (err: Error) => {
			this.opts.log?.warn("SMPP connection error", { peer: this.peer, error: err.message });
			session.destroy();
		});
		session.on("close", () => this.onClosed(session));
		session.on("deliver_sm", (pdu: PDU) => this.onDeliver(session, pdu));
		session.on("data_sm", (pdu: PDU) => this.onDeliver(session, pdu));
		session.on("enquire_link", (pdu: PDU) => session.send(pdu.response()));
		session.on("unbind", (pdu: PDU) => {
			session.send(pdu.response());
			session.close();
		});
		session.on("unknown", (pdu: PDU) => session.send(pdu.response()));
	}

	private onBound(session: Session): void {
		this.connecting = null;
		if (this.closed) return session.destroy();
		this.bound = session;
		this.attempt = 0;
		this.opts.log?.info("Bound to the SMSC as a transceiver", { peer: this.peer });
		let unanswered = false;
		// An enquire_link still unanswered when the next is due means the link is dead
		// even if TCP has not noticed: drop it and bind again.
		this.keepalive = setInterval(() => {
			if (unanswered) return session.destroy();
			unanswered = true;
			session.enquire_link({}, () => (unanswered = false));
		}, this.opts.enquireLinkMs ?? 30000);
		for (const w of this.waiters) w.resolve(session);
		this.waiters.clear();
	}

	private onClosed(session: Session): void {
		if (this.connecting === session) this.connecting = null;
		if (this.bound === session) {
			this.bound = null;
			if (this.keepalive) clearInterval(this.keepalive);
			this.keepalive = null;
			this.opts.log?.warn("The SMPP bind was lost; binding again", { peer: this.peer });
		}
		// The SMSC may have taken a message whose answer was lost: the retry can duplicate it.
		for (const [reject, on] of this.inflight) if (on === session) reject(new SendError("SMPP_CONNECTION_LOST", false));
		if (this.closed) return;
		const [first, max] = this.opts.reconnectMs ?? [1000, 30000];
		const delay = Math.min(max, first * 2 ** this.attempt++);
		this.reconnectTimer = setTimeout(() => this.connect(), Math.round(delay / 2 + Math.random() * (delay / 2)));
	}

	/** Every deliver_sm is answered, receipt or not, or the SMSC sends it again and again. */
	private onDeliver(session: Session, pdu: PDU): void {
		session.send(pdu.response());
		if (!isDeliveryReceipt(Number(pdu.esm_class ?? 0))) return;
		const receipt = parseReceipt(textOf(pdu.short_message) || textOf(pdu.message_payload), {
			receiptedMessageId: typeof pdu.receipted_message_id === "string" ? pdu.receipted_message_id : undefined,
			messageState: typeof pdu.message_state === "number" ? pdu.message_state : undefined
		});
		const listener = this.opts.onReceipt;
		if (!receipt || !listener) return;
		Promise.resolve()
			.then(() => listener(receipt))
			.catch(err => this.opts.log?.warn("Handling an SMS delivery receipt failed", { providerMessageId: receipt.providerMessageId, error: (err as Error).message }));
	}

	/** Settles `work` with its value, or with the abort or the time limit, whichever comes first. */
	private guarded<T>(signal: AbortSignal | undefined, work: (resolve: (v: T) => void, reject: (e: SendError) => void) => () => void): Promise<T> {
		return new Promise<T>((resolve, reject) => {
			let cleanup: (() => void) | null = null;
			let settled = false;
			const finish = (fn: () => void) => {
				if (settled) return;
				settled = true;
				clearTimeout(timer);
				signal?.removeEventListener("abort", onAbort);
				cleanup?.();
				fn();
			};
			const onAbort = () => finish(() => reject(new SendError("SEND_ABORTED", false)));
			const timer = setTimeout(() => finish(() => reject(new SendError("SEND_TIMEOUT", false))), this.opts.timeoutMs);
			if (signal?.aborted) return onAbort();
			signal?.addEventListener("abort", onAbort, { once: true });
			const undo = work(
				v => finish(() => resolve(v)),
				e => finish(() => reject(e))
			);
			if (settled) undo();
			else cleanup = undo;
		});
	}

	private session(signal?: AbortSignal): Promise<Session> {
		if (this.closed) return Promise.reject(new SendError("SMPP_CLOSED", false));
		if (this.bound) return Promise.resolve(this.bound);
		return this.guarded<Session>(signal, (resolve, reject) => {
			const waiter: Waiter = { resolve, reject };
			this.waiters.add(waiter);
			return () => this.waiters.delete(waiter);
		});
	}

	private submit(session: Session, params: Record<string, unknown>, signal?: AbortSignal): Promise<string> {
		return this.guarded<string>(signal, (resolve, reject) => {
			this.inflight.set(reject, session);
			const written = session.submit_sm(params, pdu => (pdu.command_status === 0 ? resolve(String(pdu.message_id ?? "")) : reject(statusError(pdu.command_status))));
			if (!written) reject(new SendError("SMPP_CONNECTION_LOST", false));
			return () => this.inflight.delete(reject);
		});
	}

	/**
	 * Parts go one after another. When a later part fails, the earlier ones have gone
	 * out and the retry sends the whole text again under a new reference.
	 */
	async send(message: SmsMessage, signal?: AbortSignal): Promise<SmsResult> {
		const parts = submitParams(message);
		let messageId = "";
		for (const params of parts) messageId = await this.submit(await this.session(signal), params, signal);
		if (!messageId) throw new SendError("NO_MESSAGE_ID", false);
		return { messageId, segments: parts.length };
	}

	async close(): Promise<void> {
		this.closed = true;
		if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
		if (this.keepalive) clearInterval(this.keepalive);
		for (const w of this.waiters) w.reject(new SendError("SMPP_CLOSED", false));
		this.waiters.clear();
		this.connecting?.destroy();
		const session = this.bound;
		this.bound = null;
		if (!session) return;
		await new Promise<void>(resolve => {
			const force = setTimeout(() => session.destroy(), 2000);
			session.once("close", () => {
				clearTimeout(force);
				resolve();
			});
			if (!session.unbind({}, () => session.close())) session.destroy();
		});
	}
}
