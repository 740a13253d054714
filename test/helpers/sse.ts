/**
 * A server-sent events client as a browser app would write one with fetch (an
 * EventSource cannot send an Authorization header): it reads the stream as it
 * arrives and parses it per the WHATWG event-stream format.
 */
export interface SseMessage {
	id?: string;
	event?: string;
	data: any;
}

export class SseClient {
	readonly messages: SseMessage[] = [];
	readonly comments: string[] = [];
	ended = false;
	/** True when the server ended the stream (not an abort or a cut connection). */
	endedByServer = false;
	private waiters: (() => void)[] = [];
	private done!: Promise<void>;

	private constructor(readonly status: number, readonly headers: Headers, private readonly abort: AbortController) {}

	/** Opens the stream; a refusal (not 200) is answered with its parsed problem document in `problem`. */
	static async open(baseUrl: string, path: string, token: string, lastEventId?: string): Promise<SseClient & { problem?: any }> {
		const abort = new AbortController();
		const headers: Record<string, string> = { accept: "text/event-stream", authorization: `Bearer ${token}` };
		if (lastEventId) headers["last-event-id"] = lastEventId;
		const res = await fetch(baseUrl + path, { headers, signal: abort.signal });
		const client = new SseClient(res.status, res.headers, abort) as SseClient & { problem?: any };
		if (res.status !== 200) {
			client.problem = await res.json();
			client.ended = true;
			client.done = Promise.resolve();
			return client;
		}
		client.done = client.read(res.body!);
		return client;
	}

	private async read(body: ReadableStream<Uint8Array>): Promise<void> {
		const reader = body.getReader();
		const decoder = new TextDecoder();
		let buffer = "";
		try {
			for (;;) {
				const { value, done } = await reader.read();
				if (done) {
					this.endedByServer = true;
					break;
				}
				buffer += decoder.decode(value, { stream: true });
				let end: number;
				while ((end = buffer.indexOf("\n\n")) >= 0) {
					this.parse(buffer.slice(0, end));
					buffer = buffer.slice(end + 2);
				}
				this.notify();
			}
		} catch {
			// Aborted by close(): the messages so far stay.
		}
		this.ended = true;
		this.notify();
	}

	private parse(block: string): void {
		const message: SseMessage = { data: undefined };
		const data: string[] = [];
		for (const line of block.split("\n")) {
			if (line.startsWith(":")) {
				this.comments.push(line.slice(1).trim());
				continue;
			}
			const colon = line.indexOf(":");
			const field = colon < 0 ? line : line.slice(0, colon);
			const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
			if (field === "id") message.id = value;
			else if (field === "event") message.event = value;
			else if (field === "data") data.push(value);
		}
		if (data.length) {
			message.data = JSON.parse(data.join("\n"));
			this.messages.push(message);
		}
	}

	private notify(): void {
		const w = this.waiters;
		this.waiters = [];
		for (const resolve of w) resolve();
	}

	/** Waits until check() holds for what arrived, or fails after the deadline. */
	async until(what: string, check: (c: SseClient) => boolean, timeoutMs = 20000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (!check(this)) {
			if (this.ended) throw new Error(`The stream ended before ${what}: ${JSON.stringify(this.messages.map(m => m.event))}`);
			const left = deadline - Date.now();
			if (left <= 0) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(this.messages.map(m => m.event))}`);
			await new Promise<void>(resolve => {
				const timer = setTimeout(resolve, left);
				this.waiters.push(() => {
					clearTimeout(timer);
					resolve();
				});
			});
		}
	}

	events(): string[] {
		return this.messages.map(m => m.event!);
	}

	/** Resolves once the server has ended the stream. */
	finished(): Promise<void> {
		return this.done;
	}

	async close(): Promise<void> {
		this.abort.abort();
		await this.done;
	}
}
