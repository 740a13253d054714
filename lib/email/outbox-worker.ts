/**
 * The outbox thread (outbox-thread.ts starts it): composes and writes each message with
 * the synchronous FileEmailProvider, one at a time, the most urgent waiting one first.
 * Composition yields to the event loop, so messages posted meanwhile are queued by
 * priority before the next one is picked.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PRIORITIES } from "../delivery";
import { FileEmailProvider } from "./file";
import type { OutboxReply, OutboxRequest } from "./outbox-thread";

const port = parentPort!;
const provider = new FileEmailProvider((workerData as { dir: string }).dir);
const waiting: OutboxRequest[][] = PRIORITIES.map(() => []);
let busy = false;

function next(): OutboxRequest | undefined {
	for (const queue of waiting) if (queue.length) return queue.shift();
	return undefined;
}

async function drain(): Promise<void> {
	busy = true;
	for (let req = next(); req; req = next()) {
		let reply: OutboxReply;
		try {
			reply = { id: req.id, messageId: (await provider.send(req.message)).messageId };
		} catch (err) {
			reply = { id: req.id, code: (err as { code?: string }).code ?? "WRITE_FAILED" };
		}
		port.postMessage(reply);
	}
	busy = false;
}

port.on("message", (req: OutboxRequest) => {
	(waiting[req.rank] ?? waiting[waiting.length - 1]!).push(req);
	if (!busy) void drain();
});
