/**
 * Provider failover on a frozen clock: the circuit (lib/channels/circuit.ts) over the
 * in-memory key-value store, and the failover list (lib/channels/failover.ts) over
 * stand-in providers that answer as the test says. The same list against two real SMTP
 * servers is test/integration/provider-failover.test.ts.
 */
import { mergeProviderReports, ProviderCircuits } from "../../lib/channels/circuit";
import { FailoverProvider, type NamedProvider } from "../../lib/channels/failover";
import type { ProviderHealth, SendResult } from "../../lib/delivery";
import { SendError } from "../../lib/errors/send-error";
import type { KeyValue } from "../../lib/kv";
import { MemoryKeyValue } from "../../lib/kv/memory";
import { UpstreamError } from "../../lib/errors";

const THRESHOLD = 3;
const COOLDOWN_MS = 60_000;

function clock(start = Date.parse("2026-01-01T00:00:00Z")) {
	let t = start;
	return { now: () => t, advance: (ms: number) => (t += ms) };
}

function circuits(c = clock(), kv: KeyValue = new MemoryKeyValue(c.now)) {
	return new ProviderCircuits(kv, { failureThreshold: THRESHOLD, cooldownMs: COOLDOWN_MS, probeLockMs: 20_000, cacheMs: 0, now: c.now });
}

async function stateOf(cs: ProviderCircuits, name: string): Promise<ProviderHealth> {
	return (await cs.report()).find(p => p.name === name)!;
}

type Answer = "ok" | SendError | "hang";

/** A provider that answers each send with the next of `answers` (the last one repeats), and records what it was sent. */
function stand(name: string, ...answers: Answer[]) {
	const sent: string[] = [];
	const p: NamedProvider<{ id: string }, SendResult> & { sent: string[] } = {
		name,
		sent,
		async send(message, signal) {
			const answer = answers.length > 1 ? answers.shift()! : answers[0];
			sent.push(message.id);
			if (answer === "hang") {
				return new Promise((_resolve, reject) => signal?.addEventListener("abort", () => reject(new SendError("SEND_TIMEOUT", false))));
			}
			if (answer instanceof SendError) throw answer;
			return { messageId: `${name}-${message.id}` };
		},
		close: async () => undefined
	};
	return p;
}

const unavailable = () => new SendError("SMTP_421", false);
const mailboxUnavailable = () => new SendError("SMTP_550", true);

