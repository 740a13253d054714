/**
 * One-click unsubscribe (RFC 8058), preferences and the decision before a send:
 * the headers on every non-CRITICAL mail for the file outbox, SMTP (smtp-server) and
 * SES (aws-ses-v2-local); the exact one-click POST; a GET that changes nothing; forged
 * and tampered tokens; SUPPRESSED > UNSUBSCRIBED > send as a table; preferences, which
 * speak for an email address only once the actor has verified it (an account
 * registered with someone else's address neither lifts the owner's one-click
 * unsubscribe nor opts the address out of anything); the operators' suppression list.
 */
import fs from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { suppress } from "../../lib/notifications/suppressions";
import type { UnsubscribeDoc } from "../../lib/unsubscribe/records";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { markVerified, serviceToken } from "../helpers/senders";
import { startSesLocal } from "../helpers/ses-local";

const ADMIN = { BOOTSTRAP_ADMIN_EMAIL: "root@example.com", BOOTSTRAP_ADMIN_PASSWORD: "Root-Passw0rd" };
const PUBLIC_URL = "https://notify.example.test";
const inline = { template: { subject: "s", text: "t" } };
const LINK = /^List-Unsubscribe: <(https:\/\/notify\.example\.test\/unsubscribe\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+))>$/m;

async function login(p: Platform, username: string, password: string): Promise<string> {
	const res = await http(p.baseUrl, "POST", "/auth/login", { json: { username, password } });
	expect(res.status).toBe(200);
	return res.body.accessToken;
}

async function sendAndWait(p: Platform, token: string, json: Record<string, unknown>) {
	const res = await http(p.baseUrl, "POST", "/notifications", { token, json: { ...inline, ...json } });
	expect(res.status).toBe(201);
	const id = res.body.notificationId as string;
	let view: any;
	await waitFor(`notification ${id} to be decided`, async () => {
		view = (await http(p.baseUrl, "GET", `/notifications/${id}`, { token })).body;
		return ["SENT", "SUPPRESSED", "UNSUBSCRIBED", "FAILED"].includes(view.status);
	});
	return view;
}

/** The check the preferences service makes once at start, made now. */
function settleLegacyPreferences(p: Platform): Promise<number> {
	const preferences = p.broker.getLocalService("preferences") as unknown as { settleLegacyPreferences(): Promise<number> };
	return preferences.settleLegacyPreferences();
}

function eml(p: Platform, id: string): string {
	const dir = path.join(p.dataDir, "outbox");
	const file = fs.readdirSync(dir).find(f => f.startsWith(`${id}.`) && f.endsWith(".eml"));
	return file ? unfold(fs.readFileSync(path.join(dir, file), "utf8")) : "";
}

/** RFC 5322 unfolding: a long header may continue on lines that start with white space. */
function unfold(raw: string): string {
	return raw.replace(/\r?\n(?=[ \t])/g, "");
}

