/**
 * Ending sessions with Cognito, against a stubbed SDK client: cognito-local has no
 * AdminUserGlobalSignOut (test/integration/account-lifecycle.test.ts says so), so what
 * the platform asks of the pool is shown here. Ending every session of a user (through
 * lib/accounts/end-sessions.ts, as sign-out everywhere, not-me, a lock or a deletion do)
 * calls AdminUserGlobalSignOut; a sign-out calls RevokeToken with the pool's refresh
 * token the platform holds (wrapped); and the deny-list hook hears of both. Ending one
 * session by its id, which Cognito cannot do itself, ends the platform's record of it (its
 * refresh token is refused before the pool is asked), names its access tokens' jti and
 * origin_jti to the deny list, and, where the token was kept sealed, revokes it at the pool.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { AdminUserGlobalSignOutCommand, InitiateAuthCommand, RevokeTokenCommand } from "@aws-sdk/client-cognito-identity-provider";
import { SignJWT } from "jose";
import { attachSessionEnds, endEverySession, endSessionById, endSessionOf } from "../../lib/accounts/end-sessions";
import { CognitoIdentityProvider, wrapRefreshToken } from "../../lib/idp/cognito";
import { AuthSessions, type AuthSessionRecord } from "../../lib/mfa/sessions";
import { createStore, type Store } from "../../lib/store";
import { tempDir, testConfig } from "../helpers/platform";

describe("Cognito session ends", () => {
	const stores: Store[] = [];
	const dirs: string[] = [];
	afterAll(async () => {
		for (const store of stores) await store.close();
		for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
	});

	function provider(records?: { store: Store; key?: Buffer }) {
		const config = testConfig().idp;
		const sessions = records ? new AuthSessions(records.store, Date.now, records.key) : undefined;
		const idp = new CognitoIdentityProvider(
			{
			...config,
			kind: "cognito",
			region: "eu-west-1",
			actorPoolId: "eu-west-1_actors",
			actorClientId: "actor-client",
			servicePoolId: "eu-west-1_services",
			serviceClientId: "service-client",
				endpoint: "https://cognito-idp.eu-west-1.amazonaws.com"
			},
			records?.store,
			undefined,
			sessions
		);
		const sent: object[] = [];
		// The SDK client is the provider's own; its send is replaced so nothing leaves the process.
		(idp as unknown as { client: { send: (c: object) => Promise<object> } }).client.send = async c => {
			sent.push(c);
			return {};
		};
		const ended: [string, string[]][] = [];
		const denied: string[][] = [];
		attachSessionEnds(idp, {
			open: async () => ["s1", "s2"],
			ended: async (sub, sids, keys = []) => {
				ended.push([sub, sids]);
				denied.push(keys);
			}
		});
		return { idp, sent, ended, denied, sessions: sessions! };
	}

	/** A store with the platform's session records, and a session of `sub` opened on it as a password sign-in would. */
	async function withSession(sub: string, key?: Buffer) {
		const dir = tempDir("an-cognito-ends-");
		dirs.push(dir);
		const store = createStore(testConfig({ DATA_DIR: dir }));
		stores.push(store);
		const p = provider({ store, key });
		const secret = randomBytes(32);
		const accessToken = await new SignJWT({ origin_jti: "origin-1" })
			.setProtectedHeader({ alg: "HS256" })
			.setSubject(sub)
			.setJti("jti-1")
			.setExpirationTime("1h")
			.sign(secret);
		const refreshToken = wrapRefreshToken("internal-1", "pool-refresh-token");
		const sid = await p.sessions.open(sub, { accessToken, refreshToken, idToken: accessToken, expiresIn: 3600 } as never, { authTime: 1, amr: ["pwd"] });
		return { ...p, store, sid, refreshToken };
	}

	it("should sign the user out of the pool everywhere and deny every open session", async () => {
		const { idp, sent, ended } = provider();
		await endEverySession(idp, { sub: "sub-1", username: "internal-1" });
		const global = sent.filter(c => c instanceof AdminUserGlobalSignOutCommand) as AdminUserGlobalSignOutCommand[];
		expect(global.map(c => c.input)).toEqual([{ UserPoolId: "eu-west-1_actors", Username: "internal-1" }]);
		expect(ended).toEqual([["sub-1", ["s1", "s2"]]]);
	});

	it("should revoke the pool's refresh token the platform holds on sign-out", async () => {
		const { idp, sent } = provider();
		await endSessionOf(idp, wrapRefreshToken("internal-1", "pool-refresh-token"));
		const revoked = sent.filter(c => c instanceof RevokeTokenCommand) as RevokeTokenCommand[];
		expect(revoked.map(c => c.input)).toEqual([{ Token: "pool-refresh-token", ClientId: "actor-client" }]);
	});

	it("should end one session by its id: its record ended, its access tokens named to the deny list, its sealed refresh token revoked at the pool", async () => {
		const { idp, sent, ended, denied, store, sid, refreshToken } = await withSession("sub-1", randomBytes(32));
		// Only the hash and the sealed token are stored, never the token itself.
		const rec = (await store.collection<AuthSessionRecord>("auth_sessions").get(sid))!;
		expect(JSON.stringify(rec)).not.toContain("pool-refresh-token");
		expect(rec.sealedRefresh).toEqual(expect.any(String));

		await expect(endSessionById(idp, "sub-1", sid, true)).resolves.toBe(true);
		expect(ended).toEqual([["sub-1", [sid]]]);
		expect(denied[0]!.sort()).toEqual(["jti-1", "origin-1"]);
		const revoked = sent.filter(c => c instanceof RevokeTokenCommand) as RevokeTokenCommand[];
		expect(revoked.map(c => c.input)).toEqual([{ Token: "pool-refresh-token", ClientId: "actor-client" }]);

		// Its refresh token is refused by the platform, without asking the pool.
		await expect(idp.refresh(refreshToken)).rejects.toMatchObject({ code: 401, type: "INVALID_REFRESH_TOKEN" });
		expect(sent.some(c => c instanceof InitiateAuthCommand)).toBe(false);
		// Ending it again: false.
		await expect(endSessionById(idp, "sub-1", sid, true)).resolves.toBe(false);
	});

	it("should refuse to end another user's session, and leave it open", async () => {
		const { idp, sent, ended, sid, sessions } = await withSession("sub-1", randomBytes(32));
		await expect(endSessionById(idp, "sub-2", sid, true)).resolves.toBe(false);
		expect(ended).toEqual([]);
		expect(sent).toEqual([]);
		await expect(sessions.get(sid)).resolves.toMatchObject({ endedAt: null });
	});

	it("should end the session without a key-encryption key too, keeping no refresh token to revoke at the pool", async () => {
		const { idp, sent, store, sid, refreshToken } = await withSession("sub-1");
		expect((await store.collection<AuthSessionRecord>("auth_sessions").get(sid))!.sealedRefresh).toBeUndefined();
		await expect(endSessionById(idp, "sub-1", sid, true)).resolves.toBe(true);
		expect(sent.filter(c => c instanceof RevokeTokenCommand)).toEqual([]);
		await expect(idp.refresh(refreshToken)).rejects.toMatchObject({ code: 401, type: "INVALID_REFRESH_TOKEN" });
	});
});