describe("the provider circuit", () => {
	it("should stay up below the threshold and go down at it, naming the last error", async () => {
		const c = clock();
		const cs = circuits(c);
		cs.register("EMAIL", "ses");
		expect(await stateOf(cs, "ses")).toEqual({ channel: "EMAIL", name: "ses", state: "up", consecutiveFailures: 0, since: "2026-01-01T00:00:00.000Z" });

		for (let i = 1; i < THRESHOLD; i++) {
			expect(await cs.admit("EMAIL", "ses")).toBe("use");
			await cs.failed("EMAIL", "ses", `E${i}`, "use");
		}
		expect(await stateOf(cs, "ses")).toMatchObject({ state: "up", consecutiveFailures: THRESHOLD - 1, lastError: `E${THRESHOLD - 1}` });

		c.advance(5_000);
		await cs.failed("EMAIL", "ses", "SEND_TIMEOUT", "use");
		expect(await stateOf(cs, "ses")).toEqual({
			channel: "EMAIL",
			name: "ses",
			state: "down",
			consecutiveFailures: THRESHOLD,
			lastError: "SEND_TIMEOUT",
			since: "2026-01-01T00:00:05.000Z"
		});
		expect(await cs.admit("EMAIL", "ses")).toBe("skip");
	});

	it("should reset the count on a success between failures", async () => {
		const cs = circuits();
		await cs.failed("SMS", "aws", "ThrottlingException", "use");
		await cs.failed("SMS", "aws", "ThrottlingException", "use");
		await cs.succeeded("SMS", "aws", "use");
		await cs.failed("SMS", "aws", "ThrottlingException", "use");
		cs.register("SMS", "aws");
		expect(await stateOf(cs, "aws")).toMatchObject({ state: "up", consecutiveFailures: 1 });
		expect(await cs.admit("SMS", "aws")).toBe("use");
	});

	it("should skip for the cooldown, then let exactly one message probe", async () => {
		const c = clock();
		const cs = circuits(c);
		cs.register("EMAIL", "smtp");
		for (let i = 0; i < THRESHOLD; i++) await cs.failed("EMAIL", "smtp", "ECONNREFUSED", "use");
		c.advance(COOLDOWN_MS - 1);
		expect(await cs.admit("EMAIL", "smtp")).toBe("skip");
		c.advance(1);
		expect(await cs.admit("EMAIL", "smtp")).toBe("probe");
		expect(await cs.admit("EMAIL", "smtp")).toBe("skip");
		expect(await stateOf(cs, "smtp")).toMatchObject({ state: "probing", since: new Date(c.now()).toISOString(), lastError: "ECONNREFUSED" });

		c.advance(1_000);
		await cs.succeeded("EMAIL", "smtp", "probe");
		expect(await stateOf(cs, "smtp")).toMatchObject({ state: "up", consecutiveFailures: 0, since: new Date(c.now()).toISOString() });
		expect(await cs.admit("EMAIL", "smtp")).toBe("use");
	});

	it("should go down for another cooldown when the probe fails", async () => {
		const c = clock();
		const cs = circuits(c);
		cs.register("EMAIL", "smtp");
		for (let i = 0; i < THRESHOLD; i++) await cs.failed("EMAIL", "smtp", "ECONNREFUSED", "use");
		c.advance(COOLDOWN_MS);
		expect(await cs.admit("EMAIL", "smtp")).toBe("probe");
		await cs.failed("EMAIL", "smtp", "SMTP_421", "probe");
		expect(await stateOf(cs, "smtp")).toMatchObject({ state: "down", consecutiveFailures: THRESHOLD + 1, lastError: "SMTP_421", since: new Date(c.now()).toISOString() });
		c.advance(COOLDOWN_MS - 1);
		expect(await cs.admit("EMAIL", "smtp")).toBe("skip");
		c.advance(1);
		expect(await cs.admit("EMAIL", "smtp")).toBe("probe");
	});

	it("should give the probe to another message when the prober's lock lapses", async () => {
		const c = clock();
		const cs = circuits(c);
		for (let i = 0; i < THRESHOLD; i++) await cs.failed("EMAIL", "smtp", "ECONNREFUSED", "use");
		c.advance(COOLDOWN_MS);
		expect(await cs.admit("EMAIL", "smtp")).toBe("probe");
		c.advance(19_000);
		expect(await cs.admit("EMAIL", "smtp")).toBe("skip");
		c.advance(1_000);
		expect(await cs.admit("EMAIL", "smtp")).toBe("probe");
	});

	it("should share its state between nodes through one key-value store", async () => {
		const c = clock();
		const kv = new MemoryKeyValue(c.now);
		const a = circuits(c, kv);
		const b = circuits(c, kv);
		for (let i = 0; i < THRESHOLD; i++) await a.failed("EMAIL", "ses", "InternalFailure", "use");
		expect(await b.admit("EMAIL", "ses")).toBe("skip");
		c.advance(COOLDOWN_MS);
		expect(await a.admit("EMAIL", "ses")).toBe("probe");
		expect(await b.admit("EMAIL", "ses")).toBe("skip");
	});

	it("should keep its circuits on this node alone while the key-value store does not answer, and go back to it after a second", async () => {
		const c = clock();
		const shared = new MemoryKeyValue(c.now);
		let up = false;
		const calls = { failed: 0 };
		const down = () => {
			calls.failed++;
			return Promise.reject(new UpstreamError("The key-value store is unavailable.", 5));
		};
		const kv: KeyValue = {
			kind: "redis",
			setNX: (...a) => (up ? shared.setNX(...a) : down()),
			set: (...a) => (up ? shared.set(...a) : down()),
			get: k => (up ? shared.get(k) : down()),
			getDel: k => (up ? shared.getDel(k) : down()),
			del: k => (up ? shared.del(k) : down()),
			incr: (k, t) => (up ? shared.incr(k, t) : down()),
			ping: () => (up ? shared.ping() : down()),
			close: async () => undefined
		};
		const errors: unknown[] = [];
		const cs = new ProviderCircuits(kv, { failureThreshold: 2, cooldownMs: COOLDOWN_MS, probeLockMs: 1000, cacheMs: 0, now: c.now }, { onError: err => errors.push(err) });
		cs.register("EMAIL", "ses");
		await cs.failed("EMAIL", "ses", "InternalFailure", "use");
		await cs.failed("EMAIL", "ses", "InternalFailure", "use");
		// Counted in memory, with one call to the store that failed, not one per send.
		expect(calls.failed).toBe(1);
		expect(errors).toHaveLength(1);
		expect(await cs.admit("EMAIL", "ses")).toBe("skip");
		expect(await stateOf(cs, "ses")).toMatchObject({ state: "down", consecutiveFailures: 2 });

		up = true;
		c.advance(1000);
		// The shared store answers again: its state (nothing recorded) is the one that counts.
		expect(await cs.admit("EMAIL", "ses")).toBe("use");
		expect(await stateOf(cs, "ses")).toMatchObject({ state: "up", consecutiveFailures: 0 });
		expect(errors).toHaveLength(1);
	});

	it("should show the worst of several nodes' views of a provider", () => {
		const at = "2026-01-01T00:00:00.000Z";
		const up = (name: string, consecutiveFailures = 0): ProviderHealth => ({ channel: "EMAIL", name, state: "up", consecutiveFailures, since: at });
		const merged = mergeProviderReports([
			[up("ses", 1), up("smtp")],
			[up("ses", 2), { ...up("smtp", 3), state: "down", lastError: "SMTP_421" }]
		]);
		expect(merged).toEqual([up("ses", 2), { ...up("smtp", 3), state: "down", lastError: "SMTP_421" }]);
	});
});

