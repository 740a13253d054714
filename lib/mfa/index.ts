/**
 * Second factors on top of either identity provider: the sign-in gate after the first
 * factor (password, social), the verification of a second one, TOTP enrolment, recovery
 * codes, and the administrators' reset. The records are lib/mfa/records.ts's; the codes
 * are checked by lib/mfa/totp.ts; tokens are issued by the identity provider (the
 * embedded one puts amr and auth_time in them; with Cognito the pool's token set is
 * held until the factor passes, and lib/mfa/sessions.ts keeps what it cannot carry).
 */
import { decodeJwt } from "jose";
import type { MfaConfig } from "../config";
import type { AuditLog, RequestOrigin } from "../audit";
import { ClientError, notFound, notSupportedByProvider } from "../errors";
import type { CreatedUser, IdentityProvider, PasswordCheck, TokenSet } from "../idp/types";
import type { MfaFactor } from "../auth/metrics";
import type { OneTimeCodes } from "../accounts/otp";
import type { RateLimiter } from "../rate-limit";
import type { Store } from "../store";
import { MfaRecords, MFA_TOKEN_MAX_ATTEMPTS, type FactorRecord, type MfaTokenRecord } from "./records";
import { AuthSessions } from "./sessions";
import { invalidWebAuthnResponse, isAuthenticationResponse, Passkeys } from "./passkeys";
import { matchTotp, newTotpSeed, otpauthUri } from "./totp";

export { MfaRecords } from "./records";
export { AuthSessions } from "./sessions";
export { Passkeys } from "./passkeys";

export interface MfaDeps {
	store: () => Store;
	idp: () => Promise<IdentityProvider>;
	limiter: () => RateLimiter;
	audit: AuditLog;
	config: MfaConfig;
	keyEncryptionKey?: Buffer;
	/** One-time codes (lib/accounts/otp.ts): the `sms` second factor's codes. */
	otp?: () => OneTimeCodes;
	/** Counts a verification (lib/auth/metrics.ts countMfaChallenge). */
	count: (factor: MfaFactor, result: "success" | "failure") => void;
	now?: () => number;
}

/** Who is calling an MFA route: a signed-in user, or the holder of an enrolment mfaToken. */
export interface MfaCaller {
	sub: string;
	username: string;
	sid?: string;
	/** The enrolment mfaToken the caller presented instead of an access token. */
	enrolmentToken?: string;
}

export interface FactorView {
	factorId: string;
	type: "totp" | "webauthn";
	name: string;
	createdAt: string;
	lastUsedAt: string | null;
}

export interface VerifyInput {
	mfaToken: string;
	type: "totp" | "recovery" | "sms" | "webauthn";
	code?: string;
	/** webauthn: the assertion's JSON (PublicKeyCredential.toJSON()). */
	response?: unknown;
}

export const invalidMfaToken = () => new ClientError(401, "INVALID_MFA_TOKEN", "The mfaToken is unknown, expired, used or out of tries. Sign in again.");
const invalidMfaCode = () => new ClientError(401, "INVALID_MFA_CODE", "The code is not valid.");
const malformedAssertion = () =>
	new ClientError(400, "VALIDATION_ERROR", "The 'response' field must be the JSON of a PublicKeyCredential's assertion (PublicKeyCredential.toJSON()).", {
		errors: [{ field: "response", message: "is not an assertion's JSON" }]
	});
const noSuchFactor = () => notFound("NOT_FOUND", "No such factor.");

const DEFAULT_TOTP_NAME = "Authenticator app";

function groupsOf(accessToken: string): string[] {
	try {
		const groups = decodeJwt(accessToken)["cognito:groups"];
		return Array.isArray(groups) ? groups.filter((g): g is string => typeof g === "string") : [];
	} catch {
		return [];
	}
}

export class SecondFactors {
	private readonly now: () => number;

	constructor(private readonly deps: MfaDeps) {
		this.now = deps.now ?? Date.now;
	}

