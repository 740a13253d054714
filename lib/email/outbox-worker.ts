/**
 * The outbox on a thread of its own (outbox-thread.ts starts it where no store thread
 * hosts it): outbox-serve.ts's loop on the worker's parent port.
 */
import { parentPort, workerData } from "node:worker_threads";
import { niceThisThread } from "../process/thread-priority";
import { serveOutbox } from "./outbox-serve";

// No stack traces on this thread: nodemailer joins each MIME part's streams with
// pipeline(), which ends by aborting an AbortController, and each abort makes a
// DOMException that captured its stack: about a tenth of composing an email (30 to 50
// us of 360 to 430 measured). Nothing here needs a stack: a failed write answers its
// code alone (outbox-serve.ts).
Error.stackTraceLimit = 0;

const { dir, nice } = workerData as { dir: string; nice?: number };
// Below the accepting threads (OUTBOX_THREAD_NICE, outbox-thread.ts says why).
if (nice) niceThisThread(nice);
serveOutbox(parentPort!, dir);
