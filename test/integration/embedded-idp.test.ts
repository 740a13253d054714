/**
 * The embedded identity provider on a real SQLite store.
 */
import { randomBytes, scryptSync } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { decodeJwt } from "jose";
import { TokenVerifier } from "../../lib/auth/verifier";
import { EmbeddedIdentityProvider } from "../../lib/idp/embedded";
import { loadSigningKey } from "../../lib/idp/keys";
import { sha256 } from "../../lib/crypto";
import { SqliteStore } from "../../lib/store/sqlite";
import type { Env } from "../../lib/config";
import { testConfig } from "../helpers/platform";

async function make(env: Env = {}, refreshReuseIntervalSec?: number) {
	const config = testConfig(env);
	const store = new SqliteStore(path.join(config.dataDir, "store.sqlite"));
	// Real time unless a test moves it on.
	const clock = { offsetMs: 0 };
	const now = () => Date.now() + clock.offsetMs;
	const idp = new EmbeddedIdentityProvider({ config: config.idp, publicUrl: config.publicUrl, store, key: await loadSigningKey(store), now, refreshReuseIntervalSec });
	return {
		idp,
		store,
		clock,
		verifier: new TokenVerifier(idp.trust()),
		cleanup: async () => {
			await store.close();
			fs.rmSync(config.dataDir, { recursive: true, force: true });
		}
	};
}