	records(): MfaRecords {
		return new MfaRecords(this.deps.store(), this.deps.keyEncryptionKey, this.now);
	}

	passkeys(): Passkeys {
		return new Passkeys(this.deps.store(), this.deps.config.webauthn, this.now);
	}

	sessions(): AuthSessions {
		return new AuthSessions(this.deps.store(), this.now, this.deps.keyEncryptionKey);
	}

	private nowSec(): number {
		return Math.floor(this.now() / 1000);
	}

	/** Whether MFA_ENFORCE demands a factor of this user. */
	private mustHaveFactor(groups: readonly string[]): boolean {
		const { enforce } = this.deps.config;
		return enforce === "all" || (enforce === "admins" && groups.includes("admin"));
	}

	/**
	 * The factor types a user can answer MFA_REQUIRED with: a verified phone adds `sms`
	 * (it does not turn a second factor on by itself: only an enrolled factor does).
	 */
	private async factorTypes(userSub: string, username: string, factors: readonly FactorRecord[]): Promise<string[]> {
		const types = [...new Set(factors.map(f => f.type))] as string[];
		if (this.deps.otp && (await this.hasVerifiedPhone(username))) types.push("sms");
		if ((await this.records().recoveryCodesLeft(userSub)) > 0) types.push("recovery");
		return types;
	}

	/**
	 * After the first factor: the token set when the user needs no second one; else
	 * 403 MFA_REQUIRED (an mfaToken to verify with) or MFA_ENROLLMENT_REQUIRED (an
	 * mfaToken the enrolment routes take as a Bearer token). `tokens` is what the
	 * provider issued already (Cognito), held until the factor passes.
	 */
	async gate(first: { user: CreatedUser; groups: string[]; tokens?: TokenSet; amr: string[] }, issue: () => Promise<TokenSet>): Promise<TokenSet> {
		const records = this.records();
		const factors = await records.activeFactors(first.user.sub);
		const base = { userSub: first.user.sub, username: first.user.username, groups: first.groups, amr: first.amr, authTime: this.nowSec() };
		if (factors.length > 0) {
			const mfaToken = await records.issueToken({ ...base, purpose: "verify" }, first.tokens);
			throw new ClientError(403, "MFA_REQUIRED", "A second factor is required: answer with POST /auth/mfa/verify.", {
				members: { mfaToken, factors: await this.factorTypes(first.user.sub, first.user.username, factors) }
			});
		}
		if (this.mustHaveFactor(first.groups)) {
			// The pool's session is not needed: the user signs in again once enrolled.
			if (first.tokens) await (await this.deps.idp()).revokeSession(first.tokens.refreshToken).catch(() => undefined);
			const mfaToken = await records.issueToken({ ...base, purpose: "enrol" });
			throw new ClientError(403, "MFA_ENROLLMENT_REQUIRED", "A second factor must be enrolled before signing in: enrol one with this mfaToken as the Bearer token.", {
				members: { mfaToken }
			});
		}
		const tokens = first.tokens ?? (await issue());
		if ((await this.deps.idp()).kind === "cognito") await this.sessions().open(first.user.sub, tokens, { authTime: base.authTime, amr: first.amr });
		return tokens;
	}

	/** A password sign-in: the first step is the provider's. */
	async passwordSignIn(idp: IdentityProvider, check: PasswordCheck): Promise<TokenSet> {
		return this.gate({ ...check, amr: ["pwd"] }, () => idp.issueForUser(check.user, { authTime: this.nowSec(), amr: ["pwd"] }));
	}

