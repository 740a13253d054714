/**
 * Stands between an uploaded part and file storage: counts the bytes, sniffs the
 * type, and fails (so that storage removes what it wrote) when the part is too large,
 * of a refused type, empty, broken, stalled or too slow.
 *
 * The guard, not the source, is what fails. The source belongs to whoever produced it
 * (in one process: moleculer-web's multipart parser); it is only unpiped, and its owner
 * answers the request with this upload's error once storage has cleaned up.
 */
import { Transform, type Readable } from "node:stream";
import { badRequest, ClientError, isClientFacing } from "../errors";
import { streamFailure } from "../errors/stream-failures";
import { ResumeSniffer, type ResumeKind } from "./sniff";

export interface UploadLimits {
	maxBytes: number;
	/** Longest pause between two chunks. */
	idleMs: number;
	/** Longest whole upload. */
	deadlineMs: number;
}

const tooLarge = (maxBytes: number) =>
	new ClientError(413, "PAYLOAD_TOO_LARGE", `The resume is larger than ${maxBytes / (1024 * 1024)} MiB.`);
const unsupported = () =>
	new ClientError(415, "UNSUPPORTED_MEDIA_TYPE", "The resume must be a PDF, DOC, DOCX, RTF or UTF-8 text file.");
const empty = () => badRequest("The resume file is empty.", [{ field: "resume", message: "The file is empty." }]);

export class ResumeUpload {
	readonly guard: Transform;
	size = 0;
	kind: ResumeKind | null = null;
	private failure: Error | undefined;
	private started = false;
	private disposed = false;
	private idleTimer: NodeJS.Timeout | undefined;
	private readonly deadlineTimer: NodeJS.Timeout;

	/**
	 * Watches the source from the moment it is handed over: a parser can report a body
	 * cut short before anyone reads the part, and that report is not repeated later.
	 */
	constructor(private readonly source: Readable, private readonly limits: UploadLimits) {
		const sniffer = new ResumeSniffer();
		// Arrow functions: `this` is the upload, not the stream.
		this.guard = new Transform({
			transform: (chunk: Buffer, _encoding, done) => {
				this.armIdleTimer();
				this.size += chunk.length;
				if (this.size > limits.maxBytes) return done(tooLarge(limits.maxBytes));
				if (!sniffer.push(chunk)) return done(unsupported());
				done(null, chunk);
			},
			flush: done => {
				clearTimeout(this.idleTimer);
				if (this.size === 0) return done(empty());
				this.kind = sniffer.finish();
				done(this.kind ? null : unsupported());
			}
		});
		const broken = (err?: Error) => this.fail(err && isClientFacing(err) ? err : badRequest("The upload ended before the resume was complete."));
		const earlier = streamFailure(source);
		if (earlier || (source.destroyed && !source.readableEnded)) broken(earlier);
		source.on("error", broken);
		source.on("close", () => {
			if (!source.readableEnded) broken();
		});
		this.armIdleTimer();
		this.deadlineTimer = setTimeout(() => this.fail(badRequest("The upload did not finish in time.")), limits.deadlineMs);
	}

	/**
	 * Lets the bytes flow into the guard. Call it once the guard's reader is attached:
	 * before that, a failure is only recorded, as the guard's error would have no listener.
	 */
	start(): void {
		this.started = true;
		if (this.failure) this.guard.destroy(this.failure);
		else this.source.pipe(this.guard);
	}

	/** Ends the upload with `err` (the node is stopping); storage removes what it wrote. */
	cancel(err: Error): void {
		this.fail(err);
	}

	/** The upload is over, whichever way: no timer or late source event may touch it again. */
	dispose(): void {
		this.disposed = true;
		clearTimeout(this.idleTimer);
		clearTimeout(this.deadlineTimer);
	}

	private armIdleTimer(): void {
		clearTimeout(this.idleTimer);
		this.idleTimer = setTimeout(() => this.fail(badRequest("The upload stalled.")), this.limits.idleMs);
	}

	private fail(err: Error): void {
		if (this.failure || this.disposed) return;
		this.failure = err;
		clearTimeout(this.idleTimer);
		clearTimeout(this.deadlineTimer);
		if (this.started) this.guard.destroy(err);
	}
}
