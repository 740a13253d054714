import { createHmac, randomUUID } from "node:crypto";
import {
	AdminGetUserCommand,
	CognitoIdentityProviderClient,
	InitiateAuthCommand,
	RespondToAuthChallengeCommand
} from "@aws-sdk/client-cognito-identity-provider";
import { UnsecuredJWT, jwtVerify } from "jose";
import type { IdpConfig } from "../../lib/config";
import { CognitoIdentityProvider, unwrapRefreshToken } from "../../lib/idp/cognito";
import { CUSTOM_CHALLENGE, customAuthTriggers, type CustomAuthEvent } from "../../lib/idp/cognito-custom-auth";
import type { IdentityProvider, TokenTrust } from "../../lib/idp/types";
import { SOCIAL_LINK_STEP } from "../../lib/social/accounts";
import { authInternals, cutOffCreation, intents, repairNow } from "../helpers/accounts";
import { REGION, cognitoEnv, createAppClient, createPools, startCognitoLocal, type CognitoLocal, type CognitoPools } from "../helpers/cognito-local";
import { freePort } from "../../harness/processes";
import { http, runtime, startPlatform, type Platform } from "../helpers/platform";

const PASSWORD = "Corr3ct-Horse!";

let local: CognitoLocal;
let pools: CognitoPools;
const providers: CognitoIdentityProvider[] = [];

beforeAll(async () => {
	local = await startCognitoLocal();
	pools = await createPools(local);
}, 30000);

afterAll(async () => {
	await Promise.all(providers.map(p => p.close()));
	await local?.stop();
});

function provider(overrides: Partial<IdpConfig> = {}): CognitoIdentityProvider {
	const p = new CognitoIdentityProvider({
		kind: "cognito",
		region: REGION,
		endpoint: local.endpoint,
		...pools,
		accessTokenTtl: 3600,
		refreshTokenTtl: 86400,
		...overrides
	});
	providers.push(p);
	return p;
}

const newEmail = () => `user-${randomUUID()}@example.com`;

async function register(p: CognitoIdentityProvider, email = newEmail()) {
	const created = await p.createUser({ email, password: PASSWORD, firstName: "Ada", lastName: "Lovelace" });
	return { email, ...created };
}

const verifyAccess = (token: string, trust: TokenTrust) =>
	jwtVerify(token, trust.keys, { issuer: trust.issuer, algorithms: trust.algorithms });

const CUSTOM_AUTH_SECRET = "c".repeat(40);

/**
 * cognito-local has no CUSTOM_AUTH, so for InitiateAuth(CUSTOM_AUTH) and
 * RespondToAuthChallenge this plays Cognito's part as AWS documents it: it runs the
 * real trigger handler as the pool's Lambda and answers with a session, the public
 * challenge parameters, and unsigned stand-in tokens. Every other call reaches cognito-local.
 */
function emulateCustomAuth(lambdaSecret: string) {
	const lambda = customAuthTriggers(lambdaSecret);
	const trigger = (triggerSource: string, userName: string, request: CustomAuthEvent["request"]) =>
		lambda({ triggerSource, userName, request, response: {} });
	const sessions = new Map<string, { userName: string; created: CustomAuthEvent["response"] }>();
	const real = CognitoIdentityProviderClient.prototype.send;
	return jest.spyOn(CognitoIdentityProviderClient.prototype, "send").mockImplementation(async function (this: CognitoIdentityProviderClient, command: unknown) {
		if (command instanceof InitiateAuthCommand && command.input.AuthFlow === "CUSTOM_AUTH") {
			const userName = command.input.AuthParameters!.USERNAME;
			const defined = await trigger("DefineAuthChallenge_Authentication", userName, { session: [] });
			const created = await trigger("CreateAuthChallenge_Authentication", userName, { challengeName: defined.response.challengeName });
			const session = randomUUID();
			sessions.set(session, { userName, created: created.response });
			return { ChallengeName: defined.response.challengeName, Session: session, ChallengeParameters: { USERNAME: userName, ...created.response.publicChallengeParameters } };
		}
		if (command instanceof RespondToAuthChallengeCommand) {
			const pending = sessions.get(command.input.Session!)!;
			sessions.delete(command.input.Session!);
			const verified = await trigger("VerifyAuthChallengeResponse_Authentication", pending.userName, {
				challengeAnswer: command.input.ChallengeResponses!.ANSWER,
				privateChallengeParameters: pending.created.privateChallengeParameters
			});
			const result = { challengeName: CUSTOM_CHALLENGE, challengeResult: verified.response.answerCorrect!, challengeMetadata: pending.created.challengeMetadata };
			const defined = await trigger("DefineAuthChallenge_Authentication", pending.userName, { session: [result] });
			if (!defined.response.issueTokens) throw Object.assign(new Error("Incorrect username or password."), { name: "NotAuthorizedException" });
			const token = (use: string) => new UnsecuredJWT({ token_use: use, username: pending.userName }).setExpirationTime("1h").encode();
			return { AuthenticationResult: { AccessToken: token("access"), IdToken: token("id"), RefreshToken: "emulated-refresh-token" } };
		}
		return (real as (command: unknown) => Promise<unknown>).call(this, command);
	} as never);
}

