/**
 * The client SDK (client/src) against the real platform in this process: sessions,
 * single-flight refresh (counted as requests that reach the gateway), two "tabs" that
 * share one storage, 401 recovery, sign-out (at the platform, then locally), the social sign-in completion's error
 * paths, and notifications. The Web Locks API does not exist in Node: the two-tab case
 * uses a small in-process lock with its request(name, callback) contract.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { ApiError, createClient, memoryStorage, type ClientOptions, type LockManagerLike, type TokenStorage } from "../../client/src/index";
import { newUser, startPlatform, type Platform } from "../helpers/platform";
import { markVerified } from "../helpers/senders";

let p: Platform;
let refreshes = 0;

/** Counts the refresh requests the client sends to the gateway. */
const countingFetch: typeof fetch = async (input, init) => {
	if (String(input).endsWith("/auth/tokens/refresh")) refreshes += 1;
	return fetch(input, init);
};

function client(extra: Partial<ClientOptions> = {}) {
	return createClient({ baseUrl: p.baseUrl, fetch: countingFetch, locks: null, ...extra });
}

/** One lock per name, granted in request order: what navigator.locks.request does for exclusive locks. */
function inProcessLocks(): LockManagerLike {
	const tails = new Map<string, Promise<unknown>>();
	return {
		request<T>(name: string, callback: () => Promise<T>): Promise<T> {
			const run = (tails.get(name) ?? Promise.resolve()).then(callback);
			tails.set(name, run.catch(() => undefined));
			return run;
		}
	};
}

beforeAll(async () => {
	p = await startPlatform();
});
afterAll(() => p.stop());
beforeEach(() => {
	refreshes = 0;
});

