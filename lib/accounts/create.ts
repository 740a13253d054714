/**
 * Creating an account, for registration and social sign-in alike: the
 * identity-provider user (with a password, or federated), the actor profile, and an
 * optional extra step (social sign-in's link). It is all or nothing: when a step
 * fails, what was made is removed again and the caller gets that step's error; a
 * removal that fails too is logged beside it, never in its place.
 *
 * An intent in the store (./intents.ts) spans the whole creation and any undo, so a
 * node that dies half-way leaves a record the repair (./repair.ts) finishes or undoes.
 */
import { Errors } from "moleculer";
import { ClientError } from "../errors";
import type { CreatedUser, IdentityProvider } from "../idp/types";
import type { Store } from "../store";
import { AccountIntents, type IntentOwner, type NewIntent } from "./intents";
import { normalizeEmail } from "../email-address";

export interface ActorProfile {
	actorId: string;
	email: string;
	firstName: string;
	lastName: string;
}

/** The actor service, as the auth service reaches it under its own service identity. */
export interface ActorDirectory {
	register(actor: ActorProfile): Promise<void>;
	remove(actorId: string): Promise<void>;
	exists(actorId: string): Promise<boolean>;
}

export interface NewAccount {
	email: string;
	firstName: string;
	lastName: string;
	/** Absent for a federated user (social sign-in), whose password nobody knows. */
	password?: string;
}

/** A step after the actor profile; its name finds its StepRepair in an undo or a repair. */
export interface ExtraStep {
	readonly name: string;
	run(user: CreatedUser): Promise<void>;
}

/** What undo and repair need of an extra step, whichever request ran it. */
export interface StepRepair {
	/** Whether the step ran for this user; for a federated user, whether anyone can sign in as it. */
	done(user: CreatedUser): Promise<boolean>;
	undo(user: CreatedUser): Promise<void>;
}

export interface CreatedAccount {
	user: CreatedUser;
	/** Removes the account again. Never rejects: a failure is logged and the repair finishes it. */
	undo(): Promise<void>;
}

export interface AccountLogger {
	info(...args: unknown[]): void;
	warn(...args: unknown[]): void;
	error(...args: unknown[]): void;
}

export interface AccountDeps {
	store(): Store;
	idp(): Promise<IdentityProvider>;
	logger: AccountLogger;
	/** Every extra step a caller may run, by name. */
	steps: Readonly<Record<string, StepRepair>>;
	/** This process, named in the intents it writes. */
	owner: IntentOwner;
	now?: () => number;
}

/** What a removal takes away besides the extra step and the intent. */
export interface Removal {
	actor: boolean;
	idpUser: boolean;
}

export const userExists = () => new ClientError(409, "USER_EXISTS", "A user with this email already exists.");


export class AccountCreator {
	readonly intents: AccountIntents;

	constructor(private readonly deps: AccountDeps) {
		this.intents = new AccountIntents(() => deps.store(), deps.now ?? Date.now, deps.owner);
	}

	get logger(): AccountLogger {
		return this.deps.logger;
	}

	idp(): Promise<IdentityProvider> {
		return this.deps.idp();
	}

	step(name: string): StepRepair {
		const step = this.deps.steps[name];
		if (!step) throw new Error(`No repair is known for the account step "${name}"`);
		return step;
	}

	/**
	 * USER_EXISTS (409) when the email is taken, or while another creation for it is
	 * under way; otherwise the failing step's own error (503 and 500 pass through).
	 */
	async create(account: NewAccount, actors: ActorDirectory, extra?: ExtraStep): Promise<CreatedAccount> {
		const email = normalizeEmail(account.email);
		const { firstName, lastName, password } = account;
		const intent: NewIntent = {
			id: email,
			method: password === undefined ? "federated" : "password",
			firstName,
			lastName,
			...(extra ? { step: extra.name } : {})
		};
		const idp = await this.deps.idp();
		if (!(await this.intents.open(intent))) throw userExists();
		let user: CreatedUser;
		try {
			user = password === undefined
				? await idp.createFederatedUser({ email, firstName, lastName })
				: await idp.createUser({ email, password, firstName, lastName });
		} catch (err) {
			await this.intents.drop(email).catch(dropErr => this.rollbackFailed(dropErr));
			throw err;
		}
		// A register that timed out may still have written the profile, and one refused as
		// existing may have met a repair's (the removal is by this user's id, so another
		// actor's stays); one that answered otherwise wrote nothing.
		let actorMayExist = false;
		try {
			await this.intents.recordUser(email, user);
			await actors.register({ actorId: user.sub, email, firstName, lastName }).catch(err => {
				actorMayExist = err instanceof Errors.RequestTimeoutError || (err as ClientError).type === "ACTOR_EXISTS";
				throw err;
			});
			actorMayExist = true;
			if (extra) await extra.run(user);
		} catch (err) {
			await this.undo(intent, user, actors, actorMayExist);
			throw (err as ClientError).type === "ACTOR_EXISTS" ? userExists() : err;
		}
		// The account is whole: a repair that later finds the intent only confirms that.
		await this.intents.drop(email, user.sub).catch(err => this.deps.logger.warn("An account intent could not be removed; the repair will", { sub: user.sub, error: messageOf(err) }));
		return { user, undo: () => this.undo(intent, user, actors, true) };
	}

	/** Takes the account apart in the reverse order of its creation, then its intent; rejects at the first failure. */
	async remove(intent: NewIntent, user: CreatedUser, actors: ActorDirectory, removal: Removal): Promise<void> {
		await this.intents.beginUndo(intent, user);
		if (intent.step) await this.step(intent.step).undo(user);
		if (removal.actor) await actors.remove(user.sub);
		if (removal.idpUser) await (await this.idp()).deleteUser(user.username);
		await this.intents.drop(intent.id, user.sub);
	}

	private async undo(intent: NewIntent, user: CreatedUser, actors: ActorDirectory, actorMayExist: boolean): Promise<void> {
		await this.remove(intent, user, actors, { actor: actorMayExist, idpUser: true }).catch(err => this.rollbackFailed(err, user));
	}

	private rollbackFailed(err: unknown, user?: CreatedUser): void {
		this.deps.logger.error("Account rollback failed; its intent stays for the repair", { sub: user?.sub, error: messageOf(err) });
	}
}

export function messageOf(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}
