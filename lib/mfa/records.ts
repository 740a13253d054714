/**
 * What the platform keeps for second factors, on either store backend and with either
 * identity provider (factors belong to the platform, like lifecycle tokens):
 * - mfa_factors: one per factor; a TOTP seed sealed under IDP_KEY_ENCRYPTION_KEY when
 *   one is configured (as the signing keys are), with the time step of the last code
 *   accepted, so no code passes twice;
 * - mfa_recovery_codes: each code only as a SHA-256 of the user and the code, spent
 *   by one atomic update;
 * - mfa_tokens: the mfaToken of a sign-in waiting for its second factor (or for an
 *   enrolment MFA_ENFORCE demands), only as its SHA-256, with its tries; with Cognito,
 *   the pool's token set sealed under a key derived from the mfaToken itself.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { randomToken, sha256 } from "../crypto";
import { SecretBox, SecretBoxError } from "../crypto/secretbox";
import { ConfigError } from "../config";
import { KEK_VARIABLE } from "../crypto/sealed-keys";
import type { TokenSet } from "../idp/types";
import type { Collection, Store } from "../store";

export type FactorType = "totp";
export type MfaTokenPurpose = "verify" | "enrol";

export interface FactorRecord {
	id: string;
	userSub: string;
	type: FactorType;
	name: string;
	/** Pending until its first code confirms it; only active factors count. */
	status: "pending" | "active";
	/** Without a key-encryption key only. */
	seed?: string;
	/** The seed sealed with `mfa_factors:<id>` as associated data. */
	sealedSeed?: string;
	/** The time step of the last code accepted (-1: none yet). */
	lastCounter: number;
	createdAt: string;
	confirmedAt?: string;
	lastUsedAt: string | null;
}

export interface RecoveryCodeRecord {
	/** SHA-256 of the user and the normalized code. */
	id: string;
	userSub: string;
	/** The set it belongs to: a new set replaces every older one. */
	generation: string;
	usedAt: string | null;
	createdAt: string;
}

export interface MfaTokenRecord {
	/** SHA-256 of the token. */
	id: string;
	purpose: MfaTokenPurpose;
	userSub: string;
	username: string;
	groups: string[];
	/** The first factor's amr and time, which the finished sign-in carries on. */
	amr: string[];
	authTime: number;
	attempts: number;
	expiresAt: string;
	usedAt: string | null;
	/** Cognito: the pool's token set, sealed under a key only the token's holder can derive. */
	sealedTokens?: string;
}

