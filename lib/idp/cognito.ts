/**
 * AWS Cognito as the identity provider: users sign in to the actor pool, the
 * service account to the service pool, and Cognito signs every token.
 *
 * Expected pool setup:
 * - Actor pool with UsernameAttributes ["email"] (email is the sign-in name; Cognito
 *   then gives each user an internal username, the sub) and an app client with
 *   ALLOW_USER_PASSWORD_AUTH and ALLOW_REFRESH_TOKEN_AUTH, refresh-token rotation off
 *   (rotation forbids REFRESH_TOKEN_AUTH). The client secret is optional.
 * - Service pool with a custom attribute service_id and a client like the above; the
 *   service account is a confirmed user with a permanent password and custom:service_id
 *   set, because access tokens carry no custom attributes and services present their ID token.
 * - The calling identity needs IAM rights for the admin APIs used here (AdminCreateUser,
 *   AdminSetUserPassword, AdminDeleteUser, AdminGetUser, ListGroups, CreateGroup,
 *   AdminAddUserToGroup).
 * - Social sign-in: the actor client also allows ALLOW_CUSTOM_AUTH, and the pool's
 *   DefineAuthChallenge, CreateAuthChallenge and VerifyAuthChallengeResponse triggers
 *   run customAuthTriggers (./cognito-custom-auth.ts) with IDP_CUSTOM_AUTH_SECRET.
 */
import { createHmac } from "node:crypto";
import {
	AdminAddUserToGroupCommand,
	AdminCreateUserCommand,
	AdminDeleteUserCommand,
	AdminListGroupsForUserCommand,
	AdminGetUserCommand,
	AdminSetUserPasswordCommand,
	AdminUpdateUserAttributesCommand,
	AdminUserGlobalSignOutCommand,
	CognitoIdentityProviderClient,
	RevokeTokenCommand,
	paginateListUsers,
	type UserType,
	CreateGroupCommand,
	InitiateAuthCommand,
	RespondToAuthChallengeCommand,
	paginateListGroups,
	type AttributeType,
	type AuthenticationResultType
} from "@aws-sdk/client-cognito-identity-provider";
import { createRemoteJWKSet, decodeJwt } from "jose";
import type { IdpConfig } from "../config";
import { isLoopbackEndpoint } from "../crypto";
import { randomToken } from "../crypto";
import { ClientError, UpstreamError, badRequest } from "../errors";
import { CUSTOM_CHALLENGE, NONCE_PARAMETER, customAuthAnswer } from "./cognito-custom-auth";
import { BOOTSTRAP_REFUSED, type PasswordCheck, type CreatedUser, type FederatedUser, type IdentityProvider, type NewUser, type ServiceToken, type PlatformSessions, type TokenSet, type TokenTrust, type UserProfile } from "./types";
import { normalizeEmail } from "../email-address";
import type { Store } from "../store";
import { checkServiceId, serviceAccountUsername, serviceExists } from "./service-accounts";
import type { ServiceAccount } from "./types";

/** When the platform last ended every session of a user (keyed by the internal username). */
interface SessionRevocation {
	id: string;
	/** Unix milliseconds: refresh tokens wrapped at or before it are refused. */
	revokedAt: number;
}

const ADMIN_GROUP = "admin";
/** Longer than any Cognito refresh token (a ~1.8 kB JWE) plus the username prefix. */
const MAX_REFRESH_TOKEN_LENGTH = 8192;
const REFRESH_SEPARATOR = "~";
/** Marks the optional issue-time part of a wrapped refresh token (a Cognito token never starts with it and "~"). */
const ISSUED_PREFIX = "i";

/** What the failed call was doing decides which client error a Cognito exception becomes. */
type Operation = "login" | "refresh" | "customAuth" | "createUser" | "setPassword" | "serviceAccount" | "admin";

const invalidCredentials = () => new ClientError(401, "INVALID_CREDENTIALS", "The username or password is incorrect.");
const invalidRefresh = () => new ClientError(401, "INVALID_REFRESH_TOKEN", "The refresh token is invalid or expired.");
const userExists = () => new ClientError(409, "USER_EXISTS", "A user with this email already exists.");

const nameOf = (err: unknown): string => (err instanceof Error ? err.name : "");

/**
 * Only exception names reach messages: Cognito's own texts can quote request
 * values, and requests here carry passwords and tokens.
 */
