/**
 * HTTP/1.1 over a plain socket, for requests fetch refuses to send: control
 * characters and line breaks in headers, conflicting framing, oversized heads.
 */
import net from "node:net";

export interface RawResponse {
	status: number;
	/** Header names in lower case; repeated headers keep every value. */
	headers: Map<string, string[]>;
	body: string;
}

function decodeChunked(data: Buffer): Buffer {
	const parts: Buffer[] = [];
	let at = 0;
	for (;;) {
		const lineEnd = data.indexOf("\r\n", at);
		if (lineEnd < 0) throw new Error("truncated chunked body");
		const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
		if (!Number.isFinite(size)) throw new Error("bad chunk size");
		if (size === 0) return Buffer.concat(parts);
		parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
		at = lineEnd + 2 + size + 2;
	}
}

export function parseResponse(data: Buffer): RawResponse {
	const headEnd = data.indexOf("\r\n\r\n");
	if (headEnd < 0) throw new Error(`no complete response head in ${JSON.stringify(data.toString("latin1").slice(0, 200))}`);
	const [statusLine, ...lines] = data.subarray(0, headEnd).toString("latin1").split("\r\n");
	const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
	if (!m) throw new Error(`not an HTTP status line: ${statusLine}`);
	const headers = new Map<string, string[]>();
	for (const line of lines) {
		const colon = line.indexOf(":");
		const name = line.slice(0, colon).trim().toLowerCase();
		headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
	}
	let body = data.subarray(headEnd + 4);
	if (headers.get("transfer-encoding")?.[0]?.toLowerCase() === "chunked") body = decodeChunked(body);
	else if (headers.has("content-length")) body = body.subarray(0, Number(headers.get("content-length")![0]));
	return { status: Number(m[1]), headers, body: body.toString("utf8") };
}

/** Sends `request` as it is and reads until the server closes; send "Connection: close". Fails after timeoutMs instead of hanging. */
export function rawRequest(baseUrl: string, request: string | Buffer, timeoutMs = 10000): Promise<RawResponse> {
	const u = new URL(baseUrl);
	return new Promise((resolve, reject) => {
		const socket = net.connect(Number(u.port), u.hostname);
		const chunks: Buffer[] = [];
		let failure: Error | undefined;
		socket.setTimeout(timeoutMs, () => {
			failure = new Error(`no answer within ${timeoutMs} ms`);
			socket.destroy();
		});
		socket.on("data", d => chunks.push(d));
		// A server that answers before reading everything (431, say) resets the rest of the write.
		socket.on("error", err => (failure ??= err));
		socket.on("close", () => {
			if (chunks.length === 0 || failure?.message.startsWith("no answer")) return reject(failure ?? new Error("closed without an answer"));
			try {
				resolve(parseResponse(Buffer.concat(chunks)));
			} catch (err) {
				reject(err);
			}
		});
		socket.write(request);
	});
}
