/**
 * The outbox's loop, on whichever thread hosts it (outbox-thread.ts): composes and
 * writes each message with the synchronous FileEmailProvider, one at a time, the most
 * urgent waiting one first. Composition yields to the event loop, so messages posted
 * meanwhile are queued by priority before the next one is picked, and on the store's
 * thread a commit waiting to run goes between two messages. Requests come in batches
 * (one message per turn of the sender's event loop) and replies go back the same way,
 * one message per turn of this one.
 */
import { PRIORITIES } from "../delivery";
import { FileEmailProvider } from "./file";
import { perTurn } from "../process/per-turn";
import type { OutboxReply, OutboxRequest } from "./outbox-thread";

/** A worker's parentPort or a MessagePort handed to a thread that hosts the outbox. */
export interface OutboxPort {
	postMessage(value: OutboxReply[]): void;
	on(event: "message", listener: (batch: OutboxRequest[]) => void): unknown;
}

export function serveOutbox(port: OutboxPort, dir: string): void {
	const provider = new FileEmailProvider(dir);
	const waiting: OutboxRequest[][] = PRIORITIES.map(() => []);
	let busy = false;
	const reply = perTurn<OutboxReply>(batch => port.postMessage(batch));

	const next = (): OutboxRequest | undefined => {
		for (const queue of waiting) if (queue.length) return queue.shift();
		return undefined;
	};

	const drain = async (): Promise<void> => {
		busy = true;
		for (let req = next(); req; req = next()) {
			try {
				reply({ id: req.id, messageId: (await provider.send(req.message)).messageId });
			} catch (err) {
				reply({ id: req.id, code: (err as { code?: string }).code ?? "WRITE_FAILED" });
			}
		}
		busy = false;
	};

	port.on("message", (batch: OutboxRequest[]) => {
		for (const req of batch) (waiting[req.rank] ?? waiting[waiting.length - 1]!).push(req);
		if (!busy) void drain();
	});
}