	/**
	 * A social sign-in (or any the provider finishes without a password): the provider
	 * issues first, since only its tokens name the user's groups; when a second factor is
	 * due, the embedded provider's session is withdrawn (a new one is issued with the
	 * factor's amr), Cognito's is held.
	 */
	async federatedSignIn(idp: IdentityProvider, user: CreatedUser, amr: string[] = []): Promise<TokenSet> {
		const tokens = await idp.issueForUser(user, amr.length > 0 ? { authTime: this.nowSec(), amr } : undefined);
		const cognito = idp.kind === "cognito";
		try {
			return await this.gate({ user, groups: groupsOf(tokens.accessToken), amr, ...(cognito ? { tokens } : {}) }, async () => tokens);
		} catch (err) {
			if (!cognito) await idp.revokeSession(tokens.refreshToken).catch(() => undefined);
			throw err;
		}
	}

	/** The second factor of a sign-in: the token set, with amr naming both factors. */
	async verify(input: VerifyInput, origin: RequestOrigin): Promise<TokenSet> {
		const records = this.records();
		const live = await records.liveToken(input.mfaToken, "verify");
		if (!live) throw invalidMfaToken();
		if (input.type === "sms" && !(this.deps.otp && (await this.hasVerifiedPhone(live.username)))) {
			throw new ClientError(400, "VALIDATION_ERROR", `This account has no ${input.type} factor.`, { errors: [{ field: "type", message: "has no factor of this type" }] });
		}
		// A malformed assertion is refused before it costs a try.
		if (input.type === "webauthn" && !isAuthenticationResponse(input.response)) throw malformedAssertion();
		// Guesses count per account too, whatever mfaTokens they come with.
		await this.deps.limiter().hitUser("login", live.username);
		const rec = await records.takeAttempt(input.mfaToken, "verify");
		if (!rec) throw invalidMfaToken();
		const code = input.code ?? "";
		let method = "otp";
		let ok: boolean;
		if (input.type === "webauthn") {
			const passkey = await this.spendAssertion(rec, input.response);
			ok = passkey !== null;
			if (passkey) method = passkey;
		} else if (input.type === "sms") {
			ok = await this.deps.otp!().verifyMfa(rec.id, code);
			method = "sms";
		} else {
			ok = input.type === "totp" ? await this.spendTotp(records, rec.userSub, code) : await records.spendRecoveryCode(rec.userSub, code);
		}
		if (!ok) {
			this.deps.count(input.type, "failure");
			await this.deps.audit.record("auth.mfa_challenge_failed", rec.userSub, origin, { factor: input.type, attemptsLeft: String(MFA_TOKEN_MAX_ATTEMPTS - rec.attempts) });
			throw invalidMfaCode();
		}
		if (!(await records.spendToken(rec))) throw invalidMfaToken();
		this.deps.count(input.type, "success");
		if (input.type === "recovery") await this.deps.audit.record("auth.recovery_code_used", rec.userSub, origin);
		return this.finish(records, input.mfaToken, rec, [...rec.amr, method, "mfa"]);
	}

	/** The second factor's assertion against the challenge asked for with this mfaToken (spent either way): hwk, swk or null. */
	private async spendAssertion(rec: MfaTokenRecord, response: unknown): Promise<"hwk" | "swk" | null> {
		const passkeys = this.passkeys();
		const challenge = await passkeys.spendChallenge({ mfaTokenId: rec.id, purpose: "mfa" });
		if (!challenge || !isAuthenticationResponse(response)) return null;
		const verified = await passkeys.verifyAssertion(challenge, response);
		return verified && verified.factor.userSub === rec.userSub ? verified.method : null;
	}

	private async hasVerifiedPhone(username: string): Promise<boolean> {
		const profile = await (await this.deps.idp()).getProfile(username);
		return profile?.phoneVerified === true && !!profile.phone;
	}

	/** POST /auth/mfa/challenge: WebAuthn request options, or (sms) a code to the verified phone (null then). */
	async challenge(mfaToken: string, type: "webauthn" | "sms"): Promise<object | null> {
		const rec = await this.records().liveToken(mfaToken, "verify");
		if (!rec) throw invalidMfaToken();
		if (type === "sms" && this.deps.otp && (await this.deps.otp().startMfa({ sub: rec.userSub, username: rec.username }, rec.id))) return null;
		const options = type === "webauthn" ? await this.passkeys().mfaOptions(rec.userSub, rec.id) : null;
		if (!options) throw new ClientError(400, "VALIDATION_ERROR", `This account has no ${type} factor.`, { errors: [{ field: "type", message: "has no factor of this type" }] });
		return options;
	}