describe("CognitoIdentityProvider against cognito-local", () => {
	it("should return a token set whose access token verifies against the actor pool when a created user logs in", async () => {
		const p = provider();
		const user = await register(p);
		const before = Math.floor(Date.now() / 1000);

		const tokens = await p.login(user.email, PASSWORD);

		const { actors } = p.trust();
		expect(actors.issuer).toBe(`${local.endpoint}/${pools.actorPoolId}`);
		expect(actors.algorithms).toEqual(["RS256"]);
		const { payload, protectedHeader } = await verifyAccess(tokens.accessToken, actors);
		expect(protectedHeader.alg).toBe("RS256");
		expect(payload).toMatchObject({ token_use: "access", client_id: pools.actorClientId, sub: user.sub, username: user.username });
		expect(tokens.tokenType).toBe("Bearer");
		expect(tokens.expiresAt).toBe(payload.exp);
		expect(tokens.expiresIn).toBeGreaterThan(0);
		expect(tokens.expiresIn).toBeLessThanOrEqual(tokens.expiresAt - before);
		const id = await jwtVerify(tokens.idToken, actors.keys, {
			issuer: actors.issuer,
			algorithms: actors.algorithms,
			audience: actors.clientId
		});
		expect(id.payload).toMatchObject({ token_use: "id", email: user.email, sub: user.sub });
		expect(tokens.refreshToken.startsWith(`${Buffer.from(user.username).toString("base64url")}~`)).toBe(true);
	});

	it("should sign in with the email in any letter case when the user registered", async () => {
		const p = provider();
		const user = await register(p);

		const tokens = await p.login(user.email.toUpperCase(), PASSWORD);

		expect((await verifyAccess(tokens.accessToken, p.trust().actors)).payload.sub).toBe(user.sub);
	});

	it("should return a new verifiable access token and the same refresh token when refreshing with the wrapped refresh token", async () => {
		const p = provider();
		const user = await register(p);
		const first = await p.login(user.email, PASSWORD);

		const next = await p.refresh(first.refreshToken);

		expect(next.accessToken).not.toBe(first.accessToken);
		expect(next.refreshToken).toBe(first.refreshToken);
		const { payload } = await verifyAccess(next.accessToken, p.trust().actors);
		expect(payload).toMatchObject({ token_use: "access", sub: user.sub });
		expect(next.expiresAt).toBe(payload.exp);
		expect(next.expiresIn).toBeGreaterThan(0);
	});

	it("should fail with 401 INVALID_REFRESH_TOKEN when the refresh token is garbage", async () => {
		const p = provider();
		const username = Buffer.from(randomUUID()).toString("base64url");
		for (const garbage of ["garbage", "~token", `${username}~`, "!!!~token", `${username}~not-a-cognito-token`]) {
			await expect(p.refresh(garbage)).rejects.toMatchObject({ code: 401, type: "INVALID_REFRESH_TOKEN" });
		}
	});

	it("should fail with 401 INVALID_CREDENTIALS and one message when the password is wrong or the user unknown", async () => {
		const p = provider();
		const user = await register(p);
		const failure = { code: 401, type: "INVALID_CREDENTIALS", message: "The username or password is incorrect." };

		// cognito-local answers the wrong password with InvalidPasswordException, the unknown user with NotAuthorizedException.
		await expect(p.login(user.email, "Wr0ng-password!")).rejects.toMatchObject(failure);
		await expect(p.login(newEmail(), PASSWORD)).rejects.toMatchObject(failure);
	});

	it("should fail with 409 USER_EXISTS when the same email registers twice", async () => {
		const p = provider();
		const user = await register(p);

		await expect(register(p, user.email)).rejects.toMatchObject({ code: 409, type: "USER_EXISTS" });
		await expect(p.login(user.email, PASSWORD)).resolves.toMatchObject({ tokenType: "Bearer" });
	});

	it("should refuse login and refresh with 401 and accept a second delete when the user was deleted", async () => {
		const p = provider();
		const user = await register(p);

		const { refreshToken } = await p.login(user.email, PASSWORD);

		await p.deleteUser(user.username);

		await expect(p.login(user.email, PASSWORD)).rejects.toMatchObject({ code: 401, type: "INVALID_CREDENTIALS" });
		await expect(p.refresh(refreshToken)).rejects.toMatchObject({ code: 401, type: "INVALID_REFRESH_TOKEN" });
		await expect(p.deleteUser(user.username)).resolves.toBeUndefined();
	});

	it("should return an ID token with custom:service_id auth that verifies against the service pool when the service account signs in", async () => {
		const p = provider();
		const { services } = p.trust();

		const { token, expiresAt } = await p.serviceToken("auth");

		expect(services.issuer).toBe(`${local.endpoint}/${pools.servicePoolId}`);
		const { payload } = await jwtVerify(token, services.keys, {
			issuer: services.issuer,
			algorithms: services.algorithms,
			audience: services.clientId
		});
		expect(payload).toMatchObject({ token_use: "id", aud: pools.serviceClientId, "custom:service_id": "auth" });
		expect(expiresAt).toBe(payload.exp);
	});

	it("should send SECRET_HASH over the email on login and over the internal username on refresh when the client has a secret", async () => {
		const confidential = await createAppClient(local, pools.actorPoolId, true);
		const secret = confidential.clientSecret!;
		expect(secret).toBeTruthy();
		const p = provider({ actorClientId: confidential.clientId, actorClientSecret: secret });
		const user = await register(p);
		const send = jest.spyOn(CognitoIdentityProviderClient.prototype, "send");
		try {
			// cognito-local never checks SECRET_HASH, so the hash is checked here, on the requests.
			const tokens = await p.login(user.email, PASSWORD);
			const next = await p.refresh(tokens.refreshToken);

			const payload = (await verifyAccess(next.accessToken, p.trust().actors)).payload;
			expect(payload.client_id).toBe(confidential.clientId);
			const auth = send.mock.calls
				.map(([command]) => command)
				.filter(command => command instanceof InitiateAuthCommand)
				.map(command => (command as InitiateAuthCommand).input);
			const hash = (name: string) => createHmac("sha256", secret).update(name + confidential.clientId).digest("base64");
			expect(auth).toEqual([
				expect.objectContaining({ AuthFlow: "USER_PASSWORD_AUTH", AuthParameters: expect.objectContaining({ SECRET_HASH: hash(user.email) }) }),
				expect.objectContaining({ AuthFlow: "REFRESH_TOKEN_AUTH", AuthParameters: expect.objectContaining({ SECRET_HASH: hash(user.username) }) })
			]);
			expect(user.username).not.toBe(user.email);
		} finally {
			send.mockRestore();
		}
	});

	it("should create the administrator in group admin and keep it there when bootstrap runs twice", async () => {
		const email = newEmail();
		const p = provider({ bootstrapAdminEmail: email, bootstrapAdminPassword: PASSWORD });

		await p.bootstrap();
		await p.bootstrap();

		const tokens = await p.login(email, PASSWORD);
		const { payload } = await verifyAccess(tokens.accessToken, p.trust().actors);
		expect(payload["cognito:groups"]).toContain("admin");
	});

	it("should add an existing user holding the bootstrap password to group admin and keep earlier admins there", async () => {
		const earlier = newEmail();
		await provider({ bootstrapAdminEmail: earlier, bootstrapAdminPassword: PASSWORD }).bootstrap();
		const user = await register(provider());
		const p = provider({ bootstrapAdminEmail: user.email, bootstrapAdminPassword: PASSWORD });

		await p.bootstrap();

		for (const email of [user.email, earlier]) {
			const { payload } = await verifyAccess((await p.login(email, PASSWORD)).accessToken, p.trust().actors);
			expect(payload["cognito:groups"]).toContain("admin");
		}
	});

	it("should refuse to make an existing user administrator when it does not hold the bootstrap password", async () => {
		const user = await register(provider());
		const p = provider({ bootstrapAdminEmail: user.email, bootstrapAdminPassword: "Other-Passw0rd!" });

		await expect(p.bootstrap()).rejects.toThrow(/refusing to make it an administrator/);

		const { payload } = await verifyAccess((await p.login(user.email, PASSWORD)).accessToken, p.trust().actors);
		expect(payload["cognito:groups"] ?? []).not.toContain("admin");
	});

	it("should fail with 503 UPSTREAM_UNAVAILABLE and no secret in the message when Cognito cannot be reached", async () => {
		const p = provider({ endpoint: `http://127.0.0.1:${await freePort()}` });

		const login = p.login(newEmail(), PASSWORD);

		await expect(login).rejects.toMatchObject({ code: 503, type: "UPSTREAM_UNAVAILABLE" });
		await expect(login).rejects.toHaveProperty("message", expect.not.stringContaining(PASSWORD));
	});

	it("should create a confirmed federated user with the provider's names that no password signs in as, and find it by email", async () => {
		const p = provider();
		const email = newEmail();

		const created = await p.createFederatedUser({ email: email.toUpperCase(), firstName: "Grace", lastName: "Hopper" });

		await expect(p.findUserByEmail(email)).resolves.toEqual(created);
		await expect(p.findUserByEmail(newEmail())).resolves.toBeNull();
		await expect(p.findProfileByEmail(email)).resolves.toEqual({ ...created, email, firstName: "Grace", lastName: "Hopper", emailVerified: true });
		await expect(p.findProfileByEmail(newEmail())).resolves.toBeNull();
		const stored = await local.admin.send(new AdminGetUserCommand({ UserPoolId: pools.actorPoolId, Username: created.username }));
		expect(stored.UserStatus).toBe("CONFIRMED");
		expect(Object.fromEntries(stored.UserAttributes!.map(a => [a.Name, a.Value]))).toMatchObject({
			sub: created.sub,
			email,
			given_name: "Grace",
			family_name: "Hopper"
		});
		await expect(p.login(email, PASSWORD)).rejects.toMatchObject({ code: 401, type: "INVALID_CREDENTIALS" });
	});

	it("should answer the platform's challenge with SECRET_HASH and return a token set with the wrapped refresh token when the triggers verify it", async () => {
		const confidential = await createAppClient(local, pools.actorPoolId, true);
		const p = provider({ actorClientId: confidential.clientId, actorClientSecret: confidential.clientSecret, customAuthSecret: CUSTOM_AUTH_SECRET });
		const user = await p.createFederatedUser({ email: newEmail(), firstName: "Grace", lastName: "Hopper" });
		const send = emulateCustomAuth(CUSTOM_AUTH_SECRET);
		try {
			const tokens = await p.issueForUser(user);

			expect(tokens.tokenType).toBe("Bearer");
			expect(unwrapRefreshToken(tokens.refreshToken)).toMatchObject({ username: user.username, token: "emulated-refresh-token" });
			expect(tokens.expiresIn).toBeGreaterThan(3500);
			const hash = createHmac("sha256", confidential.clientSecret!).update(user.username + confidential.clientId).digest("base64");
			const inputs = send.mock.calls.map(([command]) => (command as InitiateAuthCommand | RespondToAuthChallengeCommand).input);
			expect(inputs).toEqual([
				expect.objectContaining({ AuthFlow: "CUSTOM_AUTH", AuthParameters: { USERNAME: user.username, SECRET_HASH: hash } }),
				expect.objectContaining({
					ChallengeName: CUSTOM_CHALLENGE,
					ChallengeResponses: { USERNAME: user.username, ANSWER: expect.any(String), SECRET_HASH: hash }
				})
			]);
		} finally {
			send.mockRestore();
		}
	});

	it("should fail with 401 INVALID_CREDENTIALS when the pool's triggers hold another secret", async () => {
		const p = provider({ customAuthSecret: CUSTOM_AUTH_SECRET });
		const user = await p.createFederatedUser({ email: newEmail(), firstName: "A", lastName: "B" });
		const send = emulateCustomAuth("another-secret-".repeat(3));
		try {
			await expect(p.issueForUser(user)).rejects.toMatchObject({ code: 401, type: "INVALID_CREDENTIALS" });
		} finally {
			send.mockRestore();
		}
	});

	it("should fail with 503 UPSTREAM_UNAVAILABLE when the pool does not run CUSTOM_AUTH, as cognito-local does not", async () => {
		const p = provider({ customAuthSecret: CUSTOM_AUTH_SECRET });
		const user = await p.createFederatedUser({ email: newEmail(), firstName: "A", lastName: "B" });

		await expect(p.issueForUser(user)).rejects.toMatchObject({ code: 503, type: "UPSTREAM_UNAVAILABLE" });
	});

	it("should return the same trust anchors on every call when asked twice", () => {
		const p = provider();

		expect(p.trust()).toBe(p.trust());
		expect(p.trust().actors.keys).toBe(p.trust().actors.keys);
	});
});

