/**
 * Ending sessions with Cognito, against a stubbed SDK client: cognito-local has no
 * AdminUserGlobalSignOut (test/integration/account-lifecycle.test.ts says so), so what
 * the platform asks of the pool is shown here. Ending every session of a user (through
 * lib/accounts/end-sessions.ts, as sign-out everywhere, not-me, a lock or a deletion do)
 * calls AdminUserGlobalSignOut; a sign-out calls RevokeToken with the pool's refresh
 * token the platform holds (wrapped); and the deny-list hook hears of both.
 */
import { AdminUserGlobalSignOutCommand, RevokeTokenCommand } from "@aws-sdk/client-cognito-identity-provider";
import { attachSessionEnds, endEverySession, endSessionOf } from "../../lib/accounts/end-sessions";
import { CognitoIdentityProvider, wrapRefreshToken } from "../../lib/idp/cognito";
import { testConfig } from "../helpers/platform";

describe("Cognito session ends", () => {
	function provider() {
		const config = testConfig().idp;
		const idp = new CognitoIdentityProvider({
			...config,
			kind: "cognito",
			region: "eu-west-1",
			actorPoolId: "eu-west-1_actors",
			actorClientId: "actor-client",
			servicePoolId: "eu-west-1_services",
			serviceClientId: "service-client",
			endpoint: "https://cognito-idp.eu-west-1.amazonaws.com"
		});
		const sent: object[] = [];
		// The SDK client is the provider's own; its send is replaced so nothing leaves the process.
		(idp as unknown as { client: { send: (c: object) => Promise<object> } }).client.send = async c => {
			sent.push(c);
			return {};
		};
		const ended: [string, string[]][] = [];
		attachSessionEnds(idp, { open: async () => ["s1", "s2"], ended: async (sub, sids) => void ended.push([sub, sids]) });
		return { idp, sent, ended };
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
});
