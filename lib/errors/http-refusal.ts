/**
 * Answers for requests Node's HTTP parser refuses before any route sees them:
 * control characters or bare line feeds in headers, oversized headers, conflicting
 * framing, or a request that arrives too slowly. Node would write a bare status line;
 * clients get a problem document like every other failure.
 */
import { randomUUID } from "node:crypto";
import type { Duplex } from "node:stream";
import { badRequest, ClientError } from "./index";
import { toProblem } from "./problem";

/** What Node's HTTP parser reports, as the client is told it. */
function clientErrorOf(code: string | undefined): ClientError {
	if (code === "HPE_HEADER_OVERFLOW") return new ClientError(431, "PAYLOAD_TOO_LARGE", "The request headers are too large.");
	if (code === "ERR_HTTP_REQUEST_TIMEOUT") return new ClientError(408, "REQUEST_TIMEOUT", "The request did not arrive in time.");
	return badRequest("The request is not valid HTTP.");
}

/** For the server's "clientError" event. */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
	if (err.code === "ECONNRESET" || !socket.writable) {
		socket.destroy();
		return;
	}
	const requestId = randomUUID();
	const { problem } = toProblem(clientErrorOf(err.code), requestId);
	const body = JSON.stringify(problem);
	socket.end(
		`HTTP/1.1 ${problem.status} ${problem.title}\r\n` +
			"Content-Type: application/problem+json; charset=utf-8\r\n" +
			`Content-Length: ${Buffer.byteLength(body)}\r\n` +
			"X-Content-Type-Options: nosniff\r\n" +
			"Cache-Control: no-store\r\n" +
			`X-Request-ID: ${requestId}\r\n` +
			"Connection: close\r\n\r\n" +
			body
	);
}
