/**
 * The pure parts of the audit and the lockout: the new-device rule's user-agent family
 * and network, the lockout counter on a real SQLite store with a frozen clock, and the
 * audit's page cursor and retention.
 */
import fs from "node:fs";
import path from "node:path";
import { LoginGuard } from "../../lib/accounts/login-guard";
import { AuditLog } from "../../lib/audit";
import { networkOf, userAgentFamily } from "../../lib/audit/sign-ins";
import { SqliteStore } from "../../lib/store/sqlite";
import { tempDir } from "../helpers/platform";

describe("the new-device rule", () => {
	it.each([
		["Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox/Linux"],
		["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "Chrome/Windows"],
		["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", "Edge/Windows"],
		["Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", "Safari/iOS"],
		["curl/8.5.0", "curl"],
		["node", "node"],
		[undefined, "unknown"]
	])("should read %s as the family %s", (ua, family) => {
		expect(userAgentFamily(ua)).toBe(family);
	});

	it.each([
		["203.0.113.7", "203.0.113.0/24"],
		["::ffff:203.0.113.200", "203.0.113.0/24"],
		["2001:db8:abcd:12::1", "2001:db8:abcd::/48"],
		["2001:db8::1", "2001:db8:0::/48"],
		[null, "unknown"]
	])("should put %s in the network %s", (ip, network) => {
		expect(networkOf(ip)).toBe(network);
	});
});

describe("the lockout counter and the audit's pages", () => {
	let dir: string;
	let store: SqliteStore;
	let now = Date.parse("2026-11-28T12:00:00Z");
	const clock = () => now;

	beforeAll(() => {
		dir = tempDir();
		store = new SqliteStore(path.join(dir, "store.sqlite"));
	});
	afterAll(async () => {
		await store.close();
		fs.rmSync(dir, { recursive: true, force: true });
	});

	it("should lock at the threshold within 15 minutes, once, until the lock ends or a reset", async () => {
		const guard = new LoginGuard(() => store, { threshold: 3, lockoutSeconds: 900 }, clock);
		const actor = "0190a0a0-0000-7000-8000-000000000001";
		expect([await guard.failed(actor), await guard.failed(actor)]).toEqual([false, false]);
		// A new window: the count starts again.
		now += 16 * 60_000;
		expect([await guard.failed(actor), await guard.failed(actor), await guard.failed(actor)]).toEqual([false, false, true]);
		expect(await guard.refusal(actor)).toBe("locked");
		// Failures during the lock extend it without locking "again".
		expect([await guard.failed(actor), await guard.failed(actor), await guard.failed(actor)]).toEqual([false, false, false]);
		now += 901_000;
		expect(await guard.refusal(actor)).toBeNull();
		await guard.blockUntilReset(actor);
		now += 86_400_000;
		expect(await guard.refusal(actor)).toBe("not-me");
		await guard.reset(actor);
		expect(await guard.refusal(actor)).toBeNull();
	});

	it("should count concurrent failures once each", async () => {
		const guard = new LoginGuard(() => store, { threshold: 10, lockoutSeconds: 900 }, clock);
		const actor = "0190a0a0-0000-7000-8000-000000000002";
		const locked = await Promise.all(Array.from({ length: 10 }, () => guard.failed(actor)));
		expect(locked.filter(Boolean)).toHaveLength(1);
	});

	it("should page newest first with a cursor and remove events past the retention", async () => {
		const audit = new AuditLog(() => store, () => undefined, clock);
		const actor = "0190a0a0-0000-7000-8000-000000000003";
		const old = now;
		for (let i = 0; i < 5; i++) {
			now = old + i;
			await audit.record("auth.signed_in", actor, { ip: "203.0.113.7" });
		}
		const first = await audit.page({ actorId: actor }, undefined, 3);
		expect(first.items.map(e => e.occurredAt)).toEqual([4, 3, 2].map(i => new Date(old + i).toISOString()));
		const second = await audit.page({ actorId: actor }, first.nextCursor, 3);
		expect(second.items).toHaveLength(2);
		expect(second.nextCursor).toBeUndefined();
		now = old + 10 * 86_400_000;
		expect(await audit.sweep(10)).toBe(0);
		// Kept exactly 10 days: each event goes the millisecond after.
		now += 1;
		expect(await audit.sweep(10)).toBe(1);
		now += 4;
		expect(await audit.sweep(10)).toBe(4);
	});
});