describe("account repair with Cognito (cognito-local)", () => {
	let platform: Platform;
	let idp: IdentityProvider;

	beforeAll(async () => {
		platform = await startPlatform({ ...cognitoEnv(local, pools), ACCOUNT_REPAIR_GRACE_SECONDS: "3600" });
		idp = await runtime(platform).idp();
	}, 30000);
	afterAll(() => platform?.stop());

	const actorCount = (sub: string) => runtime(platform).store().collection("actors").count({ id: sub });

	it("should complete a registration cut off after Cognito made the user, so that it logs in and reads its profile", async () => {
		const email = newEmail();
		const user = await idp.createUser({ email, password: PASSWORD, firstName: "Ada", lastName: "Lovelace" });
		await cutOffCreation(platform, { id: email, method: "password", firstName: "Ada", lastName: "Lovelace" }, user);

		await expect(repairNow(platform)).resolves.toBe(1);

		const login = await http(platform.baseUrl, "POST", "/auth/login", { json: { username: email, password: PASSWORD } });
		expect(login.status).toBe(200);
		const actor = await http(platform.baseUrl, "GET", `/actors/${user.sub}`, { token: login.body.accessToken });
		expect(actor.body).toMatchObject({ actorId: user.sub, email, firstName: "Ada", lastName: "Lovelace" });
		await expect(intents(platform).count({})).resolves.toBe(0);
	});

	it("should delete the Cognito user and the actor of a social sign-in cut off before its link", async () => {
		const email = newEmail();
		const user = await idp.createFederatedUser({ email, firstName: "Ada", lastName: "Lovelace" });
		await authInternals(platform).actorDirectory(null).register({ actorId: user.sub, email, firstName: "Ada", lastName: "Lovelace" });
		await cutOffCreation(platform, { id: email, method: "federated", firstName: "Ada", lastName: "Lovelace", step: SOCIAL_LINK_STEP }, user);

		await expect(repairNow(platform)).resolves.toBe(1);

		await expect(idp.findUserByEmail(email)).resolves.toBeNull();
		await expect(actorCount(user.sub)).resolves.toBe(0);
		await expect(intents(platform).count({})).resolves.toBe(0);
	});

	it("should complete the profile from Cognito's attributes when a user without one logs in", async () => {
		const email = newEmail();
		const user = await idp.createUser({ email, password: PASSWORD, firstName: "Grace", lastName: "Hopper" });

		const login = await http(platform.baseUrl, "POST", "/auth/login", { json: { username: email, password: PASSWORD } });

		expect(login.status).toBe(200);
		const actor = await http(platform.baseUrl, "GET", `/actors/${user.sub}`, { token: login.body.accessToken });
		expect(actor.body).toMatchObject({ actorId: user.sub, email, firstName: "Grace", lastName: "Hopper" });
	});
});
