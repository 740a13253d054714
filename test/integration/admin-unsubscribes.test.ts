/**
 * The operators' unsubscribe list: GET /admin/unsubscribes?address= and
 * DELETE /admin/unsubscribes/{channel}/{address}/{category}. An unsubscribe made
 * by the one-click link is listed, removed, and the category is sent again; `*`
 * (every category, from an actor's preferences) is removed the same way.
 */
import fs from "node:fs";
import path from "node:path";
import { http, newUser, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { markVerified } from "../helpers/senders";

const ADMIN = { BOOTSTRAP_ADMIN_EMAIL: "root@example.com", BOOTSTRAP_ADMIN_PASSWORD: "Root-Passw0rd" };
const PUBLIC_URL = "https://notify.example.test";
const LINK = /^List-Unsubscribe: <https:\/\/notify\.example\.test(\/unsubscribe\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)>$/m;

describe("the operators' unsubscribe list", () => {
	let p: Platform;
	let admin: string;

	async function send(to: string, category: string) {
		const res = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to, category, template: { subject: "s", text: "t" } } });
		expect(res.status).toBe(201);
		let view: any;
		await waitFor(`notification ${res.body.notificationId} to be decided`, async () => {
			view = (await http(p.baseUrl, "GET", `/notifications/${res.body.notificationId}`, { token: admin })).body;
			return ["SENT", "SUPPRESSED", "UNSUBSCRIBED", "FAILED"].includes(view.status);
		});
		return view;
	}

	function unsubscribeLink(id: string): string {
		const dir = path.join(p.dataDir, "outbox");
		const file = fs.readdirSync(dir).find(f => f.startsWith(`${id}.`) && f.endsWith(".eml"))!;
		return LINK.exec(fs.readFileSync(path.join(dir, file), "utf8").replace(/\r?\n(?=[ \t])/g, ""))![1];
	}

	beforeAll(async () => {
		p = await startPlatform({ ...ADMIN, PUBLIC_URL, DISPATCHER_POLL_MS: "50", LOG_LEVEL: "error" });
		const res = await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.BOOTSTRAP_ADMIN_EMAIL, password: ADMIN.BOOTSTRAP_ADMIN_PASSWORD } });
		admin = res.body.accessToken;
	});
	afterAll(() => p.stop());

	it("should list a one-click unsubscribe, remove it, and send that category again", async () => {
		const first = await send("Listed@Example.com", "digest");
		expect(first.status).toBe("SENT");
		expect((await http(p.baseUrl, "POST", unsubscribeLink(first.notificationId))).status).toBe(200);
		expect((await send("listed@example.com", "digest")).status).toBe("UNSUBSCRIBED");

		// The address filter compares as the channel does (a mailbox whatever its case).
		const listed = await http(p.baseUrl, "GET", "/admin/unsubscribes?address=LISTED@example.com", { token: admin });
		expect(listed.status).toBe(200);
		expect(listed.body.items).toEqual([{ channel: "EMAIL", address: "listed@example.com", category: "digest", createdAt: expect.any(String) }]);
		const newest = await http(p.baseUrl, "GET", "/admin/unsubscribes", { token: admin });
		expect(newest.body.items).toContainEqual(listed.body.items[0]);
		expect((await http(p.baseUrl, "GET", "/admin/unsubscribes?address=nobody@example.com", { token: admin })).body.items).toEqual([]);

		expect((await http(p.baseUrl, "DELETE", "/admin/unsubscribes/EMAIL/listed@example.com/other", { token: admin })).status).toBe(404);
		const removed = await http(p.baseUrl, "DELETE", "/admin/unsubscribes/EMAIL/listed@example.com/digest", { token: admin });
		expect(removed.status).toBe(204);
		const again = await http(p.baseUrl, "DELETE", "/admin/unsubscribes/EMAIL/listed@example.com/digest", { token: admin });
		expect({ status: again.status, code: again.body?.code }).toEqual({ status: 404, code: "NOT_FOUND" });
		expect((await http(p.baseUrl, "GET", "/admin/unsubscribes?address=listed@example.com", { token: admin })).body.items).toEqual([]);
		expect((await send("listed@example.com", "digest")).status).toBe("SENT");
	});

	it("should remove an unsubscribe from every category (`*`) made by an actor's preferences", async () => {
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		const id = reg.body.actorId as string;
		const email = (await http(p.baseUrl, "GET", `/actors/${id}`, { token: reg.body.accessToken })).body.email as string;
		// EMAIL preferences speak for a verified address only.
		await markVerified(p, email);
		const put = await http(p.baseUrl, "PUT", `/actors/${id}/preferences`, { token: reg.body.accessToken, json: { items: [{ channel: "EMAIL", category: "*", enabled: false }] } });
		expect(put.status).toBe(200);
		expect((await send(email, "anything")).status).toBe("UNSUBSCRIBED");
		const listed = await http(p.baseUrl, "GET", `/admin/unsubscribes?address=${encodeURIComponent(email)}`, { token: admin });
		expect(listed.body.items).toEqual([{ channel: "EMAIL", address: email.toLowerCase(), category: "*", createdAt: expect.any(String) }]);
		expect((await http(p.baseUrl, "DELETE", `/admin/unsubscribes/EMAIL/${encodeURIComponent(email)}/*`, { token: admin })).status).toBe(204);
		expect((await http(p.baseUrl, "GET", `/actors/${id}/preferences`, { token: reg.body.accessToken })).body).toEqual({ items: [] });
		expect((await send(email, "anything")).status).toBe("SENT");
	});

	it("should refuse users with 403 and bad input with a problem document", async () => {
		const user = (await http(p.baseUrl, "POST", "/auth/register", { json: newUser() })).body.accessToken;
		expect((await http(p.baseUrl, "GET", "/admin/unsubscribes", { token: user })).status).toBe(403);
		expect((await http(p.baseUrl, "DELETE", "/admin/unsubscribes/EMAIL/a@example.com/digest", { token: user })).status).toBe(403);
		expect((await http(p.baseUrl, "GET", "/admin/unsubscribes")).status).toBe(401);
		for (const [method, url] of [
			["GET", `/admin/unsubscribes?address=${"a".repeat(255)}`],
			["DELETE", "/admin/unsubscribes/FAX/a@example.com/digest"],
			["DELETE", `/admin/unsubscribes/EMAIL/${"a".repeat(255)}/digest`],
			["DELETE", "/admin/unsubscribes/EMAIL/a@example.com/Not%20A%20Category"]
		]) {
			const res = await http(p.baseUrl, method, url, { token: admin });
			expect({ url, status: res.status, type: res.headers.get("content-type") }).toEqual({ url, status: 400, type: expect.stringMatching(/^application\/problem\+json/) });
		}
	});
});