describe("one-click unsubscribe with the file outbox", () => {
	let p: Platform;
	let admin: string;

	beforeAll(async () => {
		p = await startPlatform({ ...ADMIN, PUBLIC_URL, DISPATCHER_POLL_MS: "50", LOG_LEVEL: "error" });
		admin = await login(p, ADMIN.BOOTSTRAP_ADMIN_EMAIL, ADMIN.BOOTSTRAP_ADMIN_PASSWORD);
	});
	afterAll(() => p.stop());

	it("should put the RFC 8058 headers on non-CRITICAL mail only, with the category (default by priority) on the record", async () => {
		const normal = await sendAndWait(p, admin, { to: "headers@example.com" });
		expect(normal).toMatchObject({ status: "SENT", category: "general" });
		const raw = eml(p, normal.notificationId);
		expect(raw).toMatch(LINK);
		expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
		const critical = await sendAndWait(p, admin, { to: "headers@example.com", priority: "CRITICAL" });
		expect(critical).toMatchObject({ status: "SENT", category: "security" });
		expect(eml(p, critical.notificationId)).not.toMatch(/List-Unsubscribe/);
		expect((await sendAndWait(p, admin, { to: "headers@example.com", priority: "LOW" })).category).toBe("marketing");
		expect((await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "x@example.com", category: "Not Valid", ...inline } })).status).toBe(400);
	});

	it("should unsubscribe on the exact one-click POST, from that category only, and never on a GET", async () => {
		const first = await sendAndWait(p, admin, { to: "Reader@Example.com", category: "newsletter" });
		const [, url, token] = LINK.exec(eml(p, first.notificationId))!;
		const local = url.replace(PUBLIC_URL, p.baseUrl);

		const page = await fetch(local);
		expect(page.status).toBe(200);
		expect(page.headers.get("content-type")).toMatch(/^text\/html/);
		expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
		const html = await page.text();
		expect(html).toContain(`action="/unsubscribe/${token}"`);
		expect(html).toContain('name="List-Unsubscribe" value="One-Click"');
		// The GET changed nothing: the next newsletter still goes out.
		expect((await sendAndWait(p, admin, { to: "reader@example.com", category: "newsletter" })).status).toBe("SENT");

		const post = await fetch(local, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
		expect(post.status).toBe(200);
		expect(await post.json()).toMatchObject({ unsubscribed: true, channel: "EMAIL", address: "reader@example.com", category: "newsletter" });
		// Again is fine, and an empty body is one-click too.
		expect((await fetch(local, { method: "POST" })).status).toBe(200);

		const after = await sendAndWait(p, admin, { to: "reader@example.com", category: "newsletter" });
		expect(after.status).toBe("UNSUBSCRIBED");
		expect(after.events.at(-1)).toMatchObject({ event: "UNSUBSCRIBED", detail: { reason: "one-click", category: "newsletter" } });
		expect(eml(p, after.notificationId)).toBe("");
		expect((await sendAndWait(p, admin, { to: "reader@example.com", category: "receipts" })).status).toBe("SENT");
		expect((await sendAndWait(p, admin, { to: "reader@example.com", category: "newsletter", priority: "CRITICAL" })).status).toBe("SENT");

		const wrongBody = await fetch(local, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=Maybe" });
		expect(wrongBody.status).toBe(400);
		const wrongType = await fetch(local, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
		expect(wrongType.status).toBe(415);
	});

	it("should refuse forged and tampered tokens with 400 INVALID_UNSUBSCRIBE_TOKEN", async () => {
		const sent = await sendAndWait(p, admin, { to: "tamper@example.com" });
		const [, , token] = LINK.exec(eml(p, sent.notificationId))!;
		const [body, sig] = token.split(".");
		const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
		const otherBody = Buffer.from(JSON.stringify({ ...payload, a: "victim@example.com" })).toString("base64url");
		const flipped = `${sig.slice(0, -2)}${sig.at(-2) === "A" ? "B" : "A"}${sig.at(-1)}`;
		for (const bad of [`${otherBody}.${sig}`, `${body}.${flipped}`, "not-a-token", `${body}.`, Buffer.from("x").toString("base64url") + "." + sig]) {
			for (const method of ["GET", "POST"]) {
				const res = await http(p.baseUrl, method, `/unsubscribe/${bad}`);
				expect({ bad, method, status: res.status, code: res.body?.code }).toEqual({ bad, method, status: 400, code: "INVALID_UNSUBSCRIBE_TOKEN" });
			}
		}
		expect((await sendAndWait(p, admin, { to: "victim@example.com" })).status).toBe("SENT");
	});

	it.each([
		// suppressed, unsubscribed, priority → status
		[true, true, "NORMAL", "SUPPRESSED"],
		[true, false, "CRITICAL", "SUPPRESSED"],
		[true, true, "CRITICAL", "SUPPRESSED"],
		[false, true, "NORMAL", "UNSUBSCRIBED"],
		[false, true, "LOW", "UNSUBSCRIBED"],
		[false, true, "CRITICAL", "SENT"],
		[false, false, "NORMAL", "SENT"]
	])("suppressed %s, unsubscribed %s, priority %s: %s", async (suppressed, unsubscribed, priority, expected) => {
		const address = `table-${suppressed}-${unsubscribed}-${priority}@example.com`.toLowerCase();
		const store = runtime(p).store();
		if (suppressed) await suppress(store, "EMAIL", address, "Permanent", "00000000-0000-4000-8000-000000000000");
		if (unsubscribed) {
			const sent = await sendAndWait(p, admin, { to: address, category: "table" });
			if (!suppressed) {
				const [, url] = LINK.exec(eml(p, sent.notificationId))!;
				expect((await fetch(url.replace(PUBLIC_URL, p.baseUrl), { method: "POST" })).status).toBe(200);
			} else {
				await runtime(p).store().collection<UnsubscribeDoc>("unsubscribes").insert({ id: `EMAIL:${address}:table`, channel: "EMAIL", address, category: "table", source: "one-click", createdAt: new Date().toISOString() });
			}
		}
		expect((await sendAndWait(p, admin, { to: address, category: "table", priority })).status).toBe(expected);
	});

	it("should keep an actor's preferences and apply them to its address", async () => {
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		const me = { token: reg.body.accessToken as string, id: reg.body.actorId as string };
		const email = (await http(p.baseUrl, "GET", `/actors/${me.id}`, { token: me.token })).body.email as string;
		await markVerified(p, email);
		expect((await http(p.baseUrl, "GET", `/actors/${me.id}/preferences`, { token: me.token })).body).toEqual({ items: [] });
		const put = await http(p.baseUrl, "PUT", `/actors/${me.id}/preferences`, { token: me.token, json: { items: [{ channel: "EMAIL", category: "marketing", enabled: false }, { channel: "PUSH", category: "*", enabled: false }] } });
		expect(put.status).toBe(200);
		expect(put.body.items).toEqual(expect.arrayContaining([{ channel: "EMAIL", category: "marketing", enabled: false }, { channel: "PUSH", category: "*", enabled: false }]));
		const low = await sendAndWait(p, admin, { to: email, priority: "LOW" });
		expect(low.status).toBe("UNSUBSCRIBED");
		expect(low.events.at(-1).detail).toMatchObject({ reason: "preferences", category: "marketing" });
		expect((await sendAndWait(p, admin, { to: email })).status).toBe("SENT");

		const stranger = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		const denied = await http(p.baseUrl, "PUT", `/actors/${me.id}/preferences`, { token: stranger.body.accessToken, json: { items: [] } });
		expect({ status: denied.status, code: denied.body.code }).toEqual({ status: 403, code: "FORBIDDEN" });
		const sms = await http(p.baseUrl, "PUT", `/actors/${me.id}/preferences`, { token: me.token, json: { items: [{ channel: "SMS", category: "x", enabled: false }] } });
		expect(sms.status).toBe(400);
		const bad = await http(p.baseUrl, "PUT", `/actors/${me.id}/preferences`, { token: me.token, json: { items: [{ channel: "EMAIL", category: "Bad Category", enabled: false }] } });
		expect(bad.status).toBe(400);

		// Enabling marketing again (a PUT replaces the set) sends LOW mail again.
		expect((await http(p.baseUrl, "PUT", `/actors/${me.id}/preferences`, { token: me.token, json: { items: [] } })).body).toEqual({ items: [] });
		expect((await sendAndWait(p, admin, { to: email, priority: "LOW" })).status).toBe("SENT");
	});

	describe("an account registered with someone else's address, never verified", () => {
		/** The owner of the address has no account; the attacker registers one with the address. */
		async function squatter(address: string) {
			const reg = await http(p.baseUrl, "POST", "/auth/register", { json: { ...newUser(), email: address } });
			expect(reg.status).toBe(201);
			return { token: reg.body.accessToken as string, id: reg.body.actorId as string };
		}
		const put = (a: { token: string; id: string }, items: object[]) => http(p.baseUrl, "PUT", `/actors/${a.id}/preferences`, { token: a.token, json: { items } });

		it("should not undo the owner's one-click unsubscribe, nor show it", async () => {
			const address = "owner-a@example.com";
			const first = await sendAndWait(p, admin, { to: address, priority: "LOW" });
			const [, url] = LINK.exec(eml(p, first.notificationId))!;
			expect((await fetch(url.replace(PUBLIC_URL, p.baseUrl), { method: "POST" })).status).toBe(200);
			expect((await sendAndWait(p, admin, { to: address, priority: "LOW" })).status).toBe("UNSUBSCRIBED");

			const attacker = await squatter(address);
			const enable = await put(attacker, [{ channel: "EMAIL", category: "marketing", enabled: true }]);
			expect({ status: enable.status, code: enable.body.code }).toEqual({ status: 403, code: "EMAIL_NOT_VERIFIED" });
			// A set without EMAIL items is the actor's PUSH preferences alone: the address's records stay.
			const pushOnly = await put(attacker, []);
			expect({ status: pushOnly.status, body: pushOnly.body }).toEqual({ status: 200, body: { items: [] } });
			expect((await http(p.baseUrl, "GET", `/actors/${attacker.id}/preferences`, { token: attacker.token })).body).toEqual({ items: [] });
			const store = runtime(p).store().collection<UnsubscribeDoc>("unsubscribes");
			await expect(store.get(`EMAIL:${address}:marketing`)).resolves.toMatchObject({ source: "one-click" });
			expect((await sendAndWait(p, admin, { to: address, priority: "LOW" })).status).toBe("UNSUBSCRIBED");
		});

		it("should not let it opt the address out of a service's mail, neither as itself nor through a service", async () => {
			const address = "owner-b@example.com";
			const attacker = await squatter(address);
			const everything = [{ channel: "EMAIL", category: "*", enabled: false }];
			const own = await put(attacker, everything);
			expect({ status: own.status, code: own.body.code }).toEqual({ status: 403, code: "EMAIL_NOT_VERIFIED" });
			expect(own.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
			const byService = await http(p.baseUrl, "PUT", `/actors/${attacker.id}/preferences`, { token: await serviceToken(p, "documents"), json: { items: everything } });
			expect({ status: byService.status, code: byService.body.code }).toEqual({ status: 403, code: "EMAIL_NOT_VERIFIED" });
			await expect(runtime(p).store().collection("unsubscribes").find({ address })).resolves.toEqual([]);
			for (const priority of ["NORMAL", "HIGH"]) expect((await sendAndWait(p, admin, { to: address, priority })).status).toBe("SENT");
			// PUSH preferences are the actor's own and need no address.
			expect((await put(attacker, [{ channel: "PUSH", category: "*", enabled: false }])).body).toEqual({ items: [{ channel: "PUSH", category: "*", enabled: false }] });
		});

		it("should remove, once the platform has checked, EMAIL preferences stored before verification was required", async () => {
			const squatted = "owner-c@example.com";
			const attacker = await squatter(squatted);
			const owner = await squatter("owner-d@example.com");
			await markVerified(p, "owner-d@example.com");
			const store = runtime(p).store().collection<UnsubscribeDoc>("unsubscribes");
			// As an earlier version stored them: no mark of a check.
			const legacy = (actorId: string, address: string): UnsubscribeDoc => ({ id: `EMAIL:${address}:*`, channel: "EMAIL", address, category: "*", source: "preferences", actorId, createdAt: new Date().toISOString() });
			await store.insert(legacy(attacker.id, squatted));
			await store.insert(legacy(owner.id, "owner-d@example.com"));
			expect((await sendAndWait(p, admin, { to: squatted })).status).toBe("UNSUBSCRIBED");

			await expect(settleLegacyPreferences(p)).resolves.toBe(1);
			await expect(store.get(`EMAIL:${squatted}:*`)).resolves.toBeNull();
			await expect(store.get("EMAIL:owner-d@example.com:*")).resolves.toMatchObject({ actorId: owner.id, verified: true });
			expect((await sendAndWait(p, admin, { to: squatted })).status).toBe("SENT");
			expect((await sendAndWait(p, admin, { to: "owner-d@example.com" })).status).toBe("UNSUBSCRIBED");
			await expect(settleLegacyPreferences(p)).resolves.toBe(0);
		});
	});

	it("should let administrators list and remove suppressions, and no one else", async () => {
		const store = runtime(p).store();
		await suppress(store, "EMAIL", "Bounced@Example.com", "Permanent", "00000000-0000-4000-8000-000000000000");
		const listed = await http(p.baseUrl, "GET", "/admin/suppressions?address=bounced@example.com", { token: admin });
		expect(listed.status).toBe(200);
		expect(listed.body.items).toEqual([{ channel: "EMAIL", address: "bounced@example.com", reason: "Permanent", createdAt: expect.any(String) }]);
		expect((await http(p.baseUrl, "GET", "/admin/suppressions", { token: admin })).body.items.length).toBeGreaterThan(0);
		const user = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		expect((await http(p.baseUrl, "GET", "/admin/suppressions", { token: user.body.accessToken })).status).toBe(403);
		expect((await sendAndWait(p, admin, { to: "bounced@example.com" })).status).toBe("SUPPRESSED");
		const removed = await http(p.baseUrl, "DELETE", "/admin/suppressions/EMAIL/bounced@example.com", { token: admin });
		expect(removed.status).toBe(204);
		expect((await http(p.baseUrl, "DELETE", "/admin/suppressions/EMAIL/bounced@example.com", { token: admin })).status).toBe(404);
		expect((await sendAndWait(p, admin, { to: "bounced@example.com" })).status).toBe("SENT");
	});
});

describe("the headers through SMTP and SES", () => {
	it("should carry List-Unsubscribe and List-Unsubscribe-Post over SMTP (smtp-server)", async () => {
		const raws: string[] = [];
		const server = new SMTPServer({
			authOptional: true,
			disabledCommands: ["STARTTLS"],
			onData(stream, _s, cb) {
				const chunks: Buffer[] = [];
				stream.on("data", c => chunks.push(c));
				stream.on("end", () => {
					raws.push(unfold(Buffer.concat(chunks).toString("utf8")));
					cb();
				});
			}
		});
		await new Promise<void>(r => server.listen(0, "127.0.0.1", r));
		const url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
		const p = await startPlatform({ ...ADMIN, PUBLIC_URL, EMAIL_PROVIDER: "smtp", SMTP_URL: url, DISPATCHER_POLL_MS: "50" });
		try {
			const admin = await login(p, ADMIN.BOOTSTRAP_ADMIN_EMAIL, ADMIN.BOOTSTRAP_ADMIN_PASSWORD);
			expect((await sendAndWait(p, admin, { to: "smtp@example.com" })).status).toBe("SENT");
			expect(raws).toHaveLength(1);
			expect(raws[0]).toMatch(/^List-Unsubscribe: <https:\/\/notify\.example\.test\/unsubscribe\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+>\r?$/m);
			expect(raws[0]).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
		} finally {
			await p.stop();
			await new Promise<void>(r => server.close(() => r()));
		}
	});

	it("should carry them through SES v2 SendEmail (aws-ses-v2-local keeps the request's headers)", async () => {
		const ses = await startSesLocal();
		const p = await startPlatform({ ...ADMIN, PUBLIC_URL, EMAIL_PROVIDER: "ses", AWS_SES_ENDPOINT: ses.endpoint, DISPATCHER_POLL_MS: "50" });
		try {
			const admin = await login(p, ADMIN.BOOTSTRAP_ADMIN_EMAIL, ADMIN.BOOTSTRAP_ADMIN_PASSWORD);
			expect((await sendAndWait(p, admin, { to: "ses@example.com" })).status).toBe("SENT");
			expect((await sendAndWait(p, admin, { to: "ses@example.com", priority: "CRITICAL" })).status).toBe("SENT");
			const emails = await ses.emails();
			const headers = emails.map(e => Object.fromEntries((e.headers ?? []).map(h => [h.name, h.value])));
			expect(headers[0]["List-Unsubscribe"]).toMatch(/^<https:\/\/notify\.example\.test\/unsubscribe\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+>$/);
			expect(headers[0]["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
			expect(headers[1]["List-Unsubscribe"]).toBeUndefined();
			expect(headers[1]["X-Notification-Id"]).toBeDefined();
		} finally {
			await p.stop();
			await ses.stop();
		}
	});
});

describe("unsubscribe keys", () => {
	it("keep links signed before a rotation valid, sign with the newest key after a reload, and refuse a token of no key", async () => {
		const { SqliteStore } = await import("../../lib/store/sqlite");
		const { UnsubscribeKeys, rotateUnsubscribeKey } = await import("../../lib/unsubscribe/keys");
		const { signUnsubscribe, verifyUnsubscribe } = await import("../../lib/unsubscribe/token");
		const dir = fs.mkdtempSync(path.join(require("node:os").tmpdir(), "an-unsub-"));
		const store = new SqliteStore(path.join(dir, "store.sqlite"));
		const config = { idp: { keyEncryptionKey: Buffer.alloc(32, 7) } } as never;
		try {
			const target = { channel: "EMAIL" as const, address: "a@example.com", category: "news" };
			const before = new UnsubscribeKeys(() => store, config);
			const old = await signUnsubscribe(before, target);
			await rotateUnsubscribeKey(store, config);
			const after = new UnsubscribeKeys(() => store, config);
			const fresh = await signUnsubscribe(after, target);
			expect(fresh.split(".")[0]).not.toBe(old.split(".")[0]);
			await expect(verifyUnsubscribe(after, old)).resolves.toEqual(target);
			await expect(verifyUnsubscribe(after, fresh)).resolves.toEqual(target);
			// The keys are sealed under the key-encryption key, never stored in clear.
			const stored = await store.collection("unsubscribe_keys").find({});
			expect(stored).toHaveLength(2);
			for (const doc of stored) expect(doc).not.toHaveProperty("privateJwk");
			await store.collection("unsubscribe_keys").deleteMany({});
			const empty = new UnsubscribeKeys(() => store, config);
			await expect(verifyUnsubscribe(empty, old)).resolves.toBeNull();
		} finally {
			await store.close();
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
});