describe("embedded identity provider", () => {
	let t: Awaited<ReturnType<typeof make>>;
	beforeEach(async () => {
		t = await make({
			IDP_SERVICE_ACCOUNT_USERNAME: "platform",
			IDP_SERVICE_ACCOUNT_PASSWORD: "service-secret-1",
			BOOTSTRAP_ADMIN_EMAIL: "Admin@Example.com",
			BOOTSTRAP_ADMIN_PASSWORD: "Admin-Passw0rd"
		});
	});
	afterEach(() => t.cleanup());

	it("should issue Cognito-shaped tokens with expiresAt equal to the access token's exp when logging in", async () => {
		await t.idp.createUser({ email: "A@Example.com", password: "Passw0rd-ok", firstName: "A", lastName: "B" });
		const set = await t.idp.login("a@example.COM", "Passw0rd-ok");
		const access = decodeJwt(set.accessToken);
		const id = decodeJwt(set.idToken);
		expect(access).toMatchObject({ token_use: "access", client_id: "embedded-actors", username: "a@example.com" });
		expect(access.aud).toBeUndefined();
		expect(id).toMatchObject({ token_use: "id", aud: "embedded-actors", email: "a@example.com", given_name: "A", family_name: "B" });
		expect(set.expiresAt).toBe(access.exp);
		expect(set.expiresIn).toBeGreaterThan(3500);
		expect(set.tokenType).toBe("Bearer");
	});

	it("should answer 401 INVALID_CREDENTIALS alike when the password is wrong or the user unknown", async () => {
		await t.idp.createUser({ email: "b@example.com", password: "Passw0rd-ok", firstName: "A", lastName: "B" });
		await expect(t.idp.login("b@example.com", "wrong-Passw0rd")).rejects.toMatchObject({ code: 401, type: "INVALID_CREDENTIALS" });
		await expect(t.idp.login("nobody@example.com", "Passw0rd-ok")).rejects.toMatchObject({ code: 401, type: "INVALID_CREDENTIALS" });
	});

	it.each([
		["too short", "short1A"],
		["without an uppercase letter", "alllowercase1"],
		["without a lowercase letter", "ALLUPPERCASE1"],
		["without a digit", "NoDigitsHere"],
		["longer than 256 characters", "A1" + "a".repeat(255)]
	])(
		"should refuse with 422 INVALID_PASSWORD when the password is %s",
		async (_label, password) => {
			await expect(t.idp.createUser({ email: "c@example.com", password, firstName: "A", lastName: "B" })).rejects.toMatchObject({
				code: 422,
				type: "INVALID_PASSWORD"
			});
			await expect(t.store.collection("idp_users").count({ username: "c@example.com" })).resolves.toBe(0);
		}
	);

	it("should store only a scrypt hash of the password", async () => {
		await t.idp.createUser({ email: "d@example.com", password: "Passw0rd-ok", firstName: "A", lastName: "B" });
		const raw = fs.readFileSync(path.join((t.store as SqliteStore).file));
		expect(raw.includes("Passw0rd-ok")).toBe(false);
		const user = await t.store.collection<{ id: string; passwordHash: string }>("idp_users").findOne({ username: "d@example.com" });
		expect(user!.passwordHash).toMatch(/^scrypt\$/);
	});

	it("should replace a hash of older scrypt parameters (p=1) with today's at the next sign-in, once", async () => {
		await t.idp.createUser({ email: "old@example.com", password: "Passw0rd-ok", firstName: "A", lastName: "B" });
		const users = t.store.collection<{ id: string; username: string; passwordHash: string }>("idp_users");
		const salt = randomBytes(16);
		const key = scryptSync("Passw0rd-ok".normalize("NFKC"), salt, 32, { N: 16384, r: 8, p: 1 });
		const old = `scrypt$16384$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`;
		const { id } = (await users.findOne({ username: "old@example.com" }))!;
		await users.updateMany({ id }, { $set: { passwordHash: old } });

		// A wrong password changes nothing.
		await expect(t.idp.login("old@example.com", "Wrong-Passw0rd")).rejects.toMatchObject({ code: 401, type: "INVALID_CREDENTIALS" });
		expect((await users.get(id))!.passwordHash).toBe(old);

		await t.idp.login("old@example.com", "Passw0rd-ok");
		const rehashed = (await users.get(id))!.passwordHash;
		expect(rehashed).toMatch(/^scrypt\$16384\$8\$5\$/);
		expect(rehashed).not.toContain(salt.toString("base64url"));
		// The new hash signs in, and is kept.
		await t.idp.login("old@example.com", "Passw0rd-ok");
		expect((await users.get(id))!.passwordHash).toBe(rehashed);
		await expect(t.idp.login("old@example.com", "Wrong-Passw0rd")).rejects.toMatchObject({ code: 401, type: "INVALID_CREDENTIALS" });
	});

	it("should rotate refresh tokens and revoke the family when a rotated one comes back", async () => {
		await t.idp.createUser({ email: "e@example.com", password: "Passw0rd-ok", firstName: "A", lastName: "B" });
		const first = await t.idp.login("e@example.com", "Passw0rd-ok");
		const second = await t.idp.refresh(first.refreshToken);
		expect(second.refreshToken).not.toBe(first.refreshToken);
		await expect(t.verifier.verify(second.accessToken)).resolves.toMatchObject({ kind: "user" });

		// The first token is replayed: both it and its successor stop working.
		await expect(t.idp.refresh(first.refreshToken)).rejects.toMatchObject({ code: 401, type: "INVALID_REFRESH_TOKEN" });
		await expect(t.idp.refresh(second.refreshToken)).rejects.toMatchObject({ code: 401, type: "INVALID_REFRESH_TOKEN" });

		// A separate login starts a new family that still works.
		const other = await t.idp.login("e@example.com", "Passw0rd-ok");
		await expect(t.idp.refresh(other.refreshToken)).resolves.toMatchObject({ tokenType: "Bearer" });
	});

	it("should treat two concurrent refreshes of one token as reuse and leave no working token in the family", async () => {
		await t.idp.createUser({ email: "f@example.com", password: "Passw0rd-ok", firstName: "A", lastName: "B" });
		const set = await t.idp.login("f@example.com", "Passw0rd-ok");
		const results = await Promise.allSettled([t.idp.refresh(set.refreshToken), t.idp.refresh(set.refreshToken)]);
		expect(results.filter(r => r.status === "fulfilled").length).toBeLessThanOrEqual(1);
		for (const r of results) {
			if (r.status === "fulfilled") await expect(t.idp.refresh(r.value.refreshToken)).rejects.toMatchObject({ code: 401 });
		}
	});

	it("should store the new refresh token and the rotated one's successor in one batch, and no successor without the reuse grace", async () => {
		for (const [interval, successor] of [[10, true], [0, false]] as const) {
			const g = await make({}, interval);
			try {
				await g.idp.createUser({ email: "s@example.com", password: "Passw0rd-ok", firstName: "A", lastName: "B" });
				const first = await g.idp.login("s@example.com", "Passw0rd-ok");
				const batch = jest.spyOn(g.store, "batch");
				const second = await g.idp.refresh(first.refreshToken);
				const coll = g.store.collection<{ id: string; successor?: string; usedAt: string | null }>("idp_refresh_tokens");
				const old = await coll.get(sha256(first.refreshToken));
				expect(old?.usedAt).toEqual(expect.any(String));
				expect(await coll.get(sha256(second.refreshToken))).toMatchObject({ usedAt: null, revokedAt: null });
				if (successor) {
					expect(batch).toHaveBeenCalledTimes(1);
					const [groups] = batch.mock.calls[0]!;
					expect(groups).toHaveLength(1);
					expect(groups[0]!.map(op => [op.op, op.collection])).toEqual([
						["insert", "idp_refresh_tokens"],
						["updateMany", "idp_refresh_tokens"]
					]);
					expect(old?.successor).toEqual(expect.any(String));
					// The sealed successor never holds the tokens in the clear.
					expect(old?.successor).not.toContain(second.refreshToken);
				} else {
					expect(batch).not.toHaveBeenCalled();
					expect(old?.successor).toBeUndefined();
				}
			} finally {
				await g.cleanup();
			}
		}
	});

	it("should keep a family's first expiry when refresh tokens rotate", async () => {
		await t.idp.createUser({ email: "h@example.com", password: "Passw0rd-ok", firstName: "A", lastName: "B" });
		const first = await t.idp.login("h@example.com", "Passw0rd-ok");
		const second = await t.idp.refresh(first.refreshToken);
		const coll = t.store.collection<{ id: string; expiresAt: string }>("idp_refresh_tokens");
		const [a, b] = await Promise.all([coll.get(sha256(first.refreshToken)), coll.get(sha256(second.refreshToken))]);
		expect(b!.expiresAt).toBe(a!.expiresAt);
	});

	it("should carry amr, auth_time and sid in both tokens and keep the session's own through refreshes", async () => {
		await t.idp.createUser({ email: "amr@example.com", password: "Passw0rd-ok", firstName: "A", lastName: "B" });
		const first = await t.idp.login("amr@example.com", "Passw0rd-ok");
		const access = decodeJwt(first.accessToken);
		expect(access).toMatchObject({ amr: ["pwd"], sid: expect.any(String), auth_time: expect.any(Number) });
		expect(decodeJwt(first.idToken)).toMatchObject({ amr: ["pwd"], sid: access.sid, auth_time: access.auth_time });

		t.clock.offsetMs = 600_000;
		const later = await t.idp.refresh(first.refreshToken);
		const refreshed = decodeJwt(later.accessToken);
		// A refresh proves nothing new: the sign-in's time and methods stay, the token itself is new.
		expect(refreshed).toMatchObject({ amr: ["pwd"], sid: access.sid, auth_time: access.auth_time });
		expect(refreshed.iat).toBeGreaterThanOrEqual(access.iat! + 600);
		expect(later.expiresAt).toBe(refreshed.exp);
		await expect(t.verifier.verify(first.accessToken)).resolves.toMatchObject({ authTime: access.auth_time, amr: ["pwd"], sid: access.sid });

		// A sign-in finished with a second factor says so, and so do its refreshes.
		const user = (await t.idp.findUserByEmail("amr@example.com"))!;
		const mfa = await t.idp.issueForUser(user, { authTime: 1_700_000_000, amr: ["pwd", "otp", "mfa"] });
		const again = await t.idp.refresh(mfa.refreshToken);
		expect(decodeJwt(again.idToken)).toMatchObject({ amr: ["pwd", "otp", "mfa"], auth_time: 1_700_000_000 });
	});

	it("should refuse an unknown refresh token with 401", async () => {
		await expect(t.idp.refresh("not-a-token")).rejects.toMatchObject({ code: 401, type: "INVALID_REFRESH_TOKEN" });
	});

	it("should stop refreshing and logging in when the user is deleted", async () => {
		await t.idp.createUser({ email: "g@example.com", password: "Passw0rd-ok", firstName: "A", lastName: "B" });
		const set = await t.idp.login("g@example.com", "Passw0rd-ok");
		await t.idp.deleteUser("g@example.com");
		await expect(t.idp.refresh(set.refreshToken)).rejects.toMatchObject({ code: 401 });
		await expect(t.idp.login("g@example.com", "Passw0rd-ok")).rejects.toMatchObject({ code: 401 });
	});

	it("should create a federated user that no password signs in as, find it by email, and issue it tokens without a password", async () => {
		const created = await t.idp.createFederatedUser({ email: "Social@Example.com", firstName: "Grace", lastName: "Hopper" });

		await expect(t.idp.findUserByEmail("SOCIAL@example.com")).resolves.toEqual(created);
		await expect(t.idp.findUserByEmail("nobody@example.com")).resolves.toBeNull();
		await expect(t.idp.findProfileByEmail("SOCIAL@example.com")).resolves.toEqual({ ...created, email: "social@example.com", firstName: "Grace", lastName: "Hopper", emailVerified: true });
		await expect(t.idp.findProfileByEmail("nobody@example.com")).resolves.toBeNull();
		const stored = await t.store.collection<{ id: string; passwordHash: string }>("idp_users").get(created.sub);
		expect(stored!.passwordHash).toMatch(/^scrypt\$/);
		await expect(t.idp.login("social@example.com", "")).rejects.toMatchObject({ code: 401, type: "INVALID_CREDENTIALS" });
		const set = await t.idp.issueForUser(created);
		await expect(t.verifier.verify(set.accessToken)).resolves.toMatchObject({ kind: "user", sub: created.sub, username: "social@example.com" });
		expect(decodeJwt(set.idToken)).toMatchObject({ email: "social@example.com", given_name: "Grace", family_name: "Hopper" });
		await expect(t.idp.refresh(set.refreshToken)).resolves.toMatchObject({ tokenType: "Bearer" });
	});

	it("should refuse tokens without a password with 401 INVALID_CREDENTIALS when the user is gone or not a user", async () => {
		const created = await t.idp.createFederatedUser({ email: "gone@example.com", firstName: "A", lastName: "B" });
		await t.idp.deleteUser(created.username);
		const { token } = await t.idp.serviceToken("auth");
		const account = decodeJwt(token).sub!;

		await expect(t.idp.issueForUser(created)).rejects.toMatchObject({ code: 401, type: "INVALID_CREDENTIALS" });
		await expect(t.idp.issueForUser({ sub: account, username: "platform" })).rejects.toMatchObject({ code: 401, type: "INVALID_CREDENTIALS" });
	});

	it("should issue service ID tokens with custom:service_id from the configured service account", async () => {
		const { token, expiresAt } = await t.idp.serviceToken("auth");
		const claims = decodeJwt(token);
		expect(claims).toMatchObject({ token_use: "id", aud: "embedded-services", "custom:service_id": "auth", "cognito:username": "platform" });
		expect(expiresAt).toBe(claims.exp);
		await expect(t.verifier.verify(token)).resolves.toMatchObject({ kind: "service", serviceId: "auth" });
		await expect(t.idp.serviceToken("not-a-service")).rejects.toThrow(/Unknown service id/);
	});

	it("should refuse service tokens when the configured password does not match the stored account", async () => {
		await t.idp.serviceToken("auth");
		const config = testConfig({ IDP_SERVICE_ACCOUNT_USERNAME: "platform", IDP_SERVICE_ACCOUNT_PASSWORD: "a-different-one" });
		const other = new EmbeddedIdentityProvider({ config: config.idp, publicUrl: config.publicUrl, store: t.store, key: await loadSigningKey(t.store) });
		await expect(other.serviceToken("auth")).rejects.toMatchObject({ code: 401 });
		fs.rmSync(config.dataDir, { recursive: true, force: true });
	});

	it("should create the bootstrap administrator once, in group admin", async () => {
		await t.idp.bootstrap();
		await t.idp.bootstrap();
		const set = await t.idp.login("admin@example.com", "Admin-Passw0rd");
		await expect(t.verifier.verify(set.accessToken)).resolves.toMatchObject({ kind: "user", isAdmin: true, groups: ["admin"] });
		await expect(t.store.collection("idp_users").count({ username: "admin@example.com" })).resolves.toBe(1);
	});

	it("should refuse to make an existing user administrator when it does not hold the bootstrap password", async () => {
		await t.idp.createUser({ email: "admin@example.com", password: "Squatter-Passw0rd", firstName: "S", lastName: "Q" });
		await expect(t.idp.bootstrap()).rejects.toThrow(/refusing to make it an administrator/);
		const set = await t.idp.login("admin@example.com", "Squatter-Passw0rd");
		await expect(t.verifier.verify(set.accessToken)).resolves.toMatchObject({ isAdmin: false });
	});

	it("should make an existing user administrator when it holds the bootstrap password", async () => {
		await t.idp.createUser({ email: "admin@example.com", password: "Admin-Passw0rd", firstName: "A", lastName: "D" });
		await t.idp.bootstrap();
		const set = await t.idp.login("admin@example.com", "Admin-Passw0rd");
		await expect(t.verifier.verify(set.accessToken)).resolves.toMatchObject({ isAdmin: true });
	});
});
