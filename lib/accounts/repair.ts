/**
 * Repairs account creations a dying node cut off, so that every account ends
 * either complete (identity-provider user, actor profile, extra step) or absent:
 *
 * - sweep: intents untouched for a grace period (longer than any creation takes)
 *   are finished. An undo is carried to its end. A creation is completed when the
 *   identity provider holds its user and someone can sign in as it (a password
 *   user, or a federated one whose link was written); otherwise it is undone.
 * - completeSignedIn: a sign-in whose user has no actor profile and no intent gets
 *   one, from the identity provider's own signed attributes.
 */
import { decodeJwt } from "jose";
import type { ClientError } from "../errors";
import type { CreatedUser, TokenSet } from "../idp/types";
import { messageOf, type AccountCreator, type ActorDirectory, type ActorProfile } from "./create";
import type { AccountIntent } from "./intents";
import { normalizeEmail } from "../email-address";

/** How many intents one sweep claims at a time. */
const SWEEP_BATCH = 50;

export type RepairOutcome = "completed" | "undone" | "dropped";

export class AccountRepair {
	constructor(private readonly accounts: AccountCreator) {}

	/** Repairs every due intent; one that fails stays, and is tried again a grace period later. */
	async sweep(actors: ActorDirectory, graceMs: number): Promise<number> {
		let repaired = 0;
		for (;;) {
			const due = await this.accounts.intents.claimDue(graceMs, SWEEP_BATCH);
			for (const intent of due) {
				try {
					const outcome = await this.repair(intent, actors);
					this.accounts.logger.info("Repaired an account creation that was cut off", { sub: intent.sub, outcome });
					repaired += 1;
				} catch (err) {
					this.accounts.logger.warn("An account repair failed; it is tried again later", { sub: intent.sub, error: messageOf(err) });
				}
			}
			if (due.length < SWEEP_BATCH) return repaired;
		}
	}

	async repair(intent: AccountIntent, actors: ActorDirectory): Promise<RepairOutcome> {
		const found = await (await this.accounts.idp()).findUserByEmail(intent.id);
		if (intent.sub === undefined || intent.username === undefined) {
			// The creation died before it recorded its user: one found by this email may
			// as well be an account that existed before. It is left to its first sign-in.
			if (found) this.accounts.logger.warn("An account creation was cut off before recording its user; that user is left as it is", { sub: found.sub });
			await this.accounts.intents.drop(intent.id);
			return "dropped";
		}
		const user: CreatedUser = { sub: intent.sub, username: intent.username };
		const ours = found?.sub === user.sub;
		if (ours && intent.phase === "create" && (await this.canSignIn(intent, user))) {
			const profile = { actorId: user.sub, email: intent.id, firstName: intent.firstName, lastName: intent.lastName };
			if (await ensureActor(actors, profile)) {
				await this.accounts.intents.drop(intent.id, user.sub);
				return "completed";
			}
		}
		await this.accounts.remove(intent, user, actors, { actor: true, idpUser: ours });
		return "undone";
	}

	/** A password user has its password once the provider returned it; a federated one needs its extra step. */
	private async canSignIn(intent: AccountIntent, user: CreatedUser): Promise<boolean> {
		if (intent.method === "password") return true;
		return intent.step !== undefined && this.accounts.step(intent.step).done(user);
	}

	/**
	 * Best effort after a successful sign-in. Only the identity provider's own
	 * attributes fill the profile (never request input); administrators are left
	 * alone (the bootstrap makes them without one), and a user with an intent is the
	 * repair's.
	 */
	async completeSignedIn(tokens: TokenSet, actors: ActorDirectory): Promise<boolean> {
		const { sub, email, "cognito:groups": groups } = decodeJwt(tokens.idToken);
		if (Array.isArray(groups) && groups.includes("admin")) return false;
		if (typeof sub !== "string" || typeof email !== "string") return false;
		if (await actors.exists(sub)) return false;
		if (await this.accounts.intents.get(normalizeEmail(email))) return false;
		const user = await (await this.accounts.idp()).findProfileByEmail(email);
		if (user?.sub !== sub || !user.firstName || !user.lastName) return false;
		const profile = { actorId: sub, email: normalizeEmail(user.email), firstName: user.firstName, lastName: user.lastName };
		if (!(await ensureActor(actors, profile))) return false;
		this.accounts.logger.info("Completed the actor profile of a signed-in user who had none", { sub });
		return true;
	}
}

/** False when the profile cannot be made because another actor holds its email. */
async function ensureActor(actors: ActorDirectory, profile: ActorProfile): Promise<boolean> {
	try {
		await actors.register(profile);
		return true;
	} catch (err) {
		if ((err as ClientError).type !== "ACTOR_EXISTS") throw err;
		return actors.exists(profile.actorId);
	}
}
