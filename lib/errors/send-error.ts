/**
 * A failed send on any channel. `permanent` failures (a rejected message, an invalid
 * address or number, a gone subscription) are not retried; the others (throttling,
 * 5xx, network, paused sending, credential trouble) are. `recipientUnusable` marks the
 * permanent ones that are about the recipient rather than the message (a number that
 * does not exist or has opted out): the dispatcher suppresses it on the channel.
 */
export class SendError extends Error {
	constructor(
		readonly code: string,
		readonly permanent: boolean,
		message = code,
		readonly recipientUnusable = false
	) {
		super(message);
		this.name = "SendError";
	}
}
