/**
 * A failed send on any channel. `permanent` failures (a rejected message, an invalid
 * address or number, a gone subscription) are not retried; the others (throttling,
 * 5xx, network, paused sending, credential trouble) are.
 */
export class SendError extends Error {
	constructor(
		readonly code: string,
		readonly permanent: boolean,
		message = code
	) {
		super(message);
		this.name = "SendError";
	}
}