describe("@auth-notify/client", () => {
	it("should refresh exactly once when 5 parallel calls find the access token expired", async () => {
		let clock = Date.now() / 1000;
		const c = client({ now: () => clock });
		const user = newUser();
		const reg = await c.register(user);
		clock = reg.expiresAt + 60;
		const answers = await Promise.all(Array.from({ length: 5 }, () => c.fetch(`/actors/${reg.actorId}`)));
		expect(answers.map(r => r.status)).toEqual([200, 200, 200, 200, 200]);
		expect(refreshes).toBe(1);
	});

	it("should keep two tabs sharing one storage signed in with one refresh when both refresh at once", async () => {
		let clock = Date.now() / 1000;
		const storage = memoryStorage();
		const locks = inProcessLocks();
		const tabA = client({ storage, locks, now: () => clock });
		const tabB = client({ storage, locks, now: () => clock });
		const reg = await tabA.register(newUser());
		clock = reg.expiresAt + 60;
		const [a, b] = await Promise.all([tabA.fetch(`/actors/${reg.actorId}`), tabB.fetch(`/actors/${reg.actorId}`)]);
		expect([a.status, b.status]).toEqual([200, 200]);
		expect(refreshes).toBe(1);
		clock = Date.now() / 1000;
		expect(await tabB.accessToken()).toBe(await tabA.accessToken());
		expect(refreshes).toBe(1);
	});

	it("should refresh and retry once when a call answers 401, then sign out and ask for sign-in when the refresh is refused", async () => {
		const storage: TokenStorage = memoryStorage();
		const onAuthRequired = jest.fn();
		const c = client({ storage, onAuthRequired });
		const reg = await c.register(newUser());
		const session = JSON.parse((await storage.get("auth-notify.session"))!);
		// A token the gateway refuses (its signature no longer matches), still far from expiry.
		await storage.set("auth-notify.session", JSON.stringify({ ...session, accessToken: `${session.accessToken.slice(0, -4)}AAAA` }));
		expect((await c.fetch(`/actors/${reg.actorId}`)).status).toBe(200);
		expect(refreshes).toBe(1);
		expect(onAuthRequired).not.toHaveBeenCalled();

		const now = JSON.parse((await storage.get("auth-notify.session"))!);
		await storage.set("auth-notify.session", JSON.stringify({ ...now, accessToken: "x.y.z", refreshToken: "not-a-refresh-token" }));
		const res = await c.fetch(`/actors/${reg.actorId}`);
		expect(res.status).toBe(401);
		expect(onAuthRequired).toHaveBeenCalledTimes(1);
		expect(await storage.get("auth-notify.session")).toBeNull();
		await expect(c.fetch(`/actors/${reg.actorId}`)).rejects.toMatchObject({ status: 401 });
		expect(onAuthRequired).toHaveBeenCalledTimes(2);
	});

	it("should sign in, send a notification and read it, and forget the session on logout", async () => {
		const user = newUser();
		await client().register(user);
		// A user sends to its own address once it is verified.
		await markVerified(p, user.email);
		const storage = memoryStorage();
		const c = client({ storage });
		const tokens = await c.login(user.email, user.password);
		expect(tokens.tokenType).toBe("Bearer");
		const sent = await c.notifications.send({ to: user.email, template: { subject: "Hi", text: "Hello" } }, { idempotencyKey: `k-${Date.now()}` });
		expect(sent.status).toBe("QUEUED");
		await expect(c.notifications.get(sent.notificationId)).resolves.toMatchObject({ notificationId: sent.notificationId, to: user.email.toLowerCase() });
		await c.logout();
		expect(await storage.get("auth-notify.session")).toBeNull();
		expect(await c.accessToken()).toBeNull();
		const again = await fetch(`${p.baseUrl}/auth/tokens/refresh`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ refreshToken: tokens.refreshToken }) });
		expect(again.status).toBe(401);
	});

	it("should list the user's sessions, end another device's one, and read the account with me()", async () => {
		const user = newUser();
		await client().register(user);
		const laptop = client({ storage: memoryStorage() });
		const phone = client({ storage: memoryStorage() });
		await laptop.login(user.email, user.password);
		await phone.login(user.email, user.password);
		const mine = await laptop.sessions.list();
		const current = mine.items.filter(s => s.current);
		expect(current).toHaveLength(1);
		const theirs = (await phone.sessions.list()).items.find(s => s.current)!;
		expect(theirs.sessionId).not.toBe(current[0].sessionId);
		expect(mine.items.map(s => s.sessionId)).toContain(theirs.sessionId);
		await laptop.sessions.revoke(theirs.sessionId);
		await expect(laptop.sessions.revoke(theirs.sessionId)).rejects.toMatchObject({ status: 404 });
		// The phone's access token is denied, and so is the refresh it tries next: it is signed out.
		await expect(phone.sessions.list()).rejects.toMatchObject({ status: 401 });
		expect(await phone.accessToken()).toBeNull();
		const left = await laptop.sessions.list();
		expect(left.items.map(s => s.sessionId)).not.toContain(theirs.sessionId);
		await expect(laptop.me()).resolves.toMatchObject({ email: user.email.toLowerCase(), emailDeliverable: true });

		// Signing out the other devices: the tablet is signed out, the laptop stays.
		const tablet = client({ storage: memoryStorage() });
		await tablet.login(user.email, user.password);
		await laptop.sessions.revokeOthers();
		await expect(tablet.sessions.list()).rejects.toMatchObject({ status: 401 });
		expect((await laptop.sessions.list()).items.map(s => s.current)).toEqual([true]);
	});

	it("should forget the session on logout even when the platform cannot be reached, and say so", async () => {
		const storage = memoryStorage();
		const offline: typeof fetch = async (input, init) => {
			if (String(input).endsWith("/auth/logout")) throw new TypeError("fetch failed");
			return fetch(input, init);
		};
		const c = client({ storage, fetch: offline });
		await c.register(newUser());
		await expect(c.logout()).rejects.toThrow("fetch failed");
		expect(await storage.get("auth-notify.session")).toBeNull();
	});

	it("should answer problems as ApiError with the contract's code", async () => {
		const c = client();
		await expect(c.login("nobody@example.com", "Wrong-Passw0rd")).rejects.toMatchObject({ name: "ApiError", status: 401, code: "INVALID_CREDENTIALS" });
		await expect(c.completeSocialLogin(`${p.baseUrl}/ui/callback?token=forged`)).rejects.toMatchObject({ status: 401, code: "INVALID_TEMPORARY_TOKEN" });
		await expect(c.completeSocialLogin(`${p.baseUrl}/ui/callback?error=ACCESS_DENIED`)).rejects.toBeInstanceOf(ApiError);
		await expect(c.completeSocialLogin(`${p.baseUrl}/ui/callback`)).resolves.toBeNull();
		expect(c.startSocialLogin("/inbox")).toBe(`${p.baseUrl}/auth/social/login?returnTo=%2Finbox`);
	});

	it("should have types generated from the current OpenAPI document", () => {
		const root = path.resolve(__dirname, "../..");
		const out = execFileSync(process.execPath, [path.join(root, "client/scripts/generate-types.mjs"), "--check"], { cwd: root, encoding: "utf8" });
		expect(out).toContain("is current");
	});
});