function mapError(err: unknown, op: Operation): Error {
	if (err instanceof ClientError || err instanceof UpstreamError) return err;
	const name = nameOf(err);
	if (name === "TooManyRequestsException" || name === "LimitExceededException") {
		return new ClientError(429, "RATE_LIMITED", "Too many requests to the identity provider; try again shortly.", { retryAfter: 1 });
	}
	switch (op) {
		case "login":
			// cognito-local answers a wrong password with InvalidPasswordException; a
			// pending password reset is a failed login too, never a hint about the account.
			if (["NotAuthorizedException", "UserNotFoundException", "InvalidPasswordException", "PasswordResetRequiredException"].includes(name)) {
				return invalidCredentials();
			}
			if (name === "UserNotConfirmedException") return new ClientError(403, "USER_NOT_CONFIRMED", "The user is not confirmed.");
			break;
		case "customAuth":
			if (["NotAuthorizedException", "UserNotFoundException", "UserNotConfirmedException"].includes(name)) return invalidCredentials();
			break;
		case "refresh":
			if (["NotAuthorizedException", "UserNotFoundException", "UserNotConfirmedException", "PasswordResetRequiredException"].includes(name)) {
				return invalidRefresh();
			}
			break;
		case "createUser":
			if (name === "UsernameExistsException" || name === "AliasExistsException") return userExists();
			if (name === "InvalidParameterException") return badRequest("The email, first name or last name is not accepted.");
			break;
		case "setPassword":
			if (name === "InvalidPasswordException") {
				return new ClientError(422, "INVALID_PASSWORD", "The password does not meet the password policy.");
			}
			if (name === "InvalidParameterException") {
				return badRequest("The password is not accepted.", [{ field: "password", message: "is not accepted" }]);
			}
			break;
	}
	const code = (err as { code?: unknown }).code;
	const cause = [name, typeof code === "string" ? code : ""].filter(Boolean).join(" ") || "unknown error";
	return new UpstreamError(`Cognito ${op} call failed: ${cause}.`);
}

/** SECRET_HASH = Base64(HMAC_SHA256(clientSecret, username + clientId)). */
export function secretHash(clientSecret: string, username: string, clientId: string): string {
	return createHmac("sha256", clientSecret).update(username + clientId).digest("base64");
}

/**
 * REFRESH_TOKEN_AUTH with a client secret needs the internal username, which the
 * Cognito refresh token (opaque to us) does not reveal; so it travels in front of it.
 */
export function wrapRefreshToken(username: string, cognitoRefreshToken: string, issuedAtMs?: number): string {
	const issued = issuedAtMs === undefined ? "" : `${ISSUED_PREFIX}${issuedAtMs.toString(36)}${REFRESH_SEPARATOR}`;
	return `${Buffer.from(username, "utf8").toString("base64url")}${REFRESH_SEPARATOR}${issued}${cognitoRefreshToken}`;
}

/**
 * The username, the Cognito token, and when the platform issued it (0 for tokens
 * wrapped before the issue time was added: any revocation covers them).
 */
export function unwrapRefreshToken(wrapped: string): { username: string; token: string; issuedAtMs: number } {
	const { username, token } = unwrapUsername(wrapped);
	const issued = /^i([0-9a-z]{1,12})~(.+)$/s.exec(token);
	if (!issued) return { username, token, issuedAtMs: 0 };
	return { username, token: issued[2], issuedAtMs: parseInt(issued[1], 36) };
}

function unwrapUsername(wrapped: string): { username: string; token: string } {
	if (typeof wrapped !== "string" || wrapped.length > MAX_REFRESH_TOKEN_LENGTH) throw invalidRefresh();
	const sep = wrapped.indexOf(REFRESH_SEPARATOR);
	if (sep <= 0 || sep === wrapped.length - 1) throw invalidRefresh();
	const encoded = wrapped.slice(0, sep);
	const username = Buffer.from(encoded, "base64url").toString("utf8");
	// Buffer skips characters it cannot decode; only a canonical encoding is ours.
	if (!username || Buffer.from(username, "utf8").toString("base64url") !== encoded) throw invalidRefresh();
	return { username, token: wrapped.slice(sep + 1) };
}

function claimsOf(token: string): Record<string, unknown> {
	try {
		return decodeJwt(token);
	} catch {
		throw new UpstreamError("Cognito returned a token that is not a JWT.");
	}
}

function expOf(claims: Record<string, unknown>): number {
	if (typeof claims.exp !== "number") throw new UpstreamError("Cognito returned a token without exp.");
	return claims.exp;
}

