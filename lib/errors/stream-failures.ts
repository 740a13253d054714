/**
 * Remembers the first error of a call's incoming stream. The multipart parser and the
 * transporter report a broken upload by emitting 'error' on the stream and then ending
 * it normally, and an 'error' event is not repeated for late listeners: an action that
 * starts listening after an await (a token check, a lookup) would take a stream cut
 * short for a complete one. middlewares/stream.middleware.ts starts watching as soon as
 * a call arrives.
 */
import type { Stream } from "node:stream";

const failures = new WeakMap<Stream, Error>();
const watched = new WeakSet<Stream>();

export function watchStreamFailures(stream: Stream): void {
	if (watched.has(stream)) return;
	watched.add(stream);
	stream.on("error", (err: Error) => {
		if (!failures.has(stream)) failures.set(stream, err);
	});
}

/** The stream's first error, when it had one. */
export function streamFailure(stream: Stream): Error | undefined {
	return failures.get(stream);
}