export const MFA_TOKEN_TTL_SEC = 300;
/** Wrong codes one mfaToken takes; the next try finds it dead. */
export const MFA_TOKEN_MAX_ATTEMPTS = 5;
export const RECOVERY_CODE_COUNT = 10;
const MFA_TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Crockford's base32 without the letters people misread. */
const RECOVERY_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** A recovery code: 10 characters of base32 (50 bits), shown as xxxxx-xxxxx. */
function newRecoveryCode(): string {
	const bytes = randomBytes(10);
	const chars = [...bytes].map(b => RECOVERY_ALPHABET[b & 31]).join("");
	return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

function recoveryCodeId(userSub: string, code: string): string {
	const normalized = code.toLowerCase().replace(/[\s-]/g, "");
	return sha256(`recovery:${userSub}:${normalized}`);
}

function tokensBox(mfaToken: string): SecretBox {
	return new SecretBox(createHash("sha256").update("mfa-held-tokens:").update(mfaToken).digest());
}

export class MfaRecords {
	readonly factors: Collection<FactorRecord>;
	readonly recoveryCodes: Collection<RecoveryCodeRecord>;
	readonly tokens: Collection<MfaTokenRecord>;
	private readonly box: SecretBox | null;

	constructor(store: Store, keyEncryptionKey: Buffer | undefined, private readonly now: () => number = Date.now) {
		this.factors = store.collection<FactorRecord>("mfa_factors");
		this.recoveryCodes = store.collection<RecoveryCodeRecord>("mfa_recovery_codes");
		this.tokens = store.collection<MfaTokenRecord>("mfa_tokens");
		this.box = keyEncryptionKey ? new SecretBox(keyEncryptionKey) : null;
	}

	private iso(offsetSec = 0): string {
		return new Date(this.now() + offsetSec * 1000).toISOString();
	}

	// ---- factors

	async addPendingTotp(userSub: string, name: string, seed: string): Promise<FactorRecord> {
		const id = randomUUID();
		const sealed = this.box ? { sealedSeed: this.box.seal(seed, `mfa_factors:${id}`) } : { seed };
		return this.factors.insert({ id, userSub, type: "totp", name, status: "pending", ...sealed, lastCounter: -1, createdAt: this.iso(), lastUsedAt: null });
	}

	seedOf(f: FactorRecord): string {
		if (f.sealedSeed === undefined) {
			if (f.seed === undefined) throw new Error(`The factor ${f.id} has no seed`);
			return f.seed;
		}
		if (!this.box) throw new ConfigError(KEK_VARIABLE, `is required: the TOTP seed of factor ${f.id} is sealed under one`);
		try {
			return this.box.open(f.sealedSeed, `mfa_factors:${f.id}`);
		} catch (err) {
			if (!(err instanceof SecretBoxError)) throw err;
			throw new ConfigError(KEK_VARIABLE, `does not open the TOTP seed of factor ${f.id} (${err.message})`);
		}
	}

	/** Seeds stored in clear before a key-encryption key was configured are sealed now. */
	async sealStoredSeeds(): Promise<void> {
		if (!this.box) return;
		for (const f of await this.factors.find({ seed: { $exists: true } })) {
			await this.factors.updateMany({ id: f.id, seed: { $exists: true } }, { $set: { sealedSeed: this.box.seal(f.seed!, `mfa_factors:${f.id}`) }, $unset: ["seed"] });
		}
	}

	/** The user's own factor, or null (another user's factor is no factor here). */
	factor(userSub: string, factorId: string): Promise<FactorRecord | null> {
		return this.factors.findOne({ id: factorId, userSub });
	}

	activeFactors(userSub: string): Promise<FactorRecord[]> {
		return this.factors.find({ userSub, status: "active" }, { sort: { createdAt: 1 } });
	}

	countActive(userSub: string): Promise<number> {
		return this.factors.count({ userSub, status: "active" });
	}

	/**
	 * Spends the time step `counter` of the factor: true for exactly one caller, and only
	 * while no later step was spent; a pending factor becomes active with it.
	 */
	async spendCounter(factor: FactorRecord, counter: number, confirm: boolean): Promise<boolean> {
		const now = this.iso();
		const set: Record<string, unknown> = { lastCounter: counter, lastUsedAt: now };
		if (confirm) Object.assign(set, { status: "active", confirmedAt: now });
		const updated = await this.factors.findOneAndUpdate(
			{ id: factor.id, userSub: factor.userSub, status: confirm ? "pending" : "active", lastCounter: { $lt: counter } },
			{ $set: set }
		);
		return updated !== null;
	}

	async removeFactor(userSub: string, factorId: string): Promise<boolean> {
		return (await this.factors.deleteMany({ id: factorId, userSub })) > 0;
	}

	/** Removes what is left when the last active factor goes: recovery codes and pending enrolments. */
	async removeAll(userSub: string): Promise<number> {
		const n = await this.factors.deleteMany({ userSub, status: "active" });
		await this.factors.deleteMany({ userSub });
		await this.recoveryCodes.deleteMany({ userSub });
		return n;
	}

	// ---- recovery codes

	/** A new set of codes, shown once; every older set stops working. */
	async replaceRecoveryCodes(userSub: string): Promise<string[]> {
		const generation = randomUUID();
		const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
		const createdAt = this.iso();
		for (const code of codes) await this.recoveryCodes.insert({ id: recoveryCodeId(userSub, code), userSub, generation, usedAt: null, createdAt });
		await this.recoveryCodes.deleteMany({ userSub, generation: { $ne: generation } });
		return codes;
	}

	/** True for exactly one use of an unused code of this user. */
	async spendRecoveryCode(userSub: string, code: string): Promise<boolean> {
		if (typeof code !== "string" || code.length > 32) return false;
		const spent = await this.recoveryCodes.findOneAndUpdate({ id: recoveryCodeId(userSub, code), userSub, usedAt: null }, { $set: { usedAt: this.iso() } });
		return spent !== null;
	}

	recoveryCodesLeft(userSub: string): Promise<number> {
		return this.recoveryCodes.count({ userSub, usedAt: null });
	}

	// ---- mfa tokens

	async issueToken(input: Omit<MfaTokenRecord, "id" | "attempts" | "expiresAt" | "usedAt" | "sealedTokens">, held?: TokenSet): Promise<string> {
		const token = randomToken(32);
		const id = sha256(token);
		const sealedTokens = held ? tokensBox(token).seal(JSON.stringify(held), id) : undefined;
		await this.tokens.insert({ id, ...input, attempts: 0, expiresAt: this.iso(MFA_TOKEN_TTL_SEC), usedAt: null, ...(sealedTokens ? { sealedTokens } : {}) });
		return token;
	}

	/** The live token's record, or null (unknown, expired, used, out of tries, or for another purpose). */
	async liveToken(token: string, purpose: MfaTokenPurpose): Promise<MfaTokenRecord | null> {
		if (typeof token !== "string" || !MFA_TOKEN.test(token)) return null;
		return this.tokens.findOne({ id: sha256(token), purpose, usedAt: null, expiresAt: { $gt: this.iso() }, attempts: { $lt: MFA_TOKEN_MAX_ATTEMPTS } });
	}

	/**
	 * Takes one try of the token before its code is checked, so parallel guesses count
	 * too; null when none is left (or the token is not live).
	 */
	async takeAttempt(token: string, purpose: MfaTokenPurpose): Promise<MfaTokenRecord | null> {
		if (typeof token !== "string" || !MFA_TOKEN.test(token)) return null;
		return this.tokens.findOneAndUpdate(
			{ id: sha256(token), purpose, usedAt: null, expiresAt: { $gt: this.iso() }, attempts: { $lt: MFA_TOKEN_MAX_ATTEMPTS } },
			{ $inc: { attempts: 1 } }
		);
	}

	/** Spends the token: true for exactly one caller. */
	async spendToken(rec: MfaTokenRecord): Promise<boolean> {
		return (await this.tokens.updateMany({ id: rec.id, usedAt: null }, { $set: { usedAt: this.iso() }, $unset: ["sealedTokens"] })) > 0;
	}

	/** The pool's token set held with the token (Cognito), or null. */
	heldTokens(token: string, rec: MfaTokenRecord): TokenSet | null {
		if (!rec.sealedTokens) return null;
		try {
			return JSON.parse(tokensBox(token).open(rec.sealedTokens, rec.id)) as TokenSet;
		} catch {
			return null;
		}
	}

	/** Tokens past their time (and the held Cognito tokens in them) go; spent ones keep no held tokens already. */
	sweepTokens(): Promise<number> {
		return this.tokens.deleteMany({ expiresAt: { $lt: this.iso() } });
	}
}