	// ---- passkeys

	private async requireEmbedded(): Promise<IdentityProvider> {
		const idp = await this.deps.idp();
		if (idp.kind !== "embedded") throw notSupportedByProvider("Passwordless sign-in needs the embedded identity provider; with Cognito, use a passkey as the second factor.");
		return idp;
	}

	async passkeyRegistrationOptions(caller: MfaCaller): Promise<object> {
		const profile = await (await this.deps.idp()).getProfile(caller.username);
		return this.passkeys().registrationOptions({ sub: caller.sub, username: caller.username, email: profile?.email ?? caller.username });
	}

	async registerPasskey(caller: MfaCaller, response: unknown, name: string | undefined, origin: RequestOrigin): Promise<{ factorId: string }> {
		const factor = await this.passkeys().register(caller, response, name);
		await this.deps.audit.record("auth.mfa_enrolled", caller.sub, origin, { factorId: factor.id, type: "webauthn" });
		const records = this.records();
		if (caller.enrolmentToken) {
			const rec = await records.liveToken(caller.enrolmentToken, "enrol");
			if (rec) await records.spendToken(rec);
		}
		return { factorId: factor.id };
	}

	/** Options for a passwordless sign-in; a username binds them to that account without telling whether it exists. */
	async passkeySignInOptions(username: string | undefined): Promise<object> {
		const idp = await this.requireEmbedded();
		const user = username === undefined ? undefined : await idp.findUserByEmail(username).catch(() => null);
		return this.passkeys().authenticationOptions(user === undefined ? undefined : (user?.sub ?? null));
	}

	/** A passwordless sign-in: the passkey's user verification stands for both factors. */
	async passkeySignIn(challengeId: string, response: unknown): Promise<TokenSet> {
		const idp = await this.requireEmbedded();
		if (!isAuthenticationResponse(response)) throw malformedAssertion();
		const passkeys = this.passkeys();
		const challenge = await passkeys.spendChallenge({ id: challengeId, purpose: "authentication" });
		const verified = challenge ? await passkeys.verifyAssertion(challenge, response) : null;
		if (!verified || !verified.factor.username) {
			this.deps.count("webauthn", "failure");
			throw invalidWebAuthnResponse(401);
		}
		this.deps.count("webauthn", "success");
		const { factor } = verified;
		const amr = [verified.method, "mfa"];
		// The auth service audits the sign-in (lib/audit/sign-ins.ts), as every other one.
		return idp.issueForUser({ sub: factor.userSub, username: factor.username! }, { authTime: this.nowSec(), amr });
	}

	private async finish(records: MfaRecords, mfaToken: string, rec: MfaTokenRecord, amr: string[]): Promise<TokenSet> {
		const auth = { authTime: this.nowSec(), amr };
		const held = records.heldTokens(mfaToken, rec);
		const idp = await this.deps.idp();
		const tokens = held ?? (await idp.issueForUser({ sub: rec.userSub, username: rec.username }, auth));
		if (idp.kind === "cognito") await this.sessions().open(rec.userSub, tokens, auth);
		return tokens;
	}

	/** Whether the code is one of the user's TOTP factors' next codes; it is spent if so. */
	private async spendTotp(records: MfaRecords, userSub: string, code: string): Promise<boolean> {
		for (const f of await records.activeFactors(userSub)) {
			if (f.type !== "totp") continue;
			const counter = matchTotp(records.seedOf(f), code, this.now(), f.lastCounter);
			if (counter !== null && (await records.spendCounter(f, counter, false))) return true;
		}
		return false;
	}

	// ---- enrolment and management

