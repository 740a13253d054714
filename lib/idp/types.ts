/**
 * The identity provider behind the auth service: the embedded one (default) or
 * AWS Cognito. Both produce Cognito-shaped JWTs, so one verifier serves both.
 */
import type { JWTVerifyGetKey } from "jose";

/** Why the start stops when the bootstrap administrator's email belongs to someone else. */
export const BOOTSTRAP_REFUSED =
	"BOOTSTRAP_ADMIN_EMAIL names an existing user who is not an administrator and whose password is not BOOTSTRAP_ADMIN_PASSWORD: refusing to make it an administrator";

export interface TokenSet {
	accessToken: string;
	idToken: string;
	refreshToken: string;
	/** Unix seconds; equals the access token's exp. */
	expiresAt: number;
	expiresIn: number;
	tokenType: "Bearer";
}

export interface NewUser {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
	/** Whether the email counts as verified from the start (default false: registration proves nothing). */
	emailVerified?: boolean;
}

/**
 * How and when a session's user was authenticated: the `amr` (RFC 8176 values: pwd,
 * otp, hwk, swk, mfa, sms, email) and `auth_time` (Unix seconds) of its tokens. A
 * refresh keeps the session's own.
 */
export interface AuthContext {
	authTime: number;
	amr: string[];
}

/** What a password sign-in established before any second factor (see IdentityProvider.authenticate). */
export interface PasswordCheck {
	user: CreatedUser;
	/** The user's groups (cognito:groups): MFA_ENFORCE=admins asks for "admin". */
	groups: string[];
	/**
	 * Cognito only: the pool has issued its token set already; the platform holds it
	 * until the second factor passes. The embedded provider issues nothing yet.
	 */
	tokens?: TokenSet;
}

/** A user of the actor pool. */
export interface CreatedUser {
	/** Stable subject (the sub claim); also the actor id. */
	sub: string;
	/** The provider's internal username, used to delete, refresh or sign in without a password. */
	username: string;
}

/** What the identity provider holds about a user, to fill an actor profile with. */
export interface UserProfile extends CreatedUser {
	email: string;
	/** Absent for users made without names (the embedded provider's bootstrap administrator). */
	firstName?: string;
	lastName?: string;
	/** The platform has seen proof that the user holds the address (shown as email_verified in ID tokens). */
	emailVerified: boolean;
	/** E.164, once set (PUT /auth/phone); only a verified one is ever stored. */
	phone?: string;
	phoneVerified?: boolean;
}

/** A service account of the service pool (services outside the platform sign in with it). */
export interface ServiceAccount {
	serviceId: string;
	username: string;
	createdAt: string;
}

/** A user whose identity a social provider vouches for; they have no password. */
export interface FederatedUser {
	email: string;
	firstName: string;
	lastName: string;
}

/** What a verifier needs to accept tokens of one pool. */
export interface TokenTrust {
	issuer: string;
	keys: JWTVerifyGetKey;
	algorithms: string[];
	/** Access tokens: client_id; ID tokens: aud. */
	clientId: string;
}

export interface ServiceToken {
	token: string;
	/** Unix seconds. */
	expiresAt: number;
}

