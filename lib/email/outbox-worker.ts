/**
 * The outbox on a thread of its own (outbox-thread.ts starts it where no store thread
 * hosts it): outbox-serve.ts's loop on the worker's parent port.
 */
import { parentPort, workerData } from "node:worker_threads";
import { serveOutbox } from "./outbox-serve";

serveOutbox(parentPort!, (workerData as { dir: string }).dir);