	/** The caller as an enrolment token names it: INVALID_MFA_TOKEN unless it is a live one. */
	async enrolmentCaller(token: string): Promise<MfaTokenRecord> {
		const rec = await this.records().liveToken(token, "enrol");
		if (!rec) throw invalidMfaToken();
		return rec;
	}

	async enrolTotp(caller: MfaCaller, name: string | undefined): Promise<{ factorId: string; secret: string; otpauthUri: string }> {
		const records = this.records();
		// One enrolment pending at a time: an abandoned one goes when the next starts.
		await records.factors.deleteMany({ userSub: caller.sub, status: "pending" });
		const seed = newTotpSeed();
		const profile = await (await this.deps.idp()).getProfile(caller.username);
		const factor = await records.addPendingTotp(caller.sub, name ?? DEFAULT_TOTP_NAME, seed);
		return { factorId: factor.id, secret: seed, otpauthUri: otpauthUri(seed, this.deps.config.totpIssuer, profile?.email ?? caller.username) };
	}

	async confirmTotp(caller: MfaCaller, factorId: string, code: string, origin: RequestOrigin): Promise<{ factorId: string; recoveryCodes?: string[] }> {
		const records = this.records();
		const factor = await records.factor(caller.sub, factorId);
		if (!factor || factor.status !== "pending") throw noSuchFactor();
		const counter = matchTotp(records.seedOf(factor), code, this.now(), factor.lastCounter);
		if (counter === null || !(await records.spendCounter(factor, counter, true))) throw invalidMfaCode();
		await this.deps.audit.record("auth.mfa_enrolled", caller.sub, origin, { factorId, type: factor.type });
		if (caller.enrolmentToken) {
			const rec = await records.liveToken(caller.enrolmentToken, "enrol");
			if (rec) await records.spendToken(rec);
		}
		if ((await records.countActive(caller.sub)) === 1) return { factorId, recoveryCodes: await records.replaceRecoveryCodes(caller.sub) };
		return { factorId };
	}

	async list(caller: MfaCaller): Promise<{ items: FactorView[]; recoveryCodesLeft: number }> {
		const records = this.records();
		const factors = await records.activeFactors(caller.sub);
		return {
			items: factors.map(f => ({ factorId: f.id, type: f.type, name: f.name, createdAt: f.createdAt, lastUsedAt: f.lastUsedAt })),
			recoveryCodesLeft: factors.length > 0 ? await records.recoveryCodesLeft(caller.sub) : 0
		};
	}

	async remove(caller: MfaCaller, factorId: string, origin: RequestOrigin): Promise<void> {
		const records = this.records();
		if (!(await records.removeFactor(caller.sub, factorId))) throw noSuchFactor();
		// Recovery codes recover factors: with none left they go too.
		if ((await records.countActive(caller.sub)) === 0) await records.removeAll(caller.sub);
		await this.deps.audit.record("auth.mfa_removed", caller.sub, origin, { factorId });
	}

	async regenerateRecoveryCodes(caller: MfaCaller): Promise<{ codes: string[] }> {
		const records = this.records();
		if ((await records.countActive(caller.sub)) === 0) throw notFound("NOT_FOUND", "There is no factor to recover: enrol one first.");
		return { codes: await records.replaceRecoveryCodes(caller.sub) };
	}

	/** Spent and expired mfaTokens go (and any pool token set one still held), and ended Cognito session records. */
	async sweep(): Promise<void> {
		await this.records().sweepTokens();
		await this.passkeys().sweep();
		if ((await this.deps.idp()).kind === "cognito") await this.sessions().sweep();
	}

	/** An administrator's reset: every factor and recovery code of the user goes. */
	async removeAll(actorId: string, origin: RequestOrigin, by: string): Promise<void> {
		const removed = await this.records().removeAll(actorId);
		if (removed > 0) await this.deps.audit.record("auth.mfa_removed", actorId, origin, { factorId: "*", by });
	}
}