export interface IdentityProvider {
	readonly kind: "embedded" | "cognito";
	/** Trust anchors for user access tokens and for service ID tokens. */
	trust(): { actors: TokenTrust; services: TokenTrust };
	/** Public keys to publish at /.well-known/jwks.json; null when the provider publishes its own. */
	jwks(): Promise<{ keys: object[] } | null>;
	/** Creates a confirmed user; USER_EXISTS / INVALID_PASSWORD client errors. */
	createUser(user: NewUser): Promise<CreatedUser>;
	deleteUser(username: string): Promise<void>;
	/** The user who signs in with this email, or null. */
	findUserByEmail(email: string): Promise<CreatedUser | null>;
	/** The same user with its attributes, or null. */
	findProfileByEmail(email: string): Promise<UserProfile | null>;
	/** Creates a confirmed user for social sign-in, with a random password nobody knows. USER_EXISTS client error. */
	createFederatedUser(user: FederatedUser): Promise<CreatedUser>;
	/**
	 * Tokens for a user the platform has already authenticated another way (social
	 * sign-in), without a password. INVALID_CREDENTIALS when the user is gone.
	 */
	issueForUser(user: CreatedUser, auth?: AuthContext): Promise<TokenSet>;
	/**
	 * The first step of a password sign-in: INVALID_CREDENTIALS or USER_NOT_CONFIRMED,
	 * else the user, whose session the platform opens once every factor has passed.
	 */
	authenticate(username: string, password: string): Promise<PasswordCheck>;
	/** Password login; INVALID_CREDENTIALS or USER_NOT_CONFIRMED client errors. */
	login(username: string, password: string): Promise<TokenSet>;
	/** INVALID_REFRESH_TOKEN client error when the token is unknown, expired, revoked or reused. */
	refresh(refreshToken: string): Promise<TokenSet>;
	/** A service token (ID token with custom:service_id) from the service account. */
	serviceToken(serviceId: string): Promise<ServiceToken>;
	/** The user with this provider username (Cognito: the internal one, as in the access token), or null. */
	getProfile(username: string): Promise<UserProfile | null>;
	/** The user whose phone_number is this E.164 number, or null (the embedded provider; Cognito answers null). */
	findProfileByPhone(phone: string): Promise<UserProfile | null>;
	/** Sets phone_number with phone_number_verified: true (the platform checked the SMS code). */
	setVerifiedPhone(username: string, phone: string): Promise<void>;
	/** Records that the user holds their address; ID tokens issued afterwards carry email_verified: true. */
	markEmailVerified(username: string): Promise<void>;
	/**
	 * Gives the user a new, verified address (the platform has proof: the link mailed to
	 * it was used). USER_EXISTS client error when another user signs in with it.
	 */
	changeEmail(username: string, newEmail: string): Promise<void>;
	/** Sets a permanent password; INVALID_PASSWORD client error when the policy refuses it. */
	setPassword(username: string, password: string): Promise<void>;
	/** INVALID_CREDENTIALS client error unless `password` is the user's; issues nothing that outlives the call. */
	verifyPassword(email: string, password: string): Promise<void>;
	/** Ends the session (refresh-token family) this token belongs to; an unknown or ended one is no error. */
	revokeSession(refreshToken: string): Promise<void>;
	/**
	 * Whose live session this refresh token belongs to, for the sign-out's audit; null
	 * when unknown, ended, or the provider cannot tell (Cognito's tokens are opaque).
	 */
	sessionOwner?(refreshToken: string): Promise<{ sub: string; sid: string } | null>;
	/** Ends the user's session with this sid; false when it is not theirs or not live. Absent where the provider cannot end one session by its id. */
	revokeSessionById?(sub: string, sid: string): Promise<boolean>;
	/**
	 * What the deny list must hold, beside the sids, so these ended sessions' access tokens
	 * are refused where they carry no `sid` (Cognito: each session's origin_jti and the jti
	 * of every unexpired access token the platform linked to it). Absent where the sid suffices.
	 */
	sessionDenyKeys?(sids: readonly string[]): Promise<string[]>;
	/** The sids of the user's sessions that still hold a live refresh token; absent where the provider cannot tell. */
	liveSessionIds?(sub: string): Promise<Set<string>>;
	/** Told when a rotated refresh token comes back and its session is ended (the audit's refresh_reuse_detected). */
	onRefreshReuse?(listener: (sub: string, sid: string) => Promise<void>): void;
	/** Ends every session of the user, except the one named `keepSession` (the `sid` claim) where the provider can tell them apart. */
	revokeAllSessions(user: CreatedUser, keepSession?: string): Promise<void>;
	/** Password sign-in to the service pool: a token set whose idToken is the service token. */
	serviceLogin(username: string, password: string): Promise<TokenSet>;
	/** A new service account with a generated password (returned once); SERVICE_EXISTS client error. */
	createServiceAccount(serviceId: string): Promise<ServiceAccount & { password: string }>;
	listServiceAccounts(): Promise<ServiceAccount[]>;
	/** False when there is no such account. */
	deleteServiceAccount(serviceId: string): Promise<boolean>;
	/** A new signing key signs from now on (embedded provider); answers its kid. NOT_FOUND client error where the provider keeps its own keys. */
	rotateSigningKey(): Promise<string>;
	/** Makes sure the configured administrator exists (BOOTSTRAP_ADMIN_*). */
	bootstrap(): Promise<void>;
	close(): Promise<void>;
}

/** One session as the platform records it for a provider whose tokens carry no `sid` (Cognito). */
export interface PlatformSession {
	id: string;
	userSub: string;
	/** When it was ended; absent or null while open. */
	endedAt?: string | null;
}

/**
 * The platform's record of Cognito's sessions (lib/mfa/sessions.ts AuthSessions), handed
 * to the provider by whoever makes it (lib/runtime.ts, lib/cli), so lib/idp imports
 * nothing of lib/mfa.
 */
export interface PlatformSessions {
	/** The session a refresh token (as handed out) belongs to, ended or not. */
	byRefresh(refreshToken: string): Promise<PlatformSession | null>;
	/** Links a refresh's new access token to its session; false when the session has ended. */
	refreshed(refreshToken: string, tokens: TokenSet, known?: PlatformSession | null): Promise<boolean>;
	/** Marks the user's session ended; the record as it was, or null when there is none of theirs open. */
	end(userSub: string, id: string): Promise<PlatformSession | null>;
	/** Marks every open session of the user ended; their ids. */
	endAll(userSub: string): Promise<string[]>;
	/** Marks the session of this refresh token ended (a sign-out). */
	endByRefresh(refreshToken: string): Promise<PlatformSession | null>;
	get(id: string): Promise<PlatformSession | null>;
	/** The session's refresh token where it was kept sealed; undefined otherwise. */
	refreshTokenOf(rec: PlatformSession): string | undefined;
	/** What the deny list must hold so these sessions' access tokens are refused. */
	denyKeys(ids: readonly string[]): Promise<string[]>;
}
