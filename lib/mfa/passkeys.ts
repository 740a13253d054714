/**
 * Passkeys (WebAuthn Level 3) through @simplewebauthn/server: registration of a
 * discoverable credential with user verification, a passwordless sign-in (the
 * credential's user verification counts as two factors: amr hwk or swk, and mfa), and
 * an assertion as the second factor of a sign-in. The ceremonies are the library's;
 * what the platform adds is the state between the two halves of each ceremony:
 * - webauthn_challenges: each challenge only as its SHA-256, for 5 minutes, spent by
 *   one atomic update before its response is checked (a response for another
 *   challenge, or a second response for the same one, is refused);
 * - the credential on its factor in mfa_factors: id, COSE public key and signature
 *   counter, which must grow with every assertion of an authenticator that keeps one.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type * as SimpleWebAuthn from "@simplewebauthn/server";
import type {
	AuthenticationResponseJSON,
	PublicKeyCredentialCreationOptionsJSON,
	PublicKeyCredentialRequestOptionsJSON,
	RegistrationResponseJSON
} from "@simplewebauthn/server";
import type { WebAuthnConfig } from "../config";
import { sha256 } from "../crypto";
import { ClientError } from "../errors";
import type { Collection, Store } from "../store";
import { DuplicateKeyError } from "../store/types";
import type { FactorRecord } from "./records";

/** @simplewebauthn/server and its ASN.1 stack (about 17 MB of RSS) load with the first passkey ceremony. */
const webauthn = () => require("@simplewebauthn/server") as typeof SimpleWebAuthn;

export type ChallengePurpose = "registration" | "authentication" | "mfa";

export interface WebAuthnChallengeRecord {
	id: string;
	purpose: ChallengePurpose;
	/** SHA-256 of the challenge (base64url) the options carried. */
	challengeHash: string;
	/** Registration: the user registering. Authentication: the user named by `username`, when one was. */
	userSub?: string;
	/** A second factor: the SHA-256 id of the mfaToken it answers for. */
	mfaTokenId?: string;
	expiresAt: string;
	usedAt: string | null;
}

export const CHALLENGE_TTL_SEC = 300;
const DEFAULT_PASSKEY_NAME = "Passkey";
/** Never the sub of a user: binds the challenge of an unknown username to nobody. */
const NOBODY = "-";

/** A response the ceremony refuses; 400 at registration, 401 at sign-in. */
export const invalidWebAuthnResponse = (status: 400 | 401, detail = "The WebAuthn response is not valid for this challenge.") =>
	new ClientError(status, "INVALID_WEBAUTHN_RESPONSE", detail);

const base64url = /^[A-Za-z0-9_-]+$/;
const isB64 = (v: unknown, max = 65536): v is string => typeof v === "string" && v.length > 0 && v.length <= max && base64url.test(v);

/** The JSON a browser's PublicKeyCredential.toJSON() gives at registration, checked for shape only. */
export function isRegistrationResponse(v: unknown): v is RegistrationResponseJSON {
	const r = v as RegistrationResponseJSON | null;
	return (
		typeof r === "object" && r !== null && isB64(r.id, 1024) && isB64(r.rawId, 1024) && r.type === "public-key" &&
		typeof r.response === "object" && r.response !== null && isB64(r.response.clientDataJSON) && isB64(r.response.attestationObject)
	);
}

/** The JSON of an assertion, checked for shape only. */
export function isAuthenticationResponse(v: unknown): v is AuthenticationResponseJSON {
	const r = v as AuthenticationResponseJSON | null;
	return (
		typeof r === "object" && r !== null && isB64(r.id, 1024) && isB64(r.rawId, 1024) && r.type === "public-key" &&
		typeof r.response === "object" && r.response !== null &&
		isB64(r.response.clientDataJSON) && isB64(r.response.authenticatorData) && isB64(r.response.signature) &&
		(r.response.userHandle === undefined || typeof r.response.userHandle === "string")
	);
}

/** The user handle a passkey carries: the user's sub, so a discoverable credential names its user. */
function userHandle(sub: string): Uint8Array<ArrayBuffer> {
	return new Uint8Array(Buffer.from(sub, "utf8"));
}

export interface VerifiedAssertion {
	factor: FactorRecord;
	/** RFC 8176: hwk for a credential bound to its authenticator, swk for a synced one. */
	method: "hwk" | "swk";
}

