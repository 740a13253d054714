/**
 * The embedded identity provider: the platform runs with no cloud account.
 * Users and service accounts live in the store with scrypt password hashes; JWTs are
 * signed with an Ed25519 key and shaped like Cognito's, so the same verifier and
 * the same clients work with either provider. Refresh tokens are opaque, stored
 * under their SHA-256, rotated on use; presenting a rotated one revokes its family.
 */
import { createHash, randomUUID } from "node:crypto";
import { SecretBox } from "../crypto/secretbox";
import { SignJWT, type JWK, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { PublicKeySet } from "./public-keys";
import { ALL_SERVICES, type IdpConfig } from "../config";
import { randomToken, sha256 } from "../crypto";
import { ClientError } from "../errors";
import { DuplicateKeyError, type BatchOp, type Store } from "../store";
import { RETIRE_MARGIN_SEC, SIGNING_ALG, SigningKeyRing, publishedKeys, type SigningKey } from "./keys";
import { DUMMY_HASH, PASSWORD_POLICY, hashPassword, meetsPolicy, needsRehash, verifyPassword } from "./password";
import { checkServiceId, serviceAccountUsername, serviceExists } from "./service-accounts";
import { BOOTSTRAP_REFUSED, type AuthContext, type PasswordCheck, type ServiceAccount, type CreatedUser, type FederatedUser, type IdentityProvider, type NewUser, type ServiceToken, type TokenSet, type TokenTrust, type UserProfile } from "./types";
import { normalizeEmail } from "../email-address";

type Pool = "actors" | "services";

export interface IdpUser {
	id: string;
	pool: Pool;
	username: string;
	email?: string;
	givenName?: string;
	familyName?: string;
	/** Absent on users made before verification existed: not verified. */
	emailVerified?: boolean;
	/** E.164; set only once verified by an SMS code (PUT /auth/phone, POST /auth/phone/verify). */
	phoneNumber?: string;
	phoneNumberVerified?: boolean;
	/** Service pool: the service the account signs in as (absent on the configured account). */
	serviceId?: string;
	passwordHash: string;
	groups: string[];
	createdAt: string;
	updatedAt: string;
}

/** Where the embedded provider keeps its refresh tokens (by the SHA-256 of the token). */
const REFRESH_TOKENS = "idp_refresh_tokens";

export interface RefreshRecord {
	id: string;
	familyId: string;
	userId: string;
	createdAt: string;
	expiresAt: string;
	usedAt: string | null;
	revokedAt: string | null;
	/**
	 * The token set that replaced this token, sealed under a key derived from this
	 * token itself: only a holder of the token can open it, within the reuse grace.
	 */
	successor?: string;
	/** The session's auth_time and amr, which every token of the family carries (absent on families older than MFA: the first token's time, pwd). */
	authTime?: number;
	amr?: string[];
}

export const EMBEDDED_ACTOR_CLIENT_ID = "embedded-actors";
export const EMBEDDED_SERVICE_CLIENT_ID = "embedded-services";

const invalidCredentials = () => new ClientError(401, "INVALID_CREDENTIALS", "The username or password is incorrect.");
/** How long a reused token waits for its successor to be stored by the request that rotated it. */
const SUCCESSOR_WAIT_MS = 2000;
const SUCCESSOR_POLL_MS = 20;

/** Seals a successor token set under a key only the holder of the rotated token can derive. */
function successorBox(refreshToken: string): SecretBox {
	return new SecretBox(createHash("sha256").update("refresh-successor:").update(refreshToken).digest());
}

const invalidRefresh = () => new ClientError(401, "INVALID_REFRESH_TOKEN", "The refresh token is invalid or expired.");

/**
 * What a verifier trusts for the embedded provider. It follows from the configuration
 * and the public keys alone, so a node that only verifies never builds the provider.
 */
export function embeddedTrust(config: IdpConfig, publicUrl: string, keys: JWTVerifyGetKey): { actors: TokenTrust; services: TokenTrust } {
	const algorithms = [SIGNING_ALG];
	return {
		actors: { issuer: `${publicUrl}/idp/actors`, keys, algorithms, clientId: config.actorClientId ?? EMBEDDED_ACTOR_CLIENT_ID },
		services: { issuer: `${publicUrl}/idp/services`, keys, algorithms, clientId: config.serviceClientId ?? EMBEDDED_SERVICE_CLIENT_ID }
	};
}

export interface EmbeddedOptions {
	config: IdpConfig;
	/** Base of the issuers: `${publicUrl}/idp/actors` and `${publicUrl}/idp/services`. */
	publicUrl: string;
	store: Store;
	/** The signing key, or a ring that follows rotations (./keys.ts). */
	key: SigningKey | SigningKeyRing;
	/** A rotated refresh token presented again within this many seconds gets the same successor (REFRESH_TOKEN_REUSE_INTERVAL_SECONDS). */
	refreshReuseIntervalSec?: number;
	now?: () => number;
}

export class EmbeddedIdentityProvider implements IdentityProvider {
	readonly kind = "embedded" as const;
	private readonly users;
	private readonly refreshTokens;
	private readonly actorIssuer: string;
	private readonly serviceIssuer: string;
	private readonly actorClientId: string;
	private readonly serviceClientId: string;
	private readonly anchors: { actors: TokenTrust; services: TokenTrust };
	private readonly now: () => number;
	private serviceAccountReady: Promise<void> | null = null;
	private readonly reuseListeners: ((sub: string, sid: string) => Promise<void>)[] = [];

	constructor(private readonly opts: EmbeddedOptions) {
		this.users = opts.store.collection<IdpUser>("idp_users");
		this.refreshTokens = opts.store.collection<RefreshRecord>(REFRESH_TOKENS);
		this.now = opts.now ?? Date.now;
		const keys = new PublicKeySet({ fetch: () => this.jwks(), source: "the store", now: this.now });
		this.anchors = embeddedTrust(opts.config, opts.publicUrl, keys.getKey);
		this.actorIssuer = this.anchors.actors.issuer;
		this.serviceIssuer = this.anchors.services.issuer;
		this.actorClientId = this.anchors.actors.clientId;
		this.serviceClientId = this.anchors.services.clientId;
	}

	trust(): { actors: TokenTrust; services: TokenTrust } {
		return this.anchors;
	}

	/** Read from the store on every call: a key another node added is published at once. */
	async jwks(): Promise<{ keys: JWK[] }> {
		return { keys: await publishedKeys(this.opts.store, this.now()) };
	}

	private nowSec(): number {
		return Math.floor(this.now() / 1000);
	}

	private iso(offsetSec = 0): string {
		return new Date(this.now() + offsetSec * 1000).toISOString();
	}

	private async insertUser(pool: Pool, username: string, password: string, extra: Partial<IdpUser>): Promise<IdpUser> {
		const user: IdpUser = {
			id: randomUUID(),
			pool,
			username,
			passwordHash: await hashPassword(password),
			groups: [],
			createdAt: this.iso(),
			updatedAt: this.iso(),
			...extra
		};
		try {
			return await this.users.insert(user);
		} catch (err) {
			if (err instanceof DuplicateKeyError) throw new ClientError(409, "USER_EXISTS", "A user with this email already exists.");
			throw err;
		}
	}

	async createUser(u: NewUser): Promise<CreatedUser> {
		if (!meetsPolicy(u.password)) {
			throw new ClientError(422, "INVALID_PASSWORD", `The password must have ${PASSWORD_POLICY}.`);
		}
		const email = normalizeEmail(u.email);
		const user = await this.insertUser("actors", email, u.password, {
			email,
			givenName: u.firstName,
			familyName: u.lastName,
			emailVerified: u.emailVerified === true
		});
		return { sub: user.id, username: user.username };
	}

	async deleteUser(username: string): Promise<void> {
		const user = await this.users.findOne({ pool: "actors", username: normalizeEmail(username) });
		if (!user) return;
		await this.refreshTokens.deleteMany({ userId: user.id });
		await this.users.deleteMany({ id: user.id });
	}

	async findUserByEmail(email: string): Promise<CreatedUser | null> {
		const profile = await this.findProfileByEmail(email);
		return profile && { sub: profile.sub, username: profile.username };
	}

	async findProfileByEmail(email: string): Promise<UserProfile | null> {
		const user = await this.users.findOne({ pool: "actors", username: normalizeEmail(email) });
		if (!user) return null;
		return this.profileOf(user);
	}

	private profileOf(user: IdpUser): UserProfile {
		return {
			sub: user.id,
			username: user.username,
			email: user.email ?? user.username,
			firstName: user.givenName,
			lastName: user.familyName,
			emailVerified: user.emailVerified === true,
			// Only accounts with a phone name it (and whether it is verified).
			...(user.phoneNumber ? { phone: user.phoneNumber, phoneVerified: user.phoneNumberVerified === true } : {})
		};
	}

	async findProfileByPhone(phone: string): Promise<UserProfile | null> {
		const user = await this.users.findOne({ pool: "actors", phoneNumber: phone, phoneNumberVerified: true });
		return user ? this.profileOf(user) : null;
	}

	async setVerifiedPhone(username: string, phone: string): Promise<void> {
		await this.users.updateMany({ pool: "actors", username: normalizeEmail(username) }, { $set: { phoneNumber: phone, phoneNumberVerified: true, updatedAt: this.iso() } });
	}

	/** The username is the email here. */
	getProfile(username: string): Promise<UserProfile | null> {
		return this.findProfileByEmail(username);
	}

	async markEmailVerified(username: string): Promise<void> {
		await this.users.updateMany({ pool: "actors", username: normalizeEmail(username) }, { $set: { emailVerified: true, updatedAt: this.iso() } });
	}

	/** The address is the embedded user's username too: sign-in uses the new one from now on. */
	async changeEmail(username: string, newEmail: string): Promise<void> {
		const email = normalizeEmail(newEmail);
		try {
			const n = await this.users.updateMany({ pool: "actors", username: normalizeEmail(username) }, { $set: { username: email, email, emailVerified: true, updatedAt: this.iso() } });
			if (n === 0) throw invalidCredentials();
		} catch (err) {
			if (err instanceof DuplicateKeyError) throw new ClientError(409, "USER_EXISTS", "A user with this email already exists.");
			throw err;
		}
	}

	async setPassword(username: string, password: string): Promise<void> {
		if (!meetsPolicy(password)) throw new ClientError(422, "INVALID_PASSWORD", `The password must have ${PASSWORD_POLICY}.`);
		const passwordHash = await hashPassword(password);
		const n = await this.users.updateMany({ pool: "actors", username: normalizeEmail(username) }, { $set: { passwordHash, updatedAt: this.iso() } });
		if (n === 0) throw invalidCredentials();
	}

	async verifyPassword(email: string, password: string): Promise<void> {
		await this.checkPassword("actors", email, password);
	}

	async revokeSession(refreshToken: string): Promise<void> {
		if (typeof refreshToken !== "string" || refreshToken.length > 512) return;
		const rec = await this.refreshTokens.get(sha256(refreshToken));
		if (!rec) return;
		await this.refreshTokens.updateMany({ familyId: rec.familyId, revokedAt: null }, { $set: { revokedAt: this.iso() } });
	}

	async sessionOwner(refreshToken: string): Promise<{ sub: string; sid: string } | null> {
		if (typeof refreshToken !== "string" || refreshToken.length > 512) return null;
		const rec = await this.refreshTokens.get(sha256(refreshToken));
		return rec && !rec.revokedAt ? { sub: rec.userId, sid: rec.familyId } : null;
	}

	async revokeSessionById(sub: string, sid: string): Promise<boolean> {
		return (await this.refreshTokens.updateMany({ familyId: sid, userId: sub, revokedAt: null }, { $set: { revokedAt: this.iso() } })) > 0;
	}

	async liveSessionIds(sub: string): Promise<Set<string>> {
		const live = await this.refreshTokens.find({ userId: sub, revokedAt: null, expiresAt: { $gt: this.iso() } });
		return new Set(live.map(r => r.familyId));
	}

	onRefreshReuse(listener: (sub: string, sid: string) => Promise<void>): void {
		this.reuseListeners.push(listener);
	}

	async revokeAllSessions(user: CreatedUser, keepSession?: string): Promise<void> {
		await this.refreshTokens.updateMany(
			{ userId: user.sub, revokedAt: null, ...(keepSession ? { familyId: { $ne: keepSession } } : {}) },
			{ $set: { revokedAt: this.iso() } }
		);
	}

	/**
	 * The hash is of 32 random bytes nobody ever sees: it is a real scrypt hash, so a
	 * password login against this user fails after the same work as any other.
	 */
	async createFederatedUser(u: FederatedUser): Promise<CreatedUser> {
		const email = normalizeEmail(u.email);
		// Social sign-in creates users only for emails the provider vouches for.
		const user = await this.insertUser("actors", email, randomToken(32), { email, givenName: u.firstName, familyName: u.lastName, emailVerified: true });
		return { sub: user.id, username: user.username };
	}

	/** Without `auth`: a social sign-in, which proves no factor the platform checked (amr empty). */
	async issueForUser(ref: CreatedUser, auth?: AuthContext): Promise<TokenSet> {
		const user = await this.users.get(ref.sub);
		if (!user || user.pool !== "actors" || user.username !== ref.username) throw invalidCredentials();
		return this.issue(user, randomUUID(), undefined, auth ?? { authTime: this.nowSec(), amr: [] });
	}

	async authenticate(username: string, password: string): Promise<PasswordCheck> {
		const user = await this.checkPassword("actors", username, password);
		return { user: { sub: user.id, username: user.username }, groups: user.groups };
	}

	private async checkPassword(pool: Pool, username: string, password: string): Promise<IdpUser> {
		const user = await this.users.findOne({ pool, username: normalizeEmail(username) });
		const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
		if (!user || !ok) throw invalidCredentials();
		if (needsRehash(user.passwordHash)) await this.rehash(user, password);
		return user;
	}

	/**
	 * Replaces a hash of older parameters (scrypt p=1 before) with one of today's, now
	 * that the password is in hand; once per user. Only if the hash is still the one
	 * just checked, so a password changed meanwhile stays changed. A failure leaves
	 * the old hash, which still verifies, and never fails the sign-in.
	 */
	private async rehash(user: IdpUser, password: string): Promise<void> {
		try {
			const passwordHash = await hashPassword(password);
			await this.users.updateMany({ id: user.id, passwordHash: user.passwordHash }, { $set: { passwordHash } });
		} catch {
			// The old hash stays; the next sign-in tries again.
		}
	}

	async login(username: string, password: string): Promise<TokenSet> {
		const user = await this.checkPassword("actors", username, password);
		return this.issue(user, randomUUID(), undefined, { authTime: this.nowSec(), amr: ["pwd"] });
	}

	async refresh(refreshToken: string): Promise<TokenSet> {
		const id = sha256(refreshToken);
		const now = this.iso();
		const rec = await this.refreshTokens.get(id);
		if (!rec || rec.revokedAt || rec.expiresAt <= now) throw invalidRefresh();
		const claimed = await this.refreshTokens.findOneAndUpdate(
			{ id, usedAt: null, revokedAt: null },
			{ $set: { usedAt: now } }
		);
		if (!claimed) {
			// Two tabs refreshing at once: the later one gets what the first one got.
			const again = await this.successorWithinGrace(id, refreshToken);
			if (again) return again;
			// A rotated token came back: someone else holds a copy. End the whole family.
			const ended = await this.refreshTokens.updateMany({ familyId: rec.familyId, revokedAt: null }, { $set: { revokedAt: now } });
			if (ended > 0) for (const listener of this.reuseListeners) await listener(rec.userId, rec.familyId).catch(() => undefined);
			throw invalidRefresh();
		}
		const user = await this.users.get(rec.userId);
		if (!user) throw invalidRefresh();
		// A family lives as long as its first token: rotation does not extend it.
		// The session keeps how and when its user signed in: a refresh proves no factor.
		const auth = { authTime: rec.authTime ?? Math.floor(Date.parse(rec.createdAt) / 1000), amr: rec.amr ?? ["pwd"] };
		// With the reuse grace, the claimed token's successor (sealed with the token itself)
		// is written in the same batch as the new token: one commit less per refresh. On
		// MongoDB the two writes are not one transaction; a failure after the insert leaves
		// an unused token that nobody holds, as a crash would.
		const withGrace = this.reuseIntervalMs() > 0;
		const tokens = await this.issue(user, rec.familyId, rec.expiresAt, auth, withGrace ? minted => [this.successorOp(id, refreshToken, minted)] : undefined);
		// A replay may have revoked the family between the claim and the new token's
		// insert; the new token must not outlive that revocation. Every revocation
		// (of the family, or of all the user's sessions) marks each of its tokens whose
		// revokedAt is null, the one claimed above included: reading that one record
		// tells, where counting the family's revoked tokens read every token the
		// session ever had (a family grows by one per refresh).
		// Gone (the user deleted meanwhile) counts as revoked.
		const claimedNow = await this.refreshTokens.get(id);
		if (!claimedNow || claimedNow.revokedAt) {
			await this.refreshTokens.updateMany({ familyId: rec.familyId, revokedAt: null }, { $set: { revokedAt: now } });
			throw invalidRefresh();
		}
		return tokens;
	}

	/** The write that keeps a rotated token's successor for the reuse grace (successorWithinGrace reads it). */
	private successorOp(id: string, refreshToken: string, tokens: TokenSet): BatchOp {
		return { op: "updateMany", collection: REFRESH_TOKENS, filter: { id }, update: { $set: { successor: successorBox(refreshToken).seal(JSON.stringify(tokens), id) } } };
	}

	private reuseIntervalMs(): number {
		return (this.opts.refreshReuseIntervalSec ?? 0) * 1000;
	}

	/**
	 * The successor of a token rotated less than the reuse interval ago, once the
	 * request that rotated it has stored it (waited for, as that request may still be
	 * signing); null when the interval has passed or the family has ended.
	 */
	private async successorWithinGrace(id: string, refreshToken: string): Promise<TokenSet | null> {
		const interval = this.reuseIntervalMs();
		if (interval <= 0) return null;
		const waitUntil = this.now() + SUCCESSOR_WAIT_MS;
		for (;;) {
			const rec = await this.refreshTokens.get(id);
			if (!rec || rec.revokedAt || !rec.usedAt || this.now() - Date.parse(rec.usedAt) > interval) return null;
			if (rec.successor) {
				let tokens: TokenSet;
				try {
					tokens = JSON.parse(successorBox(refreshToken).open(rec.successor, id)) as TokenSet;
				} catch {
					return null;
				}
				// The successor may have been revoked since (sign-out): then so is this answer.
				const next = await this.refreshTokens.get(sha256(tokens.refreshToken));
				if (!next || next.revokedAt) return null;
				return { ...tokens, expiresIn: Math.max(0, tokens.expiresAt - this.nowSec()) };
			}
			if (this.now() > waitUntil) return null;
			await new Promise(resolve => setTimeout(resolve, SUCCESSOR_POLL_MS));
		}
	}

	private async signingKey(): Promise<SigningKey> {
		const key = this.opts.key;
		return key instanceof SigningKeyRing ? key.current() : key;
	}

	async rotateSigningKey(): Promise<string> {
		const key = this.opts.key;
		if (!(key instanceof SigningKeyRing)) throw new Error("This embedded provider was given one fixed key: it cannot rotate");
		// A retired key must verify every token it signed: access, ID and service tokens live accessTokenTtl.
		return key.rotate(this.opts.config.accessTokenTtl + RETIRE_MARGIN_SEC);
	}

	private async sign(payload: JWTPayload, ttlSec: number): Promise<string> {
		const iat = this.nowSec();
		const key = await this.signingKey();
		return new SignJWT(payload)
			.setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ: "JWT" })
			.setIssuedAt(iat)
			.setExpirationTime(iat + ttlSec)
			.setJti(randomUUID())
			.sign(key.privateKey);
	}

	/**
	 * Signs the tokens and stores the new refresh token; `alsoWrite` adds writes that
	 * need the tokens, made in the same batch as that insert.
	 */
	private async issue(user: IdpUser, familyId: string, familyExpiresAt?: string, auth?: AuthContext, alsoWrite?: (tokens: TokenSet) => BatchOp[]): Promise<TokenSet> {
		const ttl = this.opts.config.accessTokenTtl;
		const authTime = auth?.authTime ?? this.nowSec();
		const amr = auth ? { amr: auth.amr } : {};
		const groups = user.groups.length ? { "cognito:groups": user.groups } : {};
		const services = user.pool === "services";
		const accessToken = await this.sign(
			{
				sub: user.id,
				iss: services ? this.serviceIssuer : this.actorIssuer,
				client_id: services ? this.serviceClientId : this.actorClientId,
				token_use: "access",
				scope: services ? "openid" : "openid email profile",
				auth_time: authTime,
				username: user.username,
				// The session (refresh-token family): sign-out and password change name it.
				sid: familyId,
				...amr,
				...groups
			},
			ttl
		);
		const idToken = await this.sign(
			services
				? {
						sub: user.id,
						iss: this.serviceIssuer,
						aud: this.serviceClientId,
						token_use: "id",
						auth_time: authTime,
						"cognito:username": user.username,
						"custom:service_id": user.serviceId
					}
				: {
						sub: user.id,
						iss: this.actorIssuer,
						aud: this.actorClientId,
						token_use: "id",
						auth_time: authTime,
						sid: familyId,
						...amr,
						"cognito:username": user.username,
						email: user.email,
						email_verified: user.emailVerified === true,
						...(user.phoneNumber ? { phone_number: user.phoneNumber, phone_number_verified: user.phoneNumberVerified === true } : {}),
						given_name: user.givenName,
						family_name: user.familyName,
						...groups
					},
			ttl
		);
		const refreshToken = randomToken(32);
		const record: RefreshRecord = {
			id: sha256(refreshToken),
			familyId,
			userId: user.id,
			createdAt: this.iso(),
			expiresAt: familyExpiresAt ?? this.iso(this.opts.config.refreshTokenTtl),
			usedAt: null,
			revokedAt: null,
			...(auth ? { authTime, amr: auth.amr } : {})
		};
		const expiresAt = this.nowSec() + ttl;
		const tokens: TokenSet = { accessToken, idToken, refreshToken, expiresAt, expiresIn: expiresAt - this.nowSec(), tokenType: "Bearer" };
		const also = alsoWrite?.(tokens) ?? [];
		if (also.length) await this.opts.store.batch([[{ op: "insert", collection: REFRESH_TOKENS, doc: record }, ...also]]);
		else await this.refreshTokens.insert(record);
		return tokens;
	}

	/** Creates the configured service account on first use; an existing one keeps its password. */
	private ensureServiceAccount(username: string, password: string): Promise<void> {
		this.serviceAccountReady ??= (async () => {
			if (await this.users.findOne({ pool: "services", username })) return;
			try {
				await this.insertUser("services", username, password, {});
			} catch (err) {
				if ((err as ClientError).type !== "USER_EXISTS") throw err;
			}
		})();
		this.serviceAccountReady.catch(() => (this.serviceAccountReady = null));
		return this.serviceAccountReady;
	}

	/**
	 * Signs in with the service account and returns its ID token for `serviceId`.
	 * Without a configured account, this process holds the signing key anyway, so it
	 * mints the token for its own services directly.
	 */
	async serviceToken(serviceId: string): Promise<ServiceToken> {
		if (!(ALL_SERVICES as readonly string[]).includes(serviceId)) {
			throw new Error(`Unknown service id "${serviceId}"`);
		}
		const { serviceAccountUsername: username, serviceAccountPassword: password } = this.opts.config;
		let sub = `service:${serviceId}`;
		if (username && password) {
			await this.ensureServiceAccount(username, password);
			sub = (await this.checkPassword("services", username, password)).id;
		}
		const ttl = this.opts.config.accessTokenTtl;
		const token = await this.sign(
			{
				sub,
				iss: this.serviceIssuer,
				aud: this.serviceClientId,
				token_use: "id",
				"cognito:username": username ?? `service-${serviceId}`,
				"custom:service_id": serviceId
			},
			ttl
		);
		return { token, expiresAt: this.nowSec() + ttl };
	}

	async serviceLogin(username: string, password: string): Promise<TokenSet> {
		const user = await this.checkPassword("services", username, password);
		// The configured account stands for the platform's own nodes (serviceToken), not for one outside service.
		if (!user.serviceId) throw invalidCredentials();
		return this.issue(user, randomUUID());
	}

	async createServiceAccount(serviceId: string): Promise<ServiceAccount & { password: string }> {
		checkServiceId(serviceId);
		const password = randomToken(32);
		const username = serviceAccountUsername(serviceId);
		if (await this.users.findOne({ pool: "services", serviceId })) throw serviceExists();
		try {
			const user = await this.insertUser("services", username, password, { serviceId });
			return { serviceId, username, password, createdAt: user.createdAt };
		} catch (err) {
			if ((err as ClientError).type === "USER_EXISTS") throw serviceExists();
			throw err;
		}
	}

	async listServiceAccounts(): Promise<ServiceAccount[]> {
		const users = await this.users.find({ pool: "services", serviceId: { $exists: true } }, { sort: { createdAt: 1 } });
		return users.map(u => ({ serviceId: u.serviceId!, username: u.username, createdAt: u.createdAt }));
	}

	async deleteServiceAccount(serviceId: string): Promise<boolean> {
		const user = await this.users.findOne({ pool: "services", serviceId });
		if (!user) return false;
		await this.refreshTokens.deleteMany({ userId: user.id });
		return (await this.users.deleteMany({ id: user.id })) > 0;
	}

	async bootstrap(): Promise<void> {
		const { bootstrapAdminEmail: email, bootstrapAdminPassword: password } = this.opts.config;
		if (!email || !password) return;
		const username = normalizeEmail(email);
		const existing = await this.users.findOne({ pool: "actors", username });
		if (!existing) {
			try {
				// The operator named this address: it counts as verified.
				await this.insertUser("actors", username, password, { email: username, groups: ["admin"], emailVerified: true });
			} catch (err) {
				if ((err as ClientError).type !== "USER_EXISTS") throw err;
			}
			return;
		}
		if (existing.groups.includes("admin")) return;
		// Registration does not verify addresses: someone may have registered this email
		// first. Only its holder of the configured password is made an administrator.
		if (!(await verifyPassword(password, existing.passwordHash))) throw new Error(BOOTSTRAP_REFUSED);
		await this.users.updateMany({ id: existing.id }, { $set: { groups: [...existing.groups, "admin"], updatedAt: this.iso() } });
	}

	async close(): Promise<void> {}
}
