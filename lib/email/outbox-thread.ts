/**
 * The .eml outbox as the platform runs it: another thread composes each message with
 * nodemailer and creates its file with the synchronous FileEmailProvider
 * (outbox-serve.ts), so neither the MIME composition nor the file creation (250-500 us
 * of kernel time each) runs on the event loop that accepts and dispatches, and the
 * second core does that work. That thread is a worker of its own (outbox-worker.ts),
 * or with OUTBOX_THREAD=store the embedded store's (an OutboxHost:
 * lib/store/sqlite-thread.ts): a thread costs about 20 MB of resident memory (its V8
 * heap and Node's environment), but on the store's thread composition also waits while
 * a commit's fsync blocks it, which cost about a tenth of the delivery rate under a
 * full mixed load (docs/operations.md, memory). The thread writes
 * one message at a time, the most urgent first: a CRITICAL send waits behind at most the one write under way, not behind every
 * LOW write already handed over (as it did on libuv's thread pool, see
 * docs/benchmarks.md). A send resolves once its file is in place, as before.
 *
 * Its own thread runs below the others (OUTBOX_THREAD_NICE, default 10): where the
 * cores are short, the threads that accept (the event loop, the store's commits) take
 * a core from it at once when they wake, rather than waiting out its time slice. A
 * request's answer crosses both of them, so under a mixed load on two cores that wait
 * was in every accept: 1.21 to 1.26 times the accepts a second with it, and about the
 * same delivery rate, since the thread still gets what the others leave
 * (docs/benchmarks.md, issue 39). On the store's thread it shares that thread's
 * priority, which stays the default.
 *
 * If the thread dies, the sends it held fail with OUTBOX_WORKER_EXITED (retried; a file
 * may or may not be there, as after a crash) and the next send starts a new one.
 */
import path from "node:path";
import { MessageChannel, Worker, type MessagePort } from "node:worker_threads";
import { LiveSet } from "../live-set";
import { perTurn } from "../process/per-turn";
import { PRIORITIES } from "../delivery";
import { SendError, type EmailMessage, type EmailProvider, type SendResult } from "./types";

/** The outbox thread's young generation, in MB (issue 39: memory like a small service). */
export const OUTBOX_YOUNG_GENERATION_MB = 8;

/** Its old generation limit: as the store thread's (lib/store/sqlite-thread.ts), so V8 grows the heap by 1.3 times what survived, not 4. */
export const OUTBOX_OLD_GENERATION_MB = 256;

// Compiled, the worker is beside this module. Jest runs the TypeScript sources, which a
// thread cannot load: there it is the build's (`npm test` builds first).
const WORKER_FILE = __filename.endsWith(".ts") ? path.resolve(__dirname, "../../dist/lib/email/outbox-worker.js") : path.join(__dirname, "outbox-worker.js");

export interface ThreadedOutboxOptions {
	/** The outbox thread's nice value, 0 (as the others) to 19; only its own thread, never the store's. */
	nice?: number;
}

export interface OutboxRequest {
	id: number;
	/** Index in PRIORITIES: lower is more urgent. */
	rank: number;
	message: EmailMessage;
}

export type OutboxReply = { id: number; messageId: string } | { id: number; code: string };

/**
 * A thread that can run the outbox beside its own work: it serves outbox-serve.ts's loop
 * on `port`. The store's thread is one (lib/store/types.ts declares the same shape, so
 * neither module imports the other).
 */
export interface OutboxHost {
	/** `serve`: the compiled outbox-serve module the host loads (a path, so the host's code imports nothing of email). */
	hostOutbox(port: MessagePort, dir: string, serve: string): void;
}

const SERVE_FILE = WORKER_FILE.replace(/outbox-worker\.js$/, "outbox-serve.js");

/** The outbox's end of the line: its own worker, or a port to the thread hosting it. */
type Line = Worker | MessagePort;

interface Pending {
	resolve: (result: SendResult) => void;
	reject: (err: Error) => void;
}

const NORMAL_RANK = PRIORITIES.indexOf("NORMAL");