export class Passkeys {
	readonly challenges: Collection<WebAuthnChallengeRecord>;
	private readonly factors: Collection<FactorRecord>;

	constructor(
		store: Store,
		private readonly config: WebAuthnConfig,
		private readonly now: () => number = Date.now
	) {
		this.challenges = store.collection<WebAuthnChallengeRecord>("webauthn_challenges");
		this.factors = store.collection<FactorRecord>("mfa_factors");
	}

	private iso(offsetSec = 0): string {
		return new Date(this.now() + offsetSec * 1000).toISOString();
	}

	/** 32 random bytes; the options carry them as base64url, which is what is hashed and what clientDataJSON names. */
	private newChallenge(): Uint8Array<ArrayBuffer> {
		return new Uint8Array(randomBytes(32));
	}

	private async storeChallenge(challenge: string, rec: Omit<WebAuthnChallengeRecord, "id" | "challengeHash" | "expiresAt" | "usedAt">): Promise<string> {
		const id = randomUUID();
		await this.challenges.insert({ id, challengeHash: sha256(challenge), ...rec, expiresAt: this.iso(CHALLENGE_TTL_SEC), usedAt: null });
		return id;
	}

	/** Spends a live challenge: the record for exactly one caller, null for the others and for dead ones. */
	spendChallenge(filter: Record<string, unknown>): Promise<WebAuthnChallengeRecord | null> {
		return this.challenges.findOneAndUpdate({ ...filter, usedAt: null, expiresAt: { $gt: this.iso() } }, { $set: { usedAt: this.iso() } });
	}

	userPasskeys(userSub: string): Promise<FactorRecord[]> {
		return this.factors.find({ userSub, type: "webauthn", status: "active" }, { sort: { createdAt: 1 } });
	}

	private allowList(factors: readonly FactorRecord[]): { id: string; transports?: string[] }[] {
		return factors.map(f => ({ id: f.credentialId!, ...(f.transports?.length ? { transports: f.transports } : {}) }));
	}

	// ---- registration

	/** Creation options for a new passkey of the user; a new request replaces one still pending. */
	async registrationOptions(user: { sub: string; username: string; email: string }): Promise<PublicKeyCredentialCreationOptionsJSON> {
		const challenge = this.newChallenge();
		const options = await webauthn().generateRegistrationOptions({
			rpName: this.config.rpName,
			rpID: this.config.rpId,
			userName: user.email,
			userID: userHandle(user.sub),
			userDisplayName: user.email,
			challenge,
			timeout: CHALLENGE_TTL_SEC * 1000,
			attestationType: "none",
			excludeCredentials: this.allowList(await this.userPasskeys(user.sub)),
			authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" }
		});
		await this.challenges.deleteMany({ userSub: user.sub, purpose: "registration" });
		await this.storeChallenge(options.challenge, { purpose: "registration", userSub: user.sub });
		return options;
	}

	/** Checks the attestation against the user's pending challenge and stores the credential as an active factor. */
	async register(user: { sub: string; username: string }, response: unknown, name: string | undefined): Promise<FactorRecord> {
		if (!isRegistrationResponse(response)) throw invalidWebAuthnResponse(400, "The response is not a PublicKeyCredential's registration JSON.");
		const challenge = await this.spendChallenge({ userSub: user.sub, purpose: "registration" });
		if (!challenge) throw invalidWebAuthnResponse(400, "No registration is pending: ask for new options.");
		let info;
		try {
			const verified = await webauthn().verifyRegistrationResponse({
				response,
				expectedChallenge: c => sha256(c) === challenge.challengeHash,
				expectedOrigin: this.config.origins,
				expectedRPID: this.config.rpId,
				requireUserVerification: true
			});
			if (!verified.verified) throw new Error("not verified");
			info = verified.registrationInfo;
		} catch (err) {
			// The library's reason (origin, RP id, flags, challenge) helps whoever integrates; it holds nothing secret.
			throw invalidWebAuthnResponse(400, `The WebAuthn response is not valid for this challenge: ${err instanceof Error ? err.message : "not verified"}`);
		}
		const now = this.iso();
		try {
			return await this.factors.insert({
				id: randomUUID(),
				userSub: user.sub,
				type: "webauthn",
				name: name ?? DEFAULT_PASSKEY_NAME,
				status: "active",
				lastCounter: -1,
				credentialId: info.credential.id,
				publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
				counter: info.credential.counter,
				transports: info.credential.transports ?? [],
				deviceType: info.credentialDeviceType,
				backedUp: info.credentialBackedUp,
				username: user.username,
				createdAt: now,
				confirmedAt: now,
				lastUsedAt: null
			});
		} catch (err) {
			if (err instanceof DuplicateKeyError) throw invalidWebAuthnResponse(400, "This credential is registered already.");
			throw err;
		}
	}