describe("the failover list", () => {
	it("should send the same message through the next provider after a retryable failure, and name it", async () => {
		const cs = circuits();
		const first = stand("ses", unavailable());
		const second = stand("smtp", "ok");
		const list = new FailoverProvider("EMAIL", [first, second], cs, 1000);
		expect(await list.send({ id: "n1" })).toEqual({ messageId: "smtp-n1", provider: "smtp" });
		expect(first.sent).toEqual(["n1"]);
		expect(second.sent).toEqual(["n1"]);
		expect(await stateOf(cs, "ses")).toMatchObject({ state: "up", consecutiveFailures: 1, lastError: "SMTP_421" });
	});

	it("should not fail over a permanent refusal, and count it as the provider answering", async () => {
		const cs = circuits();
		const first = stand("smtp", unavailable(), mailboxUnavailable());
		const second = stand("smtp-backup", "ok");
		const list = new FailoverProvider("EMAIL", [first, second], cs, 1000);
		await list.send({ id: "n1" });
		await expect(list.send({ id: "n2" })).rejects.toMatchObject({ code: "SMTP_550", permanent: true });
		expect(second.sent).toEqual(["n1"]);
		expect(await stateOf(cs, "smtp")).toMatchObject({ state: "up", consecutiveFailures: 0 });
	});

	it("should skip a provider that is down, probe it after the cooldown, and use it again once it answers", async () => {
		const c = clock();
		const cs = circuits(c);
		const first = stand("smtp", unavailable(), unavailable(), unavailable(), "ok");
		const second = stand("smtp-backup", "ok");
		const list = new FailoverProvider("EMAIL", [first, second], cs, 1000);
		for (const id of ["n1", "n2", "n3", "n4"]) expect(await list.send({ id })).toMatchObject({ provider: "smtp-backup" });
		expect(first.sent).toEqual(["n1", "n2", "n3"]);
		expect(await stateOf(cs, "smtp")).toMatchObject({ state: "down", consecutiveFailures: 3 });

		c.advance(COOLDOWN_MS);
		expect(await list.send({ id: "n5" })).toEqual({ messageId: "smtp-n5", provider: "smtp" });
		expect(await stateOf(cs, "smtp")).toMatchObject({ state: "up", consecutiveFailures: 0 });
		expect(second.sent).toEqual(["n1", "n2", "n3", "n4"]);
	});

	it("should give each provider a timeout of its own, so one that hangs leaves time for the next", async () => {
		const cs = circuits();
		const list = new FailoverProvider("SMS", [stand("smpp", "hang"), stand("aws", "ok")], cs, 50);
		expect(await list.send({ id: "n1" })).toMatchObject({ provider: "aws" });
		expect(await stateOf(cs, "smpp")).toMatchObject({ consecutiveFailures: 1, lastError: "SEND_TIMEOUT" });
	});

	it("should throw the last retryable failure when every provider fails, for the queue to retry", async () => {
		const list = new FailoverProvider("EMAIL", [stand("ses", new SendError("InternalFailure", false)), stand("smtp", unavailable())], circuits(), 1000);
		await expect(list.send({ id: "n1" })).rejects.toMatchObject({ code: "SMTP_421", permanent: false });
	});

	it("should still try the first provider when every circuit is open", async () => {
		const cs = circuits();
		for (const name of ["ses", "smtp"]) for (let i = 0; i < THRESHOLD; i++) await cs.failed("EMAIL", name, "E", "use");
		const first = stand("ses", "ok");
		const list = new FailoverProvider("EMAIL", [first, stand("smtp", "ok")], cs, 1000);
		expect(await list.send({ id: "n1" })).toMatchObject({ provider: "ses" });
		expect(await stateOf(cs, "ses")).toMatchObject({ state: "up", consecutiveFailures: 0 });
	});

	it("should stop at the dispatcher's abort and at a storage fault without trying the next provider", async () => {
		const abort = new AbortController();
		abort.abort();
		const second = stand("smtp", "ok");
		const aborted = new FailoverProvider("EMAIL", [stand("ses", new SendError("AbortError", false)), second], circuits(), 1000);
		await expect(aborted.send({ id: "n1" }, abort.signal)).rejects.toMatchObject({ code: "AbortError" });
		const full = new FailoverProvider("EMAIL", [stand("file", new SendError("ENOSPC", false)), second], circuits(), 1000);
		await expect(full.send({ id: "n2" })).rejects.toMatchObject({ code: "ENOSPC" });
		expect(second.sent).toEqual([]);
	});
});