function attribute(attributes: AttributeType[] | undefined, name: string): string | undefined {
	return attributes?.find(a => a.Name === name)?.Value;
}

function need(value: string | undefined, name: string): string {
	if (!value) throw new Error(`The Cognito identity provider needs ${name}`);
	return value;
}


export class CognitoIdentityProvider implements IdentityProvider {
	readonly kind = "cognito" as const;
	private readonly client: CognitoIdentityProviderClient;
	private readonly actorPoolId: string;
	private readonly actorClientId: string;
	private readonly serviceClientId: string;
	private readonly trustAnchors: { actors: TokenTrust; services: TokenTrust };

	private readonly servicePoolId: string;
	private readonly revocations;
	/** The platform's record of each session (lib/mfa/sessions.ts): Cognito's tokens carry no sid. */
	private readonly authSessions: PlatformSessions | undefined;

	/**
	 * `store` keeps the platform's record of sign-outs everywhere (see revokeAllSessions);
	 * `sessions`, its record of each session, ended ones included (see revokeSessionById).
	 */
	constructor(
		private readonly config: IdpConfig,
		store?: Store,
		private readonly log?: { warn?(message: string, fields?: object): void },
		sessions?: PlatformSessions
	) {
		this.revocations = store?.collection<SessionRevocation>("session_revocations");
		this.authSessions = sessions;
		this.actorPoolId = need(config.actorPoolId, "an actor pool id");
		this.actorClientId = need(config.actorClientId, "an actor client id");
		const servicePoolId = need(config.servicePoolId, "a service pool id");
		this.servicePoolId = servicePoolId;
		this.serviceClientId = need(config.serviceClientId, "a service client id");
		this.client = new CognitoIdentityProviderClient({
			region: config.region,
			// The SDK sets no timeout by default: a stalled connection would hang the login.
			requestHandler: { connectionTimeout: 3000, requestTimeout: 10000 },
			// An emulator ignores signatures, but the SDK refuses to send unsigned admin calls.
			...(config.endpoint ? { endpoint: config.endpoint } : {}),
			...(isLoopbackEndpoint(config.endpoint) ? { credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {})
		});
		const anchor = (poolId: string, clientId: string): TokenTrust => {
			// An emulator issues tokens under its own address; a real (or VPC) endpoint still
			// carries Cognito's issuer in the tokens.
			const issuer = config.endpoint && isLoopbackEndpoint(config.endpoint)
				? `${config.endpoint.replace(/\/+$/, "")}/${poolId}`
				: `https://cognito-idp.${config.region}.amazonaws.com/${poolId}`;
			return { issuer, keys: createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`)), algorithms: ["RS256"], clientId };
		};
		this.trustAnchors = {
			actors: anchor(this.actorPoolId, this.actorClientId),
			services: anchor(servicePoolId, this.serviceClientId)
		};
	}

	trust(): { actors: TokenTrust; services: TokenTrust } {
		return this.trustAnchors;
	}

	async jwks(): Promise<null> {
		return null;
	}

	private async call<T>(op: Operation, run: () => Promise<T>): Promise<T> {
		try {
			return await run();
		} catch (err) {
			throw mapError(err, op);
		}
	}

	private actorSecretHash(username: string): Record<string, string> {
		const secret = this.config.actorClientSecret;
		return secret ? { SECRET_HASH: secretHash(secret, username, this.actorClientId) } : {};
	}

	async createUser(user: NewUser): Promise<CreatedUser> {
		const email = normalizeEmail(user.email);
		// Admin creation skips the confirmation mail: SUPPRESS sends no invitation, and the
		// permanent password below moves the user from FORCE_CHANGE_PASSWORD to CONFIRMED.
		const created = await this.call("createUser", () =>
			this.client.send(
				new AdminCreateUserCommand({
					UserPoolId: this.actorPoolId,
					Username: email,
					MessageAction: "SUPPRESS",
					UserAttributes: [
						{ Name: "email", Value: email },
						// Left out rather than "false": Cognito's default is unverified, and cognito-local reads any value as true.
						...(user.emailVerified ? [{ Name: "email_verified", Value: "true" }] : []),
						{ Name: "given_name", Value: user.firstName },
						{ Name: "family_name", Value: user.lastName }
					]
				})
			)
		);
		const username = created.User?.Username;
		const sub = attribute(created.User?.Attributes, "sub");
		if (!username || !sub) throw new UpstreamError("Cognito created a user without username or sub.");
		try {
			await this.call("setPassword", () =>
				this.client.send(
					new AdminSetUserPasswordCommand({ UserPoolId: this.actorPoolId, Username: username, Password: user.password, Permanent: true })
				)
			);
		} catch (err) {
			// A user without a usable password would block the email until someone deletes it.
			await this.deleteUser(username).catch(() => undefined);
			throw err;
		}
		return { sub, username };
	}

	async deleteUser(username: string): Promise<void> {
		try {
			await this.client.send(new AdminDeleteUserCommand({ UserPoolId: this.actorPoolId, Username: username }));
		} catch (err) {
			if (nameOf(err) === "UserNotFoundException") return;
			throw mapError(err, "admin");
		}
	}

	async login(username: string, password: string): Promise<TokenSet> {
		const email = normalizeEmail(username);
		const res = await this.call("login", () =>
			this.client.send(
				new InitiateAuthCommand({
					AuthFlow: "USER_PASSWORD_AUTH",
					ClientId: this.actorClientId,
					AuthParameters: { USERNAME: email, PASSWORD: password, ...this.actorSecretHash(email) }
				})
			)
		);
		// A challenge (new password, MFA) cannot be answered through this API.
		if (res.ChallengeName) throw invalidCredentials();
		return this.signedIn(res.AuthenticationResult);
	}

	/** Cognito signs in at once: the pool's token set comes with the user, for the platform to hold until a second factor passes. */
	async authenticate(username: string, password: string): Promise<PasswordCheck> {
		const tokens = await this.login(username, password);
		const claims = claimsOf(tokens.accessToken);
		const sub = claims.sub;
		const internal = claims.username;
		if (typeof sub !== "string" || typeof internal !== "string") throw new UpstreamError("Cognito returned an access token without sub or username.");
		const groups = Array.isArray(claims["cognito:groups"]) ? (claims["cognito:groups"] as unknown[]).filter(g => typeof g === "string") as string[] : [];
		return { user: { sub, username: internal }, groups, tokens };
	}

	async findUserByEmail(email: string): Promise<CreatedUser | null> {
		const profile = await this.findProfileByEmail(email);
		return profile && { sub: profile.sub, username: profile.username };
	}

	findProfileByEmail(email: string): Promise<UserProfile | null> {
		return this.getProfile(normalizeEmail(email));
	}

	/** AdminGetUser takes the internal username or the email alias alike. */
	async getProfile(username: string): Promise<UserProfile | null> {
		try {
			const user = await this.client.send(new AdminGetUserCommand({ UserPoolId: this.actorPoolId, Username: username }));
			const sub = attribute(user.UserAttributes, "sub");
			if (!user.Username || !sub) throw new UpstreamError("Cognito returned a user without username or sub.");
			return {
				sub,
				username: user.Username,
				email: attribute(user.UserAttributes, "email") ?? normalizeEmail(username),
				firstName: attribute(user.UserAttributes, "given_name"),
				lastName: attribute(user.UserAttributes, "family_name"),
				emailVerified: attribute(user.UserAttributes, "email_verified") === "true",
				...(attribute(user.UserAttributes, "phone_number")
					? { phone: attribute(user.UserAttributes, "phone_number"), phoneVerified: attribute(user.UserAttributes, "phone_number_verified") === "true" }
					: {})
			};
		} catch (err) {
			if (nameOf(err) === "UserNotFoundException") return null;
			throw mapError(err, "admin");
		}
	}

	/**
	 * A permanent random password nobody keeps moves the user to CONFIRMED, which
	 * CUSTOM_AUTH needs; its shape meets Cognito's strictest password policy.
	 */
	async createFederatedUser(user: FederatedUser): Promise<CreatedUser> {
		// Social sign-in creates users only for emails the provider vouches for.
		return this.createUser({ ...user, password: `${randomToken(32)}aA1!`, emailVerified: true });
	}

	/** CUSTOM_AUTH with the platform's one challenge (./cognito-custom-auth.ts). */
	async issueForUser(user: CreatedUser): Promise<TokenSet> {
		const secret = need(this.config.customAuthSecret, "IDP_CUSTOM_AUTH_SECRET to sign in without a password");
		const started = await this.call("customAuth", () =>
			this.client.send(
				new InitiateAuthCommand({
					AuthFlow: "CUSTOM_AUTH",
					ClientId: this.actorClientId,
					AuthParameters: { USERNAME: user.username, ...this.actorSecretHash(user.username) }
				})
			)
		);
		const nonce = started.ChallengeParameters?.[NONCE_PARAMETER];
		if (started.ChallengeName !== CUSTOM_CHALLENGE || !started.Session || !nonce) {
			throw new UpstreamError("Cognito did not pose the platform's custom challenge; check the pool's auth-challenge triggers.");
		}
		const answered = await this.call("customAuth", () =>
			this.client.send(
				new RespondToAuthChallengeCommand({
					ChallengeName: CUSTOM_CHALLENGE,
					ClientId: this.actorClientId,
					Session: started.Session,
					ChallengeResponses: {
						USERNAME: user.username,
						ANSWER: customAuthAnswer(secret, user.username, nonce),
						...this.actorSecretHash(user.username)
					}
				})
			)
		);
		if (answered.ChallengeName) throw new UpstreamError("Cognito posed another challenge after the custom one; check DefineAuthChallenge.");
		return this.signedIn(answered.AuthenticationResult);
	}

	/** A sign-in's token set, its refresh token wrapped with the internal username (see wrapRefreshToken). */
	private signedIn(result: AuthenticationResultType | undefined): TokenSet {
		const refreshToken = result?.RefreshToken;
		if (!refreshToken) throw new UpstreamError("Cognito returned no refresh token.");
		const { tokens, claims } = this.tokenSet(result);
		const internal = claims.username;
		if (typeof internal !== "string" || !internal) throw new UpstreamError("Cognito returned an access token without username.");
		return { ...tokens, refreshToken: wrapRefreshToken(internal, refreshToken, Date.now()) };
	}

	/**
	 * Refused at once when the platform ended the token's session (one ended by its id, a
	 * sign-out) or every session of the user since the token was issued; a session ended
	 * while the pool answered is caught after its new access token is linked to it.
	 */
	async refresh(refreshToken: string): Promise<TokenSet> {
		const { username, token, issuedAtMs } = unwrapRefreshToken(refreshToken);
		const [revoked, session] = await Promise.all([this.revocations?.get(username), this.authSessions?.byRefresh(refreshToken)]);
		if (revoked && issuedAtMs <= revoked.revokedAt) throw invalidRefresh();
		if (session?.endedAt) throw invalidRefresh();
		const res = await this.call("refresh", () =>
			this.client.send(
				new InitiateAuthCommand({
					AuthFlow: "REFRESH_TOKEN_AUTH",
					ClientId: this.actorClientId,
					AuthParameters: { REFRESH_TOKEN: token, ...this.actorSecretHash(username) }
				})
			)
		);
		if (res.ChallengeName) throw invalidRefresh();
		// REFRESH_TOKEN_AUTH does not rotate: the presented token stays valid.
		const tokens = { ...this.tokenSet(res.AuthenticationResult).tokens, refreshToken };
		// The new access token joins its session's record (its auth_time and amr, and the deny keys if it ends).
		if (this.authSessions && !(await this.authSessions.refreshed(refreshToken, tokens, session ?? null))) throw invalidRefresh();
		return tokens;
	}

	/** expiresAt comes from the token itself: cognito-local omits ExpiresIn. */
	private tokenSet(result: AuthenticationResultType | undefined): {
		tokens: Omit<TokenSet, "refreshToken">;
		claims: Record<string, unknown>;
	} {
		const accessToken = result?.AccessToken;
		const idToken = result?.IdToken;
		if (!accessToken || !idToken) throw new UpstreamError("Cognito returned no tokens.");
		const claims = claimsOf(accessToken);
		const expiresAt = expOf(claims);
		const expiresIn = Math.max(0, expiresAt - Math.floor(Date.now() / 1000));
		return { tokens: { accessToken, idToken, expiresAt, expiresIn, tokenType: "Bearer" }, claims };
	}

	/**
	 * The service account's custom:service_id attribute names the service in the token;
	 * Cognito cannot mint a token for another id, so serviceId only labels the request.
	 */
	async serviceToken(_serviceId: string): Promise<ServiceToken> {
		const username = need(this.config.serviceAccountUsername, "a service account username");
		const password = need(this.config.serviceAccountPassword, "a service account password");
		const secret = this.config.serviceClientSecret;
		const res = await this.call("serviceAccount", () =>
			this.client.send(
				new InitiateAuthCommand({
					AuthFlow: "USER_PASSWORD_AUTH",
					ClientId: this.serviceClientId,
					AuthParameters: {
						USERNAME: username,
						PASSWORD: password,
						...(secret ? { SECRET_HASH: secretHash(secret, username, this.serviceClientId) } : {})
					}
				})
			)
		);
		if (res.ChallengeName) throw new UpstreamError(`The Cognito service account must answer the challenge ${res.ChallengeName}.`);
		const token = res.AuthenticationResult?.IdToken;
		if (!token) throw new UpstreamError("Cognito returned no ID token for the service account.");
		return { token, expiresAt: expOf(claimsOf(token)) };
	}

	/** Makes sure the administrator exists and is in group admin; safe on every start and on several nodes at once. */
	async bootstrap(): Promise<void> {
		const { bootstrapAdminEmail, bootstrapAdminPassword } = this.config;
		if (!bootstrapAdminEmail || !bootstrapAdminPassword) return;
		const username = await this.ensureUser(normalizeEmail(bootstrapAdminEmail), bootstrapAdminPassword);
		// The operator named this address: it counts as verified.
		await this.markEmailVerified(username);
		await this.ensureGroup(ADMIN_GROUP);
		await this.call("admin", () =>
			this.client.send(new AdminAddUserToGroupCommand({ UserPoolId: this.actorPoolId, GroupName: ADMIN_GROUP, Username: username }))
		);
	}

	/**
	 * An existing user keeps its password, and becomes an administrator only if that
	 * password is the configured one: registration does not verify addresses, so
	 * someone may have registered the email first.
	 */
	private async ensureUser(email: string, password: string): Promise<string> {
		const existing = await this.findUserByEmail(email);
		if (existing) {
			const holdsPassword = await this.login(email, password).then(
				() => true,
				() => false
			);
			if (!holdsPassword && !(await this.isAdmin(existing.username))) throw new Error(BOOTSTRAP_REFUSED);
			return existing.username;
		}
		try {
			return (await this.createUser({ email, password, firstName: "Admin", lastName: "User" })).username;
		} catch (err) {
			// Another node bootstrapping at the same moment got there first.
			const raced = (err as ClientError).type === "USER_EXISTS" ? await this.findUserByEmail(email) : null;
			if (!raced) throw err;
			return raced.username;
		}
	}

	/** Whether the user is in the admin group already (then a changed password is theirs to keep). */
	private async isAdmin(username: string): Promise<boolean> {
		const out = await this.call("admin", () =>
			this.client.send(new AdminListGroupsForUserCommand({ UserPoolId: this.actorPoolId, Username: username }))
		);
		return (out.Groups ?? []).some(g => g.GroupName === ADMIN_GROUP);
	}

	/**
	 * Looks before creating: cognito-local's CreateGroup overwrites an existing group and
	 * drops its members, and its GetGroup fails with a 500 while the pool has no group yet.
	 */
	private async ensureGroup(groupName: string): Promise<void> {
		const exists = await this.call("admin", async () => {
			for await (const page of paginateListGroups({ client: this.client }, { UserPoolId: this.actorPoolId })) {
				if (page.Groups?.some(g => g.GroupName === groupName)) return true;
			}
			return false;
		});
		if (exists) return;
		try {
			await this.client.send(new CreateGroupCommand({ UserPoolId: this.actorPoolId, GroupName: groupName }));
		} catch (err) {
			// Another node bootstrapping at the same moment created it.
			if (nameOf(err) !== "GroupExistsException") throw mapError(err, "admin");
		}
	}

	/** The email is sent along unchanged: cognito-local refuses email_verified without it, and Cognito keeps an equal value as it is. */
	/** Passwordless sign-in needs the embedded provider: no look-up by phone here. */
	async findProfileByPhone(): Promise<UserProfile | null> {
		return null;
	}

	async setVerifiedPhone(username: string, phone: string): Promise<void> {
		await this.call("admin", () =>
			this.client.send(
				new AdminUpdateUserAttributesCommand({
					UserPoolId: this.actorPoolId,
					Username: username,
					UserAttributes: [
						{ Name: "phone_number", Value: phone },
						{ Name: "phone_number_verified", Value: "true" }
					]
				})
			)
		);
	}

	async markEmailVerified(username: string): Promise<void> {
		const profile = await this.getProfile(username);
		if (!profile) throw invalidCredentials();
		await this.call("admin", () =>
			this.client.send(
				new AdminUpdateUserAttributesCommand({
					UserPoolId: this.actorPoolId,
					Username: username,
					UserAttributes: [
						{ Name: "email", Value: profile.email },
						{ Name: "email_verified", Value: "true" }
					]
				})
			)
		);
	}

	/** AdminUpdateUserAttributes with the new address, verified: the link mailed to it was used. */
	async changeEmail(username: string, newEmail: string): Promise<void> {
		try {
			await this.client.send(
				new AdminUpdateUserAttributesCommand({
					UserPoolId: this.actorPoolId,
					Username: username,
					UserAttributes: [
						{ Name: "email", Value: normalizeEmail(newEmail) },
						{ Name: "email_verified", Value: "true" }
					]
				})
			);
		} catch (err) {
			if (nameOf(err) === "AliasExistsException") throw new ClientError(409, "USER_EXISTS", "A user with this email already exists.");
			if (nameOf(err) === "UserNotFoundException") throw invalidCredentials();
			throw mapError(err, "admin");
		}
	}

	async setPassword(username: string, password: string): Promise<void> {
		await this.call("setPassword", () =>
			this.client.send(new AdminSetUserPasswordCommand({ UserPoolId: this.actorPoolId, Username: username, Password: password, Permanent: true }))
		);
	}

	/** A sign-in whose refresh token is revoked at once: nothing of it outlives the check. */
	async verifyPassword(email: string, password: string): Promise<void> {
		const tokens = await this.login(email, password);
		await this.revokeSession(tokens.refreshToken);
	}

	/** A sign-out: the platform's record of the session ends (its refresh route refuses the token from now on) and the pool revokes it. */
	async revokeSession(refreshToken: string): Promise<void> {
		let token: string;
		try {
			token = unwrapRefreshToken(refreshToken).token;
		} catch {
			return;
		}
		await this.authSessions?.endByRefresh(refreshToken);
		await this.revokeAtPool(token);
	}

	/** RevokeToken: the pool's refresh token, and the access tokens issued with it, end at Cognito. */
	private async revokeAtPool(token: string): Promise<void> {
		const secret = this.config.actorClientSecret;
		try {
			await this.client.send(new RevokeTokenCommand({ Token: token, ClientId: this.actorClientId, ...(secret ? { ClientSecret: secret } : {}) }));
		} catch (err) {
			// An unknown or already revoked token: signed out all the same.
			if (["NotAuthorizedException", "UnsupportedTokenTypeException", "InvalidParameterException"].includes(nameOf(err))) return;
			throw mapError(err, "admin");
		}
	}

	/** Whose open session this refresh token (as the platform handed it out) belongs to: the platform's record tells. */
	async sessionOwner(refreshToken: string): Promise<{ sub: string; sid: string } | null> {
		const rec = await this.authSessions?.byRefresh(refreshToken);
		return rec && !rec.endedAt ? { sub: rec.userSub, sid: rec.id } : null;
	}

	/**
	 * Ends one session by its id, which Cognito cannot do by itself: the platform's record
	 * ends (its refresh route refuses the session's token at once) and, where the token was
	 * kept sealed (IDP_KEY_ENCRYPTION_KEY), RevokeToken ends it at the pool too. The access
	 * tokens are denied through sessionDenyKeys. False for another user's session or an
	 * ended one; true for a session the platform recorded no record of (opened before it did).
	 */
	async revokeSessionById(sub: string, sid: string): Promise<boolean> {
		const sessions = this.authSessions;
		if (!sessions) return true;
		const rec = await sessions.end(sub, sid);
		if (!rec) return (await sessions.get(sid)) === null;
		const wrapped = sessions.refreshTokenOf(rec);
		if (wrapped) {
			// The session is over for the platform whatever the pool answers: a failure here only leaves the pool's copy to expire.
			await this.revokeAtPool(unwrapRefreshToken(wrapped).token).catch((err: Error) =>
				this.log?.warn?.("Cognito did not revoke an ended session's refresh token; the platform refuses it all the same", { error: err.message })
			);
		}
		return true;
	}

	async sessionDenyKeys(sids: readonly string[]): Promise<string[]> {
		return this.authSessions ? this.authSessions.denyKeys(sids) : [];
	}

	/**
	 * AdminUserGlobalSignOut ends every refresh token at Cognito. The platform also
	 * records the moment, and its refresh route refuses tokens it wrapped before it:
	 * that holds even where the global sign-out is unavailable (cognito-local has
	 * none; only there, at a loopback endpoint, is its absence tolerated). Cognito
	 * cannot keep one session apart, so `keepSession` is not honoured here.
	 */
	async revokeAllSessions(user: CreatedUser, _keepSession?: string): Promise<void> {
		await this.authSessions?.endAll(user.sub);
		if (this.revocations) {
			const revokedAt = Date.now();
			if ((await this.revocations.updateMany({ id: user.username }, { $set: { revokedAt } })) === 0) {
				try {
					await this.revocations.insert({ id: user.username, revokedAt });
				} catch {
					await this.revocations.updateMany({ id: user.username }, { $set: { revokedAt } });
				}
			}
		}
		try {
			await this.client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: this.actorPoolId, Username: user.username }));
		} catch (err) {
			if (isLoopbackEndpoint(this.config.endpoint) && this.revocations && /Unsupported/.test(`${nameOf(err)} ${(err as { __type?: string }).__type ?? ""}`)) return;
			throw mapError(err, "admin");
		}
	}

	async serviceLogin(username: string, password: string): Promise<TokenSet> {
		// The configured account stands for the platform's own nodes, not for one outside service.
		if (username === this.config.serviceAccountUsername) throw invalidCredentials();
		const secret = this.config.serviceClientSecret;
		const res = await this.call("login", () =>
			this.client.send(
				new InitiateAuthCommand({
					AuthFlow: "USER_PASSWORD_AUTH",
					ClientId: this.serviceClientId,
					AuthParameters: { USERNAME: username, PASSWORD: password, ...(secret ? { SECRET_HASH: secretHash(secret, username, this.serviceClientId) } : {}) }
				})
			)
		);
		if (res.ChallengeName) throw invalidCredentials();
		const refreshToken = res.AuthenticationResult?.RefreshToken;
		if (!refreshToken) throw new UpstreamError("Cognito returned no refresh token.");
		return { ...this.tokenSet(res.AuthenticationResult).tokens, refreshToken };
	}

	async createServiceAccount(serviceId: string): Promise<ServiceAccount & { password: string }> {
		checkServiceId(serviceId);
		const username = serviceAccountUsername(serviceId);
		if (username === this.config.serviceAccountUsername) throw serviceExists();
		// Meets Cognito's strictest password policy.
		const password = `${randomToken(32)}aA1!`;
		const created = await this.call("serviceAccount", async () => {
			try {
				return await this.client.send(
					new AdminCreateUserCommand({
						UserPoolId: this.servicePoolId,
						Username: username,
						MessageAction: "SUPPRESS",
						UserAttributes: [{ Name: "custom:service_id", Value: serviceId }]
					})
				);
			} catch (err) {
				if (nameOf(err) === "UsernameExistsException") throw serviceExists();
				throw err;
			}
		});
		try {
			await this.call("serviceAccount", () =>
				this.client.send(new AdminSetUserPasswordCommand({ UserPoolId: this.servicePoolId, Username: username, Password: password, Permanent: true }))
			);
		} catch (err) {
			await this.client.send(new AdminDeleteUserCommand({ UserPoolId: this.servicePoolId, Username: username })).catch(() => undefined);
			throw err;
		}
		return { serviceId, username, password, createdAt: (created.User?.UserCreateDate ?? new Date()).toISOString() };
	}

	async listServiceAccounts(): Promise<ServiceAccount[]> {
		const users: UserType[] = await this.call("admin", async () => {
			const all: UserType[] = [];
			for await (const page of paginateListUsers({ client: this.client }, { UserPoolId: this.servicePoolId })) all.push(...(page.Users ?? []));
			return all;
		});
		return users
			.filter(u => u.Username && u.Username !== this.config.serviceAccountUsername && attribute(u.Attributes, "custom:service_id"))
			.filter(u => u.Username === serviceAccountUsername(attribute(u.Attributes, "custom:service_id")!))
			.map(u => ({
				serviceId: attribute(u.Attributes, "custom:service_id")!,
				username: u.Username!,
				createdAt: (u.UserCreateDate ?? new Date(0)).toISOString()
			}))
			.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
	}

	async deleteServiceAccount(serviceId: string): Promise<boolean> {
		const username = serviceAccountUsername(serviceId);
		if (username === this.config.serviceAccountUsername) return false;
		try {
			await this.client.send(new AdminDeleteUserCommand({ UserPoolId: this.servicePoolId, Username: username }));
			return true;
		} catch (err) {
			if (nameOf(err) === "UserNotFoundException") return false;
			throw mapError(err, "admin");
		}
	}

	async rotateSigningKey(): Promise<string> {
		throw new ClientError(404, "NOT_FOUND", "Cognito keeps and rotates its own signing keys.");
	}

	async close(): Promise<void> {
		this.client.destroy();
	}
}
