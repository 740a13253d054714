/**
 * Digests, quiet hours and throttles through the platform's routes (the store
 * operations and the clock-driven cases are in notification-holds.contract.test.ts):
 * bad values are 400 VALIDATION_ERROR naming the field, quiet hours set in an actor's
 * preferences hold a notification with its sendAt shown, and a digest window closed by
 * the running dispatcher sends one mail for its members.
 */
import type { NotificationDoc } from "../../lib/notifications";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";

const ADMIN = { BOOTSTRAP_ADMIN_EMAIL: "root@example.com", BOOTSTRAP_ADMIN_PASSWORD: "Root-Passw0rd" };
const inline = { template: { subject: "Updates", text: "{{ title }}" }, variables: { title: "t" } };

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

describe("digests, quiet hours and throttles over HTTP", () => {
	let p: Platform;
	let admin: string;

	beforeAll(async () => {
		p = await startPlatform({ ...ADMIN, DISPATCHER_POLL_MS: "50", LOG_LEVEL: "error" });
		const res = await http(p.baseUrl, "POST", "/auth/login", { json: { username: ADMIN.BOOTSTRAP_ADMIN_EMAIL, password: ADMIN.BOOTSTRAP_ADMIN_PASSWORD } });
		admin = res.body.accessToken;
	});
	afterAll(() => p.stop());

	it.each([
		[{ digest: { key: "k", windowSeconds: 0 } }, "digest.windowSeconds"],
		[{ digest: { key: "k", windowSeconds: 86_401 } }, "digest.windowSeconds"],
		[{ digest: { windowSeconds: 60 } }, "digest.key"],
		[{ throttle: { key: "k", limit: 0, windowSeconds: 60 } }, "throttle.limit"],
		[{ throttle: { key: "k", limit: 1, windowSeconds: 60, extra: 1 } }, "throttle"]
	])("should answer 400 naming the field when a notification carries %j", async (bad, field) => {
		const res = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "ada@example.com", ...inline, ...bad } });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe("VALIDATION_ERROR");
		expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining([expect.stringContaining(field)]));
	});

	it("should hold a PUSH to an actor in its quiet hours until they end, with sendAt shown, and never a CRITICAL one", async () => {
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		const me = { token: reg.body.accessToken as string, id: reg.body.actorId as string };
		for (const [bad, field] of [
			[{ timeZone: "Mars/Olympus" }, "timeZone"],
			[{ quietHours: { start: "25:00", end: "07:00" } }, "quietHours.start"]
		] as const) {
			const res = await http(p.baseUrl, "PUT", `/actors/${me.id}/preferences`, { token: me.token, json: bad });
			expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: "VALIDATION_ERROR" });
			expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
		}
		// Quiet from an hour ago to an hour ahead, in UTC.
		const now = Date.now();
		const quietHours = { start: hhmm(now - 3_600_000), end: hhmm(now + 3_600_000) };
		const put = await http(p.baseUrl, "PUT", `/actors/${me.id}/preferences`, { token: me.token, json: { timeZone: "UTC", quietHours } });
		expect(put.status).toBe(200);
		expect(put.body).toEqual({ items: [], timeZone: "UTC", quietHours });
		expect((await http(p.baseUrl, "GET", `/actors/${me.id}/preferences`, { token: me.token })).body).toEqual({ items: [], timeZone: "UTC", quietHours });

		const held = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { channel: "PUSH", to: me.id, ...inline } });
		expect(held.status).toBe(201);
		const view = (await http(p.baseUrl, "GET", `/notifications/${held.body.notificationId}`, { token: admin })).body;
		expect(view.status).toBe("QUEUED");
		expect(view.sendAt.slice(11, 16)).toBe(quietHours.end);
		expect(Date.parse(view.sendAt)).toBeGreaterThan(now);
		expect(view.events[0]).toMatchObject({ event: "QUEUED", detail: { quietHours: true, sendAt: view.sendAt } });

		const critical = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { channel: "PUSH", to: me.id, priority: "CRITICAL", ...inline } });
		expect((await http(p.baseUrl, "GET", `/notifications/${critical.body.notificationId}`, { token: admin })).body).not.toHaveProperty("sendAt");

		// Removed: nothing waits any more.
		await http(p.baseUrl, "PUT", `/actors/${me.id}/preferences`, { token: me.token, json: { quietHours: null } });
		const free = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { channel: "PUSH", to: me.id, ...inline } });
		expect((await http(p.baseUrl, "GET", `/notifications/${free.body.notificationId}`, { token: admin })).body).not.toHaveProperty("sendAt");
	});

	it("should answer THROTTLED over the limit and show it on the notification", async () => {
		const throttle = { key: `t-${Date.now()}`, limit: 1, windowSeconds: 60 };
		const first = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "ada@example.com", ...inline, throttle } });
		const second = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "ada@example.com", ...inline, throttle } });
		expect([first.status, first.body.status, second.status, second.body.status]).toEqual([201, "QUEUED", 201, "THROTTLED"]);
		const view = (await http(p.baseUrl, "GET", `/notifications/${second.body.notificationId}`, { token: admin })).body;
		expect(view).toMatchObject({ status: "THROTTLED", events: [{ event: "THROTTLED", detail: { throttle } }] });
	});

	it("should send one mail for a digest window when the dispatcher closes it, its members DIGESTED", async () => {
		const digest = { key: `d-${Date.now()}`, windowSeconds: 1 };
		const members: string[] = [];
		for (const title of ["one", "two", "three"]) {
			const res = await http(p.baseUrl, "POST", "/notifications", { token: admin, json: { to: "ada@example.com", ...inline, variables: { title }, digest } });
			expect(res.status).toBe(201);
			members.push(res.body.notificationId);
		}
		let digestId = "";
		await waitFor("the members to be digested", async () => {
			const view = (await http(p.baseUrl, "GET", `/notifications/${members[0]}`, { token: admin })).body;
			digestId = view.events.find((e: { event: string }) => e.event === "DIGESTED")?.detail.digestId ?? "";
			return view.status === "DIGESTED";
		});
		for (const id of members) {
			const view = (await http(p.baseUrl, "GET", `/notifications/${id}`, { token: admin })).body;
			expect(view).toMatchObject({ status: "DIGESTED", events: [{ event: "QUEUED" }, { event: "DIGESTED", detail: { digestId } }] });
		}
		await waitFor("the digest to be sent", async () => (await http(p.baseUrl, "GET", `/notifications/${digestId}`, { token: admin })).body.status === "SENT");
		const doc = await runtime(p).store().collection<NotificationDoc>("notifications").get(digestId);
		expect(doc!.variables.events).toEqual([{ title: "one" }, { title: "two" }, { title: "three" }]);
		expect(doc!.digestOf).toEqual(members);
	});
});
