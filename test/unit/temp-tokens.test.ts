import { MemoryKeyValue } from "../../lib/kv/memory";
import { TemporaryTokens, type AuthIdentity } from "../../lib/social/temp-tokens";

describe("temporary tokens", () => {
	let now = Date.parse("2026-01-01T00:00:00Z");
	const kv = new MemoryKeyValue(() => now);
	const tokens = new TemporaryTokens(kv, 300);
	const identity = (): AuthIdentity => ({ sub: "s", username: "u", provider: "p", providerSubject: "ps", authenticatedAt: new Date(now).toISOString() });

	it("should give the identity to the first consumer only", async () => {
		const t = await tokens.issue(identity());
		await expect(tokens.consume(t)).resolves.toMatchObject({ sub: "s" });
		await expect(tokens.consume(t)).rejects.toMatchObject({ code: 401, type: "INVALID_TEMPORARY_TOKEN" });
	});

	it("should make a token usable again for the rest of its lifetime when restored after a failed exchange", async () => {
		const id = identity();
		const t = await tokens.issue(id);
		await tokens.consume(t);
		now += 100_000;
		await tokens.restore(t, id, now);
		await expect(tokens.consume(t)).resolves.toMatchObject({ sub: "s" });
		await tokens.restore(t, id, now);
		now += 200_001;
		await expect(tokens.consume(t)).rejects.toMatchObject({ code: 401 });
	});

	it("should not restore a token whose lifetime is over", async () => {
		const id = identity();
		const t = await tokens.issue(id);
		await tokens.consume(t);
		now += 300_000;
		await tokens.restore(t, id, now);
		await expect(tokens.consume(t)).rejects.toMatchObject({ code: 401 });
	});

	it("should refuse malformed tokens without touching the store", async () => {
		await expect(tokens.consume("short")).rejects.toMatchObject({ code: 401 });
		await expect(tokens.consume("A".repeat(5000))).rejects.toMatchObject({ code: 401 });
	});
});
