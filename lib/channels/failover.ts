/**
 * One channel's providers in their order (EMAIL_PROVIDERS, SMS_PROVIDERS), behind the
 * same send as one provider. A retryable failure (timeout, connection error, 5xx,
 * throttling: a SendError that is not permanent) sends the same message, with the same
 * notification id and Message-ID, through the next provider whose circuit lets it
 * (lib/channels/circuit.ts). A permanent refusal is the message's or the recipient's
 * fault, so another provider would refuse it too: it ends the send at once. So does a
 * storage fault (the file outbox's disk, this node's own trouble) and the dispatcher's
 * abort. When every circuit is open, the first provider is tried all the same: a channel
 * is never left with none, and the queue's backoff spaces those tries out.
 *
 * With several providers each gets the send timeout of its own (the dispatcher allows
 * one per provider, see `providerCount`), so a provider that hangs leaves time for the next.
 */
import type { Channel, SendResult } from "../delivery";
import { SendError } from "../errors/send-error";
import { isStorageFault } from "../errors/storage-faults";
import type { Admission, ProviderCircuits } from "./circuit";

export interface NamedProvider<M, R extends SendResult> {
	/** Its name in the list: `ses`, `smtp`, `smtp-backup`, `file`, `aws`, `smpp`. */
	readonly name: string;
	send(message: M, signal?: AbortSignal): Promise<R>;
	close(): Promise<void>;
}

export interface FailoverListener {
	/** A provider failed in a way the next one may not: the send goes on with `next`. */
	onFailover?(info: { channel: Channel; from: string; to: string; error: string }): void;
}

type Attempt<R> = { result: R } | { error: SendError };

export class FailoverProvider<M, R extends SendResult> {
	constructor(
		private readonly channel: Channel,
		private readonly providers: readonly NamedProvider<M, R>[],
		private readonly circuits: ProviderCircuits,
		private readonly timeoutMs: number,
		private readonly listener: FailoverListener = {}
	) {
		if (providers.length === 0) throw new Error(`${channel} has no provider`);
		for (const p of providers) circuits.register(channel, p.name);
	}

	get count(): number {
		return this.providers.length;
	}

	/** The result names the provider that took the message. */
	async send(message: M, signal?: AbortSignal): Promise<R> {
		let last: SendError | null = null;
		let failed: string | null = null;
		for (const provider of this.providers) {
			const admission = await this.circuits.admit(this.channel, provider.name);
			if (admission === "skip") continue;
			if (failed && last) this.listener.onFailover?.({ channel: this.channel, from: failed, to: provider.name, error: last.code });
			const outcome = await this.attempt(provider, admission, message, signal);
			if ("result" in outcome) return outcome.result;
			last = outcome.error;
			failed = provider.name;
		}
		if (last) throw last;
		const outcome = await this.attempt(this.providers[0], "use", message, signal);
		if ("result" in outcome) return outcome.result;
		throw outcome.error;
	}

	async close(): Promise<void> {
		await Promise.all(this.providers.map(p => p.close()));
	}

	/** Returns a failure the next provider may get past; throws one it cannot. */
	private async attempt(provider: NamedProvider<M, R>, admission: Admission, message: M, signal?: AbortSignal): Promise<Attempt<R>> {
		let error: SendError;
		try {
			const result = await this.call(provider, message, signal);
			await this.circuits.succeeded(this.channel, provider.name, admission);
			return { result: { ...result, provider: provider.name } };
		} catch (err) {
			if (signal?.aborted || isStorageFault(err)) throw err;
			error = err instanceof SendError ? err : new SendError("SEND_ERROR", false, (err as Error)?.message);
		}
		if (error.permanent) {
			await this.circuits.succeeded(this.channel, provider.name, admission);
			throw error;
		}
		await this.circuits.failed(this.channel, provider.name, error.code, admission);
		return { error };
	}

	/** One provider's try, within a send timeout of its own when there are several. */
	private call(provider: NamedProvider<M, R>, message: M, signal?: AbortSignal): Promise<R> {
		if (this.providers.length === 1) return provider.send(message, signal);
		const own = new AbortController();
		let timer: NodeJS.Timeout | undefined;
		const timedOut = new Promise<never>((_resolve, reject) => {
			timer = setTimeout(() => {
				own.abort();
				reject(new SendError("SEND_TIMEOUT", false));
			}, this.timeoutMs);
		});
		const send = provider.send(message, signal ? AbortSignal.any([signal, own.signal]) : own.signal);
		// Whichever settles second is dropped: a late answer after the timeout cannot count.
		send.catch(() => undefined);
		return Promise.race([send, timedOut]).finally(() => clearTimeout(timer));
	}
}