	// ---- assertions

	/** Request options for a passwordless sign-in; `userSub` binds it to one user (NOBODY for an unknown username). */
	async authenticationOptions(userSub: string | null | undefined): Promise<PublicKeyCredentialRequestOptionsJSON & { challengeId: string }> {
		const challenge = this.newChallenge();
		// No allowCredentials: whether a username has passkeys is not told; every passkey is discoverable.
		const options = await webauthn().generateAuthenticationOptions({ rpID: this.config.rpId, challenge, timeout: CHALLENGE_TTL_SEC * 1000, userVerification: "required" });
		const bound = userSub === undefined ? {} : { userSub: userSub ?? NOBODY };
		const challengeId = await this.storeChallenge(options.challenge, { purpose: "authentication", ...bound });
		return { ...options, challengeId };
	}

	/** Request options for the second factor of the sign-in behind the mfaToken (by its id); a new request replaces the last. */
	async mfaOptions(userSub: string, mfaTokenId: string): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
		const passkeys = await this.userPasskeys(userSub);
		if (passkeys.length === 0) return null;
		const challenge = this.newChallenge();
		const options = await webauthn().generateAuthenticationOptions({
			rpID: this.config.rpId,
			challenge,
			timeout: CHALLENGE_TTL_SEC * 1000,
			userVerification: "required",
			allowCredentials: this.allowList(passkeys)
		});
		await this.challenges.deleteMany({ mfaTokenId });
		await this.storeChallenge(options.challenge, { purpose: "mfa", userSub, mfaTokenId });
		return options;
	}

	/**
	 * Checks an assertion against a challenge already spent: the credential must be an
	 * active passkey (of `challenge.userSub` when the challenge names one), signed for
	 * this challenge, origin and RP id with user verification, and its counter must grow
	 * (stored by one atomic update, so a cloned authenticator's replay loses). Null when
	 * anything fails.
	 */
	async verifyAssertion(challenge: WebAuthnChallengeRecord, response: AuthenticationResponseJSON): Promise<VerifiedAssertion | null> {
		const factor = await this.factors.findOne({ credentialId: response.id, type: "webauthn", status: "active" });
		if (!factor || factor.publicKey === undefined) return null;
		if (challenge.userSub !== undefined && challenge.userSub !== factor.userSub) return null;
		if (response.response.userHandle && response.response.userHandle !== Buffer.from(userHandle(factor.userSub)).toString("base64url")) return null;
		const counter = factor.counter ?? 0;
		let info;
		try {
			const verified = await webauthn().verifyAuthenticationResponse({
				response,
				expectedChallenge: c => sha256(c) === challenge.challengeHash,
				expectedOrigin: this.config.origins,
				expectedRPID: this.config.rpId,
				credential: { id: factor.credentialId!, publicKey: new Uint8Array(Buffer.from(factor.publicKey, "base64url")), counter, transports: factor.transports },
				requireUserVerification: true
			});
			if (!verified.verified || !verified.authenticationInfo.userVerified) return null;
			info = verified.authenticationInfo;
		} catch {
			return null;
		}
		const updated = await this.advanceCounter(factor, counter, info.newCounter, { deviceType: info.credentialDeviceType, backedUp: info.credentialBackedUp });
		if (!updated) return null;
		return { factor: updated, method: info.credentialDeviceType === "multiDevice" ? "swk" : "hwk" };
	}

	/** Stores a use of the passkey: only while its counter is still `from`, so of two uses that read it only one passes. */
	advanceCounter(factor: FactorRecord, from: number, to: number, seen: Pick<FactorRecord, "deviceType" | "backedUp">): Promise<FactorRecord | null> {
		return this.factors.findOneAndUpdate({ id: factor.id, type: "webauthn", counter: from }, { $set: { counter: to, lastUsedAt: this.iso(), ...seen } });
	}

	/** Expired challenges go. */
	sweep(): Promise<number> {
		return this.challenges.deleteMany({ expiresAt: { $lt: this.iso() } });
	}
}