export class ThreadedFileEmailProvider implements EmailProvider {
	readonly kind = "file" as const;
	private line: Line | null = null;
	// Not a Map keyed by id: one entry per send comes and goes (lib/live-set.ts says why that matters).
	private readonly pending = new LiveSet<Pending & { id: number; line: Line }>();
	private seq = 0;

	constructor(
		readonly dir: string,
		private readonly host?: OutboxHost,
		private readonly options: ThreadedOutboxOptions = {}
	) {}

	send(message: EmailMessage): Promise<SendResult> {
		const worker = this.line ?? this.start();
		const id = ++this.seq;
		const rank = message.priority ? PRIORITIES.indexOf(message.priority) : NORMAL_RANK;
		const request: OutboxRequest = { id, rank, message };
		return new Promise<SendResult>((resolve, reject) => {
			this.pending.add({ id, resolve, reject, line: worker });
			if (this.pending.size === 1) worker.ref();
			this.post(request);
		});
	}

	/**
	 * The sends of one turn of the event loop go to the line in one message (lib/process/per-turn.ts):
	 * with one message per email that was 6 % of this thread's busy time under load. Each
	 * line has its own, so a batch for a line lost meanwhile (its sends failed with it)
	 * is dropped and never mixed with the next line's.
	 */
	private post: (request: OutboxRequest) => void = () => undefined;

	private start(): Line {
		if (this.host) {
			const { port1, port2 } = new MessageChannel();
			port1.on("message", (replies: OutboxReply[]) => this.answer(replies));
			// The host thread ended (crashed, or its store closed): its end of the channel closed with it.
			port1.on("close", () => this.lost(port1, "The thread hosting the outbox stopped"));
			port1.unref();
			this.line = port1;
			this.post = this.poster(port1);
			this.host.hostOutbox(port2, this.dir, SERVE_FILE);
			return port1;
		}
		// A small young generation: the thread composes one message at a time, and V8's default would keep tens of MB resident.
		const worker = new Worker(WORKER_FILE, { workerData: { dir: this.dir, nice: this.options.nice ?? 0 }, resourceLimits: { maxYoungGenerationSizeMb: OUTBOX_YOUNG_GENERATION_MB, maxOldGenerationSizeMb: OUTBOX_OLD_GENERATION_MB } });
		worker.unref();
		let failure: Error | null = null;
		worker.on("message", (replies: OutboxReply[]) => this.answer(replies));
		worker.on("error", err => (failure = err));
		worker.on("exit", code => this.lost(worker, `The outbox thread stopped (exit code ${code})${failure ? `: ${failure.message}` : ""}`));
		this.line = worker;
		this.post = this.poster(worker);
		return worker;
	}

	private poster(line: Line): (request: OutboxRequest) => void {
		return perTurn<OutboxRequest>(batch => {
			if (this.line === line) line.postMessage(batch);
		});
	}

	/**
	 * The sends the line held fail, retryably (a file may or may not be there, as after a
	 * crash); the next send starts another. Only that line's: a line let go by close()
	 * exits after the sends made since went to a new one.
	 */
	private lost(line: Line, why: string): void {
		if (this.line === line) this.line = null;
		const held = [...this.pending].filter(p => p.line === line);
		for (const p of held) {
			this.pending.delete(p);
			p.reject(new SendError("OUTBOX_WORKER_EXITED", false, why));
		}
	}

	private answer(replies: OutboxReply[]): void {
		for (const reply of replies) {
			const p = this.pending.take(q => q.id === reply.id);
			if (!p) continue;
			if ("messageId" in reply) p.resolve({ messageId: reply.messageId });
			else p.reject(new SendError(reply.code, false, "Could not write to the outbox"));
		}
		if (this.pending.size === 0) this.line?.unref();
	}

	/** The dispatcher closes its channels once its sends have finished; anything still held fails as if the thread had died. */
	async close(): Promise<void> {
		const line = this.line;
		this.line = null;
		if (line instanceof Worker) await line.terminate();
		else line?.close();
	}
}
